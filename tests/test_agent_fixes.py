"""Defects found by driving the travel agent as a new user would, each driven through the real agent.

1. An allergy and a meal request in one first message offer a meal without the allergen (the allergen
   named in the allergy is not a dish wanted).
2. "再帮我找一家" / "find me another one" offers the next item fitting the same constraints, never one
   this conversation offered already.
"""

from __future__ import annotations

import pytest

from weaver.agent import TravelAgent
from weaver.agent.lexicon import dish_matches
from weaver.agent.meals import serves_meal


def _turn(agent, text):
    events = list(agent.run(text))
    assert events[-1].type == "reply"
    calls = [e.data for e in events if e.type == "tool_call"]
    results = [e.data for e in events if e.type == "tool_result"]
    return events[-1].text, calls, results


@pytest.mark.parametrize(
    "text", ["我对海鲜过敏，晚饭去哪家餐厅？", "I'm allergic to seafood, where should we have dinner?"]
)
def test_an_allergy_and_a_dinner_request_in_one_first_message_offer_a_dinner_without_it(runtime, text):
    agent = TravelAgent(runtime.open("allergy-first"))
    reply, calls, results = _turn(agent, text)
    args = calls[0]["arguments"]
    assert calls[0]["tool"] == "search_restaurants" and args["avoid"] == ["seafood"] and args["meal"] == "dinner"
    assert not any(dish_matches(d, "seafood") for d in args.get("dishes", []))  # the allergen is not wanted
    rows = results[-1]["rows"]
    assert rows and results[-1]["count"] > 0
    db = agent.tools.db
    for r in rows:
        full = db.by_name[r["名称"]]
        assert not any(dish_matches(d, "seafood") for d in list(full.get("推荐菜") or []) + [full["名称"]])
        assert serves_meal(full, "dinner")
        assert r["名称"] in reply


ANOTHER = {
    "zh": ("帮我找一家王府井附近每晚不超过800的酒店。", "再帮我找一家", "search_hotels", "价格", 800),
    "en": (
        "Find a restaurant near the Forbidden City under 100 per person.",
        "find me another one",
        "search_restaurants",
        "人均消费",
        100,
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_another_one_offers_the_next_fitting_item_not_one_offered_before(runtime, lang):
    first, again, tool, price_key, cap = ANOTHER[lang]
    w = runtime.open(f"another-{lang}")
    agent = TravelAgent(w)
    _, calls, results = _turn(agent, first)
    offered = [r["名称"] for r in results[-1]["rows"]]
    near = results[-1]["facts"]["near"]  # the place as the database names it
    assert offered
    for _ in range(2):  # twice: the second "another" skips both earlier offers
        reply, calls, results = _turn(agent, again)
        assert calls and calls[0]["tool"] == tool
        args = calls[0]["arguments"]
        assert results[-1]["facts"]["near"] == near and set(args["exclude"]) == set(offered)
        rows = results[-1]["rows"]
        assert rows and not {r["名称"] for r in rows} & set(offered)
        assert all(r[price_key] is None or r[price_key] <= cap for r in rows)  # the same constraints
        assert rows[0]["名称"] in reply
        offered += [r["名称"] for r in rows]
    # the continued search is linked to the message whose constraints it keeps (declared, not guessed)
    asked = next(n for n in w.nodes.values() if n.kind == "user_input" and n.content == first)
    last = [n for n in w.nodes.values() if n.kind == "tool_result"][-1]
    assert w.graph.has_edge(asked.id, last.id) and w.graph.edges[asked.id, last.id]["origin"] == "agent"
