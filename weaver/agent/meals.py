"""Which restaurants serve a meal: open at its hours (营业时间) and not a shop for another kind of eating.

The database has no meal field: a place serves dinner when its opening hours
cover 18:00-20:00 (or are unknown) and it is not a bakery, dessert or drinks shop,
a canteen, or a breakfast place (包子铺, 早点). Lunch needs 11:30-13:00.

>>> serves_meal({"名称": "便宜坊烤鸭", "营业时间": "11:00-21:30", "推荐菜": ["烤鸭"]}, "dinner")
True
>>> serves_meal({"名称": "庆丰包子铺(八达岭店)", "营业时间": "6:00-20:00", "推荐菜": ["包子"]}, "dinner")
False
>>> serves_meal({"名称": "某大学第一食堂", "营业时间": "6:30-19:00"}, "dinner"), serves_meal({"名称": "X", "营业时间": "周一至周日 10:00-14:00"}, "dinner")
(False, False)
>>> serves_meal({"名称": "大顺斋", "推荐菜": ["特色小吃", "糖卷果", "虎皮卷", "萨其马"]}, "dinner")
False
"""

from __future__ import annotations

import re

__all__ = ["serves_meal", "open_hours", "MEAL_HOURS", "NOT_DISHES"]

MEAL_HOURS = {"breakfast": (7.5, 9.0), "lunch": (11.5, 13.0), "dinner": (18.0, 20.0), "late-night": (22.0, 23.5)}
_NOT_A_MEAL = re.compile(
    r"蛋糕|甜品|甜点|烘焙|面包|泡芙|咖啡|奶茶|茶饮|饮品|冰淇淋|冰激凌|果汁|水果|奶酪店|酸奶|糕点|稻香村|"
    r"食堂|大学|学院|酒吧|KTV|游泳馆|bakery|cafe|coffee|dessert|cake",
    re.IGNORECASE,
)
# what a place recommends: pastries and snacks, or dishes of a meal
_PASTRY = re.compile(
    r"糕|酥|饼|卷|小吃|萨其马|点心|甜|奶|冰|包子|豆汁|焦圈|艾窝窝|驴打滚|糖|茶|咖啡|蛋挞|布丁|慕斯|泡芙|"
    r"哈根达斯|提拉米苏|香草|巧克力|圣代|面包|法棒|乳酪|吐司"
)
# placeholders and tags in the lists ("other", "none", "time-honoured brand", "open late"): no dish, no snack
NOT_DISHES = frozenset(
    {"其他", "其它", "没有", "当地口味", "老字号", "特色小吃", "深夜营业", "美食林风味", "美食林臻选", "老建筑餐厅"}
)
_DISH = re.compile(r"菜|鸡|鸭|鱼|肉|锅|饭|面|汤|烤|炒|烧|丁|排|虾|牛|羊|腩|涮|串|豆腐")
_BREAKFAST_ONLY = re.compile(r"包子铺|早点|早餐|豆浆|油条|煎饼")
_SPAN = re.compile(r"(\d{1,2})[:：](\d{2})\s*[-–~至到]\s*(?:次日|凌晨)?\s*(\d{1,2})[:：](\d{2})")


def open_hours(text: str | None) -> list[tuple[float, float]]:
    """The opening spans of a 营业时间 string in hours (a span past midnight ends after 24)."""
    out = []
    for m in _SPAN.finditer(text or ""):
        a = int(m.group(1)) + int(m.group(2)) / 60
        b = int(m.group(3)) + int(m.group(4)) / 60
        out.append((a, b + 24 if b <= a else b))
    return out


def serves_meal(row: dict, meal: str) -> bool:
    name = row.get("名称", "")
    if meal != "breakfast" and (_NOT_A_MEAL.search(name) or _BREAKFAST_ONLY.search(name)):
        return False
    if meal in ("lunch", "dinner"):
        items = [d for d in row.get("推荐菜") or [] if d not in NOT_DISHES]
        pastry = sum(1 for d in items if _PASTRY.search(d) and not _DISH.search(d))
        if items and pastry * 2 > len(items):
            return False  # mostly pastries and snacks: not a place for a meal
        if any(_BREAKFAST_ONLY.search(d) for d in items):
            return False  # its own dishes say breakfast (自助早餐, 豆浆油条)
    spans = open_hours(row.get("营业时间"))
    if not spans:
        return True  # hours unknown: the data does not rule it out
    lo, hi = MEAL_HOURS[meal]
    return any(a <= lo and b >= hi for a, b in spans)
