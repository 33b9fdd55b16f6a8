"""A trip's length said against its dates: "a 3-day trip" from May 1 to May 4 (3 nights, 4 days) is pointed out
and asked back, in one message or across two, in the user's language; a length that agrees says nothing more.
Before, the dates were noted and the disagreement passed in silence.
"""

from __future__ import annotations

import pytest

from agent_chat import chat_turn

from weaver.agent import TravelAgent

ONE = {
    "en": "We're planning a 3-day trip to Beijing from May 1 to May 4.",
    "zh": "我们五月一号到五月四号去北京玩三天。",
}
TWO = {
    "en": ("We're planning a 3-day trip to Beijing.", "We arrive May 1 and leave May 4."),
    "zh": ("我们去北京玩三天。", "五月一号到五月四号。"),
}
REVERSE = {
    "en": ("We'll be in Beijing from May 1 to May 4.", "It's a 3-day trip."),
    "zh": ("我们五月一号到五月四号在北京。", "一共玩三天。"),
}
AGREE = {"en": "We're two people, May 1 to May 3, a 3-day trip.", "zh": "我们两个人，五月一号到五月三号，玩三天。"}
# the reply names the length said and what the dates span
SAID = {"en": ("3-day", "4 days (3 nights)"), "zh": ("玩3天", "4天3晚")}


def _agent(runtime, name):
    return TravelAgent(runtime.open(name))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_length_that_disagrees_with_the_dates_is_asked_back(runtime, lang):
    reply, _, _ = chat_turn(_agent(runtime, f"len1-{lang}"), ONE[lang])
    assert all(s in reply for s in SAID[lang]), reply
    agent = _agent(runtime, f"len2-{lang}")
    chat_turn(agent, TWO[lang][0])
    reply, _, _ = chat_turn(agent, TWO[lang][1])
    assert all(s in reply for s in SAID[lang]), reply
    agent = _agent(runtime, f"len3-{lang}")
    chat_turn(agent, REVERSE[lang][0])
    reply, _, _ = chat_turn(agent, REVERSE[lang][1])
    assert all(s in reply for s in SAID[lang]) and ("?" in reply or "？" in reply), reply


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_length_that_agrees_with_the_dates_says_nothing_more(runtime, lang):
    reply, _, _ = chat_turn(_agent(runtime, f"len-ok-{lang}"), AGREE[lang])
    assert SAID[lang][1] not in reply and "3晚" not in reply and "3 nights" not in reply, reply
    assert ("2晚" in reply) if lang == "zh" else ("2 nights" in reply), reply
