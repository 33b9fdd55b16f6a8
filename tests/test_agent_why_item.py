"""A why-question follows the item it names: "why this hotel?" explains the latest hotel result and the
constraints that set its search, even when a restaurant search came after it; "why this restaurant?" explains the
restaurant. Before, the latest retrieved result was explained, whatever its kind (the restaurant search, in English).
"""

from __future__ import annotations

import pytest

from agent_chat import chat_turn

from weaver.agent import TravelAgent

CHAT = {
    "zh": [
        "我们两个人，五月一号到五月三号去北京。",
        "总预算五千块。",
        "帮我找一家王府井附近每晚六百以内的酒店。",
        "晚饭去哪里吃？",
    ],
    "en": [
        "We're two people visiting Beijing from May 2nd to May 4th.",
        "Our total budget is 6000 yuan.",
        "Find a hotel near Wangfujing under 700 a night.",
        "Where should we have dinner?",
    ],
}
WHY_HOTEL = {"zh": "为什么推荐这家酒店？", "en": "Why did you recommend this hotel?"}
WHY_FOOD = {"zh": "为什么推荐这家餐厅？", "en": "Why this restaurant?"}


def _result_line(reply: str) -> str:
    return next(line for line in reply.splitlines() if "search" in line or "搜索" in line or "结果" in line)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_why_this_hotel_explains_the_hotel_after_a_restaurant_search(runtime, lang):
    agent = TravelAgent(runtime.open(f"why-item-{lang}"))
    for text in CHAT[lang]:
        chat_turn(agent, text)
    reply, calls, _ = chat_turn(agent, WHY_HOTEL[lang])
    assert not calls
    line = _result_line(reply)
    # the result said in words: what kind was searched and what was offered, not the call's raw arguments
    assert ("搜索酒店" in line if lang == "zh" else "hotel search" in line) and "search_hotels(" not in line, reply
    # the constraints that set the hotel search are its premises: the party and dates, the budget, the price cap
    for said in CHAT[lang][:3]:
        assert said in reply, reply
    assert CHAT[lang][3] not in reply  # the dinner question set nothing of the hotel search
    reply, _, _ = chat_turn(agent, WHY_FOOD[lang])
    line = _result_line(reply)
    assert (
        "搜索餐厅" in line if lang == "zh" else "restaurant search" in line
    ) and "search_restaurants(" not in line, reply
