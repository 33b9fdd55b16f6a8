"""Offline understanding handles paraphrases in both languages, not only the demo sentences."""

import pytest

from weaver.agent.memory import MemoryItem, read_constraints
from weaver.agent.planner import plan_turn
from weaver.agent.understanding import parse


@pytest.mark.parametrize(
    "text",
    [
        "对了，我对海鲜过敏，订餐时要注意。",
        "我吃海鲜会过敏",
        "我不能吃海鲜",
        "海鲜过敏，别给我推荐海鲜",
        "I'm allergic to seafood.",
        "I have a seafood allergy",
        "No seafood for me please",
        "I can't eat seafood",
    ],
)
def test_seafood_allergy_paraphrases(text):
    assert parse(text).slots().get("avoid") == ["seafood"]


@pytest.mark.parametrize(
    "text,slot,value",
    [
        ("我的预算总共是5000元", "budget", 5000.0),
        ("整个行程花费最多不能超过五千块", "budget", 5000.0),
        ("My total budget is 5000 yuan", "budget", 5000.0),
        ("we can spend 5k in total", "budget", 5000.0),
        ("酒店每晚不超过800", "price", "0-800"),
        ("hotels under 800 per night", "price", "0-800"),
        ("人均100左右的餐厅", "cost", "80-120"),
        ("restaurants at most 150 per person", "cost", "0-150"),
        ("评分4.5以上", "rating", "4.5-5"),
        ("only highly rated places", "rating", "4.5-5"),
        ("我们两个人", "people", 2),
        ("there are three of us", "people", 3),
    ],
)
def test_numbers_land_in_the_right_slot(text, slot, value):
    assert parse(text).slots().get(slot) == value


@pytest.mark.parametrize(
    "text", ["我喜欢安静一点的酒店", "住的地方要清静", "I'd like a quiet hotel", "somewhere peaceful"]
)
def test_quiet_preference(text):
    assert parse(text).slots().get("quiet") is True


@pytest.mark.parametrize(
    "text", ["酒店最好离地铁近一点", "靠近地铁站的酒店", "near the metro please", "close to a subway"]
)
def test_near_metro_preference(text):
    assert parse(text).slots().get("near_metro") is True


@pytest.mark.parametrize(
    "text,intent,domain",
    [
        ("帮我找王府井附近的酒店", "search", "hotel"),
        ("Any hotels near the Temple of Heaven?", "search", "hotel"),
        ("故宫附近有什么好吃的", "search", "restaurant"),
        ("Where should we have dinner?", "search", "restaurant"),
        ("故宫门票多少钱？", "info", "attraction"),
        ("How much is a Forbidden City ticket?", "info", "attraction"),
        ("颐和园离哪个地铁站最近？", "metro", None),
        ("Which subway station is nearest to the Summer Palace?", "metro", None),
        ("就订第一家吧", "book", None),
        ("Let's go with the second one", "book", None),
        ("现在一共花了多少？", "tally", None),
        ("How much have we spent so far?", "tally", None),
        ("为什么酒店预订失败了？", "why", "hotel"),
        ("Why did the booking fail?", "why", None),
        ("帮我找一家上海的酒店", "city", "hotel"),
        ("Find me a hotel in Shanghai", "city", "hotel"),
        ("谢谢！", "greeting", None),
        ("我打算5月1号到5月3号去北京旅游", "statement", None),
    ],
)
def test_intents(text, intent, domain):
    p = parse(text)
    assert p.intent == intent, (p.intent, p.domain)
    if domain:
        assert p.domain == domain


@pytest.mark.parametrize(
    "english,chinese",
    [
        ("Forbidden City", "故宫"),
        ("Temple of Heaven", "天坛"),
        ("Summer Palace", "颐和园"),
        ("Great Wall", "八达岭长城"),
        ("Wangfujing", "王府井"),
        ("Lama Temple", "雍和宫"),
    ],
)
def test_english_place_names_map_to_the_database(english, chinese):
    assert parse(f"hotels near the {english}").slots()["place"] == chinese


def test_dates_give_check_in_and_nights():
    for text in ("我打算5月1号到5月3号去北京", "from May 1st to May 3rd", "5月1日到3日"):
        assert parse(text).slots()["dates"] == {"check_in": "5-1", "check_out": "5-3", "nights": 2}


def test_planner_applies_remembered_constraints_by_topic():
    mem = read_constraints(
        [
            MemoryItem("a", "I'm allergic to seafood", "user_input", 2),
            MemoryItem("b", "I like quiet hotels close to the metro", "user_input", 3),
            MemoryItem("c", "我在上海要住安静的酒店", "user_input", 4),  # another city: not a Beijing fact
        ]
    )
    hotel = plan_turn(parse("find a hotel near the Forbidden City"), mem).calls[0]
    assert hotel.tool == "search_hotels" and hotel.arguments["quiet"] and hotel.arguments["near_metro"]
    assert "avoid" not in hotel.arguments
    food = plan_turn(parse("where can we eat near the Forbidden City?"), mem).calls[0]
    assert food.arguments["avoid"] == ["seafood"] and "quiet" not in food.arguments
    # later statements override earlier ones for the same slot
    mem2 = read_constraints(
        [
            MemoryItem("x", "budget 3000 in total", "user_input", 1),
            MemoryItem("y", "actually my total budget is 6000", "user_input", 5),
        ]
    )
    assert plan_turn(parse("how much have we spent?"), mem2).calls[0].arguments["budget"] == 6000.0
