"""A place the Beijing database cannot place ("near the Bund", "外滩附近") is said back, in the user's language,
with what the agent covers; nothing is searched all over Beijing in its stead. Before, the place was dropped in
silence and the reply listed hotels anywhere in Beijing as if they answered the request.
"""

from __future__ import annotations

import pytest

from agent_chat import chat_turn

from weaver.agent import TravelAgent

ASKS = {
    "en": ("Find a hotel near the Bund.", "the Bund", ("Beijing", "couldn't place")),
    "zh": ("帮我找一家外滩附近的酒店", "外滩", ("北京", "没能定位")),
}
KNOWN = {"en": "Find a hotel near Wangfujing.", "zh": "帮我找一家王府井附近的酒店"}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_place_outside_the_database_is_said_not_dropped(runtime, lang):
    text, place, words = ASKS[lang]
    agent = TravelAgent(runtime.open(f"unplaced-{lang}"))
    reply, calls, _ = chat_turn(agent, text)
    assert calls == []  # not a Beijing-wide search in its stead
    assert place in reply and all(w in reply for w in words), reply
    assert ("酒店" in reply) if lang == "zh" else ("hotel" in reply)  # said in the user's language
    # a place the database knows is searched as before, and the unplaced one is no constraint later
    reply, calls, results = chat_turn(agent, KNOWN[lang])
    assert calls and calls[0]["arguments"]["near"] == "王府井" and results[0]["count"] > 0, reply


STREETS = {
    "en": ("Find a hotel near Nanjing Road.", "Nanjing Road", "Find a hotel in Nanjing."),
    "zh": ("帮我找一家南京路附近的酒店", "南京路", "帮我找一家南京的酒店"),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_street_named_after_a_city_is_a_street_not_the_city(runtime, lang):
    """ "Nanjing Road" / "南京路" is a street (Shanghai's, or any city's): said back as a place the database cannot
    place, not answered as a request for the city of Nanjing; the city alone still is one."""
    text, street, city = STREETS[lang]
    agent = TravelAgent(runtime.open(f"street-{lang}"))
    reply, calls, _ = chat_turn(agent, text)
    assert calls == [] and street in reply and ("没能定位" if lang == "zh" else "couldn't place") in reply, reply
    reply, calls, _ = chat_turn(agent, city)
    assert calls == [] and ("南京" if lang == "zh" else "Nanjing") in reply and street not in reply, reply
