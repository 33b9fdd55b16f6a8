"""A "find another" search that restates every argument keeps only the earlier offers out (``exclude``): it
still continues the earlier search, so it declares that result as its source (before, ``follows`` was set
only when other arguments were kept, and the link was left to a guess). The constraints that set both
searches reach the later one through the earlier one: each is linked once, not stacked on both.
"""

from __future__ import annotations

import pytest

from agent_chat import chat_turn

from weaver.agent import TravelAgent

AGAIN = {
    "zh": (
        "我们两个人，五月一号到五月三号。",
        "帮我找一家王府井附近每晚不超过800的酒店。",
        "再帮我找一家王府井附近每晚不超过800的酒店。",
    ),
    "en": (
        "We are two people, May 1st to May 3rd.",
        "Find a hotel near Wangfujing under 800 a night.",
        "Find another hotel near Wangfujing under 800 a night.",
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_another_search_keeping_only_the_exclude_list_declares_the_result_it_excludes_from(runtime, lang):
    told, first, again = AGAIN[lang]
    w = runtime.open(f"another-exclude-{lang}")
    agent = TravelAgent(w)
    chat_turn(agent, told)  # the party and the dates set both searches
    _, _, results = chat_turn(agent, first)
    offered = [r["名称"] for r in results[-1]["rows"]]
    earlier = [n for n in w.nodes.values() if n.kind == "tool_result"][-1]
    _, calls, _ = chat_turn(agent, again)
    args = calls[0]["arguments"]
    assert set(args["exclude"]) == set(offered)
    later = [n for n in w.nodes.values() if n.kind == "tool_result"][-1]
    assert later.id != earlier.id and w.graph.has_edge(earlier.id, later.id)
    edge = w.graph.edges[earlier.id, later.id]
    assert edge["origin"] == "agent", edge
    # every constraint that set an argument is linked: directly, or (set the earlier search too) through it
    set_by = later.meta["set_by"]
    direct = [c for c in set_by if w.graph.has_edge(c, later.id)]
    through = [c for c in set_by if not w.graph.has_edge(c, later.id)]
    assert through and all(w.graph.has_edge(c, earlier.id) for c in through), (direct, through)
    assert set(earlier.meta["because"]) >= set(through)
