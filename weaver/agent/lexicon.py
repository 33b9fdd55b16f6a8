"""Bilingual lexicon over the database: English place and dish names, diet categories, facilities, cities.

The database is Chinese; English users name places in English. This module owns the
hotels' vocabulary (facilities, hotel types) and the kinds of sight read from names;
places and cities live in ``place_lexicon``, dishes and diets in ``diet_lexicon``
(both re-exported here, where callers have always found them).
"""

from __future__ import annotations

import re

from .diet_lexicon import (
    CATEGORY_NAMES,
    DIET_CATEGORIES,
    DISH_ALIASES,
    avoid_pattern,
    categories_in,
    category_of,
    dish_matches,
)
from .place_lexicon import (
    AREAS_ZH,
    CITY_EN,
    DISTRICTS_EN,
    DISTRICTS_SHORT,
    OTHER_CITIES,
    PLACE_ALIASES,
    PLACE_ALIASES_ZH,
)

__all__ = [
    "PLACE_ALIASES",
    "PLACE_ALIASES_ZH",
    "AREAS_ZH",
    "DISTRICTS_EN",
    "DISTRICTS_SHORT",
    "CITY_EN",
    "DISH_ALIASES",
    "DIET_CATEGORIES",
    "CATEGORY_NAMES",
    "FACILITY_ALIASES",
    "HOTEL_TYPE_ALIASES",
    "OTHER_CITIES",
    "SIGHT_KINDS",
    "category_of",
    "categories_in",
    "dish_matches",
    "avoid_pattern",
    "english_alias_pattern",
    "sight_kind",
    "is_kind",
]

FACILITY_ALIASES: dict[str, str] = {
    "wifi": "wifi",
    "wi-fi": "wifi",
    "无线": "wifi",
    "internet": "宽带上网",
    "broadband": "宽带上网",
    "gym": "健身房",
    "fitness": "健身房",
    "健身": "健身房",
    "pool": "游泳池",
    "swimming pool": "游泳池",
    "泳池": "游泳池",
    "游泳": "游泳池",
    "parking": "停车位",
    "停车": "停车位",
    "breakfast": "早餐服务",
    "早餐": "早餐服务",
    "free breakfast": "早餐服务免费",
    "免费早餐": "早餐服务免费",
    "airport pickup": "接机服务",
    "airport shuttle": "接机服务",
    "接机": "接机服务",
    "station pickup": "接站服务",
    "接站": "接站服务",
    "spa": "SPA",
    "sauna": "桑拿",
    "桑拿": "桑拿",
    "laundry": "洗衣服务",
    "洗衣": "洗衣服务",
    "hot spring": "温泉",
    "温泉": "温泉",
    "non-smoking": "无烟房",
    "no smoking": "无烟房",
    "无烟": "无烟房",
    "bar": "酒吧",
    "meeting room": "会议室",
    "会议室": "会议室",
    "business centre": "商务中心",
    "business center": "商务中心",
    "car rental": "租车",
    "租车": "租车",
    "heating": "暖气",
    "暖气": "暖气",
    "accessible": "残疾人设施",
    "wheelchair": "残疾人设施",
    "无障碍": "残疾人设施",
    "luggage storage": "行李寄存",
    "行李寄存": "行李寄存",
    "babysitting": "看护小孩服务",
    "foreign guests": "接待外宾",
    "西餐厅": "西式餐厅",
    "western restaurant": "西式餐厅",
    "中餐厅": "中式餐厅",
    "chinese restaurant": "中式餐厅",
}
HOTEL_TYPE_ALIASES: dict[str, str] = {
    "经济型": "经济型",
    "经济": "经济型",
    "budget hotel": "经济型",
    "economy": "经济型",
    "cheap hotel": "经济型",
    "舒适型": "舒适型",
    "舒适": "舒适型",
    "comfort": "舒适型",
    "mid-range": "舒适型",
    "midrange": "舒适型",
    "高档型": "高档型",
    "高档": "高档型",
    "upscale": "高档型",
    "high-end": "高档型",
    "四星": "高档型",
    "豪华型": "豪华型",
    "豪华": "豪华型",
    "luxury": "豪华型",
    "五星": "豪华型",
    "five-star": "豪华型",
    "5-star": "豪华型",
}


def english_alias_pattern(table: dict[str, str]) -> re.Pattern:
    keys = sorted(table, key=len, reverse=True)
    return re.compile(r"(?<![a-z])(?:" + "|".join(re.escape(k) for k in keys) + r")(?![a-z])", re.IGNORECASE)


# kinds of sight: the database has no type field, so a kind is read from the name (what the user says on the left,
# what a database name holds on the right); "故宫博物院" names a palace that is also a museum
SIGHT_KINDS = {
    "museum": (
        r"博物馆|博物院|纪念馆|美术馆|展览馆|艺术馆|科技馆|\b(?:museums?|galler(?:y|ies)|exhibitions?)\b",
        r"博物馆|博物院|纪念馆|美术馆|展览馆|陈列馆|艺术馆|科技馆",
    ),
    "park": (r"公园|植物园|动物园|园林|\b(?:parks?|gardens?|zoos?)\b", r"公园|植物园|动物园|园$|花园"),
    "temple": (
        r"寺庙|寺院|寺|庙|道观|教堂|\b(?:temples?|church(?:es)?|mosques?|monaster(?:y|ies))\b",
        r"寺|庙|观$|坛|教堂",
    ),
}
_KIND_SAID = {k: re.compile(said, re.IGNORECASE) for k, (said, _) in SIGHT_KINDS.items()}
_KIND_NAMED = {k: re.compile(named) for k, (_, named) in SIGHT_KINDS.items()}


def sight_kind(text: str) -> str | None:
    """The kind of sight a message asks for, the place names in it already removed.

    >>> sight_kind("Any museum you'd suggest?"), sight_kind("附近有什么公园"), sight_kind("有什么景点")
    ('museum', 'park', None)
    >>> sight_kind("a hotel with parking")
    >>> sight_kind("美术馆旁边有公园吗"), sight_kind("a museum near a park")
    ('park', 'museum')
    """
    # "国家博物馆附近的公园": the thing asked for is named last in Chinese, first in English ("a park near ...")
    hits = sorted((m.start(), k) for k, pat in _KIND_SAID.items() for m in pat.finditer(text or ""))
    if not hits:
        return None
    return hits[-1][1] if re.search(r"[\u4e00-\u9fff]", text) else hits[0][1]


def is_kind(name: str, kind: str) -> bool:
    """Is a database sight of this kind, by its name?

    >>> is_kind("首都博物馆", "museum"), is_kind("天坛", "temple"), is_kind("北海公园", "museum")
    (True, True, False)
    """
    return bool(_KIND_NAMED[kind].search(name))
