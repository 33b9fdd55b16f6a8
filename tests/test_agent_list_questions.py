"""Questions about the list just shown, "there", and what a realistic chat states, driven through the real agent.

1. "其中哪家最便宜？" / "What is the cheapest ticket among them?" after a list compares the rows shown (the
   cheapest, the highest rated, each one's station for "nearest the metro"): nothing is searched again, and a
   search asked for ("帮我找最便宜的酒店") is still a search.
2. "How do I get there from Dongzhimen?" right after one item of a list was asked about goes to that item, not to
   the area the list was searched around; a place stated after the item is "there" again. A way asked ("坐地铁去
   天坛方便吗") is a route and no wish for a station nearby; a bare "nearby" is near the item asked about last.
3. From four realistic chats: "open late" asks the hours, "how much per person at the third one" looks it up,
   "ok that one then" after a question about one item takes that one, "it" after "the cheapest of them" is that
   one, "next week, arriving Monday" is next week's Monday, "我们三个学生" is a party of three.
"""

from __future__ import annotations

import pytest

from agent_chat import chat_turn

from weaver.agent import TravelAgent


def _chat(runtime, name: str, turns: list[str]):
    agent = TravelAgent(runtime.open(name))
    return agent, [chat_turn(agent, t) for t in turns]


def _rows(results):
    return results[-1]["rows"]


CHEAPEST = {
    "zh": ["找一些后海附近的景点", "它们中门票最便宜的是哪个？", "门票最便宜"],
    "en": ["Find attractions near Houhai", "What is the cheapest ticket among them?", "cheapest ticket"],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_cheapest_among_them_is_read_from_the_list_shown(runtime, lang):
    ask, among, said = CHEAPEST[lang]
    _, [(_, _, results), (reply, calls, _)] = _chat(runtime, f"cheap-{lang}", [ask, among])
    rows = _rows(results)
    assert len(rows) > 1
    cheapest = min(rows, key=lambda r: r["门票"])
    assert not calls  # the list answers it: no search over every sight
    assert said in reply and cheapest["名称"] in reply
    assert all(r["名称"] not in reply for r in rows if r["门票"] != cheapest["门票"])


RESTAURANTS = {
    "zh": ["找一些后海附近的餐厅", "其中哪家最便宜？", "这几个里哪个评分最高？", "人均最便宜", "评分最高"],
    "en": [
        "Find restaurants near Houhai",
        "Which of these is the cheapest?",
        "Which one of them has the best rating?",
        "cheapest per person",
        "highest rated",
    ],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_which_is_cheapest_and_best_rated_of_the_restaurants_shown(runtime, lang):
    ask, cheap_q, rated_q, cheap_said, rated_said = RESTAURANTS[lang]
    agent, [(_, _, results), (cheap, c1, _), (rated, c2, _)] = _chat(runtime, f"rest-{lang}", [ask, cheap_q, rated_q])
    rows = _rows(results)
    assert len(rows) > 1 and not c1 and not c2
    assert cheap_said in cheap and min(rows, key=lambda r: r["人均消费"])["名称"] in cheap
    assert rated_said in rated and max(rows, key=lambda r: r["评分"])["名称"] in rated
    # the question is no wish: the next search is not narrowed by it
    _, calls, _ = chat_turn(agent, "再找一些王府井附近的餐厅" if lang == "zh" else "Find restaurants near Wangfujing")
    assert calls and "near_metro" not in calls[0]["arguments"] and "rating" not in calls[0]["arguments"]


METRO_AMONG = {
    "zh": ["找一些后海附近的餐厅", "这几个里哪个离地铁最近？", "没有到地铁站的距离"],
    "en": ["Find restaurants near Houhai", "Which of these is closest to the subway?", "no distances"],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_nearest_metro_among_them_says_each_station_not_a_new_search(runtime, lang):
    ask, q, said = METRO_AMONG[lang]
    _, [(_, _, results), (reply, calls, _)] = _chat(runtime, f"metro-among-{lang}", [ask, q])
    assert not calls and said in reply
    assert all(r["名称"] in reply for r in _rows(results))


SEARCH_CHEAPEST = {"zh": "帮我找最便宜的酒店", "en": "Find me the cheapest hotel"}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_search_for_the_cheapest_is_still_a_search(runtime, lang):
    first = "找一些后海附近的餐厅" if lang == "zh" else "Find restaurants near Houhai"
    _, [_, (_, calls, _)] = _chat(runtime, f"search-cheap-{lang}", [first, SEARCH_CHEAPEST[lang]])
    assert [c["tool"] for c in calls] == ["search_hotels"]


THERE = {
    "zh": ["找一些后海附近的餐厅", "第二家晚上开到几点？", "从东直门坐地铁怎么去那里？"],
    "en": [
        "Find restaurants near Houhai",
        "What about the second one?",
        "How do I get there from Dongzhimen by subway?",
    ],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_there_is_the_item_talked_about_last_not_the_area(runtime, lang):
    _, [(_, _, results), _, (reply, calls, _)] = _chat(runtime, f"there-{lang}", THERE[lang])
    second = _rows(results)[1]["名称"]
    assert [c["tool"] for c in calls] == ["metro_station", "metro_station"]
    assert [c["arguments"]["place"] for c in calls] == ["东直门", second]  # from Dongzhimen to the item
    assert "后海" not in [c["arguments"]["place"] for c in calls]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_there_after_a_new_place_is_that_place(runtime, lang):
    turns = (
        ["找一些后海附近的餐厅", "第二家怎么样", "王府井附近有什么景点", "怎么坐地铁去那里？"]
        if lang == "zh"
        else [
            "Find restaurants near Houhai",
            "What about the second one?",
            "Any attractions near Wangfujing?",
            "How do I get there by subway?",
        ]
    )
    _, [_, (_, _, looked), _, (_, calls, _)] = _chat(runtime, f"there-new-{lang}", turns)
    item = _rows(looked)[0]["名称"]
    assert item not in [c["arguments"].get("place") for c in calls]


ROUTE_Q = {
    "zh": ["找一些后海附近的餐厅", "第二家几点关门？", "从那里坐地铁去天坛方便吗？", "帮我找天坛附近的酒店"],
    "en": [
        "Find restaurants near Houhai",
        "Is the second one open late?",
        "Is it easy to take the subway from there to the Temple of Heaven?",
        "Find hotels near the Temple of Heaven",
    ],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_way_asked_is_a_route_from_the_item_and_no_wish_for_a_station(runtime, lang):
    _, [(_, _, results), _, (_, route, _), (_, search, _)] = _chat(runtime, f"route-{lang}", ROUTE_Q[lang])
    second = _rows(results)[1]["名称"]
    assert [c["tool"] for c in route] == ["metro_station", "metro_station"]
    assert [c["arguments"]["place"] for c in route] == [second, "天坛"]  # from there to the Temple of Heaven
    assert search and all("near_metro" not in c["arguments"] for c in search)  # the question is no wish


HOURS = {
    "zh": ["找一些后海附近的餐厅", "第二家晚上开到几点？"],
    "en": ["Find restaurants near Houhai", "Is the second one open late?"],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_open_late_asks_the_hours_of_that_one(runtime, lang):
    _, [(_, _, results), (reply, calls, _)] = _chat(runtime, f"late-{lang}", HOURS[lang])
    second = _rows(results)[1]
    assert [c["tool"] for c in calls] == ["place_facts"] and calls[0]["arguments"]["ask"] == "hours"
    assert calls[0]["arguments"]["names"] == [second["名称"]] and ("营业时间" in reply or "is open" in reply)


PER_PERSON = {
    "zh": ["找一些后海附近的餐厅", "第三家人均多少？"],
    "en": ["Find restaurants near Houhai", "How much per person at the third one?"],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_how_much_per_person_at_the_nth_one_is_looked_up(runtime, lang):
    _, [(_, _, results), (reply, calls, _)] = _chat(runtime, f"pp-{lang}", PER_PERSON[lang])
    third = _rows(results)[2]
    assert [c["arguments"].get("name") for c in calls] == [third["名称"]]
    assert str(third["人均消费"]) in reply


TAKE_IT = {
    "zh": ["找一些后海附近的餐厅", "第三家几点关门？", "那就这家吧"],
    "en": ["Find restaurants near Houhai", "When does the third one close?", "ok that one then"],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_this_one_after_a_question_about_one_takes_that_one(runtime, lang):
    agent, [(_, _, results), _, (_, calls, _)] = _chat(runtime, f"take-{lang}", TAKE_IT[lang])
    third = _rows(results)[2]["名称"]
    assert [(c["tool"], c["arguments"]["name"]) for c in calls] == [("add_to_plan", third)]
    assert [i["name"] for i in agent.plan_items()] == [third]


IT_AFTER_AMONG = {
    "zh": ["找一些后海附近的餐厅", "其中哪家最便宜？", "它几点关门？"],
    "en": ["Find restaurants near Houhai", "Which of them is the cheapest?", "When does it close?"],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_it_after_the_cheapest_of_them_is_that_one(runtime, lang):
    _, [(_, _, results), _, (_, calls, _)] = _chat(runtime, f"it-among-{lang}", IT_AFTER_AMONG[lang])
    rows = _rows(results)
    cheapest = min(rows, key=lambda r: r["人均消费"])["名称"]
    assert cheapest != rows[0]["名称"]  # not the first by chance
    assert [c["arguments"].get("names") for c in calls] == [[cheapest]]


NEAR_ITEM = {
    "zh": ["推荐几个免费的景点", "第二个门票多少？", "附近有清淡一点的餐厅吗？"],
    "en": ["Recommend some free attractions", "What's the rating of the second one?", "Any restaurants nearby?"],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_bare_nearby_after_one_item_was_asked_about_is_near_that_item(runtime, lang):
    _, [(_, _, results), _, (_, calls, _)] = _chat(runtime, f"near-item-{lang}", NEAR_ITEM[lang])
    second = _rows(results)[1]["名称"]
    assert calls[0]["tool"] == "search_restaurants" and calls[0]["arguments"].get("near") == second


WEEK = {
    "zh": "下周去北京开会，周一到，周四走",
    "en": "I'm in Beijing for a conference next week, arriving Monday and leaving Thursday.",
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_next_week_holds_for_the_bare_weekdays_after_it(runtime, lang):
    from datetime import date, timedelta

    agent = TravelAgent(runtime.open(f"week-{lang}"))
    events = list(agent.run(WEEK[lang]))
    today = date.today()
    monday = today - timedelta(days=today.weekday()) + timedelta(days=7)
    thursday = monday + timedelta(days=3)
    dates = next(n["value"] for n in events[-1].data["noted"] if n["slot"] == "dates")
    assert dates["check_in"] == f"{monday.month}-{monday.day}" and dates["nights"] == 3
    assert dates["check_out"] == f"{thursday.month}-{thursday.day}"


PARTY = [
    ("zh", "我们三个学生下周末去北京玩两天，总预算1500", 3),
    ("en", "We are three students on a budget of 1500", 3),
    ("zh", "我带我妈妈去北京，她七十多岁了，走不了太多路", 2),
    ("en", "I'm taking my elderly mother to Beijing, she can't walk very far.", 2),
]


@pytest.mark.parametrize("lang,said,n", PARTY)
def test_who_travels_is_counted(runtime, lang, said, n):
    # "我们三个学生" is three; taking one parent along is two (both were the help text or nothing noted)
    agent = TravelAgent(runtime.open(f"party-{lang}-{n}"))
    events = list(agent.run(said))
    assert {"slot": "people", "value": n, "scope": "any"} in events[-1].data["noted"]


FREE = {
    "zh": ["找一些天安门附近的博物馆", "其中哪些是免费的？", "第二个要玩多久？"],
    "en": [
        "Recommend some museums near Tiananmen",
        "Which of those is free?",
        "How long does it take to visit the second one?",
    ],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_which_of_those_is_free_and_how_long_the_second_takes(runtime, lang):
    _, [(_, _, results), (free, c1, _), (_, c2, _)] = _chat(runtime, f"free-{lang}", FREE[lang])
    rows = _rows(results)
    assert not c1
    assert all((r["名称"] in free) == (r["门票"] == 0) for r in rows)
    assert [c["arguments"].get("name") for c in c2] == [rows[1]["名称"]]  # looked up, not a new search


def test_which_kind_is_free_with_none_of_that_kind_shown_is_a_search(runtime):
    _, [_, (_, calls, _)] = _chat(runtime, "free-kind", ["找一些后海附近的餐厅", "哪个景点免费？"])
    assert [c["tool"] for c in calls] == ["search_attractions"]
