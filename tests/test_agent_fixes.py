"""Defects found by driving the travel agent as a new user would, each driven through the real agent.

1. An allergy and a meal request in one first message offer a meal without the allergen (the allergen
   named in the allergy is not a dish wanted).
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
