"""Defects found chatting with the travel agent as demanding new users (multi-day plans, changes after a
booking, history questions, cuisines, questions the data cannot answer, typos), each driven through the real
agent over a real space.

1. Changing the stay's dates after a hotel was booked re-books it for the new nights (the plan and its total
   follow); the new booking supersedes the old one in memory. A party-size change re-does a meal's booking.
2. "加到第二天的行程里" / "add it to day 2": the plan item carries the day, and the plan lists it.
3. "我之前的预算是多少？" / "What was the party size before?" answers from the constraint records' history.
4. "有没有川菜馆？": the data has no cuisine field; names are read and the reply says so.
5. Weather, a hotel's check-in time, "Is it open on Mondays?", "book a table": honest about what the data lacks.
6. "we dont eat beef" avoids beef (never searches for it); "find a hotle" searches hotels; "3 ppl, sept 10-13".
"""

from __future__ import annotations

import pytest

from agent_chat import chat_turn

from weaver.agent import TravelAgent
from weaver.agent.cuisine import name_is
from weaver.agent.lexicon import dish_matches


_turn = chat_turn  # reply, tool calls, tool results


REBOOK = {
    "zh": [
        "我和朋友两个人，6月8号到6月11号在北京，总预算一万。",
        "帮我找一家故宫附近的酒店，每晚七百以内。",
        "订第一家。",
        "我们想改成6月9号入住，还是11号走。",
        "现在行程一共多少钱？",
    ],
    "en": [
        "Two of us in Beijing from Oct 5 to Oct 8, budget 10000 yuan.",
        "Find a hotel near Wangfujing under 700 a night.",
        "Book the first one.",
        "Actually make it Oct 6 to Oct 8.",
        "How much is everything now?",
    ],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_changing_the_dates_after_a_booking_rebooks_the_hotel_and_supersedes_the_old_booking(runtime, lang):
    agent = TravelAgent(runtime.open(f"rebook-{lang}"))
    for text in REBOOK[lang][:3]:
        _turn(agent, text)
    (old,) = agent.plan_items()
    assert old["nights"] == 3
    reply, calls, _ = _turn(agent, REBOOK[lang][3])
    assert [c["tool"] for c in calls] == ["book_hotel"] and calls[0]["arguments"]["nights"] == 2
    (new,) = agent.plan_items()  # one stay, not two
    assert new["name"] == old["name"] and new["nights"] == 2 and new["cost"] == old["cost"] * 2 / 3
    w = agent.weaver
    assert w.nodes[old["node_id"]].status == "superseded"
    assert w.graph.edges[old["node_id"], new["node_id"]]["relation"] == "supersedes"
    assert ("2晚" if lang == "zh" else "2 nights") in reply and ("3晚" if lang == "zh" else "3 nights") in reply
    reply, _, results = _turn(agent, REBOOK[lang][4])
    assert results[-1]["count"] == 1 and f"{new['cost']:,.0f}" in reply


def test_a_party_size_change_redoes_a_meal_in_the_plan(runtime):
    agent = TravelAgent(runtime.open("party-change"))
    for text in ["We are 3 people, budget 9000 yuan.", "Find a restaurant near Wangfujing with Peking duck."]:
        _turn(agent, text)
    _turn(agent, "add the first one to the plan for day 1")
    (meal,) = agent.plan_items()
    assert meal["people"] == 3 and meal["day"] == 1
    _, calls, _ = _turn(agent, "actually 4 of us now, my brother is joining")
    assert calls and calls[0]["tool"] == "add_to_plan" and calls[0]["arguments"]["people"] == 4
    (now,) = agent.plan_items()
    assert now["people"] == 4 and now["day"] == 1 and now["cost"] == meal["cost"] / 3 * 4


@pytest.mark.parametrize(
    "lang,turns,day_word",
    [
        (
            "zh",
            ["我们两个人，总预算三千。", "帮我找颐和园附近的餐厅", "把第一家加到第二天的行程里。", "行程里都有什么？"],
            "第2天",
        ),
        (
            "en",
            [
                "Two of us, budget 3000 yuan.",
                "Find a museum near Tiananmen.",
                "Add the first one to day 2.",
                "What's in the plan?",
            ],
            "day 2",
        ),
    ],
)
def test_add_to_plan_takes_the_day_and_the_plan_lists_it(runtime, lang, turns, day_word):
    agent = TravelAgent(runtime.open(f"day-{lang}"))
    for text in turns[:2]:
        _turn(agent, text)
    reply, calls, _ = _turn(agent, turns[2])
    assert calls[0]["tool"] == "add_to_plan" and calls[0]["arguments"]["day"] == 2
    assert day_word in reply
    reply, calls, _ = _turn(agent, turns[3])  # "行程里都有什么？" is a look at the plan, not the help text
    assert calls[0]["tool"] == "budget_tally" and day_word in reply


@pytest.mark.parametrize(
    "lang,turns,expect",
    [
        (
            "zh",
            ["我们两个人，总预算一万。", "其实预算改成一万二。", "我之前的预算是多少？"],
            ["10,000", "12,000", "第1轮"],
        ),
        (
            "en",
            ["Two of us, budget 7000 yuan total.", "Change the budget to 9000.", "What was my budget before?"],
            ["7,000", "9,000", "turn 1"],
        ),
        (
            "en",
            ["hi, 3 ppl, budget 9000", "actually 4 of us now", "what was the party size before?"],
            ["3 people", "4 people"],
        ),
    ],
)
def test_a_question_about_an_earlier_value_is_answered_from_the_history(runtime, lang, turns, expect):
    agent = TravelAgent(runtime.open("history"))
    for text in turns[:2]:
        _turn(agent, text)
    reply, calls, _ = _turn(agent, turns[2])
    assert not calls and all(e in reply for e in expect), reply
    assert not agent.weaver.nodes[agent.weaver.node_ids[-1]].meta.get("noted")  # a question notes nothing


def test_a_cuisine_is_read_from_names_and_the_reply_says_so(runtime):
    agent = TravelAgent(runtime.open("cuisine"))
    _turn(agent, "推荐几家三里屯附近的餐厅")
    reply, calls, results = _turn(agent, "有没有湘菜？")
    assert calls[0]["arguments"]["cuisine"] == ["hunan"]
    rows = results[-1]["rows"]
    assert rows and all(name_is(r["名称"], ["hunan"]) for r in rows)
    assert "没有菜系" in reply
    reply, calls, results = _turn(agent, "Find a Cantonese restaurant near the Summer Palace for dinner.")
    assert calls[0]["arguments"]["cuisine"] == ["cantonese"]
    assert "no cuisine field" in reply
    assert all(name_is(r["名称"], ["cantonese"]) for res in results for r in res["rows"])


@pytest.mark.parametrize(
    "setup,question,ask,words",
    [
        ([], "北京今天天气怎么样？", "weather", ["没有天气"]),
        ([], "What's the weather like in Beijing in October?", "weather", ["no weather"]),
        (["Find a museum near Tiananmen."], "Is it open on Mondays?", "hours", ["no opening hours"]),
        (["帮我找王府井附近的酒店"], "这家酒店几点可以入住？", "checkin", ["没有酒店的入住和退房时间"]),
        (["推荐一家故宫附近的餐厅"], "Can you book a table for 7pm?", "reserve", ["can't make real reservations"]),
        ([], "从颐和园到八达岭长城要多久？", "distance", ["没有坐标和交通时间"]),
    ],
)
def test_a_question_the_data_cannot_answer_is_answered_honestly(runtime, setup, question, ask, words):
    agent = TravelAgent(runtime.open("honest"))
    for text in setup:
        _turn(agent, text)
    reply, calls, _ = _turn(agent, question)
    assert [c["tool"] for c in calls] == ["place_facts"] and calls[0]["arguments"]["ask"] == ask
    assert all(w in reply for w in words), reply
    if setup:  # about the item just shown, by its name
        assert calls[0]["arguments"]["names"] and calls[0]["arguments"]["names"][0] in [
            n for ns in agent.last_shown().values() for n in ns
        ]


def test_typos_and_short_forms_are_read_as_meant(runtime):
    agent = TravelAgent(runtime.open("typos"))
    reply, calls, _ = _turn(agent, "hi, 3 ppl, beijing sept 10-13, budget 9000")
    assert not calls and "3 people" in reply and "3 nights" in reply
    reply, calls, _ = _turn(agent, "we dont eat beef. no spicy pls")
    assert not calls and "beef" in reply  # a diet stated, not a search for beef
    _, calls, results = _turn(agent, "find a hotle near wangfujing")
    assert calls[0]["tool"] == "search_hotels" and calls[0]["arguments"]["nights"] == 3
    assert calls[0]["arguments"]["people"] == 3
    _, calls, results = _turn(agent, "any restaurants near wangfujing?")
    assert set(calls[0]["arguments"]["avoid"]) == {"beef", "spicy"}
    db = agent.tools.db
    assert all(
        not any(dish_matches(d, "beef") for d in db.by_name[r["名称"]].get("推荐菜") or []) for r in results[-1]["rows"]
    )


def test_a_change_of_stay_is_noted_not_searched_and_an_unknown_place_is_not_remembered(runtime):
    agent = TravelAgent(runtime.open("stay-change"))
    _turn(agent, "Three of us, Oct 5 to Oct 8, budget 10000 RMB.")
    _turn(agent, "Find a museum near Tiananmen.")
    _turn(agent, "Find a hotel near the museum under 700 a night.")
    reply, calls, _ = _turn(agent, "Change the stay to Oct 6-8.")
    assert not calls and "2 nights" in reply
    _, calls, _ = _turn(agent, "Find me a hotel with a gym.")  # "near the museum under" was never a place
    assert all("under" not in str(c["arguments"].get("near", "")) for c in calls)


def test_a_bare_ordinal_looks_up_that_item(runtime):
    agent = TravelAgent(runtime.open("ordinal"))
    _, _, results = _turn(agent, "推荐几家三里屯附近的餐厅")
    second = results[-1]["rows"][1]["名称"]
    reply, calls, _ = _turn(agent, "第二个")
    assert calls[0]["arguments"]["name"] == second and second in reply


def test_an_ordinal_counts_in_the_list_shown_and_past_its_end_says_what_was_shown(runtime):
    agent = TravelAgent(runtime.open("ordinal-list"))
    _, _, results = _turn(agent, "推荐几家三里屯附近的餐厅")
    names = [r["名称"] for r in results[-1]["rows"]]
    _turn(agent, "第二个")
    _, calls, _ = _turn(agent, "第二个怎么样")  # still the list's second, not "the second" of the look-up
    assert calls[0]["arguments"]["name"] == names[1]
    reply, calls, _ = _turn(agent, "第五个")
    assert not calls and f"只列出了{len(names)}个" in reply and names[0] in reply
    hotel = TravelAgent(runtime.open("ordinal-one"))
    _, _, results = _turn(hotel, "Find a hotel near the Temple of Heaven under 600 a night.")
    reply, calls, _ = _turn(hotel, "book the second one")
    assert not calls and "I only showed 1" in reply and results[-1]["rows"][0]["名称"] in reply


@pytest.mark.parametrize(
    "text,plan",
    [
        ("第一天想去故宫，第二天去颐和园。", [(1, "故宫"), (2, "颐和园")]),
        ("Day 1 we want the Temple of Heaven, day 2 the Great Wall.", [(1, "天坛"), (2, "八达岭长城")]),
    ],
)
def test_a_plan_told_day_by_day_puts_each_sight_on_its_day(runtime, text, plan):
    agent = TravelAgent(runtime.open("dayplan"))
    _turn(agent, "我们两个人，总预算一万。")
    reply, calls, _ = _turn(agent, text)
    assert [(c["arguments"]["day"], c["arguments"]["name"]) for c in calls] == plan
    assert all(c["tool"] == "add_to_plan" and c["arguments"]["people"] == 2 for c in calls)
    assert sorted((i["day"], i["name"]) for i in agent.plan_items()) == plan
    assert reply.count("只记录行程") + reply.count("I keep the plan only") == 1  # the note once


def test_a_meal_time_with_a_place_between_is_the_meal_and_a_hotel_named_fandian_is_a_hotel(runtime):
    agent = TravelAgent(runtime.open("meal-time"))
    _, calls, _ = _turn(agent, "第二天中午在颐和园附近吃饭，推荐一家。")
    assert calls[0]["arguments"]["meal"] == "lunch"
    reply, calls, results = _turn(agent, "Find a hotel near the Temple of Heaven under 600 a night.")
    row = results[-1]["rows"][0]["名称"]
    assert row.endswith("饭店") and "Chongwenmen Hotel" in reply and "Restaurant" not in reply


def test_a_day_plan_is_edited_by_day_and_a_day_is_no_stay_length(runtime):
    agent = TravelAgent(runtime.open("day-edit"))
    _turn(agent, "hello，我们三个人 5月1号到5月4号 去北京，budget 一万五")
    _turn(agent, "第一天去天坛，第二天去故宫，第三天去长城")
    _, _, results = _turn(agent, "第三天中午在长城附近吃什么？")
    first = results[-1]["rows"][0]["名称"]
    reply, calls, _ = _turn(agent, "好 加到第三天")  # the meal just shown, for day 3; "第三天" is no 2-night stay
    assert calls[0]["tool"] == "add_to_plan" and calls[0]["arguments"] == {
        "kind": "restaurant",
        "name": first,
        "people": 3,
        "day": 3,
        "budget": 15000.0,
    }
    assert "2晚" not in reply
    _turn(agent, "把颐和园加到第二天")
    reply, calls, _ = _turn(agent, "把第二天的故宫删掉")  # removed, never added again
    assert not calls and "移除" in reply
    assert sorted((i["day"], i["name"]) for i in agent.plan_items() if i["kind"] == "attraction") == [
        (1, "天坛"),
        (2, "颐和园"),
        (3, "八达岭长城"),
    ]


def test_a_later_arrival_with_the_same_departure_is_read_and_its_history_told(runtime):
    from weaver.slots import read_slots

    said = [(v.slot, v.scope, v.value) for v in read_slots("其实我们5月2号才到，还是4号走")]
    assert said == [("date", "start", "05-02"), ("date", "end", "05-04")]  # 走 leaves: was read as a start
    assert [(v.scope, v.value) for v in read_slots("5月2号到，4号走")] == [("start", "05-02"), ("end", "05-04")]
    agent = TravelAgent(runtime.open("date-history"))
    _turn(agent, "我们三个人 5月1号到5月4号 去北京")
    _turn(agent, "其实我们5月2号才到，还是4号走")
    reply, calls, _ = _turn(agent, "我之前说的日期是几号？")
    assert not calls and "5月1日" in reply and "改成了5月2日" in reply and "一直是5月4日" in reply


def test_one_of_us_is_a_member_and_me_plus_two_friends_is_three(runtime):
    from weaver.slots import read_slots

    assert not [v for v in read_slots("one of us is vegetarian") if v.slot == "party"]
    agent = TravelAgent(runtime.open("party-words"))
    reply, _, _ = _turn(agent, "hey! me + 2 friends, beijing from july 1 to july 5, about 8000 rmb total")
    assert "3 people" in reply
    reply, _, _ = _turn(agent, "one of us is vegetarian")
    assert "people" not in reply
    _, calls, _ = _turn(agent, "what should we see on day 1? something near the forbidden city")
    assert calls[0]["tool"] == "search_attractions" and calls[0]["arguments"]["near"] == "故宫"
    assert calls[0]["arguments"]["people"] == 3 and "name" not in calls[0]["arguments"]


def _booked(runtime, space: str, *turns: str):
    """An agent that has taken the trip frame, searched and booked one hotel: the agent and the booking."""
    agent = TravelAgent(runtime.open(space))
    for text in turns:
        _turn(agent, text)
    (booking,) = agent.plan_items()
    return agent, booking


def test_questions_about_the_booked_hotel_and_a_cuisine_around_it(runtime):
    agent, hotel = _booked(
        runtime,
        "about-hotel",
        "Three of us, July 1 to July 5, budget 8000 rmb.",
        "find a cheap hotel near Wangfujing",
        "book the 1st",
    )
    reply, calls, _ = _turn(agent, "is the hotel near a subway?")  # a question, not a wish for later searches
    assert [c["tool"] for c in calls] == ["metro_station"] and calls[0]["arguments"]["place"] == hotel["name"]
    _, calls, _ = _turn(agent, "any good korean bbq around the hotel?")
    assert calls[0]["tool"] == "search_restaurants" and calls[0]["arguments"]["cuisine"] == ["korean"]
    assert "near_metro" not in calls[0]["arguments"]
    reply, calls, _ = _turn(agent, "add it for day 2 dinner")  # no meal was shown: never the hotel again
    assert not [c for c in calls if c["tool"] == "book_hotel"]


def test_adding_an_item_already_on_that_day_says_so(runtime):
    agent = TravelAgent(runtime.open("already"))
    _turn(agent, "我一个人去北京，10月1号到10月3号，预算三千。")
    _turn(agent, "第一天去颐和园，第二天去长城")
    reply, calls, _ = _turn(agent, "把颐和园加到第一天的行程")
    assert not calls and "已经在第1天的行程里" in reply
    _, calls, _ = _turn(agent, "把颐和园加到第二天的行程")  # another day is another visit
    assert calls[0]["tool"] == "add_to_plan" and calls[0]["arguments"]["day"] == 2
    assert sorted((i["day"], i["name"]) for i in agent.plan_items()) == [
        (1, "颐和园"),
        (2, "八达岭长城"),
        (2, "颐和园"),
    ]


def test_a_new_end_keeps_the_start_and_a_rebooking_over_budget_keeps_the_old_booking(runtime):
    agent, old = _booked(
        runtime,
        "until",
        "Two of us, June 1 to June 3, budget 2000 yuan.",
        "Find a hotel near Wangfujing under 800 a night.",
        "book the first one",
    )
    reply, calls, _ = _turn(agent, "Actually we'll stay until June 5.")  # the end, not a check-in on June 5
    assert calls[0]["arguments"]["check_in"] == "6-1" and calls[0]["arguments"]["nights"] == 4
    assert "Jun 1 to Jun 5 (4 nights)" in reply and "the old booking stays" in reply
    assert agent.plan_items() == [old]  # over budget for 4 nights: the 2-night booking is still the plan
    reply, _, _ = _turn(agent, "what was the check-in date before?")
    assert "check-in has been 06-01" in reply and "check-out" not in reply


def test_free_parking_is_not_claimed_when_the_data_lists_only_paid_parking(runtime):
    agent = TravelAgent(runtime.open("parking"))
    reply, calls, results = _turn(agent, "王府井附近的酒店有没有免费停车？")
    assert calls[0]["tool"] == "search_hotels" and results[-1]["count"] > 0
    assert "没有免费停车的记录" in reply
    reply, _, _ = _turn(agent, "第一家有停车场吗？")
    assert "收费停车位" in reply  # said as listed: paid
    reply, _, _ = _turn(agent, "Does the first one have parking?")
    assert "paid parking" in reply
