"""A pick of one of the options offered is a decision: kept, linked to the list, and its link not pruned (zh, en).

Found walking the studio and logging a chat through the library: "那就第二家吧" / "The second one then" after a
list was dropped by the filter (2.52 / 1.0: no verb of choosing, nothing of its own), so the user's choice left
memory; and where the travel agent kept "那就这家吧", the review pass proposed deleting its link to the list
("endpoints barely similar (0.07) and share nothing") although it points right back at it.
"""

from __future__ import annotations

import pytest

from agent_chat import chat_turn

from weaver.agent import TravelAgent

LISTS = {
    "zh": (
        "帮我找个王府井附近吃晚饭的地方",
        "共找到3个：1. 外婆家(北京apm店) — 人均¥65；2. 全聚德(王府井店) — 人均¥200；3. 鼎泰丰 — 人均¥120",
        "那就第二家吧",
    ),
    "en": (
        "Find us a place for dinner near Wangfujing",
        "3 found: 1. Waipojia — ¥65 a head; 2. Quanjude — ¥200 a head; 3. Din Tai Fung — ¥120 a head",
        "The second one then",
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_pick_after_a_list_is_kept_as_a_choice_and_linked_to_the_list(runtime, lang):
    ask, shown, pick = LISTS[lang]
    w = runtime.open(f"pick-{lang}")
    w.set_task("Plan a Beijing trip" if lang == "en" else "规划北京旅行")
    w.ingest(ask, "user_input")
    listed = w.ingest(shown, "agent_response").node.id
    got = w.ingest(pick, "user_input")
    assert got.decision.kept and "makes a choice" in got.decision.reason, got.decision.reason
    assert any(e.source == listed for e in got.edges), got.edges


CHAT = {
    "zh": ["我们两个人，6月10号到12号去北京", "帮我找个王府井附近吃晚饭的地方", "那就这家吧"],
    "en": ["Two of us, in Beijing June 10 to 12", "Where can we have dinner near Wangfujing?", "Ok that one then"],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_review_pass_does_not_prune_a_pick_from_what_it_points_back_at(runtime, lang):
    w = runtime.open(f"pick-review-{lang}")
    agent = TravelAgent(w)
    for text in CHAT[lang]:
        chat_turn(agent, text)
    (picked,) = [n.id for n in w.nodes.values() if n.kind == "user_input" and n.content == CHAT[lang][-1]]
    into = [e for e in w.edges() if e.target == picked]
    assert into, "the pick is linked to what it picks from"
    w.curation.review(apply=False)
    pruned = [i for i in w.curation.items() if i.kind == "prune" and i.target == picked]
    assert pruned == [], [(i.source, i.rationale) for i in pruned]
