"""Numbers in travel talk, both languages: money (which slot, which bound), ratings, party size, stay length.

>>> money_mentions("我的预算总共是五千元，酒店每晚不超过800", None)
[('budget', '0-5000', 5000.0), ('price', '0-800', 800.0)]
>>> money_mentions("restaurants around 100 per person", "restaurant")
[('cost', '80-120', 100.0)]
>>> money_mentions("I'm visiting from May 1st to May 3rd, 2 people, rated 4.5 or above", None)
[]
>>> rating_range("评分4.5以上"), rating_range("highly rated places"), people_count("我们两个人"), stay_length("三天两晚")
('4.5-5', '4.5-5', 2, 2)
"""

from __future__ import annotations

from ..numerals import small_number
from ..slots import read_slots, taken_back_at

import re

__all__ = [
    "trip_day",
    "cn_to_digits",
    "money_mentions",
    "rating_range",
    "people_count",
    "stay_length",
    "stay_said",
    "length_clash",
]

_CN_DIGIT = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_CN_UNIT = {"十": 10, "百": 100, "千": 1000, "万": 10000}
_EN_NUM = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "a": 1,
    "an": 1,
}


def _cn_value(s: str) -> int:
    total, section, digit = 0, 0, 0
    for ch in s:
        if ch in _CN_DIGIT:
            digit = _CN_DIGIT[ch]
        elif ch == "万":
            total += (section + digit) * 10000
            section, digit = 0, 0
        else:
            section += (digit or 1) * _CN_UNIT[ch]
            digit = 0
    # "两千五" = 2500: a trailing digit after a unit counts one unit lower
    if digit and s[-2:-1] in ("千", "百") and len(s) >= 3:
        digit *= _CN_UNIT[s[-2]] // 10
    return total + section + digit


def cn_to_digits(text: str) -> str:
    """Chinese numerals with a unit (五千, 三百五, 1万) become digits; a lone 一 / 三 stays a word.

    >>> cn_to_digits("预算五千，人均两百五，一家三口")
    '预算5000，人均250，一家三口'
    """
    text = re.sub(r"(\d+(?:\.\d+)?)\s*万", lambda m: str(int(float(m.group(1)) * 10000)), text)
    text = re.sub(r"(\d+(?:\.\d+)?)\s*千", lambda m: str(int(float(m.group(1)) * 1000)), text)
    return re.sub(
        r"[零一二两三四五六七八九十百千万]*[十百千万][零一二两三四五六七八九十百千万]*",
        lambda m: (
            str(_cn_value(m.group(0)))
            if re.search("[百千万]", m.group(0))
            or re.match(r"^[一二两三四五六七八九]?十[一二三四五六七八九]?$", m.group(0))
            else m.group(0)
        ),
        text,
    )


def _small(word: str) -> int | None:
    if word.isdigit():
        return int(word)
    if word in _CN_DIGIT:
        return _CN_DIGIT[word]
    if word == "十":
        return 10
    return _EN_NUM.get(word.lower())


_PEOPLE = re.compile(
    r"(\d+|[一二两三四五六七八九十])\s*(?:个大人|个人|人(?!均)|位|口人)|一家(\d|[三四五六])口|"
    # "我们三个学生": who "we" are, counted ("三个景点" counts no one)
    r"我们(\d+|[一二两三四五六七八九十])个(?:大?学生|同学|朋友|好友|闺蜜|同事|老人|女生|男生|驴友)|"
    r"\b(\d+|two|three|four|five|six|seven|eight)\s+(?:people|persons|adults|guests|of us|"
    r"travell?ers)\b|\bfor (two|three|four|five|six)\b(?!\s+(?:nights?|days?))",
    re.IGNORECASE,
)
_NIGHTS = re.compile(
    r"(\d+|[一二两三四五六七八九十])\s*(?:个晚上|个?晚(?!餐|饭|上))|\b(\d+|one|two|three|four|five|six|"
    r"seven)\s+nights?\b",
    re.IGNORECASE,
)
_DAYS = re.compile(
    # "三日游" is a length, "到24日" a date: 日 counts as days only before 游 / 行程
    r"(?<![第\d月])(\d+|[一二两三四五六七八九十])\s*(?:天|日(?=游|行程|的行程))(?:游|行程|的行程)?|\b(\d+|two|three|four|five|six|"
    r"seven)[- ]days?\b",
    re.IGNORECASE,
)
_RATING = re.compile(
    r"(?:评分|评价|口碑|rating|rated|score)\D{0,8}?(\d(?:\.\d)?)(?!\d)|(\d(?:\.\d)?)\s*(?:分|stars?|星)", re.IGNORECASE
)
_RATING_WORDS = re.compile(
    r"高分|评分高|好评|口碑好|评价好|highly[- ]rated|well[- ]rated|top[- ]rated|best[- ]rated|"
    r"good reviews|great reviews|(?:higher|better)[- ](?:rating|rated|reviews?)",
    re.IGNORECASE,
)
_BLANK = [
    re.compile(r"\d{1,2}\s*月\s*\d{1,2}\s*[日号]?(?:\s*(?:到|至|-|~)\s*\d{1,2}\s*[日号])?"),
    re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?\b", re.I),
    re.compile(r"\b\d{1,2}(?:st|nd|rd|th)\b", re.I),
    re.compile(
        r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[:：]\d{2}|第\s*\d+|\d+\s*(?:点|小时|hours?|hrs?|个?晚(?!餐|饭)|天|日|"
        r"nights?|days?|km|公里|米)",
        re.I,
    ),
]
_UNIT = re.compile(r"^\s*(?:元|块|rmb|yuan|cny|kuai|¥|dollars?|usd|bucks)", re.I)
_MONEY_CUE = re.compile(
    r"预算|价格|价位|房价|人均|门票|票价|花费|费用|每晚|每人|不超过|以内|以下|最多|低于|少于|不到|"
    r"budget|price|cost|spend|under|below|less than|at most|max|up to|within|no more than|"
    r"cheaper than|above|over|more than|at least|between|around|about|¥|￥|\$",
    re.I,
)
_UPPER = re.compile(
    r"以下|以内|之内|内|不超过|不到|最多|低于|少于|不高于|封顶|上限|under|below|less than|at most|max|"
    r"up to|within|no more than|cheaper than|or less|tops|<",
    re.I,
)
_LOWER = re.compile(r"以上|超过|至少|不低于|高于|above|over|more than|at least|or more|>", re.I)
_ABOUT = re.compile(r"左右|上下|大约|大概|约|around|about|roughly|approximately", re.I)
_PER_NIGHT = re.compile(r"每晚|一晚|每天晚上|/晚|房价|per night|a night|/night|nightly|room rate", re.I)
_PER_PERSON = re.compile(r"人均|每人|一人|每位|per person|a head|per head|each|/person|pp\b", re.I)
_TICKET = re.compile(r"门票|票价|ticket|entrance|admission", re.I)
_TOTAL = re.compile(r"预算|总共|一共|总|整个|全部|budget|total|overall|altogether|whole trip|in all", re.I)
_NUM = re.compile(r"(\d+(?:\.\d+)?)(?:\s*(?:-|~|到|至|to)\s*(\d+(?:\.\d+)?))?\s*(k\b)?", re.I)


def money_mentions(text: str, domain: str | None) -> list[tuple[str, str, float]]:
    """(slot, range, amount) for each amount of money: slot is budget / price / cost / ticket."""
    t = cn_to_digits(text)
    for pat in _BLANK + [_RATING, _PEOPLE]:
        t = pat.sub(lambda m: " " * len(m.group(0)), t)
    out = []
    for m in _NUM.finditer(t):
        a = float(m.group(1)) * (1000 if m.group(3) else 1)
        b = float(m.group(2)) * (1000 if m.group(3) else 1) if m.group(2) else None
        # the clause around the number: context stops at punctuation
        before = re.split(r"[，,。;；!！?？\n]", t[max(0, m.start() - 16) : m.start()])[-1]
        after = re.split(r"[，,。;；!！?？\n]|(?<=\S)\.\s", t[m.end() : m.end() + 12])[0]
        if not (_UNIT.match(after) or _MONEY_CUE.search(before) or re.match(r"\s*(?:以内|以下|以上|左右|之内)", after)):
            continue
        local = before[-10:] + " " + after
        if _PER_NIGHT.search(local):
            slot = "price"
        elif _PER_PERSON.search(local):
            slot = "cost"
        elif _TICKET.search(local):
            slot = "ticket"
        elif _TOTAL.search(local):
            slot = "budget"
        else:
            slot = {"hotel": "price", "restaurant": "cost", "attraction": "ticket"}.get(domain or "", "budget")
        if b is not None:
            rng = f"{a:g}-{b:g}"
        elif _ABOUT.search(before[-10:] + " " + after[:4]):
            rng = f"{round(a * 0.8):g}-{round(a * 1.2):g}"
        elif _UPPER.search(before + " " + after[:6]):
            rng = f"0-{a:g}"
        elif _LOWER.search(before + " " + after[:6]):
            rng = f">{a:g}"
        else:
            rng = f"0-{a:g}"  # a stated amount is a ceiling unless said otherwise
        out.append((slot, rng, b or a))
    return out


def rating_range(text: str) -> str | None:
    m = _RATING.search(text)
    if m:
        v = float(m.group(1) or m.group(2))
        if 0 < v <= 5:
            tail = text[m.end() : m.end() + 8]
            return f"0-{v:g}" if re.search(r"以下|below|under|or less", tail, re.I) else f"{v:g}-5"
    if _RATING_WORDS.search(text):
        return "4.5-5"
    return None


_COUPLE = re.compile(
    r"我(?:和|跟|带着?)(?:老婆|老公|妻子|丈夫|太太|先生|爱人|女朋友|男朋友|女友|男友|对象)(?!们)|两口子|夫妻俩|小两口|情侣|"
    # one parent taken along is a party of two as well ("我带我妈妈去北京", "I'm taking my mother")
    r"我(?:和|跟|带着?|陪)(?:我的?)?(?:妈妈|老妈|母亲|爸爸|老爸|父亲)(?!们)|"
    r"\b(?:my (?:wife|husband|partner|girlfriend|boyfriend|fianc[eé]e?|mother|mom|mum|father|dad),? (?:and )?(?:i|me)|"
    r"(?:i|me),? (?:and )?my (?:wife|husband|partner|girlfriend|boyfriend|fianc[eé]e?|mother|mom|mum|father|dad)|"
    r"(?:taking|bringing) my (?:elderly )?(?:mother|mom|mum|father|dad)|a couple)\b",
    re.IGNORECASE,
)
# who comes along with the couple ("我和老婆带两个孩子", "my wife and I with our two kids"): (count, noun); a noun
# said without a count is one (孩子, kid) or two (父母, parents), a plural one ("the kids") is a count unknown
_WITH_COUPLE = re.compile(
    r"(?:带着?|还有|和|跟|加上?|以及)\s*(?:我们的?|我的)?\s*(\d|[一二两三四五六七八九])?\s*[个位]?\s*"
    r"(孩子|小孩|儿子|女儿|娃|宝宝|朋友|老人|父母|爸妈|公婆)|"
    r"\b(?:with|and|plus|bringing|taking)\s+(?:our|my|the|a|an)?\s*(\d|one|two|three|four|five|six)?\s*"
    r"(kids?|children|child|sons?|daughters?|bab(?:y|ies)|toddlers?|friends?|parents)\b",
    re.IGNORECASE,
)
_PAIR = ("父母", "爸妈", "公婆", "parents")


def _with_couple(text: str, couple: re.Match) -> int | None:
    """How many come along with the couple, said in its clause (0 when none is said, None when how many is not)."""
    extra = 0
    clause = re.split(r"[，。；;！!？?\n]", text[couple.end() :])[0]
    for m in _WITH_COUPLE.finditer(text[couple.start() : couple.end()] + clause):
        said, noun = (m.group(1), m.group(2)) if m.group(2) else (m.group(3), m.group(4))
        if said:
            n = _small(said)
        elif noun.lower() in _PAIR:
            n = 2
        elif noun.isascii() and noun.lower().endswith(("s", "ren", "ies")):
            return None  # "with the kids": more than one, how many not said
        else:
            n = 1
        if not n:
            return None
        extra += n
    return extra


# "me + 2 friends", "me and 3 others": the speaker and the others
_ME_PLUS = re.compile(
    r"\b(?:me|i|myself)\s*(?:\+|&|and|plus)\s*(\d|two|three|four|five|six|seven)\s+(?:friends|others|colleagues|"
    r"kids|children|family members|people)\b",
    re.IGNORECASE,
)


def people_count(text: str) -> int | None:
    """The party size a message states.

    >>> people_count("me + 2 friends, beijing from july 1"), people_count("one of us is vegetarian")
    (3, None)
    >>> people_count("我们有一个人对海鲜过敏"), people_count("我一个人去")
    (None, 1)
    >>> people_count("we're a family of four, two adults and two kids"), people_count("a family of 3, 2 of us vegan")
    (4, 3)
    """
    party = [v for v in read_slots(text) if v.slot == "party"]  # the library's reading, once
    if any(v.bound == "delta" for v in party):
        return None  # "我们又多了两个人": a growth, applied to the party on record (``slot_bridge.moved_constraints``)
    plus = _ME_PLUS.search(text)
    if plus:
        n = _small(plus.group(1))
        return n + 1 if n else None
    # "不是三个人，是四个人": the count said after "不是" / "not" is the one taken back, when another is said
    said = list(_PEOPLE.finditer(text))
    m = next((x for x in said if not taken_back_at(text, x.start())), said[0] if said else None)
    if not m:
        if party and isinstance(party[0].value, float):  # "with three friends": the reader's count
            return int(party[0].value)
        couple = _COUPLE.search(text)
        if couple:  # a trip party of two ("我和老婆", "my wife and I"); the library's reader leaves
            # this out: in a general chat "my husband and I went hiking" states no party size; those who come
            # along are counted in ("我和老婆带孩子" is three), a party of unknown size is no size
            extra = _with_couple(text, couple)
            return None if extra is None else 2 + extra
        return None
    # "两个大人两个小孩": the library's reader counts the children said with the adults (its span covers this one)
    # "a family of four, two adults and two kids": the whole party said first, then who is in it
    whole = [v for v in party if v.span[1] <= m.start()] or [v for v in party if v.span[0] <= m.start() < v.span[1]]
    if whole and isinstance(whole[0].value, float):
        return int(whole[0].value)
    n = _small(next(g for g in m.groups() if g))
    if n == 1 and not party:
        return None  # "我们有一个人对海鲜过敏": one of the party (the library's reader says so), not a party of one
    return n if n and 0 < n <= 50 else None


def stay_length(text: str) -> int | None:
    """Nights of a stay: "住两晚" / "3 nights", else days - 1 from "三日游" / "a 3-day trip" (never a date's 日).

    >>> stay_length("a 3-day trip"), stay_length("住三晚"), stay_length("五月三日出发")
    (2, 3, None)
    """
    said = stay_said(text)
    return None if said is None else said[0] - (said[1] == "days")


def stay_said(text: str) -> tuple[int, str] | None:
    """How long a stay is said to be, as said: (3, "days") for "玩三天" / "a 3-day trip", (2, "nights") for "2 nights".

    >>> stay_said("我们玩三天"), stay_said("three nights"), stay_said("三天两晚"), stay_said("5月1日到5月3日")
    ((3, 'days'), (3, 'nights'), (2, 'nights'), None)
    >>> stay_said("酒店一晚别超过五百"), stay_said("住一晚，每晚不超过500")
    (None, (1, 'nights'))
    """
    # "酒店一晚别超过五百": a night the slot reader takes for a per-night amount's unit is no stay
    stays = [v.span for v in read_slots(text) if v.slot == "nights"]
    m = next((m for m in _NIGHTS.finditer(text) if any(a < m.end() and m.start() < b for a, b in stays)), None)
    if m:
        n = _small(next(g for g in m.groups() if g))
        return (n, "nights") if n and 0 < n <= 60 else None
    m = _DAYS.search(text)
    if m:
        n = _small(next(g for g in m.groups() if g))
        return (n, "days") if n and 1 < n <= 60 else None
    return None


_TRIP_DAY = re.compile(
    r"第\s*([一二两三四五六七八九十\d]{1,3})\s*天|\bday\s*(\d{1,2}|one|two|three|four|five|six|seven)\b|\b(?:on\s+)?the\s+(first|second|third|fourth|"
    r"fifth|sixth|seventh|1st|2nd|3rd|\d{1,2}th)\s+day\b|(?:头|首)(一)?天",
    re.IGNORECASE,
)
_EN_ORD = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "1st": 1, "2nd": 2}


def trip_day(text: str) -> int | None:
    """The day of the trip a message puts something on ("第二天", "day 2", "on the third day"), or None.

    >>> trip_day("把它加到第二天的行程里"), trip_day("add the first one to day 2"), trip_day("on the third day")
    (2, 2, 3)
    >>> trip_day("我们玩三天"), trip_day("第十天"), trip_day("头一天去故宫")
    (None, 10, 1)
    """
    m = _TRIP_DAY.search(text or "")
    if not m:
        return None
    if m.group(1):
        return int(m.group(1)) if m.group(1).isdigit() else small_number(m.group(1))
    if m.group(2):
        return int(m.group(2)) if m.group(2).isdigit() else small_number(m.group(2))
    if m.group(3):
        w = m.group(3).lower()
        return _EN_ORD.get(w) or (int(w[:-2]) if w[:-2].isdigit() else None)
    return 1


def length_clash(dates: dict, said: tuple[int, str] | None) -> dict | None:
    """The stay's length as said against the nights its dates span, when they disagree (None when they agree or
    either is missing): a 3-day trip is 2 nights, "May 1 to May 4" is 3.

    >>> length_clash({"check_in": "5-1", "check_out": "5-4", "nights": 3}, (3, "days"))
    {'said': 3, 'unit': 'days', 'nights': 3, 'check_in': '5-1', 'check_out': '5-4'}
    >>> length_clash({"check_in": "5-1", "check_out": "5-3", "nights": 2}, (3, "days"))
    """
    if not said or not dates.get("check_in") or not dates.get("check_out") or not dates.get("nights"):
        return None
    n, unit = said
    if n - (unit == "days") == dates["nights"]:
        return None
    return {
        "said": n,
        "unit": unit,
        "nights": dates["nights"],
        "check_in": dates["check_in"],
        "check_out": dates["check_out"],
    }
