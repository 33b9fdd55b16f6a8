"""Two 15-turn chats of our own (helper agent20, zh and en), driven through the offline agent as a user would: a
hotel search, a booking, sights, a visit-length question, a restaurant near them, a budget change, a party that
grows, "why that hotel?", "what was my budget?". What read wrong before, each asserted here:

* "下个月5号到8号" / "from the 5th to the 8th of next month" kept the check-in only (the booking then asked for dates);
* "I only have two hours. Which can I see in that time?" was no search (and "只有两个小时" no limit), and right
  after museums it asked of every sight;
* "为什么选了这家酒店？" explained the lookup of its rating ("what's the rating of the first one?"), not the search
  that offered it, nor the statements that search applied;
* a widened search named the station in pinyin ("Dengshikou Ditiezhan"), where every list says "Dengshikou station";
* "谢谢，就这样吧" got the capabilities blurb instead of a goodbye.
"""

from __future__ import annotations

from datetime import date

import pytest

from agent_chat import chat_turn
from weaver.agent import TravelAgent
from weaver.agent.lexicon import is_kind

CHATS = {
    "zh": [
        "你好，我们两个人下个月5号到8号去北京玩",
        "总预算六千，我对花生过敏",
        "帮我找一家故宫附近的酒店，每晚别超过七百",
        "第一家评分怎么样？",
        "就订第一家吧",
        "故宫附近有什么博物馆？",
        "我只有两个小时，有没有能逛完的？",
        "那附近有什么好吃的？别太贵",
        "订第一家餐厅，第二天晚上去",
        "预算改成八千",
        "我们又多了两个朋友，一共四个人",
        "现在行程花了多少钱？",
        "为什么选了这家酒店？",
        "我之前的预算是多少？",
        "谢谢，就这样吧",
    ],
    "en": [
        "Hi, two of us are visiting Beijing from the 5th to the 8th of next month.",
        "Our total budget is 6000 yuan and I'm allergic to peanuts.",
        "Find me a hotel near the Forbidden City, no more than 700 a night.",
        "What's the rating of the first one?",
        "OK, book the first one.",
        "Any museums near the Forbidden City?",
        "I only have two hours. Which can I see in that time?",
        "Anything good to eat near there? Nothing too expensive.",
        "Add the first restaurant to the plan for dinner on day 2.",
        "Change the budget to 8000.",
        "Two more friends are joining us, so four people in all.",
        "How much have we spent so far?",
        "Why did you pick that hotel?",
        "What was my budget before?",
        "Thanks, that's all.",
    ],
}
SAID = {
    "zh": {"station": "灯市口地铁站", "bye": "祝旅途愉快", "before": "6,000元"},
    "en": {"station": "灯市口地铁站 (Dengshikou station)", "bye": "enjoy the trip", "before": "¥6,000"},
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_fifteen_turn_chat_reads_as_meant(runtime, lang):
    agent = TravelAgent(runtime.open(f"chat20-{lang}"))
    turns = [chat_turn(agent, text) for text in CHATS[lang]]
    said = SAID[lang]
    # the day range said once with its month: the stay is 3 nights, so the booking needs no more questions
    reply, calls, _ = turns[4]
    assert calls and calls[0]["tool"] == "book_hotel", reply
    assert calls[0]["arguments"]["check_in"] == f"{date.today().month % 12 + 1}-5", calls
    assert calls[0]["arguments"]["nights"] == 3, calls
    # the widened hotel search names the station as the lists do
    assert said["station"] in turns[2][0] and "Ditiezhan" not in turns[2][0], turns[2][0]
    # "two hours": the sights around the same place whose whole listed visit fits in two hours
    _, calls, results = turns[6]
    assert calls and calls[0]["tool"] == "search_attractions" and calls[0]["arguments"]["max_hours"] == 2.0, calls
    assert results[0]["rows"] and results[0]["facts"]["too_long"] > 0
    # ... of the museums just listed: the question names no kind of its own, so it asks of that list
    assert calls[0]["arguments"].get("kind") == "museum", calls
    assert all(is_kind(r["名称"], "museum") for r in results[0]["rows"])
    # the restaurant near there avoids peanuts and keeps the cheaper half
    args = turns[7][1][0]["arguments"]
    assert args["avoid"] == ["peanut"] and args["cheaper_half"] is True, args
    # the party grows: the hotel is booked again for two rooms, the meal for four
    rebooked = {c["tool"]: c["arguments"] for c in turns[10][1]}
    assert rebooked["book_hotel"].get("rooms") == 2 and rebooked["add_to_plan"]["people"] == 4, rebooked
    # why that hotel: the search that offered it and what the user said for it, not the rating lookup
    why = turns[12][0]
    assert CHATS[lang][2] in why and CHATS[lang][4] in why and CHATS[lang][3] not in why, why
    assert said["before"] in turns[13][0]
    assert said["bye"] in turns[14][0] and not turns[14][1]


@pytest.mark.parametrize(
    "lang, museums, sights",
    [
        ("zh", "故宫附近有什么博物馆？", "故宫附近有什么景点？"),
        ("en", "Any museums near the Forbidden City?", "Any sights near the Forbidden City?"),
    ],
)
def test_a_question_naming_sights_asks_of_every_kind(runtime, lang, museums, sights):
    """Only an elliptical question keeps the kind just listed: one that names sights asks of all of them."""
    agent = TravelAgent(runtime.open(f"kinds-{lang}"))
    _, calls, _ = chat_turn(agent, museums)
    assert calls[0]["arguments"].get("kind") == "museum"
    _, calls, _ = chat_turn(agent, sights)
    assert calls and "kind" not in calls[0]["arguments"], calls


DECIDED = {
    "zh": (
        "我们两个人6月3号到6号去北京",
        "帮我找王府井附近的酒店",
        "订第一家",
        "我们都定了什么？",
        "我们订的酒店是哪家？",
    ),
    "en": (
        "Two of us in Beijing June 3rd to 6th.",
        "Find me a hotel near Wangfujing.",
        "Book the first one.",
        "What have we decided so far?",
        "Which hotel did we book?",
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_what_was_decided_is_read_from_the_plan(runtime, lang):
    """ "我们都定了什么？" was the capabilities blurb and "我们订的酒店是哪家？" / "Which hotel did we book?" a new hotel
    search: both are answered from the plan, nothing searched."""
    trip, find, book, decided, which = DECIDED[lang]
    agent = TravelAgent(runtime.open(f"decided-{lang}"))
    for text in (trip, find, book):
        chat_turn(agent, text)
    booked = agent.plan_items()[0]["name"]
    reply, calls, _ = chat_turn(agent, decided)
    assert [c["tool"] for c in calls] == ["budget_tally"] and booked in reply, (reply, calls)
    reply, calls, _ = chat_turn(agent, which)
    assert not calls and booked in reply, (reply, calls)
