"""Picking, changing and asking about what the travel agent showed, driven through the real agent.

1. "那就这家吧" / "Ok that one then" after a list of several asks which one (the list said back, numbered); after
   one item was singled out ("第二家怎么样") it takes that one.
2. "那就第一家" / "the first one then" after a list of restaurants or sights adds that one to the plan (as "订这个"
   books a hotel); a hotel picked with no dates known is said back and the dates asked for.
3. "把酒店改成住三晚" / "Change the hotel to 3 nights" after a 4-night booking books the hotel again for 3 nights
   from the same check-in: the plan, its cost and the tally follow, and the reply says so.
4. A couple with children or friends counts them in ("我和老婆带孩子" is three).
5. A family-friendly / kid-friendly ask says the database has no such tag, and what it searched instead.
"""

from __future__ import annotations

import pytest

from agent_chat import chat_turn

from weaver.agent import TravelAgent
from weaver.agent.numbers import people_count


def _chat(runtime, name: str, turns: list[str]):
    agent = TravelAgent(runtime.open(name))
    return agent, [chat_turn(agent, t) for t in turns]


PICK = {
    "zh": ("我想在北京找个酒店，预算每晚800以内", "那就这家吧", "你指的是哪一家"),
    "en": ("Find me hotels in Beijing under 800 a night, show me five", "Ok that one then", "Which one do you mean"),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_this_one_after_a_list_of_several_asks_which_and_names_them(runtime, lang):
    ask, pick, which = PICK[lang]
    agent, [(_, _, results), (reply, calls, _)] = _chat(runtime, f"pick-{lang}", [ask, pick])
    listed = [r["名称"] for r in results[-1]["rows"]]
    assert len(listed) > 1
    assert not calls  # nothing booked on a guess
    assert which in reply
    for i, name in enumerate(listed, 1):  # each listed, numbered, to pick from
        assert f"{i}. {name}" in reply
    assert not agent.plan_items()


SINGLED = {
    "zh": ("推荐几家王府井附近的餐厅", "第二家怎么样", "那就这家吧", "已加入你的行程"),
    "en": ("Recommend some restaurants near Wangfujing", "what about the second one?", "ok that one then", "Added"),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_this_one_after_one_was_singled_out_takes_that_one(runtime, lang):
    *turns, added = SINGLED[lang]
    agent, [(_, _, results), _, (reply, calls, _)] = _chat(runtime, f"singled-{lang}", turns)
    second = results[-1]["rows"][1]["名称"]
    assert [c["tool"] for c in calls] == ["add_to_plan"] and calls[0]["arguments"]["name"] == second
    assert added in reply and second in reply
    assert [(i["kind"], i["name"]) for i in agent.plan_items()] == [("restaurant", second)]


FIRST = {
    "zh": [
        ("推荐几家王府井附近的餐厅", "那就第一家", "restaurant"),
        ("推荐几个故宫附近的景点", "就第二个吧", "attraction"),
    ],
    "en": [
        ("Recommend some restaurants near Wangfujing", "the first one then", "restaurant"),
        ("Suggest a few sights near the Forbidden City", "okay, let's go with the second one", "attraction"),
    ],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_picking_a_listed_restaurant_or_sight_adds_it_to_the_plan(runtime, lang):
    for k, (ask, pick, kind) in enumerate(FIRST[lang]):
        agent, [(_, _, results), (reply, calls, _)] = _chat(runtime, f"first-{lang}-{k}", [ask, pick])
        at = 0 if kind == "restaurant" else 1
        name = results[-1]["rows"][at]["名称"]
        assert [c["tool"] for c in calls] == ["add_to_plan"]
        assert calls[0]["arguments"] == {"kind": kind, "name": name}
        assert [(i["kind"], i["name"]) for i in agent.plan_items()] == [(kind, name)]
        assert name in reply


@pytest.mark.parametrize(
    "turns", [["帮我找个酒店", "那就第一家"], ["Find me a hotel", "Ok that one then"]], ids=["zh", "en"]
)
def test_a_hotel_picked_with_no_dates_is_said_back_and_the_dates_asked(runtime, turns):
    agent, [(_, _, results), (reply, calls, _)] = _chat(runtime, "hotel-pick-" + turns[0][:4], turns)
    name = results[-1]["rows"][0]["名称"]
    assert not calls and not agent.plan_items()
    assert name in reply and ("入住日期" in reply or "check-in date" in reply)


NIGHTS = {
    "zh": ("帮我找个酒店", "订第一家，6月1号入住4晚", "把酒店改成住三晚", "行程已按新的安排更新", "一共花了多少"),
    "en": (
        "Find me a hotel",
        "Book the first one, check in June 1 for 4 nights",
        "Change the hotel to 3 nights",
        "Your plan is updated",
        "how much have we spent so far",
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_changing_the_booked_hotel_to_fewer_nights_books_it_again(runtime, lang):
    find, book, change, updated, tally = NIGHTS[lang]
    agent, chats = _chat(runtime, f"nights-{lang}", [find, book, change, tally])
    booked = chats[0][2][-1]["rows"][0]["名称"]  # the first one of the search
    (reply, calls, _), (tally_reply, _, _) = chats[2], chats[3]
    assert [c["tool"] for c in calls] == ["book_hotel"]
    assert calls[0]["arguments"]["name"] == booked
    assert (calls[0]["arguments"]["check_in"], calls[0]["arguments"]["nights"]) == ("6-1", 3)
    assert updated in reply
    items = agent.plan_items()
    price = agent.tools.db.by_name[booked]["价格"]
    assert [(i["name"], i["nights"], i["cost"]) for i in items] == [(booked, 3, 3 * price)]
    assert f"{3 * price:,.0f}" in tally_reply and f"{4 * price:,.0f}" not in tally_reply


@pytest.mark.parametrize(
    "text, n",
    [
        ("我和老婆带孩子去北京", 3),
        ("我和老公还有两个孩子", 4),
        ("My wife and I are going with our two kids", 4),
        ("me, my wife and our kid", 3),
        ("我和老婆还有三个朋友", 5),
        ("my wife and I", 2),
        ("我和老婆去北京玩五天，和朋友吃饭", 2),  # friends met for a meal are no party member
        ("my wife and I and the kids", None),  # how many kids is not said: no size rather than a wrong one
    ],
)
def test_a_couple_counts_who_comes_along(text, n):
    assert people_count(text) == n


@pytest.mark.parametrize(
    "text, n", [("我和老婆带孩子去北京玩", 3), ("My wife and I are going with our two kids", 4)], ids=["zh", "en"]
)
def test_the_agent_notes_a_couple_with_children_as_their_party(runtime, text, n):
    agent, _ = _chat(runtime, "party-" + text[:3], [text])
    find = "帮我找个酒店" if text[0] == "我" else "Find me a hotel"
    reply, calls, _ = chat_turn(agent, find)
    assert calls[0]["arguments"].get("people") == n


@pytest.mark.parametrize(
    "text, tool, said",
    [
        ("我们想找个亲子酒店", "search_hotels", "没有“亲子”或“适合孩子”这类标签，以上是不看这一点搜到的酒店"),
        ("有没有适合孩子的景点", "search_attractions", "没有“亲子”或“适合孩子”这类标签，以上是不看这一点搜到的景点"),
        (
            "Find a family-friendly hotel near Wangfujing",
            "search_hotels",
            "no family- or kid-friendly tag: these are hotels",
        ),
        ("any kid-friendly sights?", "search_attractions", "no family- or kid-friendly tag: these are sights"),
    ],
)
def test_a_family_friendly_ask_says_the_data_has_no_such_tag(runtime, text, tool, said):
    agent, [(reply, calls, results)] = _chat(runtime, "family-" + text[:4], [text])
    assert [c["tool"] for c in calls] == [tool] and results[-1]["count"] > 0
    assert said in reply
