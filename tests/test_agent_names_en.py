"""Place names as a reader of English can use them, both ways, driven through the offline agent (helper agent20):

1. English replies give a database name with its gloss ("北京建国饭店 (Beijing Jianguo Hotel)") in the booking
   reply and the plan too, as the search replies already did (the booking said the Chinese name only); Chinese
   replies say the name alone.
2. A name the English lexicon lacks, typed in pinyin as the replies gloss it ("the Jianguo Hotel"), is read
   wherever a place name is read (asking about it, booking it), not only after "why not" and in "near X".
"""

from __future__ import annotations

import pytest

from agent_chat import chat_turn
from weaver.agent import TravelAgent
from weaver.agent.gloss import gloss_name

TRIP = {"zh": "我们两个人6月3号到6号去北京", "en": "Two of us in Beijing June 3rd to 6th."}
BOOK = {
    "zh": ("帮我找王府井附近的酒店", "订第一家", "行程里现在有什么？"),
    "en": ("Find me a hotel near Wangfujing.", "Book the first one.", "What is in my plan?"),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_booking_and_the_plan_say_the_name_as_the_search_did(runtime, lang):
    find, book, plan = BOOK[lang]
    agent = TravelAgent(runtime.open(f"book-gloss-{lang}"))
    chat_turn(agent, TRIP[lang])
    _, _, results = chat_turn(agent, find)
    name = results[0]["rows"][0]["名称"]
    glossed = gloss_name(name, hotel=True)
    reply, calls, _ = chat_turn(agent, book)
    assert calls[0]["tool"] == "book_hotel" and calls[0]["arguments"]["name"] == name, calls
    tally, _, _ = chat_turn(agent, plan)
    for said in (reply, tally):
        if lang == "en":
            assert glossed != name and glossed in said, said
        else:
            assert name in said and glossed not in said, said


ASK = {
    "zh": ("介绍一下北京建国饭店", "订北京建国饭店"),
    "en": ("Tell me about the Jianguo Hotel.", "Book the Jianguo Hotel."),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_name_in_pinyin_is_read_when_asked_about_and_booked(runtime, lang):
    about, book = ASK[lang]
    agent = TravelAgent(runtime.open(f"pinyin-{lang}"))
    chat_turn(agent, TRIP[lang])
    reply, calls, results = chat_turn(agent, about)
    assert calls and calls[0]["arguments"].get("name") == "北京建国饭店", calls
    assert results[0]["rows"][0]["名称"] == "北京建国饭店" and "663" in reply, reply
    reply, calls, _ = chat_turn(agent, book)
    assert [c["tool"] for c in calls] == ["book_hotel"] and calls[0]["arguments"]["name"] == "北京建国饭店", calls
    assert calls[0]["arguments"]["nights"] == 3


def test_a_branch_at_a_metro_station_is_glossed_as_a_station():
    """The studio's English booking said "Ru Jia Shanglv Hotel, Beijing Mudanyuan Ditiezhan branch": 地铁站 in pinyin."""
    got = gloss_name("如家商旅酒店(北京牡丹园地铁站店)", hotel=True)
    assert got.endswith("(Ru Jia Shanglv Hotel, Beijing Mudanyuan Station branch)"), got
    assert gloss_name("汉庭酒店(北京站店)", hotel=True).endswith("Beijing Station branch)")
