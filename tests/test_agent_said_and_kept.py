"""What a studio walk (helper studio21) found the agent acknowledging while memory dropped it, or not understanding:

* "Actually make it four people." got "Noted: 4 people" from the agent, but the library's slot reader read no
  party in it, so the filter dropped the message as off focus and the party on record stayed three;
* "Let's go with the first one." booked the hotel, but the filter dropped the message (no pick read in it);
* "现在的计划是什么？" got the agent's list of what it can do instead of the plan ("What's the plan so far?" worked).
"""

from __future__ import annotations

import pytest

from agent_chat import chat_turn
from weaver.agent import TravelAgent
from weaver.slots import read_slots

TRIP = {
    "zh": [
        "你好，我们想6月10号到6月13号去北京玩。",
        "一共三个人，总预算一万二。",
        "帮我找一家王府井附近每晚八百以内的酒店。",
    ],
    "en": [
        "Hi, we're visiting Beijing from June 10 to June 13.",
        "There are three of us and the total budget is 12000 yuan.",
        "Find us a hotel near Wangfujing under 800 a night.",
    ],
}
# (the pick, the party changed, a search after it, the plan asked)
LATER = {
    "zh": ("就订第一家吧。", "人数改成四个人。", "晚饭推荐一家附近的餐厅。", "现在的计划是什么？"),
    "en": (
        "Let's go with the first one.",
        "Actually make it four people.",
        "Where should we have dinner nearby?",
        "What's the plan so far?",
    ),
}


def _kept(agent, text: str) -> bool:
    return next(d for d in agent.weaver.decisions.values() if d.content == text).kept


def _booked(runtime, name: str, lang: str) -> TravelAgent:
    """The trip told, a hotel searched and the first one picked (a booking, and the pick kept in memory)."""
    agent = TravelAgent(runtime.open(name))
    for text in TRIP[lang]:
        chat_turn(agent, text)
    _, calls, _ = chat_turn(agent, LATER[lang][0])
    assert [c["tool"] for c in calls] == ["book_hotel"]
    assert _kept(agent, LATER[lang][0])  # what the booking acted on is in memory
    return agent


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_pick_and_a_party_change_the_agent_acts_on_are_kept(runtime, lang):
    agent = _booked(runtime, f"kept-{lang}", lang)
    _, party, search, _ = LATER[lang]
    reply, _, _ = chat_turn(agent, party)
    assert "4" in reply and _kept(agent, party)
    assert [r.value for r in agent.weaver.constraints() if r.key == "party"] == [4.0]
    _, calls, _ = chat_turn(agent, search)
    assert calls[-1]["tool"] == "search_restaurants" and calls[-1]["arguments"].get("people") == 4, calls


def test_a_party_changed_to_a_count_is_read_and_a_group_member_is_not():
    said = {
        t: [v.describe() for v in read_slots(t) if v.slot == "party"]
        for t in (
            "Actually make it four people.",
            "change it to 5 people please",
            "Two people in our group are vegetarian",
        )
    }
    assert said == {
        "Actually make it four people.": ["party eq 4"],
        "change it to 5 people please": ["party eq 5"],
        "Two people in our group are vegetarian": [],
    }


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_plan_asked_after_a_booking_is_the_plan(runtime, lang):
    agent = _booked(runtime, f"plan-{lang}", lang)
    reply, calls, _ = chat_turn(agent, LATER[lang][3])
    assert [c["tool"] for c in calls] == ["budget_tally"] and "馨香雅苑公寓" in reply, (reply, calls)


# a correction that names the value it takes back: the value after "不是" / "not" is the old one (found on the
# session's own studio walk: zh noted "3人" while the record said 4; en dropped the message and kept three)
CORRECTED = {"zh": "更正一下，不是三个人，是四个人。", "en": "Sorry, it's 4 people, not 3."}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_party_corrected_with_the_value_taken_back_is_the_new_one(runtime, lang):
    agent = TravelAgent(runtime.open(f"corrected-{lang}"))
    for text in TRIP[lang]:
        chat_turn(agent, text)
    reply, _, _ = chat_turn(agent, CORRECTED[lang])
    assert _kept(agent, CORRECTED[lang])
    assert "4" in reply and "3" not in reply.split("\n")[0], reply  # the reply notes the new value, not the old
    assert [r.value for r in agent.weaver.constraints() if r.key == "party"] == [4.0]
    _, calls, _ = chat_turn(agent, LATER[lang][2])
    assert calls[-1]["arguments"].get("people") == 4, calls


def test_a_value_taken_back_is_not_read_and_a_value_said_alone_is():
    said = {
        t: [v.describe() for v in read_slots(t)]
        for t in (
            "更正一下，不是三个人，是四个人。",
            "4 people, not 3 people",
            "Budget 6000, not 5000 yuan.",
            "我们不是三个人吗？",  # nothing said instead: the value stays
            "not more than 500 a night",
        )
    }
    assert said == {
        "更正一下，不是三个人，是四个人。": ["party eq 4"],
        "4 people, not 3 people": ["party eq 4"],
        "Budget 6000, not 5000 yuan.": ["budget/total max 6000"],
        "我们不是三个人吗？": ["party eq 3"],
        "not more than 500 a night": ["budget/night max 500"],
    }


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_same_stay_picked_again_is_not_booked_twice(runtime, lang):
    # found on the session's studio walk: the same pick said again put the hotel in the plan twice (¥5,352 spent)
    agent = _booked(runtime, f"twice-{lang}", lang)
    chat_turn(agent, TRIP[lang][2])  # the same search again
    reply, calls, _ = chat_turn(agent, LATER[lang][0])  # and the same pick
    assert not calls and ("已经在" in reply if lang == "zh" else "already in your plan" in reply), (reply, calls)
    reply, _, _ = chat_turn(agent, LATER[lang][3])  # the plan holds the stay once
    assert reply.count("馨香雅苑公寓") == 1, reply
