"""Constraints said are noted, not searched; an amount beside a hotel is its nightly price.

1. Who travels said beside what they will pay ("我们一家三口，每晚住宿四五百吧" / "Family of three, about 450 a
   night for the hotel") describes the trip: acknowledged and recorded, no hotel list; asking for one searches.
2. "a cheap hotel near X, max 300" / "故宫附近便宜点的酒店，最多300": with only the hotel in the sentence the cap is
   the hotel's price a night, not the trip's total budget.
"""

from __future__ import annotations

import pytest

from agent_chat import chat_turn

from weaver.agent import TravelAgent

STATED = {
    "zh": ("我们一家三口，每晚住宿四五百吧", "帮我找一家每晚四五百的酒店", "400-500", "记下了"),
    "en": (
        "Family of three, about 450 a night for the hotel",
        "find me a hotel around 450 a night",
        "360-540",
        "Noted",
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_party_and_a_nightly_price_are_noted_and_a_hotel_is_searched_when_asked(runtime, lang):
    stated, asked, price, noted = STATED[lang]
    agent = TravelAgent(runtime.open(f"stated-{lang}"))
    reply, calls, _ = chat_turn(agent, stated)
    assert calls == [] and reply.startswith(noted), (calls, reply)  # acknowledged, nothing listed
    assert ("3人" if lang == "zh" else "3 people") in reply
    held = {(r.slot, r.scope) for r in agent.weaver.constraints() if r.status == "current"}
    assert any(s == "party" for s, _ in held)
    assert ("budget", "night") in held
    reply, calls, results = chat_turn(agent, asked)
    assert [c["tool"] for c in calls][:1] == ["search_hotels"], calls
    args = calls[0]["arguments"]
    assert args["price"] == price and args["people"] == 3 and results[0]["count"] > 0


def test_a_question_beside_the_party_still_searches(runtime):
    agent = TravelAgent(runtime.open("stated-asked"))
    _, calls, _ = chat_turn(agent, "我们一家三口，每晚住宿四五百，有推荐吗？")
    assert calls and calls[0]["tool"] == "search_hotels" and calls[0]["arguments"]["price"] == "400-500"


CAPPED = {
    "zh": "故宫附近便宜点的酒店，最多300",
    "en": "a cheap hotel near the Forbidden City, max 300",
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_cap_beside_a_hotel_is_its_nightly_price_not_the_total_budget(runtime, lang):
    agent = TravelAgent(runtime.open(f"capped-{lang}"))
    reply, calls, results = chat_turn(agent, CAPPED[lang])
    assert calls and all(c["tool"] == "search_hotels" for c in calls)
    for c in calls:
        assert c["arguments"].get("price") == "0-300" and "budget" not in c["arguments"], c
    rows = results[-1]["rows"]
    assert rows and all(r["价格"] is not None and r["价格"] <= 300 for r in rows)  # a priced room under the cap
    held = [r for r in agent.weaver.constraints() if r.slot == "budget"]
    assert [(r.value, r.scope) for r in held] == [(300.0, "night")]
