"""The studio's pure parts: layered layout, replay from the audit log, edge styling, benchmark charts, debugger words."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest

from ui import graph_render
from weaver import viz
from weaver.curation.audit import AuditLog
from weaver.debugger_words import cut_in_words, why_in_words

ROOT = Path(__file__).resolve().parents[1]


def _turns(n: int) -> nx.DiGraph:
    g = nx.DiGraph()
    for t in range(1, n + 1):
        ids = [f"t{t}{k}" for k in "utra"]
        for k, (nid, kind) in enumerate(zip(ids, graph_render.KIND_COLORS)):
            g.add_node(nid, content=f"{kind} {t}", kind=kind, turn=t, timestamp=t * 10 + k)
        for u, v in zip(ids, ids[1:]):
            g.add_edge(u, v, relation="causal", confidence=0.9, origin="agent")
        if t > 1:
            g.add_edge(f"t{t - 1}u", f"t{t}u", relation="temporal", confidence=0.3, origin="rules")
    return g


def test_layered_layout_puts_causes_before_effects_and_never_moves_old_turns():
    g = _turns(3)
    pos = viz.layout_positions(g)
    for u, v in g.edges:  # every cause is left of its effect in the same band, or in an earlier band above
        (xu, yu), (xv, yv) = pos[u], pos[v]
        assert (g.nodes[u]["turn"] < g.nodes[v]["turn"] and yu < yv) or xu < xv, (u, v)
    g.add_node("late", content="x", kind="tool_result", turn=4, timestamp=99)
    g.add_edge("t3a", "late", relation="causal")
    after = viz.layout_positions(g)
    assert all(after[n] == pos[n] for n in pos)
    # a same-turn cause in the tool column pushes its effect right
    g.add_node("t2r2", content="second tool", kind="tool_result", turn=2, timestamp=25)
    g.add_edge("t2r", "t2r2", relation="causal")
    assert viz.layout_positions(g)["t2r2"][0] > viz.layout_positions(g)["t2r"][0]


def test_a_chinese_canvas_label_wraps_to_the_two_lines_an_english_one_does():
    # 40 CJK characters wrapped to four lines in the label's 165 px and ran into the node below
    zh = "用户要找酒店。从记忆中读到的约束：位置：故宫附近（第5轮）；2人（第2轮）；日期：10月3日"
    en = "The user wants hotels. Constraints from memory: near the Forbidden City"
    assert graph_render.canvas_label(zh, 40) == zh[:19] + "…"  # 19 wide characters and the ellipsis: 39 columns
    assert graph_render.canvas_label(en, 40) == en[:39] + "…"
    assert graph_render.canvas_label("search_hotels(near=故宫)", 40) == "search_hotels(near=故宫)"
    g = nx.DiGraph()
    g.add_node("a", content=zh, kind="agent_thought", turn=1)
    assert graph_render.vis_payload(g)["nodes"][0]["label"] == zh[:19] + "…"


def test_a_chinese_label_never_starts_its_second_line_with_closing_punctuation():
    # vis-network put "我的行程现在是什么样的" on the first line and the "？" alone on the second
    assert graph_render.canvas_label("我的行程现在是什么样的？", 40) == "我的行程现在是什么样\n的？"
    assert graph_render.canvas_label("为什么推荐这家酒店呢？！", 40) == "为什么推荐这家酒店\n呢？！"
    for text in (
        "人数改成四个，我妹也去",  # one line: nothing to move
        "帮我找一家天安门附近的酒店，每晚不超过八百",  # its second line starts with a character
        "search_hotels(near=故宫)？",  # narrow characters: the break is not known
        "Why did you recommend this hotel?",
    ):
        assert "\n" not in graph_render.canvas_label(text, 40), text


def test_a_node_stacked_in_its_column_clears_the_label_above_it():
    # a widened retry pushes the reply into the last column, under the retry: it sat on the retry's label
    g = nx.DiGraph()
    for k, (nid, kind) in enumerate(
        [
            ("u", "user_input"),
            ("t", "agent_thought"),
            ("r1", "tool_result"),
            ("r2", "tool_result"),
            ("a", "agent_response"),
        ]
    ):
        g.add_node(nid, content=nid, kind=kind, turn=1, timestamp=k)
    for u, v in [("u", "t"), ("t", "r1"), ("r1", "r2"), ("r2", "a")]:
        g.add_edge(u, v, relation="causal", confidence=1.0, origin="agent")
    pos = viz.layout_positions(g)
    assert pos["a"][0] >= pos["r2"][0] > pos["r1"][0]  # causes left of / above their effects
    assert pos["a"][1] - pos["r2"][1] >= 120  # a ringed node (24 px) below a two-line label (~60 px) and a gap


def test_edges_fade_with_confidence_and_guesses_can_be_hidden():
    g = _turns(2)
    p = {e["id"]: e for e in graph_render.vis_payload(g)["edges"]}
    sure, guess = p["t1u->t1t"], p["t1u->t2u"]
    assert sure["color"]["opacity"] > guess["color"]["opacity"] and guess["guessed"] and guess["dashes"]
    assert not sure["guessed"]
    hidden = viz.filter_graph(g, hide_guessed=True)
    assert not hidden.has_edge("t1u", "t2u") and hidden.has_edge("t1u", "t1t")
    assert viz.neighbourhood(g, "t1t", 1) == {"t1u", "t1t", "t1r"}
    assert viz.path_steps(g, ["t1t", "t1u", "t2u"]) == [("t1t", "t1u", False), ("t1u", "t2u", True)]


def test_replay_shows_the_graph_as_it_was_not_filtered_today():
    g_now = nx.DiGraph()
    log = AuditLog()
    for i, turn in ((1, 1), (2, 1), (3, 2)):
        g_now.add_node(f"n{i}", content=f"m{i}", kind="user_input", turn=turn, status="active")
    log.append(log.new("builder", "build", "n1", None, {"node": {"id": "n1", "status": "active"}, "edges": []}))
    log.append(
        log.new(
            "builder",
            "build",
            "n2",
            None,
            {
                "node": {"id": "n2", "status": "active"},
                "edges": [{"source": "n1", "target": "n2", "relation": "causal", "origin": "rules", "confidence": 0.6}],
            },
        )
    )
    log.append(
        log.new(
            "builder",
            "build",
            "n3",
            None,
            {
                "node": {"id": "n3", "status": "active"},
                "edges": [
                    {"source": "n2", "target": "n3", "relation": "temporal", "origin": "rules", "confidence": 0.6}
                ],
            },
        )
    )
    # after turn 2: a human relabels n1->n2 and n1 is superseded; today's graph shows that
    log.append(
        log.new(
            "human",
            "edge.update",
            "n1->n2",
            {"relation": "causal"},
            {"relation": "elaborates", "origin": "human", "confidence": 1.0, "status": "confirmed"},
        )
    )
    log.append(log.new("review", "node.status", "n1", {"status": "active"}, {"status": "superseded"}))
    g_now.add_edge("n1", "n2", relation="elaborates", origin="human")
    g_now.add_edge("n2", "n3", relation="temporal")
    g_now.nodes["n1"]["status"] = "superseded"
    past = viz.graph_at_turn(g_now, log.entries, 1)
    assert set(past) == {"n1", "n2"} and past.edges["n1", "n2"]["relation"] == "causal"
    assert past.nodes["n1"]["status"] == "active"
    now = viz.graph_at_turn(g_now, log.entries, 2)
    assert now.edges["n1", "n2"]["relation"] == "elaborates" and now.nodes["n1"]["status"] == "superseded"


def test_turn_replay_reuses_a_replay_until_the_graph_or_its_log_changes():
    g_now = nx.DiGraph()
    log = AuditLog()
    for nid, turn in (("a", 1), ("b", 2)):
        g_now.add_node(nid, content=nid, kind="user_input", turn=turn, status="active")
        log.append(log.new("builder", "build", nid, None, {"node": {"id": nid, "status": "active"}, "edges": []}))
    memo = viz.TurnReplay()
    first = memo.graph_at_turn(g_now, log.entries, 2, version="r1")
    assert memo.graph_at_turn(g_now, log.entries, 2, version="r1") is first  # a rerun: nothing replayed
    assert (memo.misses, memo.hits) == (1, 1)
    assert set(memo.graph_at_turn(g_now, log.entries, 1, version="r1")) == {"a"}  # each turn its own replay
    # an edit appends an entry: the next call replays again and shows it
    log.append(log.new("human", "node.status", "b", {"status": "active"}, {"status": "retracted"}))
    g_now.nodes["b"]["status"] = "retracted"
    after = memo.graph_at_turn(g_now, log.entries, 2, version="r1")
    assert after is not first and after.nodes["b"]["status"] == "retracted" and first.nodes["b"]["status"] == "active"
    assert memo.misses == 3
    # another process wrote (a new revision) or the weaver reloaded (a new graph object): replayed again
    memo.graph_at_turn(g_now, log.entries, 2, version="r2")
    memo.graph_at_turn(g_now.copy(), log.entries, 2, version="r2")
    assert memo.misses == 5
    # what it returns is what a fresh replay gives
    fresh = viz.graph_at_turn(g_now, log.entries, 2)
    cached = memo.graph_at_turn(g_now, log.entries, 2, version="r2")
    assert dict(cached.nodes(data=True)) == dict(fresh.nodes(data=True)) and set(cached.edges) == set(fresh.edges)


def test_benchmark_charts_use_a_numeric_budget_axis_and_never_stack_recall():
    from ui import bench_charts

    res = json.loads((ROOT / "docs/benchmarks/locomo.json").read_text("utf-8"))
    spec = bench_charts.recall_chart(res, "cats1-4", "b", "r", "s").to_dict()
    x = spec["layer"][0]["encoding"]["x"]
    assert x["type"] == "quantitative" and x["axis"]["values"] == [256, 512, 1024, 2048]
    assert spec["layer"][-1]["mark"]["strokeWidth"] > spec["layer"][0]["mark"]["strokeWidth"]  # ours on top
    long = bench_charts.recall_long(res, "cats1-4")
    assert long["system"].iloc[-1] == "weaver"
    mad = json.loads((ROOT / "docs/benchmarks/madial.json").read_text("utf-8"))
    spec = bench_charts.madial_chart(mad, "ours", "published", "r", "m").to_dict()
    assert spec["encoding"]["y"]["stack"] is None and spec["encoding"]["xOffset"]["field"] == "metric"
    frame = bench_charts.madial_long(mad, "ours", "published")
    assert frame["recall"].max() <= 100


def test_debugger_findings_in_words_both_languages():
    assert (
        cut_in_words("budget: needs 27 tokens, 12 left (rank 16)")
        == "the budget didn't fit: it needs 27 tokens and only 12 were left"
    )
    assert "只剩 12 个" in cut_in_words("budget: needs 27 tokens, 12 left", "zh")

    class Why:
        reason, summary = "budget_cut", "raw"
        details = {"cut_reason": "budget: needs 27 tokens, 12 left", "used": 500, "budget": 512}

    g = nx.DiGraph()
    assert why_in_words(g, Why(), "en").startswith("Left out: the budget didn't fit")
    assert "n_" not in why_in_words(g, Why(), "zh") and "预算放不下" in why_in_words(g, Why(), "zh")


def test_a_small_graph_gets_a_lower_canvas_and_a_long_chat_the_full_one():
    from ui.graph_component import fitted_height

    def drawn(n_turns: int) -> list[dict]:
        return graph_render.vis_payload(_turns(n_turns), layout="layered")["nodes"]

    small, long = fitted_height(drawn(2), 640), fitted_height(drawn(15), 640)
    assert 320 <= small < 640 and long == 640
    assert fitted_height(drawn(2), 640) <= fitted_height(drawn(4), 640) <= fitted_height(drawn(8), 640)
    assert fitted_height([], 640) == 640


def test_review_page_words_count_in_english():
    import doctest

    from ui import review_words

    # "3 memory(ies) that used the old value need review" and "1 item(s) wait for a decision" on the Review page
    result = doctest.testmod(review_words)
    assert result.attempted >= 1 and result.failed == 0


@pytest.mark.parametrize(
    "old,new,shows",
    [
        (
            "book_hotel added to plan: 雅悦酒店(北京崇文门同仁医院店), check-in 6-3, 4 nights at ¥440, total ¥1,760",
            "book_hotel added to plan: 雅悦酒店(北京崇文门同仁医院店), check-in 6-3, 3 nights at ¥440, total ¥1,320",
            ("4 nights", "3 nights"),
        ),
        (
            "已加入行程：雅悦酒店(北京崇文门同仁医院店)，6-3入住4晚，每晚¥440",
            "已加入行程：雅悦酒店(北京崇文门同仁医院店)，6-3入住3晚，每晚¥440",
            ("4晚", "3晚"),
        ),
    ],
)
def test_two_memories_named_side_by_side_show_where_they_part(runtime, old, new, shows):
    """The Review page named a booking and its re-booking «book_hotel added to plan: 雅悦酒…» both: cut at the same
    length, the change read as no change."""
    from ui.review_words import quoted_pair

    w = runtime.open("parted")
    w.set_task("Plan a Beijing trip")
    a = w.ingest(old, "tool_result").node.id
    b = w.ingest(new, "tool_result").node.id
    qa, qb = quoted_pair(w, a, b)
    assert qa != qb and shows[0] in qa and shows[1] in qb, (qa, qb)
    assert len(qa) <= 32 and len(qb) <= 32


def test_the_review_tables_are_headed_in_capitals_in_english():
    """The edge table read "Relation | delete | from | to | origin" and the audit log "time | by | action | What"."""
    from ui.review_words import t

    cols = ["at", "actor", "action", "before", "after", "why", "undone", "id", "delete", "from", "to", "origin"]
    heads = [t("col_" + c) for c in cols + ["conf", "src", "tgt"]] + [t("relation"), t("status"), t("what")]
    assert [h for h in heads if not h[:1].isupper()] == []


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_edge_tooltip_says_why_in_the_readers_language(lang):
    """The zh canvas's edge tooltip read "on arrival: restated with a new value: party: 3 -> 4; its other slots…"."""
    g = nx.DiGraph()
    g.add_node("a", content="一共三个人", kind="user_input", turn=1)
    g.add_node("b", content="人数改成四个人", kind="user_input", turn=2)
    why = "on arrival: restated with a new value: party: 3 -> 4; its other slots still hold, so it stays active"
    g.add_edge("a", "b", relation="supersedes", confidence=0.95, origin="rules", rationale=why)
    title = graph_render.vis_payload(g, lang=lang)["edges"][0]["title"]
    if lang == "zh":
        assert title.endswith("到达时以新值重述：人数：3 -> 4；它的其他槽位仍然有效，所以保持生效"), title
    else:
        assert title.endswith(why), title  # the recorded words, as the CLI and the exports show them


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_edge_fixed_on_the_canvas_is_said_as_what_it_is_now(runtime, lang):
    """The canvas's toast and Undo bar said "一共三个人。 → 人数改成四个人。: 因果" (which? changed to what?)."""
    import streamlit as st

    from ui import edge_fix
    from ui.i18n import set_lang

    set_lang(lang)
    w = runtime.open(f"canvas-{lang}")
    a = w.ingest("一共三个人。" if lang == "zh" else "There are three of us.", "user_input").node.id
    b = w.ingest("人数改成四个人。" if lang == "zh" else "Make it four people.", "user_input").node.id
    w.curation.set_edge(a, b, "causal", "test")
    edge_fix.edge_handler(w, w.space.name)({"action": "set", "edge": f"{a}->{b}", "relation": "temporal"})
    said = st.session_state[edge_fix.LAST_EDIT]["text"]
    assert w.graph.edges[a, b]["relation"] == "temporal"
    if lang == "zh":
        assert said == "一共三个人 → 人数改成四个人：改为时序", said
    else:  # each memory cut to a short label, the outcome whole
        assert said.startswith("There are") and " → Make it" in said and said.endswith(": now temporal"), said
