"""Diet styles (vegetarian) as against strict avoidances (allergies, halal, "不吃辣"): which restaurants suit one.

A style is a way of eating that a mixed menu can serve; the search keeps a place with
enough dishes that fit and ranks it by how much of its menu does, where an allergy
leaves out every place with one matching dish.
"""

from __future__ import annotations

import re

from .diet_lexicon import dish_matches

__all__ = ["DIET_STYLES", "food_dishes", "style_fit", "style_kitchen"]

# Diet *styles*, as against strict avoidances. A vegetarian eats well at a mixed restaurant that has enough
# meat-free dishes (Chinese tables share dishes, and most kitchens cook vegetables well); an allergy, a religious
# rule ("halal" is read as pork, and a pork kitchen is what such a diner avoids) or "不吃辣" is about the food
# itself, so one matching dish or name keeps the strict rule: the place is left out.
DIET_STYLES = frozenset({"meat"})  # the replies call its fitting dishes 素菜 / meat-free (result_texts)
# a name that says the whole kitchen keeps the style: every dish fits (a vegetarian kitchen's 糖醋里脊 is mock meat)
_STYLE_KITCHENS = {"meat": ("素食", "素菜", "净素", "素斋")}
# "素回锅肉", "素水煮鱼": 素 before a dish names its meatless version (not 荤素, meat and vegetables together)
_MOCK = re.compile(r"(?<!荤)素(?!菜)")
# a drink or a dipping sauce is listed among the dishes but is no food to make a meal of: counted neither way
_NOT_FOOD = re.compile(r"(?:茶|水|汁|咖啡|拿铁|摩卡|卡布奇诺|酒|饮料?|可乐|奶昔|蘸料|麻酱|酸梅汤|豆浆)$")


def food_dishes(dishes: list[str]) -> list[str]:
    """The dishes that are food (drinks and sauces left out).

    >>> food_dishes(["冰桔茶", "捞王特色蘸料", "炸豆皮", "美式咖啡"])
    ['炸豆皮']
    """
    return [d for d in dishes if not _NOT_FOOD.search(d.strip())]


def style_kitchen(name: str, styles: list[str]) -> bool:
    """Does the restaurant's name say its whole kitchen keeps the styles (素食餐厅)?"""
    return bool(styles) and all(any(w in name for w in _STYLE_KITCHENS.get(s, ())) for s in styles)


def style_fit(name: str, dishes: list[str], styles: list[str]) -> list[str] | None:
    """The signature dishes a diet style can eat at a restaurant, or None when the place does not suit it.

    A place whose name says its kitchen keeps the style (素食餐厅) suits it with every dish. Otherwise it suits
    the style when its name is no meat place (烤鸭, 涮肉: the name says what the kitchen is for), at least half
    of its listed food dishes fit, and at least two of them (one dish is no meal, so a place listing a single
    dish or only drinks is not promised to the diner; "half" keeps out kitchens built around meat whose menu
    merely has a side salad). Drinks and sauces count neither way.

    >>> style_fit("素心斋", ["素什锦", "家常豆腐", "红烧肉"], ["meat"])
    ['素什锦', '家常豆腐']
    >>> style_fit("老家肉饼", ["素馅饼", "小米粥"], ["meat"]), style_fit("小馆", ["烤鸭", "鸭架汤", "拍黄瓜"], ["meat"])
    (None, None)
    >>> style_fit("家常菜", ["素回锅肉", "小炒肉", "地三鲜"], ["meat"])  # 素X: the meatless X
    ['素回锅肉', '地三鲜']
    >>> style_fit("莲香素食餐厅", ["糖醋里脊", "素什锦"], ["meat"])  # a vegetarian kitchen: its 里脊 is mock meat
    ['糖醋里脊', '素什锦']
    """
    food = food_dishes(dishes)
    if style_kitchen(name, styles):
        return food
    if any(dish_matches(name, s) for s in styles):
        return None
    fitting = [d for d in food if _MOCK.search(d) or not any(dish_matches(d, s) for s in styles)]
    if len(fitting) < 2 or 2 * len(fitting) < len(food):
        return None
    return fitting
