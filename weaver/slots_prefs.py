"""Preference slots beside :mod:`weaver.slots`: amenities, hotel class, dishes wanted, quiet, free tickets, meal.

These are constraints a user states for a decision ("酒店要有健身房", "a luxury
hotel", "想吃烤鸭", "安静一点", "门票免费的景点") but that never supersede on
arrival: a second amenity adds to the first, so they are read here and not by
:func:`weaver.slots.read_slots` (whose values drive supersede). The constraint
memory (:mod:`weaver.constraints`) reads both. Values are canonical English keys
(``gym``, ``luxury``) so Chinese and English statements of one wish compare equal.

>>> [v.describe() for v in read_prefs("酒店要有健身房和免费早餐，最好是豪华型的，安静一点")]
['amenity/gym eq gym', 'amenity/free breakfast eq free breakfast', 'hotel_type eq luxury', 'quiet eq yes']
>>> [v.describe() for v in read_prefs("I'd like a hotel with a swimming pool and wifi, and dinner should serve 北京烤鸭")]
['amenity/pool eq pool', 'amenity/wifi eq wifi', 'dish/北京烤鸭 eq 北京烤鸭']
>>> [v.describe() for v in read_prefs("想吃宫保鸡丁，门票免费的景点")]
['dish/宫保鸡丁 eq 宫保鸡丁', 'budget/ticket max 0']
>>> read_prefs("这家酒店有健身房吗？"), meal_of("晚饭去哪家餐厅？"), meal_of("Where should we have lunch?")
([], 'dinner', 'lunch')
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["read_prefs", "meal_of", "AMENITIES", "HOTEL_TYPES"]

# canonical key -> how people say it (the CrossWOZ facility names among them)
AMENITIES = {
    "free breakfast": r"免费早餐|早餐免费|早餐服务免费|free breakfast|breakfast included",
    "breakfast": r"(?<!免费)早餐(?!免费)|breakfast(?! included)",
    "wifi": r"wifi|wi-fi|无线网|无线上网",
    "broadband": r"宽带上网|宽带|broadband|wired internet",
    "gym": r"健身房|健身|gym|fitness",
    "pool": r"室内游泳池|室外游泳池|游泳池|泳池|(?:swimming )?pool",
    "parking": r"停车位|停车场|停车|parking",
    "airport pickup": r"接机服务|接机|airport (?:pickup|shuttle|transfer)",
    "station pickup": r"接站服务|接站|station pickup",
    "wake-up call": r"叫醒服务|叫醒|wake-?up call",
    "hot water": r"24小时热水|热水|hot water",
    "non-smoking": r"无烟房|无烟|non-?smoking",
    "laundry": r"洗衣服务|洗衣|laundry",
    "luggage storage": r"行李寄存|luggage storage|left luggage",
    "hair dryer": r"吹风机|hair ?dryer",
    "business centre": r"商务中心|business cent(?:re|er)",
    "meeting room": r"会议室|meeting room",
    "spa": r"(?<![A-Za-z])spa(?![A-Za-z])|水疗",
    "sauna": r"桑拿|sauna",
    "hot spring": r"温泉|hot spring",
    "heating": r"暖气|heating",
    "accessible": r"残疾人设施|无障碍|wheelchair|accessible",
    "car rental": r"租车|car rental",
    "babysitting": r"看护小孩|babysitting",
    "foreign guests": r"接待外宾|foreign guests",
    "western restaurant": r"西式餐厅|西餐厅|western restaurant",
    "chinese restaurant": r"中式餐厅|中餐厅|chinese restaurant",
    "international calls": r"国际长途电话|international calls",
}
HOTEL_TYPES = {
    "economy": r"经济型|经济实惠的酒店|budget hotel|economy",
    "comfort": r"舒适型|comfort(?:able)? (?:class|type|hotel)|mid-?range",
    "upscale": r"高档型|高档|upscale|high-end",
    "luxury": r"豪华型|豪华|luxury|five-star|5-star|五星",
}
_AMENITY = re.compile("|".join(f"(?P<a{i}>{p})" for i, p in enumerate(AMENITIES.values())), re.IGNORECASE)
_AMENITY_KEYS = list(AMENITIES)
_TYPE = re.compile("|".join(f"(?P<t{i}>{p})" for i, p in enumerate(HOTEL_TYPES.values())), re.IGNORECASE)
_TYPE_KEYS = list(HOTEL_TYPES)
# an amenity is wanted when it is asked of the hotel ("要有", "with", "needs"), not when asked about ("有…吗")
_WANT = re.compile(
    r"要有|需要|得有|必须有|最好有|要带|带|提供|有|要|with|needs?|must have|should have|has|have|"
    r"offers?|wants?|and|和|、|,|，",
    re.IGNORECASE,
)
_HOTEL = re.compile(r"酒店|宾馆|住宿|住|hotel|room|stay", re.IGNORECASE)
_ASKS = re.compile(r"[吗？?]|有没有|是否|does|is there|do they", re.IGNORECASE)
_CLAUSE = re.compile(r"[。！!；;\n]|(?<=[A-Za-z])\.\s")
_QUIET = re.compile(r"安静|清静|僻静|不吵|别太吵|不要太吵|quiet|peaceful|not noisy", re.IGNORECASE)
_DISH_ZH = re.compile(
    r"(?:想吃|要吃|想尝尝|想尝|推荐菜(?:要|得|最好)?(?:有|是)|有道菜叫|最好能吃到|能吃到)"
    r"([\u4e00-\u9fff]{2,8}?|[A-Za-z][A-Za-z' ]{1,24}?)(?=的|这道菜|[，,。！!；;？?]|$|吧|了)"
)
_DISH_EN = re.compile(
    r"\b(?:serves?|serving|a dish called|the dish|on the menu:?|craving|want to (?:eat|try))\s+"
    r"([\u4e00-\u9fff]{2,8}|[A-Za-z][A-Za-z' -]{2,30}?)(?=[,.;!?]|\s+(?:and|please|for|if)\b|$)",
    re.IGNORECASE,
)
_FREE_TICKET = re.compile(
    r"门票免费|免费的景点|免费景点|不要门票|free (?:entry|admission|attractions?|sights?)|"
    r"(?:entry|admission|tickets?) (?:is |are |should be )?free",
    re.IGNORECASE,
)
_MEALS = {
    "breakfast": r"早餐|早饭|早点|早上吃|早上想吃|breakfast",
    "lunch": r"午餐|午饭|中午饭|中饭|中午.{0,3}吃|lunch",
    "dinner": r"晚餐|晚饭|晚上.{0,3}吃|晚宴|dinner|supper",
    "late-night": r"夜宵|宵夜|late[- ]night (?:snack|food)",
}
_MEAL = re.compile("|".join(f"(?P<{k.replace('-', '_')}>{p})" for k, p in _MEALS.items()), re.IGNORECASE)


def meal_of(text: str) -> str | None:
    """The meal a message is about (breakfast / lunch / dinner / late-night), or None."""
    m = _MEAL.search(text or "")
    return _alternative(m).replace("_", "-") if m else None


def _alternative(m: re.Match[str]) -> str:
    """The named group that matched, in a pattern that is an alternation of named groups (it always has one)."""
    assert m.lastgroup is not None
    return m.lastgroup


def _sentence(text: str, pos: int) -> tuple[str, int]:
    start = 0
    for m in _CLAUSE.finditer(text):
        if m.end() > pos:
            return text[start : m.start()], start
        start = m.end()
    return text[start:], start


@lru_cache(maxsize=20_000)
def _read(text: str) -> tuple:
    from .slots import SlotValue

    out = []
    for m in _AMENITY.finditer(text):
        key = _AMENITY_KEYS[int(_alternative(m)[1:])]
        sent, s0 = _sentence(text, m.start())
        before = text[max(s0, m.start() - 8) : m.start()]
        if not _HOTEL.search(sent) or _ASKS.search(sent) or not _WANT.search(before):
            continue  # an amenity of no hotel, asked about, or only mentioned
        if key == "breakfast" and re.search(r"吃|eat|have", before, re.IGNORECASE):
            continue  # "吃早餐" is a meal, not the hotel's breakfast service
        out.append(SlotValue("amenity", key, "eq", "", key, m.span(), m.group(0)))
    for m in _TYPE.finditer(text):
        sent, _ = _sentence(text, m.start())
        if _HOTEL.search(sent) and not _ASKS.search(sent):
            key = _TYPE_KEYS[int(_alternative(m)[1:])]
            out.append(SlotValue("hotel_type", key, "eq", "", "", m.span(), m.group(0)))
    for pat in (_DISH_ZH, _DISH_EN):
        for m in pat.finditer(text):
            dish = m.group(1).strip()
            if dish and not re.fullmatch(r"(?:something|some|food|饭|东西|点什么|什么)", dish, re.IGNORECASE):
                out.append(SlotValue("dish", dish, "eq", "", dish, m.span(1), dish))
    quiet = _QUIET.search(text)
    if quiet and not _ASKS.search(_sentence(text, quiet.start())[0]):
        out.append(SlotValue("quiet", "yes", "eq", "", "", quiet.span(), quiet.group(0)))
    free = _FREE_TICKET.search(text)
    if free:
        out.append(SlotValue("budget", 0.0, "max", "CNY", "ticket", free.span(), free.group(0)))
    last: dict = {}
    for v in out:  # one value per key: the last said wins
        last[v.key] = v
    return tuple(sorted(last.values(), key=lambda v: v.span))


def read_prefs(text: str) -> list:
    """Preference slot values in ``text`` (see the module docstring), as :class:`weaver.slots.SlotValue`."""
    return list(_read(text or ""))
