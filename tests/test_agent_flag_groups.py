"""Stale flags grouped per change: when a fact is superseded, every memory that used its old value is flagged
for review; the agent's reply says so in one line per changed fact, and the Review page shows one group per
change (its memories one click away, resolved together or one by one). Before, the flags were only listed one
by one in the queue, and the reply said nothing of them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from agent_chat import chat_turn

from weaver import Runtime, Settings
from weaver.agent import TravelAgent

ROOT = Path(__file__).resolve().parents[1]
CHAT = {
    "zh": [
        "我们两个人，五月一号到五月三号。",
        "住宿每晚不要超过六百。",
        "帮我找一家王府井附近的酒店。",
        "住宿每晚改成不超过七百。",
    ],
    "en": [
        "We are two people, May 1st to May 3rd.",
        "Hotels at most 600 a night.",
        "Find a hotel near Wangfujing.",
        "Actually, make the hotel limit 700 a night.",
    ],
}
LINE = {
    "zh": ("这条更新了“住宿每晚不要超过六百。”", "条记忆已标为待复查"),
    "en": ("This updates", "flagged for review"),
}


def _chat(w, lang):
    agent = TravelAgent(w)
    for text in CHAT[lang][:-1]:
        chat_turn(agent, text)
    return chat_turn(agent, CHAT[lang][-1])[0]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_change_flags_its_dependents_as_one_group_said_in_one_line(runtime, lang):
    w = runtime.open(f"flags-{lang}")
    reply = _chat(w, lang)
    groups = w.curation.flag_groups()
    assert len(groups) == 1, [(g.source, g.targets) for g in groups]
    g = groups[0]
    old = w.nodes[g.source]
    assert old.status == "superseded" and w.nodes[g.by].content == CHAT[lang][-1]
    assert len(g.targets) >= 2  # the search and the reply that used the old limit, at least
    assert len(g.targets) == len(w.curation.flagged())
    lines = [ln for ln in reply.splitlines() if all(s in ln for s in LINE[lang])]
    assert len(lines) == 1 and str(len(g.targets)) in lines[0], reply
    assert old.content[:8] in lines[0]
    # resolved together: each flag an audited reject, the group gone
    assert w.curation.resolve_flags(g.source, accept=False) == len(g.targets)
    assert w.curation.flag_groups() == [] and not w.curation.flagged()
    assert all(w.nodes[t].status == "active" for t in g.targets)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_review_page_shows_one_group_per_change(tmp_path, monkeypatch, embedder, lang):
    import streamlit as st

    monkeypatch.setenv("WEAVER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(ROOT)
    st.cache_resource.clear()
    rt = Runtime.from_settings(
        Settings.from_env(env={}, secrets_path=None, data_dir=tmp_path / "data"), embedder=embedder
    )
    w = rt.open("demo")
    _chat(w, lang)
    g = w.curation.flag_groups()[0]
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["lang"] = lang
    at.run()
    at.switch_page("pages/review.py").run()
    assert not at.exception, [e.value for e in at.exception]
    heads = [
        m.value.replace("\\", "")
        for m in at.markdown
        if ("依赖旧值的" if lang == "zh" else "used the old value") in m.value
    ]
    assert len(heads) == 1 and str(len(g.targets)) in heads[0], heads
    # the count of what waits is the decisions shown (one change), not the flags one by one (before: 2 or more)
    wait = [c.value for c in at.caption if ("项等待处理" if lang == "zh" else "Waiting for a decision") in c.value]
    assert wait == (["1 项等待处理。"] if lang == "zh" else ["Waiting for a decision: 1 item."]), wait
    at.button(key=f"flags_out_{g.source}").click().run()  # all of them fall with the old value
    assert not at.exception, [e.value for e in at.exception]
    w = rt.open("demo")
    left = [
        (x.source in g.targets, [(t in g.targets, w.nodes[t].kind, w.nodes[t].status) for t in x.targets])
        for x in w.curation.flag_groups()
    ]
    assert all(w.nodes[t].status == "superseded" for t in g.targets) and not left, (g.targets, left)
    st.cache_resource.clear()
