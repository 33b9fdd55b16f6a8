"""Edge editing from the Graph page's node inspector: human edits through the curation library."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from weaver import Runtime, Settings

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def seeded(tmp_path, monkeypatch, embedder):
    import streamlit as st

    data = tmp_path / "data"
    monkeypatch.setenv("WEAVER_DATA_DIR", str(data))
    monkeypatch.chdir(ROOT)
    st.cache_resource.clear()
    rt = Runtime.from_settings(Settings.from_env(env={}, secrets_path=None, data_dir=data), embedder=embedder)
    w = rt.open("demo")
    w.set_task("规划北京旅行")
    budget = w.ingest("我的预算总共是5000元。").node
    plan = w.ingest("需要在5000元预算内查找王府井附近的酒店。", "agent_thought").node
    allergy = w.ingest("我对海鲜过敏，吃饭时不要海鲜。").node
    assert w.graph.has_edge(budget.id, plan.id)
    yield data, budget.id, plan.id, allergy.id
    st.cache_resource.clear()


def _reopen(data, embedder):
    return Runtime.from_settings(Settings.from_env(env={}, secrets_path=None, data_dir=data), embedder=embedder).open(
        "demo"
    )


def _pick(at, key: str, needle: str) -> None:
    # the editor's widgets carry the audit log's length in their key (a new edit never shows a stale label)
    box = next((b for b in at.selectbox if b.key == key), None) or next(
        b for b in at.selectbox if b.key and b.key.startswith(key + "_") and b.key[len(key) + 1 :].isdigit()
    )
    box.select_index(next(i for i, o in enumerate(box.options) if needle in str(o))).run()
    assert not at.exception, [e.value for e in at.exception]


def test_relabel_add_and_delete_edges_from_the_inspector(seeded, embedder):
    data, budget, plan, allergy = seeded
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page("pages/graph.py").run()
    _pick(at, "gp_pick:None", "需要在5000元预算内")  # the plan node

    _pick(at, "gi_edge", "预算总共")  # its edge from the budget
    _pick(at, f"gi_edge_rel_{budget}_{plan}", "causal")
    was = _reopen(data, embedder).graph.edges[budget, plan]["relation"]
    at.button(key="gi_set").click().run()
    edge = _reopen(data, embedder).graph.edges[budget, plan]
    assert edge["relation"] == "causal" and edge["origin"] == "human"
    # the undo button says the edit first (it used to cut "…: de…" off the end of a long node label)
    undo = next(b for b in at.button if b.key and b.key.startswith("gi_undo_"))
    assert undo.label.startswith(f"Undo: {was} → causal · ← 我的预算总共是5000元"), undo.label

    if not _reopen(data, embedder).graph.has_edge(plan, allergy):
        _pick(at, "gi_other", "海鲜过敏")
        at.radio(key="gi_dir").set_value("out").run()
        _pick(at, "gi_new_rel", "elaborates")
        at.button(key="gi_add").click().run()
        assert _reopen(data, embedder).graph.edges[plan, allergy]["relation"] == "elaborates"

    _pick(at, "gi_edge", "预算总共")
    at.button(key="gi_del").click().run()
    w = _reopen(data, embedder)
    assert not w.graph.has_edge(budget, plan)
    undo = next(b for b in at.button if b.key and b.key.startswith("gi_undo_"))
    assert undo.label.startswith("Undo: causal deleted · ← 我的预算"), undo.label
    assert sum(1 for e in w.curation.log.entries if e.actor == "human") >= 2


def test_inspector_names_the_memory_language_in_words(seeded):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.session_state["lang"] = "zh"
    at.switch_page("pages/graph.py").run()
    _pick(at, "gp_pick:None", "需要在5000元预算内")
    line = next(c.value for c in at.caption if "第" in c.value and "轮" in c.value).replace("\\", "")
    # it ended "· zh", the language's code
    assert line.endswith("· 中文内容"), line
