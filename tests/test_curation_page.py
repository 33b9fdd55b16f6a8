"""The Review page through AppTest: run a review, accept a proposal with its evidence, undo it from the audit log."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from test_curation import weave
from test_curation_review import CHANGED

from weaver import Runtime, Settings

ROOT = Path(__file__).resolve().parents[1]


def _clear():
    import streamlit as st

    st.cache_resource.clear()
    st.cache_data.clear()


@pytest.fixture
def review_page(tmp_path, monkeypatch, embedder):
    if not (ROOT / "app.py").exists():
        pytest.skip("the studio shell (app.py) is not there yet")
    monkeypatch.setenv("WEAVER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(ROOT)
    _clear()
    rt = Runtime.from_settings(
        Settings.from_env(env={}, secrets_path=None, data_dir=tmp_path / "data"), embedder=embedder
    )
    w = rt.open("demo")  # the studio's default space
    w.config = w.config.with_(review_every=0, supersede_on_arrival=False)  # the pass finds the change
    ids = weave(w, "en")
    ids["new"] = w.ingest(CHANGED["en"], "user_input").node.id
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("pages/review.py").run()
    assert not at.exception, [e.value for e in at.exception]
    yield at, rt, ids
    _clear()


def _button(at, label):
    return next(b for b in at.button if b.label == label)


def test_review_page_run_accept_and_undo(review_page):
    at, rt, ids = review_page
    _button(at, "Run review now").click().run()
    assert not at.exception, [e.value for e in at.exception]
    # the changed budget is sure enough to apply itself; what depends on the old one is flagged with evidence
    shown = [s.value.replace("\\", "") for s in at.success]  # the page escapes Markdown
    assert any("review (rules)" in v and "1 auto-applied" in v for v in shown), shown
    w = rt.open("demo")
    assert w.nodes[ids["budget"]].status == "superseded"
    flags = [i for i in w.curation.items() if i.kind == "needs_review"]
    assert flags
    texts = "\n".join(t.value for t in at.text)
    shown = "\n".join(m.value for m in at.markdown).replace("\\", "")
    # said with the memory's words, not its id; the evidence: the superseded memory's text
    assert "Check a dependent memory: «" + w.nodes[flags[0].target].content[:10] in shown, shown
    assert flags[0].target not in shown
    assert "5000" in texts

    at.button(key=f"acc_{flags[0].id}").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert rt.open("demo").nodes[flags[0].target].status == "superseded"

    undo = at.button(key="undo_btn")
    assert not undo.disabled
    undo.click().run()
    assert not at.exception, [e.value for e in at.exception]
    done = [s.value.replace("\\", "") for s in at.success]
    assert any(v.startswith("Undone: status · «") for v in done), done  # says what was undone, not "done"
    w = rt.open("demo")
    assert w.nodes[flags[0].target].status == "active"
    assert w.nodes[ids["budget"]].status == "superseded"  # the review's own change is not the human's undo
    assert [e.action for e in w.curation.log.entries if e.actor == "human"] == ["node.status", "undo"]
    assert any(r.actor == "review" for r in w.curation.log.entries)


def test_review_page_reject_is_in_the_log_in_words_and_undone(review_page):
    at, rt, ids = review_page
    _button(at, "Run review now").click().run()
    w = rt.open("demo")
    flag = next(i for i in w.curation.items() if i.kind == "needs_review")
    words = "Check a dependent memory: «" + w.nodes[flag.target].content[:10]

    at.button(key=f"rej_{flag.id}").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert rt.open("demo").curation.queue[flag.id].status == "rejected"
    log = next(d.value for d in at.dataframe if "What" in d.value.columns)
    # headed as the edge table and the rest of the studio are, not "time | by | action | What"
    assert all(c[:1].isupper() for c in log.columns), list(log.columns)
    row = log.iloc[0]  # newest first
    assert (row["By"], row["Action"], row["Before"], row["After"]) == (
        "human",
        "proposal rejected",
        "pending",
        "rejected",
    )
    assert row["What"].startswith(words) and flag.id not in row["What"], row["What"]

    undo = at.button(key="undo_btn")
    assert not undo.disabled and undo.help.replace("\\", "").startswith("proposal rejected · " + words)
    undo.click().run()
    assert not at.exception, [e.value for e in at.exception]
    done = [s.value.replace("\\", "") for s in at.success]
    assert any(v.startswith("Undone: proposal rejected · " + words) for v in done), done
    assert rt.open("demo").curation.queue[flag.id].status == "pending"
    assert not at.button(key="redo_btn").disabled
    assert at.button(key=f"rej_{flag.id}")  # back in the queue, with its buttons


def test_edge_table_names_origins_in_the_interface_language(review_page):
    at, rt, ids = review_page
    at.session_state["lang"] = "zh"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    frames = [df.value for df in at.dataframe if "origin" in getattr(df.value, "columns", [])]
    assert frames, "the edge table is drawn"
    origins = set(frames[0]["origin"])
    # the Chinese table said "rules" / "agent" / "human" (the library's values) in a Chinese interface
    assert origins and origins <= {"规则", "模型", "人工", "审阅", "智能体"}, origins


def test_audit_log_before_and_after_are_in_the_interface_language(review_page):
    import re

    at, rt, ids = review_page
    at.session_state["lang"] = "zh"
    at.run()
    _button(at, "立即审阅").click().run()
    line = next(c.value for c in at.caption if "检查了" in c.value).replace("\\", "")
    assert line.startswith("上次审阅（规则）：检查了"), line  # it read "上次审阅: 审阅（规则）：检查了…"
    rows = [m.value.replace("\\", "") for m in at.markdown if "复查依赖的记忆" in m.value]
    # the Chinese rows read "复查依赖的记忆: «…»", an English colon
    assert rows and all(r.startswith("复查依赖的记忆：«") for r in rows), rows
    w = rt.open("demo")
    flag = next(i for i in w.curation.items() if i.kind == "needs_review")
    at.button(key=f"rej_{flag.id}").click().run()
    at.toggle(key="log_builder").set_value(True).run()  # the builder's edges too: relation, origin, status
    assert not at.exception, [e.value for e in at.exception]
    log = next(d.value for d in at.dataframe if "之后" in d.value.columns)
    states = [s for s in list(log["之前"]) + list(log["之后"]) if s]
    assert "待处理" in states and "已拒绝" in states, states
    # the library's own summary ("supersedes (rules, proposed)", "pending") in the Chinese log
    assert not [s for s in states if re.search(r"[A-Za-z]{3}", s)], states
