"""The agent's tools against the real CrossWOZ Beijing database: ranges, multi-value matching, near, avoid, plan."""

import json

import pytest

from weaver.agent.db import all_present, in_range, load_database, parse_range
from weaver.agent.tools import TOOL_MODELS, ToolBox, tool_schemas

# an independent list of seafood words (not the agent's lexicon), to check the allergy filter from outside
SEAFOOD = (
    "虾",
    "蟹",
    "海参",
    "鲍",
    "扇贝",
    "蚝",
    "蛤",
    "鱿",
    "墨鱼",
    "章鱼",
    "三文鱼",
    "金枪鱼",
    "鳕鱼",
    "龙虾",
    "海鲜",
    "生鱼片",
)


@pytest.fixture(scope="module")
def tb():
    return ToolBox()


def test_database_is_shipped_and_complete():
    db = load_database()
    assert (len(db.hotel), len(db.restaurant), len(db.attraction)) == (1133, 951, 465)
    assert db.metro["故宫"] == "灯市口地铁站A口"


def test_shipped_copy_matches_shared_data(shared_data):
    from weaver.agent.db import _ROOT

    for name in ("hotel_db.json", "restaurant_db.json", "attraction_db.json", "metro_db.json"):
        shipped = json.loads((_ROOT / "assets" / "crosswoz" / name).read_text(encoding="utf-8"))
        assert shipped == json.loads((shared_data / "crosswoz" / name).read_text(encoding="utf-8"))


def test_range_semantics():
    assert parse_range("x-y".replace("x", "100").replace("y", "300")) == (100.0, 300.0, False, False)
    assert in_range(300, "100-300") and in_range(100, "100-300")  # inclusive ends
    assert not in_range(300, "<300") and in_range(299, "<300")  # strict
    assert not in_range(300, ">300") and in_range(301, ">300")
    assert not in_range(None, "0-10000")  # a missing value never matches
    with pytest.raises(Exception):
        parse_range("cheap")


def test_multi_value_all_must_be_present():
    assert all_present(["宫保鸡丁", "精品烤鸭"], "烤鸭 宫保鸡丁")
    assert not all_present(["宫保鸡丁"], ["烤鸭", "宫保鸡丁"])


def test_hotel_price_range_and_facilities_are_real_rows(tb):
    out = tb.run("search_hotels", {"price": "300-400", "facilities": ["健身房", "wifi"], "limit": 20})
    assert out.ok and out.count > 0
    db = load_database()
    for r in out.rows:
        assert 300 <= r["价格"] <= 400
        assert "健身房" in r["酒店设施"] and any("wifi" in f for f in r["酒店设施"])
        assert db.by_name[r["名称"]]["价格"] == r["价格"]  # a real row, unchanged
    # the count is exactly what a direct scan of the table finds
    direct = [
        h
        for h in db.hotel
        if h["价格"] is not None
        and 300 <= h["价格"] <= 400
        and "健身房" in h["酒店设施"]
        and any("wifi" in f for f in h["酒店设施"])
    ]
    assert out.count == len(direct)


def test_hotel_type_aliases_and_rating(tb):
    out = tb.run("search_hotels", {"hotel_type": "luxury", "rating": "4.8-5", "limit": 20})
    assert out.count > 0 and all(r["酒店类型"] == "豪华型" and r["评分"] >= 4.8 for r in out.rows)


def test_near_an_area_and_an_english_landmark(tb):
    wfj = tb.run("search_hotels", {"near": "Wangfujing", "limit": 20})
    assert wfj.count > 5
    assert all("王府井" in (r["名称"] + r["地址"] + (r["地铁"] or "")) for r in wfj.rows)
    heaven = tb.run("search_restaurants", {"near": "Temple of Heaven", "limit": 20})
    listed = set(load_database().by_name["天坛"]["周边餐馆"])
    assert heaven.count and all(r["名称"] in listed or "天坛" in r["周边景点"] for r in heaven.rows)


def test_restaurant_avoid_seafood_removes_every_seafood_dish(tb):
    plain = tb.run("search_restaurants", {"near": "王府井", "limit": 20})
    safe = tb.run("search_restaurants", {"near": "王府井", "avoid": ["seafood"], "limit": 20})
    assert safe.count < plain.count  # some places near 王府井 do serve seafood
    assert any(any(w in d for w in SEAFOOD for d in r["推荐菜"]) for r in plain.rows)
    for r in safe.rows:
        assert not any(w in d for w in SEAFOOD for d in r["推荐菜"]), r
    # "fish-fragrant" pork is not fish: a false friend does not exclude a place
    fish_fragrant = tb.run("search_restaurants", {"dishes": ["鱼香肉丝"], "avoid": ["seafood"], "limit": 20})
    assert fish_fragrant.count > 0


def test_restaurant_dishes_all_required_and_cost(tb):
    out = tb.run("search_restaurants", {"dishes": ["烤鸭", "宫保鸡丁"], "cost": "<100", "limit": 20})
    assert out.count > 0
    for r in out.rows:
        assert r["人均消费"] < 100
        assert any("烤鸭" in d for d in r["推荐菜"]) and any("宫保鸡丁" in d for d in r["推荐菜"])


def test_attractions_ticket_and_duration(tb):
    free = tb.run("search_attractions", {"ticket": "0-0", "max_hours": 2, "limit": 20})
    assert free.count > 0 and all(r["门票"] == 0 for r in free.rows)
    palace = tb.run("search_attractions", {"name": "故宫", "limit": 1})
    assert palace.rows[0]["门票"] == 60 and palace.rows[0]["游玩时间"] == "12小时 - 3天"


def test_metro_lookup_in_english(tb):
    out = tb.run("metro_station", {"place": "Summer Palace"})
    assert out.rows == [{"名称": "颐和园", "地铁": "中关村地铁站E口", "domain": "metro"}]


def test_book_hotel_checks_budget_with_real_price(tb):
    price = load_database().by_name["北京王府井希尔顿酒店"]["价格"]
    ok = tb.run("book_hotel", {"name": "北京王府井希尔顿酒店", "check_in": "5-1", "nights": 2, "budget": 5000})
    assert ok.ok and ok.plan_item["cost"] == price * 2
    over = tb.run("book_hotel", {"name": "北京王府井希尔顿酒店", "check_in": "5-1", "nights": 2, "budget": 1500})
    assert not over.ok and over.reason == "over_budget" and over.plan_item is None


def test_budget_tally_counts_the_plan():
    items = [{"kind": "hotel", "name": "A", "cost": 1200.0}, {"kind": "restaurant", "name": "B", "cost": 50.0}]
    out = ToolBox(plan=lambda: items).run("budget_tally", {"budget": 1000})
    assert out.facts["total"] == 1250 and out.facts["within"] is False and out.facts["remaining"] == -250


@pytest.mark.parametrize(
    "name,args",
    [
        ("search_hotels", {"price": "cheap"}),
        ("search_hotels", {"limit": 0}),
        ("book_hotel", {"name": "x"}),
        ("no_such_tool", {}),
    ],
)
def test_bad_calls_return_errors_not_exceptions(tb, name, args):
    out = tb.run(name, args)
    assert not out.ok and out.error


def test_schemas_are_openai_function_definitions():
    schemas = tool_schemas()
    assert {s["function"]["name"] for s in schemas} == set(TOOL_MODELS)
    for s in schemas:
        assert s["type"] == "function" and s["function"]["parameters"]["type"] == "object"
        json.dumps(s)
