"""A search for the cheapest lists the cheapest first (zh and en).

Found by helper agent18c: "帮我找最便宜的酒店" / "Find the cheapest hotel" listed hotels best rated first (¥1,354 a
night before ¥815): the search tools had no order but the rating. They take ``sort="price"`` now, set for the
search the message asks for (not remembered for later ones).
"""

from __future__ import annotations

import pytest

from agent_chat import chat_turn

from weaver.agent import TravelAgent

ASKS = {
    "zh": ("帮我找故宫附近最便宜的酒店", "帮我找故宫附近的酒店"),
    "en": ("Find the cheapest hotel near the Forbidden City", "Find hotels near the Forbidden City"),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_cheapest_search_lists_cheapest_first_and_the_next_search_is_by_rating_again(runtime, lang):
    agent = TravelAgent(runtime.open(f"cheapest-{lang}"))
    cheapest, later = ASKS[lang]
    _, calls, results = chat_turn(agent, cheapest)
    assert calls[-1]["arguments"].get("sort") == "price", calls
    prices = [r["价格"] for r in results[-1]["rows"]]
    assert prices and prices == sorted(prices), prices
    _, calls, results = chat_turn(agent, later)  # a new search, not "another one": by rating again
    assert calls and all(c["arguments"].get("sort", "rating") == "rating" for c in calls), calls
    by_rating = [r["价格"] for r in results[-1]["rows"]]
    assert prices[0] <= min(by_rating) and by_rating != sorted(by_rating), by_rating
