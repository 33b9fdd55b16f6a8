"""Which of the places a route question names is where it starts and which is where it goes.

"从建国门到香山" names them in order, but "去香山怎么坐地铁？从建国门出发" and "How do I get to Xiangshan from
Jianguomen?" name the destination first: the words around each mention say its role (从 / from / 我在 / "I'm at"
before it, or 出发 after it: the start; 去 / 到 / to before it: the end), not the order they were said in.

>>> route_order("How do I get to Xiangshan from Jianguomen?", ["香山公园", "建国门"])
['建国门', '香山公园']
>>> route_order("去香山怎么坐地铁？从建国门出发", ["香山公园", "建国门"]), route_order("从建国门到香山", ["建国门", "香山公园"])
(['建国门', '香山公园'], ['建国门', '香山公园'])
>>> route_order("故宫和天坛哪个离地铁近？", ["故宫", "天坛"])  # no roles said: as named
['故宫', '天坛']
"""

from __future__ import annotations

import re

from .place_names import entity_mentions

__all__ = ["names_a_route", "route_order"]

# said right before a place: where the route starts ("从" / "from the" / "我在" / "I'm staying near")
_FROM_BEFORE = re.compile(
    r"(?:从|由|自|我们?(?:现在)?(?:在|住在)|\bfrom|\bstarting (?:at|from)|\bleaving|"
    r"\b(?:I'm|I am|we're|we are)\s+(?:at|in|near|staying (?:at|in|near)))\s*(?:the\s+)?$",
    re.IGNORECASE,
)
# said right after a place: where the route starts ("建国门出发" / "Jianguomen as the start")
_FROM_AFTER = re.compile(r"^\s*(?:出发|动身)")
# said right before a place: where the route goes ("去" / "到" / "to the")
_TO_BEFORE = re.compile(r"(?:去|到|往|至|前往|\bto|\btowards?|\bfor)\s*(?:the\s+)?$", re.IGNORECASE)


def _roles(text: str) -> dict[str, int]:
    """Each place named with the role its words give it: 0 where the route starts, 2 where it ends."""
    role: dict[str, int] = {}
    for start, end, (name, _) in entity_mentions(text):
        if name in role:
            continue
        before, after = text[max(0, start - 24) : start], text[end : end + 4]
        if _FROM_BEFORE.search(before) or _FROM_AFTER.match(after):
            role[name] = 0
        elif _TO_BEFORE.search(before):
            role[name] = 2
    return role


# asking for a place to stay or eat ("从王府井到故宫之间有什么酒店"): a search between two places, no route
_SEARCH_WORDS = re.compile(r"酒店|宾馆|餐厅|饭店|饭馆|吃|住|\b(?:hotels?|restaurants?|eat|stay|food)\b", re.I)


def names_a_route(text: str) -> bool:
    """Whether the message names two places as a way from one to the other ("那从雍和宫到王府井呢？", "and from the
    Lama Temple to Wangfujing?"): a route asked, though it says neither metro nor how to get there.

    >>> names_a_route("and from the Lama Temple to Wangfujing?"), names_a_route("从雍和宫到王府井呢？")
    (True, True)
    >>> names_a_route("restaurants from Wangfujing to the Forbidden City"), names_a_route("去故宫")
    (False, False)
    """
    return not _SEARCH_WORDS.search(text) and set(_roles(text).values()) == {0, 2}


def route_order(text: str, names: list[str]) -> list[str]:
    """``names`` (the places a route question names, as the planner resolved them) from the start to the end of
    the route: a place said as the start first, one said as the end last, the rest as named."""
    role = _roles(text)
    return sorted(names, key=lambda n: role.get(n, 1))
