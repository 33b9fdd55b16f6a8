"""A vegetarian is a diet style, not an allergy: places with enough meat-free dishes are offered, each row says
which dishes fit and the places most of whose food fits come first; allergies keep the strict rule.

Driven through the real travel agent offline (the CrossWOZ Beijing database): before, vegetarian kept only the
28 of 951 restaurants with no meat word in any dish or name (none near 王府井, none in 海淀区).
"""

from __future__ import annotations

import pytest

from agent_chat import chat_turn

from weaver.agent import TravelAgent
from weaver.agent.lexicon import dish_matches
from weaver.agent.meals import NOT_DISHES

VEGETARIAN = {
    "zh": ("我吃素。", "王府井附近有什么餐厅？", "推荐菜中的素菜"),
    "en": ("I'm vegetarian.", "Any restaurants near Wangfujing?", "meat-free signature dishes"),
}


def _food(row: dict) -> list[str]:
    from weaver.agent.diet_styles import food_dishes

    return food_dishes([d for d in row.get("推荐菜") or [] if d not in NOT_DISHES])


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_vegetarian_is_offered_mixed_menus_with_enough_meat_free_dishes_most_fitting_first(runtime, lang):
    stated, asked, said = VEGETARIAN[lang]
    agent = TravelAgent(runtime.open(f"veg-{lang}"))
    chat_turn(agent, stated)
    reply, calls, results = chat_turn(agent, asked)
    assert calls[0]["tool"] == "search_restaurants" and calls[0]["arguments"]["avoid"] == ["meat"]
    assert calls[0]["arguments"]["near"] == "王府井" and len(calls) == 1  # found right there, nothing widened
    rows = results[0]["rows"]
    assert rows and results[0]["count"] >= 2
    db = agent.tools.db
    shares = []
    for r in rows:
        full = db.by_name[r["名称"]]
        food = _food(full)
        fitting = r["fitting_dishes"]
        assert not dish_matches(full["名称"], "meat")  # no meat place by name (烤鸭, 涮肉)
        assert fitting and set(fitting) <= set(food) and 2 * len(fitting) >= len(food)
        assert not any(dish_matches(d, "meat") and "素" not in d for d in fitting)
        assert fitting[0] in reply  # the reply names the dishes that fit
        shares.append(len(fitting) / len(food))
    assert shares == sorted(shares, reverse=True)  # the places most of whose food fits come first
    assert said in reply and ("素食" if lang == "zh" else "vegetarian") in reply


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_meat_place_by_name_stays_out_and_an_allergy_stays_strict_beside_a_vegetarian(runtime, lang):
    stated = "我吃素，对花生过敏。" if lang == "zh" else "I'm vegetarian and allergic to peanuts."
    asked = "故宫附近有什么吃饭的地方？" if lang == "zh" else "Where can we eat near the Forbidden City?"
    agent = TravelAgent(runtime.open(f"veg-peanut-{lang}"))
    chat_turn(agent, stated)
    reply, calls, results = chat_turn(agent, asked)
    assert sorted(calls[0]["arguments"]["avoid"]) == ["meat", "peanut"]
    db = agent.tools.db
    assert results[-1]["count"] > 8  # before: 8 near 故宫 for meat alone, fewer with peanuts
    for r in results[-1]["rows"]:
        full = db.by_name[r["名称"]]
        # the allergy: not one dish with peanuts, whatever else the menu has
        assert not any(dish_matches(d, "peanut") for d in list(full.get("推荐菜") or []) + [full["名称"]])
    from weaver.agent.diet_styles import style_fit, style_kitchen

    # a roast-duck house with meat-free sides is still no place for a vegetarian
    ducks = [r for r in db.restaurant if "烤鸭" in r["名称"]]
    assert ducks and all(style_fit(r["名称"], _food(r), ["meat"]) is None for r in ducks)
    # the vegetarian kitchens near 故宫 come before every mixed menu
    kitchens = [style_kitchen(r["名称"], ["meat"]) for r in results[-1]["rows"]]
    assert kitchens[0] and kitchens == sorted(kitchens, reverse=True)


def test_the_rule_keeps_menus_mostly_meat_free_and_drops_meat_centred_ones():
    from weaver.agent.diet_styles import style_fit

    # half the food and at least two dishes; drinks and sauces count neither way
    assert style_fit("小馆", ["拍黄瓜", "地三鲜", "红烧肉", "冰桔茶"], ["meat"]) == ["拍黄瓜", "地三鲜"]
    assert style_fit("小馆", ["拍黄瓜", "红烧肉", "宫保鸡丁", "酸梅汤"], ["meat"]) is None
    assert style_fit("小馆", ["拍黄瓜", "可乐"], ["meat"]) is None  # one dish is no meal
    assert style_fit("酒吧", ["各种咖啡", "柠檬水"], ["meat"]) is None  # nothing to eat that fits
    assert style_fit("涮肉坊", ["大白菜", "冻豆腐", "手切鲜羊肉"], ["meat"]) is None  # a meat place by name


@pytest.mark.parametrize("text", ["王府井附近有素食的吗？", "Any vegetarian places near Wangfujing?"])
def test_asking_for_vegetarian_places_near_a_place_searches_and_records_no_diet(runtime, text):
    agent = TravelAgent(runtime.open("veg-asked"))
    reply, calls, results = chat_turn(agent, text)
    assert calls and calls[0]["tool"] == "search_restaurants", (calls, reply)
    assert calls[0]["arguments"].get("avoid") == ["meat"] and calls[0]["arguments"].get("near") == "王府井"
    assert results[-1]["count"] > 0  # what the question asked, for this search only
    assert not [r for r in agent.weaver.constraints() if r.slot == "diet"]


@pytest.mark.parametrize(
    "dish,meat", [("麻婆豆腐", True), ("蚂蚁上树", True), ("红烧狮子头", True), ("家常豆腐", False), ("地三鲜", False)]
)
def test_dishes_whose_names_hide_their_meat_are_not_meat_free(dish, meat):
    from weaver.agent.diet_lexicon import dish_matches

    assert dish_matches(dish, "meat") is meat
