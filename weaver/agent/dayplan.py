"""A day-by-day plan told ("第一天想去故宫，第二天去颐和园", "Day 1 we want the Temple of Heaven, day 2 the Great
Wall"): each day's sight goes into the plan for that day (tickets for the party, checked against the budget),
rather than a look-up of the first sight named and the rest forgotten.

>>> day_plan("第一天想去故宫，第二天去颐和园。"), day_plan("Day 1 we want the Temple of Heaven, day 2 the Great Wall.")
([(1, '故宫'), (2, '颐和园')], [(1, '天坛'), (2, '八达岭长城')])
>>> day_plan("第二天中午在颐和园附近吃饭，推荐一家"), day_plan("把颐和园加到第一天的行程"), day_plan("我们玩三天")
([], [], [])
"""

from __future__ import annotations

import re

from .numbers import trip_day

__all__ = ["day_plan"]

_DAY_START = re.compile(
    r"(?=第\s*[一二两三四五六七八九十\d]{1,3}\s*天|\bday\s*(?:\d{1,2}|one|two|three|four|five|six|seven)\b|\bon the (?:first|second|third|fourth|fifth) day\b)",
    re.IGNORECASE,
)
# asking for something (a search, a meal, a place near), adding one item, or not about sights: no plan told
_NOT_A_PLAN = re.compile(
    r"推荐|找|搜|附近|周边|吃|住|酒店|餐厅|加到|加入|放进|行程|计划|删|取消|去掉|移除|不去|[?？吗]|\b(?:find|search|"
    r"recommend|near|eat|hotel|restaurant|add|plan|remove|cancel|drop|delete|skip)\b",
    re.IGNORECASE,
)


def day_plan(text: str) -> list[tuple[int, str]]:
    """``[(day, attraction)]`` when the message tells which sight each day is for, else []."""
    from .understanding import find_entities

    if _NOT_A_PLAN.search(text):
        return []
    out = []
    for seg in _DAY_START.split(text):
        day = trip_day(seg)
        sights = [name for name, dom in find_entities(seg) if dom == "attraction"]
        if day and sights:
            out += [(day, s) for s in sights]
    return out
