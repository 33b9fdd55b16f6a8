"""Typed slot values in a message: budgets with their bounds, dates, party size, nights, diet, rating, location.

One reader for everything that compares what a user said about a slot: the
supersede-on-arrival hook (:mod:`weaver.curation.arrival`), the review pass and,
later, structured constraint memory. Bilingual, numerals in digits, Chinese
characters or English words (:mod:`weaver.numerals`).

Precision first: an amount is a budget only when it is framed as one (预算 /
budget, a bound such as 以内 / at most, a scope such as 每晚 / per person); an
amount the reader cannot parse stays text (``value`` None) and never becomes a
bound; a date is a trip date only with a trip word (出发 / check in / 日期 ...).

>>> [v.describe() for v in read_slots("预算别超过五千，酒店每晚六百左右")]
['budget/total max 5000', 'budget/night about 600']
>>> [v.describe() for v in read_slots("I'd like to keep it between 300 and 450 per night, for 2 people")]
['budget/night range 300-450', 'party eq 2']
>>> [v.describe() for v in read_slots("把预算从五千改成八千")]
['budget/total max 8000']
>>> [v.describe() for v in read_slots("我们五月一号出发，住三晚，评分4.5以上，住在王府井附近")]
['date/start eq 05-01', 'nights eq 3', 'rating min 4.5', 'location/hotel eq 王府井']
>>> [v.describe() for v in read_slots("I'm no longer vegetarian, and I can eat spicy food now")]
['diet/style lift none', 'diet/spicy lift spicy']
>>> [v.describe() for v in read_slots("我对海鲜过敏，不吃辣")]
['diet/seafood restrict seafood', 'diet/spicy restrict spicy']
>>> read_slots("I spent $200 on shoes on May 3rd"), [v.value for v in read_slots("预算大概几千块")]
([], [None])
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .numerals import Numeral, find_numbers, small_number
from .slots_diet import read_diet
from .text import content_words, tokenize

__all__ = [
    "SlotValue",
    "SLOTS",
    "read_slots",
    "changes",
    "may_restate",
    "CHANGE_CUES",
    "asks_history",
    "is_change",
    "is_another",
    "residue",
]

SLOTS = ("budget", "date", "party", "nights", "diet", "rating", "location")

# a later statement that revises an earlier one (bilingual, general)
CHANGE_CUES = re.compile(
    r"改成|改为|改到|换成|换到|变成|调整|调到|提高|增加到|加到|涨到|降到|降低|减到|更新|不再|其实|现在|变了|改主意|"
    r"\b(?:instead|now|actually|chang(?:e|ed|ing)|increas(?:e|ed)|rais(?:e|ed)|lower(?:ed)?|updat(?:e|ed)|"
    r"revis(?:e|ed)|no longer|switch(?:ed)?|bump(?:ed)?|make it|moved?)\b",
    re.IGNORECASE,
)
# a query about what was said before a change
_HISTORY = re.compile(
    r"之前|以前|原来|原先|本来|最初|起初|一开始|先前|更新前|改之前|变之前|曾经|改过|变过|旧的|历史|"
    r"\b(?:before|previous(?:ly)?|originally|original|earlier|used to|at first|initially|old|former|history|"
    r"chang(?:e|ed|es)|was my|were my)\b",
    re.IGNORECASE,
)


# a second thing of the same kind ("再推荐一个…的餐馆", "another hotel"): its constraints are its own
_ANOTHER = re.compile(
    r"再推荐|再找|再帮|再来|另一|另外一|还想找|还要找|还想去|又想|\b(?:another|one more|a second|also)\b", re.IGNORECASE
)


# courtesy, requests and the kinds of place a preference is for: nothing a superseded statement would lose
_FILLER = re.compile(
    r"元|块|yuan|rmb|trip|行程|旅行|我们|总|整个|请|麻烦|记得|注意|考虑|推荐|点菜|订|选|时候|一下|吧|"
    r"酒店|宾馆|餐厅|餐馆|饭店|景点|\b(?:my|our|is|are|am|i'm|we're|whole|please|keep|mind|remember|note|that|when|"
    r"pick(?:ing)?|choos(?:e|ing)|book(?:ing)?|order(?:ing)?|recommend(?:ing)?|hotels?|restaurants?|dishes|"
    r"attractions?|sights?|so|also|just|fine|ok|okay|let's|let|dinner|lunch|meals?|for|me|us)\b",
    re.IGNORECASE,
)


def residue(text: str) -> set[str]:
    """Content words of ``text`` beyond its slot values and the words that frame them.

    What an earlier statement would lose if it were superseded as a whole.

    >>> sorted(residue("我的总预算是五千元。")), sorted(residue("My budget is 5000, and my daughter loves pandas"))
    ([], ['daughter', 'loves', 'pandas'])
    """
    from .cues import SLOT_CUES

    spans = sorted(v.span for v in read_slots(text))
    rest, pos = [], 0
    for s, e in spans:
        rest.append(text[pos:s])
        pos = max(pos, e)
    rest.append(text[pos:])
    t = " ".join(rest)
    for pat in (_MAX, _MIN, _ABOUT, _NAMED, _TOTAL, _NIGHT, _PERSON, _TICKET, CHANGE_CUES, *SLOT_CUES.values()):
        t = pat.sub(" ", t)
    t = _FILLER.sub(" ", t)
    return {w for w in content_words(t) if not re.fullmatch(r"[\d.,]+|[一二两三四五六七八九十百千万]+", w)}


def is_another(text: str) -> bool:
    return bool(_ANOTHER.search(text)) and not is_change(text)


_ASKS_ABOUT = re.compile(
    r"^(?:(?:好的|好|嗯|谢谢|行|哦|那么?)[，,。！!]?\s*)?(?:这个|那个|这家|那家|这里|那里|它|该)[^，,。！!？?]{0,20}(?:吗|是不是[^，,。！!？?]{0,12})\s*[？?]?\s*$|"
    r"^\s*(?:ok(?:ay)?|great|thanks)?[,.!]?\s*(?:is|does|are|was|has)\s+(?:it|this|that|this one|that one|the "
    r"(?:hotel|restaurant|place|attraction|sight))\b[^?!]*\?\s*$",
    re.IGNORECASE,
)


def asks_about(text: str) -> bool:
    """True when the message only asks about a shown item's value: it states no constraint of the user's.

    >>> asks_about("这个景点的评分是5分吗？"), asks_about("Is it rated above 4.5?"), asks_about("评分要5分的")
    (True, True, False)
    >>> asks_about("预算五千。这家评分是5分吗？"), asks_about("这几个景点中哪几个是评分在4分以上的？")
    (False, False)
    """
    return bool(_ASKS_ABOUT.search(text or ""))


def asks_history(query: str) -> bool:
    """True when a query asks about an earlier value ("what was my budget before?", "之前的预算").

    >>> asks_history("what was my budget before?"), asks_history("之前的预算是多少"), asks_history("我的预算是多少")
    (True, True, False)
    """
    return bool(_HISTORY.search(query))


def is_change(text: str) -> bool:
    return bool(CHANGE_CUES.search(text))


@dataclass(frozen=True)
class SlotValue:
    """One slot stated in a message.

    ``slot``: one of :data:`SLOTS`. ``value``: a number (budget, party, nights, rating), ``"MM-DD"``
    (a date; ``"--DD"`` when only the day is said), a diet item or style, a place; None when the
    amount could not be read (``text`` keeps what was said). ``bound``: ``max`` / ``min`` / ``eq`` /
    ``about`` / ``range`` (``value``..``high``), ``delta`` (a budget changed by ``value``, signed: "再加两千"); for
    diet ``restrict`` / ``lift``. ``scope`` tells slots
    apart that must not be compared: ``total`` / ``night`` / ``person`` / ``ticket`` budgets, ``start`` /
    ``end`` dates, the diet item (or ``style`` for vegetarian / vegan), the location's ``hotel`` /
    ``restaurant``. ``explicit``: the slot is named in words (预算, per night, 日期 ...), not only implied.
    """

    slot: str
    value: float | str | None
    bound: str
    unit: str = ""
    scope: str = ""
    span: tuple[int, int] = (0, 0)
    text: str = ""
    high: float | None = None
    explicit: bool = True

    @property
    def key(self) -> tuple[str, str]:
        return (self.slot, self.scope)

    @property
    def known(self) -> bool:
        return self.value is not None

    def shown(self) -> str:
        if self.value is None:
            return repr(self.text)
        if isinstance(self.value, float):
            if self.bound == "delta":
                return f"{self.value:+g}"
            v = f"{self.value:g}"
            return f"{v}-{self.high:g}" if self.bound == "range" and self.high is not None else v
        return str(self.value)

    def describe(self) -> str:
        name = f"{self.slot}/{self.scope}" if self.scope else self.slot
        return f"{name} {self.bound} {self.shown()}".strip()

    def same_as(self, other: "SlotValue") -> bool:
        """The same statement of the slot (a restatement), comparing parsed values only."""
        a, b = self.value, other.value
        if self.slot == "date":
            a, b = _day_in(a, b), _day_in(b, a)
        if self.slot == "budget":
            # "at most 5000" restated as "a budget of 5000" is the same budget; a range or a floor is not
            ceiling = ("max", "eq", "about")
            same_bound = self.bound == other.bound or (self.bound in ceiling and other.bound in ceiling)
            return a == b and same_bound and self.high == other.high
        if self.slot == "location":
            return bool(a and b and (str(a).lower() in str(b).lower() or str(b).lower() in str(a).lower()))
        return a == b and self.bound == other.bound and self.high == other.high


def _day_in(v, other):
    """A bare day ("the 2nd") takes the month of the date it is compared with."""
    if isinstance(v, str) and v.startswith("--") and isinstance(other, str) and not other.startswith("--"):
        return other[:2] + v[1:]
    return v


# ------------------------------------------------------------------ context
_CLAUSE_END = re.compile(r"[，,。;；!！?？\n]|(?<=[A-Za-z])\.\s")


def _around(text: str, start: int, end: int, before: int = 14, after: int = 10) -> tuple[str, str]:
    """The words just before and after a span, within its clause."""
    b = _CLAUSE_END.split(text[max(0, start - before) : start])[-1]
    a = _CLAUSE_END.split(text[end : end + after])[0]
    return b, a


def _re(pattern: str) -> re.Pattern:
    return re.compile(pattern, re.IGNORECASE)


# ------------------------------------------------------------------ budgets
_CURRENCY_AFTER = _re(r"^\s*(?:元|块钱|块|rmb|yuan|cny|kuai|dollars?|usd|bucks|euros?|欧元|美元|美金|刀)")
_CURRENCY_BEFORE = _re(r"(?:[$¥￥€]|rmb|cny|usd)\s*$")
_NOT_MONEY_AFTER = _re(
    r"^\s*(?:个|晚|天|日|号|月|年|人|位|口|岁|点|分钟|小时|公里|千米|米|颗|星|层|间|张|次|%|％|:|："
    r"|nights?\b|days?\b|people\b|persons?\b|adults?\b|guests?\b|stars?\b|years?\b|hours?\b|minutes?\b|km\b|"
    r"miles?\b|st\b|nd\b|rd\b|th\b|am\b|pm\b|of us\b)"
)
_NAMED = _re(
    r"预算|经费|价位|价格区间|价格|价钱|房价|可以花|能花|打算花|budget|price range|price|"
    r"(?:can|could|will|want to|plan to|going to) spend"
)
_MAX = _re(
    r"别超过|不超过|不能超过|不要超过|不得超过|以内|之内|以下|最多|顶多|封顶|上限|不高于|(?<!不)低于|(?<!不)少于|不到|"
    r"under|below|at most|no more than|not more than|max(?:imum)?|up to|within|(?<!no )(?<!not )less than|or less|"
    r"cap|tops"
)
_MIN = _re(r"不低于|不少于|至少|起码|最低|以上|or more|at least|minimum|no less than|more than|over|above")
_ABOUT = _re(r"左右|上下|大约|大概|约|差不多|around|about|roughly|approximately|approx|~")
_NIGHT = _re(r"每晚|一晚|每天晚上|每夜|/晚|房价|per night|a night|each night|every night|/night|nightly|room rate")
_PERSON = _re(r"人均|每人|一人|每位|per person|a head|per head|each|/person|\bpp\b")
_TICKET = _re(r"门票|票价|ticket|entrance|admission")
_TOTAL = _re(r"总共|一共|总预算|总计|整个|全部|全程|总|total|overall|altogether|whole trip|in all|all in")
_HOTEL = _re(r"酒店|宾馆|住宿|房间|民宿|hotel|room|stay|accommodation|hostel")
_FOOD = _re(r"餐厅|饭店|吃饭|吃|餐|restaurant|meal|dinner|lunch|food|eat")
_RANGE_JOIN = _re(r"^\s*(?:到|至|-|–|~|～|to|and)\s*$")
_CHANGE_JOIN = _re(
    r"^\s*(?:改成|改为|改到|提高到|提到|增加到|加到|涨到|降到|降低到|减到|调整到|调整为|调到|变成|换成|到|"
    r"->|→|to)\s*$"
)
_FROM = _re(r"(?:从|由|from)\s*$")
# "改成100到150" / "change it to 100-150": the new value is the range that follows
_CHANGED_TO = _re(
    r"(?:改成|改为|改到|换成|调到|调整到|调整为|提高到|降到|变成|(?:change|make|set) (?:it|that) to|"
    r"make it)\s*$"
)
_NEGATED = _re(r"(?:不是|并非|而不是|而非|instead of|rather than|not)\s*$")
# "预算再加两千" / "raise the budget by 2,000": a change by an amount, not a new amount ("加到一万" is one)
_MORE_BY = _re(
    r"(?:再|又)?(?<!参)(?:加|增加|添|追加|多加|提高|上调|涨|多给)了?\s*$|(?:再|又)多\s*$|(?<![最至顶差不])多了\s*$|"
    r"\b(?:up|rais(?:e|ed|ing)|increas(?:e|ed|ing)|bump(?:ed)?(?: it)?(?: up)?|add(?:ed|ing)?|extend(?:ed)?)\b"
    r"[^,.;]{0,24}?\bby\s*$|\b(?:add(?:ed|ing)?|another|an extra|extra)\s*$"
)
_LESS_BY = _re(
    r"(?:减|减少|少|降低|下调|砍|缩减|压缩|省)了?(?:掉)?\s*$|"
    r"\b(?:down|cut|lower(?:ed)?|reduc(?:e|ed|ing)|decreas(?:e|ed|ing)|trim(?:med)?)\b[^,.;]{0,24}?\bby\s*$"
)
_MORE_AFTER = _re(r"^\s*(?:元|块钱|块|yuan|rmb|cny|kuai|dollars?)?\s*(?:more|extra)\b")
_SPENT = _re(r"花了|花掉|付了|用了|spent|paid|cost me|it cost|was charged")
_VAGUE = _re(
    r"几千|几百|几万|上千|上万|数千|数百|好几千|a few (?:hundred|thousand)|several (?:hundred|thousand)|"
    r"hundreds|thousands"
)


def _money(text: str, start: int, end: int) -> bool:
    before, after = _around(text, start, end, 16, 12)
    if _NOT_MONEY_AFTER.match(after):
        return False
    return bool(
        _CURRENCY_AFTER.match(after)
        or _CURRENCY_BEFORE.search(before)
        or _NAMED.search(before)
        or _NIGHT.search(before[-8:] + " " + after[:10])
        or _PERSON.search(before[-8:] + " " + after[:10])
        or _MAX.search(before[-8:] + " " + after[:6])
        or _MIN.search(before[-8:] + " " + after[:6])
    )


_PRICE = _re(r"价格|价钱|price")
_BUDGET_WORD = _re(r"预算|经费|budget")


def _budget_scope(local: str, clause: str) -> str:
    if _NIGHT.search(local):
        return "night"
    if _PERSON.search(local):
        return "person"
    if _PRICE.search(local) and not _BUDGET_WORD.search(local):
        # a price is the price of something: the hotel's is per night, a meal's per person
        if _HOTEL.search(clause):
            return "night"
        if _FOOD.search(clause):
            return "person"
        if _TICKET.search(clause):
            return "ticket"
    if not _NAMED.search(local) and not _TOTAL.search(local):
        if _NIGHT.search(clause):  # "per night, I can now go up to 800"
            return "night"
        if _PERSON.search(clause):
            return "person"
        if _TICKET.search(clause) and not (_HOTEL.search(clause) or _FOOD.search(clause)):
            return "ticket"  # "between 20 and 50 yuan for attraction tickets"
    if _TICKET.search(local):
        return "ticket"
    if _TOTAL.search(local):
        return "total"
    if _HOTEL.search(clause) and not _NAMED.search(local):
        return "night"
    if _FOOD.search(clause) and not _NAMED.search(local):
        return "person"
    return "total"


def _budgets(text: str, taken: list[tuple[int, int]]) -> list[SlotValue]:
    # numbers another slot already read (a rating, a date, a party size) are not amounts
    nums = [n for n in find_numbers(text) if not any(s < n.end and n.start < e for s, e in taken)]
    out: list[SlotValue] = []
    skip: set[int] = set()
    for i, n in enumerate(nums):
        if i in skip:
            continue
        nxt = nums[i + 1] if i + 1 < len(nums) else None
        gap = text[n.end : nxt.start] if nxt else ""
        before, after = _around(text, n.start, n.end)
        clause_b, clause_a = _around(text, n.start, n.end, 40, 40)
        joined = bool(
            nxt and (_RANGE_JOIN.match(gap) or _CHANGE_JOIN.match(gap)) and not _NOT_MONEY_AFTER.match(text[n.end :])
        )
        if not _money(text, n.start, nxt.end if joined and nxt is not None else n.end):
            continue
        to_range = bool(joined and _RANGE_JOIN.match(gap) and _CHANGED_TO.search(before))
        if joined and not to_range and _CHANGE_JOIN.match(gap) and (_FROM.search(before) or is_change(clause_b + gap)):
            continue  # "from 5000 to 8000": the first is the old value, the next one is read as the new
        if _NEGATED.search(before):
            continue  # "不是五千" / "instead of 5000": the value said not to hold
        high, lo, end = None, n.value, n.end
        if joined and nxt is not None and _RANGE_JOIN.match(gap):
            high, end = nxt.value, nxt.end
            skip.add(i + 1)
            if high < lo:
                lo, high = high, lo
            after = _around(text, n.start, end)[1]
        local = before[-12:] + " " + after[:10]
        scope = _budget_scope(local, clause_b + clause_a)
        by = (
            +1 if _MORE_BY.search(clause_b) or _MORE_AFTER.match(text[end:]) else -1 if _LESS_BY.search(clause_b) else 0
        )
        if high is not None:
            bound = "range"
        elif by:
            bound, lo = "delta", by * lo  # resolved against the value it changes (constraints.records_from_statements)
        elif _ABOUT.search(before[-6:] + " " + after[:4]):
            bound = "about"
        elif _MAX.search(before + " " + after[:6]):
            bound = "max"
        elif _MIN.search(before + " " + after[:6]):
            bound = "min"
        else:
            bound = "max"  # a budget is a ceiling unless said otherwise
        named = bool(_NAMED.search(clause_b) or _NIGHT.search(local) or _PERSON.search(local) or _TOTAL.search(local))
        bounded = bool(_MAX.search(local) or _MIN.search(local) or _ABOUT.search(local) or high is not None or by)
        if not (named or bounded) or _SPENT.search(before):
            continue  # an amount that is neither a budget nor a limit (a price paid, a sum mentioned)
        explicit = named
        unit = "USD" if re.search(r"\$|dollar|usd|bucks|美元|美金|刀", local, re.I) else "CNY"
        out.append(SlotValue("budget", lo, bound, unit, scope, (n.start, end), text[n.start : end], high, explicit))
    for m in _VAGUE.finditer(text):  # an amount said but not readable: kept as text, never a bound
        before, after = _around(text, m.start(), m.end(), 16, 8)
        if _NAMED.search(before) or _CURRENCY_AFTER.match(after):
            scope = _budget_scope(before[-12:] + " " + after[:10], before + after)
            out.append(SlotValue("budget", None, "", "", scope, m.span(), m.group(0), None, True))
    return out


# -------------------------------------------------------------------- dates
_MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split()
_MD = r"(\d{1,2}|[一二三四五六七八九十]{1,3})"
_ZH_DATE = re.compile(_MD + r"\s*月\s*" + _MD + r"\s*[日号]?")
_ZH_DAY = re.compile(r"(?<![\d一二三四五六七八九十])" + _MD + r"\s*[日号](?!线|楼|门|房|馆|车厢|航站楼|口|位)")
_EN_DATE = _re(
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b"
    r"|\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b"
    r"|\b(\d{4})-(\d{1,2})-(\d{1,2})\b"
)
_EN_DAY = _re(r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b")
_DATE_RANGE = _re(r"^\s*(?:到|至|-|–|~|～|to|until|till|through|and)\s*$")
_END = _re(
    r"退房|离开|返回|回来|回程|回家|回去|离店|(?:^|\s)(?:才|再|就)?走(?![路过遍进])|check[- ]?out|leav(?:e|ing)(?! for)|depart(?:ing)?(?! for)|"
    r"return(?:ing)?|fly back|head(?:ing)? home|until|till|back on|住到|待到|呆到|玩到|留到|stay(?:ing)? (?:until|till)"
)
_START = _re(
    r"出发|到达|抵达|入住|动身|启程|过去|开始|去北京|来北京|到北京|去|(?:^|\s)(?:才|就|会)?到了?$|arriv(?:e|ing|al)|check[- ]?in|get(?:ting)? there|"
    r"fly(?:ing)? (?:in|out)|set(?:ting)? off|leav(?:e|ing) for|depart(?:ing)? for|start(?:ing)?|"
    r"begin(?:ning)?|travel(?:l?ing)?|trip|visit(?:ing)?|from"
)
_MONTH_WORD = _re(r"(?:下个?|这个?|本|上个?)月\s*$|\b(?:next|this) month(?:'s)?\s*(?:the\s*)?$")
_DATE_WORD = _re(r"日期|时间|行程|哪天|那天|date|dates|day")


def _md(s: str) -> int:
    return int(s) if s.isdigit() else (small_number(s) or 0)


def _date_mentions(text: str) -> list[tuple[int, int, str]]:
    found: list[tuple[int, int, str]] = []
    for m in _ZH_DATE.finditer(text):
        found.append((m.start(), m.end(), f"{_md(m.group(1)):02d}-{_md(m.group(2)):02d}"))
    for m in _EN_DATE.finditer(text):
        if m.group(1):
            mo, d = _MONTHS.index(m.group(1).lower()[:3]) + 1, int(m.group(2))
        elif m.group(4):
            mo, d = _MONTHS.index(m.group(4).lower()[:3]) + 1, int(m.group(3))
        else:
            mo, d = int(m.group(6)), int(m.group(7))
        found.append((m.start(), m.end(), f"{mo:02d}-{d:02d}"))
    taken = [(s, e) for s, e, _ in found]
    for pat in (_ZH_DAY, _EN_DAY):
        for m in pat.finditer(text):
            if not any(s <= m.start() < e for s, e in taken):
                found.append((m.start(), m.end(), f"--{_md(m.group(1)):02d}"))
    out = []
    for s, e, v in sorted(found):
        mo, d = (0 if v.startswith("--") else int(v[:2])), int(v[-2:])
        if 0 <= mo <= 12 and 1 <= d <= 31:
            out.append((s, e, v))
    return out


def _dates(text: str) -> list[SlotValue]:
    mentions = _date_mentions(text)
    out: list[SlotValue] = []
    roles: list[str | None] = [None] * len(mentions)
    for i, (s, e, v) in enumerate(mentions):
        if i + 1 < len(mentions) and _DATE_RANGE.match(text[e : mentions[i + 1][0]]):
            roles[i], roles[i + 1] = "start", "end"
    change = is_change(text)
    for i, (s, e, v) in enumerate(mentions):
        before, after = _around(text, s, e, 30, 10)
        if roles[i] is None:
            if _END.search(before[-10:] + " " + after):
                roles[i] = "end"
            elif _START.search(before + " " + after) or _DATE_WORD.search(before + after) or change:
                roles[i] = "start"
        role = roles[i]
        if v.startswith("--") and i > 0 and not mentions[i - 1][2].startswith("--"):
            v = mentions[i - 1][2][:2] + v[1:]  # "5月1号到3号": the bare day takes the month before it
        month_said = bool(_MONTH_WORD.search(before[-14:]))  # "下个月十号": a day of a month named in words
        if role is None or (v.startswith("--") and not (change or month_said or _DATE_WORD.search(before + after))):
            continue  # a date without a trip word is an event, not the trip's dates; a bare day needs a cue
        explicit = bool(
            _DATE_WORD.search(before + after) or _START.search(before + after) or _END.search(before + after)
        )
        out.append(SlotValue("date", v, "eq", "", role, (s, e), text[s:e], None, explicit))
    return out


# ------------------------------------------------------- party, nights, rating
_N = r"(\d+|[一二两三四五六七八九十]|one|two|three|four|five|six|seven|eight|nine|ten)"
_PARTY = _re(
    r"(?:我们|咱们|一行|一共|总共|共)\s*(?:是|有|就)?\s*" + _N + r"\s*(?:个人|个大人|人|位|口人)|一家" + _N + r"口|"
    r"(?<![\d一二两三四五六七八九十])" + _N + r"\s*个人(?!间|房)|" + _N + r"\s*(?:个)?(?:大人|成人|位客人)|"
    r"\b(?!one\s)" + _N + r"\s+of us\b|\b(?:party|group|family) of\s+" + _N + r"\b|"
    r"\bfor\s+" + _N + r"\s+(?:people|persons|adults|guests|travell?ers)\b|\b" + _N + r"\s+(?:adults|travell?ers)\b|"
    r"\b(?:we(?:'re| are)|there(?:'re| are| will be))\s+(?:only\s+|just\s+|now\s+)?"
    + _N
    + r"\b(?!\s*(?:nights?|days?|years?|hours?|minutes?))"
)
# "我和两个朋友" / "with three friends": the speaker and the others
_COMPANIONS = _re(
    r"我(?:和|跟|带着?)\s*" + _N + r"\s*个(?:朋友|同事|同学|家人|孩子|小孩)|"
    r"\bwith\s+" + _N + r"\s+(?:friends|colleagues|classmates|coworkers|kids|children|others)\b"
)
_NIGHTS = _re(_N + r"\s*个?晚(?!餐|饭|上|些|点)|\b" + _N + r"\s+nights?\b")
_RATING = _re(
    r"(?:评分|评价|口碑|rating|rated|score|reviews?)\D{0,14}?(\d(?:\.\d)?)(?!\d)(?!\s*(?:元|块|人|晚|天))|"
    r"(\d(?:\.\d)?|[一二三四五])\s*(?:分|颗星|星|stars?)(?!钟)"
)
_SIGHT = _re(r"景点|景区|游玩|公园|博物馆|门票|attraction|sight|museum|park|tour")
_SENTENCE = re.compile(r"[^。！？!?\n]*[。！？!?\n]?")


def _domain(text: str, start: int) -> str:
    """What the sentence around ``start`` is about: hotel / restaurant / attraction ("" when unsaid)."""
    pos = 0
    for s in _SENTENCE.findall(text):
        if pos <= start < pos + len(s) or not s:
            hits = [
                (m.start(), d)
                for d, pat in (("hotel", _HOTEL), ("restaurant", _FOOD), ("attraction", _SIGHT))
                for m in [pat.search(s)]
                if m
            ]
            if len(hits) == 1:
                return hits[0][1]
            # two domains in one sentence: the clause of the mention decides, else unsure
            cpos = 0
            for c in re.split(r"([，,;；]|\band\b)", s):
                if pos + cpos <= start < pos + cpos + len(c):
                    found = {
                        d
                        for d, pat in (("hotel", _HOTEL), ("restaurant", _FOOD), ("attraction", _SIGHT))
                        if pat.search(c)
                    }
                    return found.pop() if len(found) == 1 else ""
                cpos += len(c)
            return ""
        pos += len(s)
    return ""


_RATING_BELOW = _re(r"^\D{0,6}?(?:以下|below|under|or less|at most)")


def _counts(text: str) -> list[SlotValue]:
    out = []
    for m in _PARTY.finditer(text):
        n = small_number(next(g for g in m.groups() if g))
        if n and 0 < n <= 50:
            out.append(SlotValue("party", float(n), "eq", "people", "", m.span(), m.group(0)))
    if not out:
        for m in _COMPANIONS.finditer(text):
            n = small_number(next(g for g in m.groups() if g))
            if n and 0 < n < 50:
                out.append(SlotValue("party", float(n + 1), "eq", "people", "", m.span(), m.group(0)))
    for m in _NIGHTS.finditer(text):
        n = small_number(next(g for g in m.groups() if g))
        if n and 0 < n <= 60:
            out.append(SlotValue("nights", float(n), "eq", "nights", "", m.span(), m.group(0)))
    for m in _RATING.finditer(text):
        raw = m.group(1) or m.group(2)
        v = float(raw) if raw[0].isdigit() else float(small_number(raw) or 0)
        if 1 <= v <= 5:
            bound = "max" if _RATING_BELOW.match(text[m.end() : m.end() + 12]) else "min"
            out.append(SlotValue("rating", v, bound, "stars", _domain(text, m.start()), m.span(), m.group(0)))
    return out


# ------------------------------------------------------------------ location
_ZH_NEAR = re.compile(
    r"(?:在|住在|住|靠近|离|到|去|换到|改到|于|找|选|挨着)?([\u4e00-\u9fffA-Za-z0-9]{2,12}?)(?:的)?"
    r"(?:附近|周边|旁边|一带|周围)"
)
_ZH_CLOSE = re.compile(r"(?:靠近|挨着|离)([\u4e00-\u9fff]{2,8}?)(?:近|比较近|很近|不远|的|[，,。！!？?]|$)")
# "near the Forbidden City" / "close to the station"; "around" / "in" only before a name ("a hotel around Sanlitun")
_EN_NEAR = re.compile(
    r"\b(?:[Nn]ear|[Cc]lose to|[Nn]ext to|[Ww]alking distance (?:of|to|from))\s+(?:the\s+)?"
    r"([A-Z][\w'-]*(?:\s+(?:of\s+(?:the\s+)?)?[A-Z][\w'-]*){0,3}|[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?)"
    r"|\b(?:around|in)\s+([A-Z][\w'-]+(?:\s+[A-Z][\w'-]*){0,2})"
)
_PLACE_TRIM = re.compile(r"^(?:我|我们|想|要|希望|最好|能|可以|就|还是|换|改|住|在|的)+")
# "它家附近" / "这个景点周边" / "酒店周边" point at something said before: not a place name
_REFERENCE = re.compile(r"[这那它他她哪其该此]|^(?:酒店|宾馆|餐馆|餐厅|饭店|景点|景区|地方|家|店|住处|住的地方)$")
_COUNTED = re.compile(r"[一两几]?[家个间处座所]")
_PREPOSITIONS = {"for", "to", "with", "at", "on", "by", "in", "of", "from", "during", "before", "after"}
_KIND_WORDS = {"hotel", "hotels", "restaurant", "restaurants", "place", "places", "area", "one", "sight", "sights"}
_STAY = _re(r"住|入住|stay|staying|sleep")
_STOP_EN = {
    "the",
    "a",
    "an",
    "it",
    "there",
    "here",
    "me",
    "us",
    "please",
    "and",
    "or",
    "if",
    "so",
    "my",
    "our",
    "that",
    "this",
    "then",
    "now",
    "instead",
    "budget",
    "time",
    "noon",
    "midnight",
}


def _locations(text: str) -> list[SlotValue]:
    out = []
    seen: set[str] = set()
    for pat in (_ZH_NEAR, _ZH_CLOSE, _EN_NEAR):
        for m in pat.finditer(text):
            group = 1 if m.group(1) else 2
            place = _PLACE_TRIM.sub("", m.group(group)).strip()
            if pat is not _EN_NEAR:
                words = [t for t in tokenize(place) if t not in ("的", "在", "住", "到")]
                place = "".join(words[-2:] if len(words) >= 2 and len(words[-1]) == 1 else words[-1:])
                if _REFERENCE.search(place) or _COUNTED.fullmatch(place):
                    continue  # "它家附近" points back; "找一家附近的" counts a place, names none
            if pat is _EN_NEAR:
                if group == 2 and not _HOTEL.search(text):
                    continue  # "in Paris" is where something happened; a place to stay near is a slot
                words = place.split()
                while words and (words[-1].lower() in _STOP_EN or words[-1].lower() in _PREPOSITIONS):
                    words.pop()
                if not words or words[0].lower() in _STOP_EN or re.match(r"\d", words[0]):
                    continue
                if len(words) == 1 and words[0].lower() in _KIND_WORDS:
                    continue  # "near the hotel" points back at one said before: a kind, not a place name
                place = " ".join(words)
            if len(place) < 2 or not content_words(place) or place.lower() in seen:
                continue
            seen.add(place.lower())
            b, a = _around(text, m.start(), m.end(), 30, 20)
            clause = b + m.group(0) + a
            # where to stay is one place; a question about what is near something is no preference
            question = bool(re.search(r"[?？吗]|有没有|有什么|有哪些|有啥", clause))
            scope = (
                ""
                if question
                else "hotel"
                if _STAY.search(clause) or _HOTEL.search(clause)
                else ("restaurant" if _FOOD.search(clause) else "")
            )
            out.append(SlotValue("location", place, "eq", "", scope, m.span(group), place))
    return out


# -------------------------------------------------------------------- public
@lru_cache(maxsize=20_000)
def _read(text: str) -> tuple[SlotValue, ...]:
    vals = _dates(text) + _counts(text)
    dates = [(s, e) for s, e, _ in _date_mentions(text)]
    vals += _budgets(text, [v.span for v in vals] + dates) + read_diet(text) + _locations(text)
    return tuple(sorted(vals, key=lambda v: v.span))


def read_slots(text: str) -> list[SlotValue]:
    """Every slot value stated in ``text``, in order (see the module docstring)."""
    return list(_read(text or ""))


def may_restate(new: SlotValue, change_cue: bool = False) -> bool:
    """Whether :func:`changes` could pair ``new`` with any earlier value of its key at all: what an index of
    earlier statements is worth searching for (a restaurant's place, say, restates nothing without a cue).

    >>> [may_restate(v) for v in read_slots("A restaurant near Sanlitun, budget 5000 yuan")]
    [False, True]
    >>> may_restate(read_slots("A restaurant near Sanlitun")[0], change_cue=True)
    True
    """
    if not new.known:
        return False
    if new.slot in ("budget", "date") and not (new.explicit or change_cue):
        return False
    if new.slot == "rating" and not (new.scope or change_cue):
        return False
    return not (new.slot == "location" and not (change_cue or new.scope == "hotel"))


def changes(old: list[SlotValue], new: list[SlotValue], change_cue: bool = False) -> list[tuple[SlotValue, SlotValue]]:
    """(old value, new value) pairs where ``new`` restates a slot of ``old`` with another value.

    Slots of another scope never compare (a per-night price is not a total budget); unread
    amounts never compare; a diet item compares only with the same item (a new allergy adds to
    the old ones), so only lifting or re-imposing it changes it. Budgets and dates compare when
    both are named as such, or when the later message says it changes something
    (``change_cue``).

    >>> old, new = read_slots("我的总预算是五千元"), read_slots("预算提高到八千")
    >>> [(a.shown(), b.shown()) for a, b in changes(old, new)]
    [('5000', '8000')]
    >>> changes(read_slots("每晚六百以内"), read_slots("总预算八千"))
    []
    >>> changes(read_slots("I'm allergic to peanuts"), read_slots("I'm also allergic to shellfish"))
    []
    """
    out = []
    for b in new:
        if not b.known:
            continue
        for a in old:
            if a.key != b.key or not a.known or a.same_as(b):
                continue
            if a.slot in ("budget", "date") and not ((a.explicit and b.explicit) or change_cue):
                continue
            if a.slot == "rating" and not (a.scope or change_cue):
                continue  # a rating for what? only a stated domain (or an explicit change) compares
            if a.slot == "location" and not (change_cue or a.scope == b.scope == "hotel"):
                continue  # a hotel has one location; restaurants and sights have many
            out.append((a, b))
    # one pair per old value: the last statement of it in the new message
    latest: dict[tuple, tuple[SlotValue, SlotValue]] = {}
    for a, b in out:
        latest[(a.key, a.span)] = (a, b)
    return list(latest.values())
