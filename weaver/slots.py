"""Typed slot values in a message: budgets with their bounds, dates, party size, nights, diet, rating, location.

One reader for everything that compares what a user said about a slot: the
supersede-on-arrival hook (:mod:`weaver.curation.arrival`), the review pass and,
later, structured constraint memory. Bilingual, numerals in digits, Chinese
characters or English words (:mod:`weaver.numerals`).

Precision first: an amount is a budget only when it is framed as one (预算 /
budget, a bound such as 以内 / at most, a scope such as 每晚 / per person); an
amount the reader cannot parse stays text (``value`` None) and never becomes a
bound; a date is a trip date only with a trip word (出发 / check in / 日期 ...).

This module owns the public reader and the comparison of values (``changes``,
``residue``, the cues for history and another thing); the value type lives in
``slot_value`` and each kind of slot has its reader (``slots_budget``, ``slots_dates``,
``slots_counts``, ``slots_location``, ``slots_diet``).

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
from functools import lru_cache

from .slot_value import CHANGE_CUES, SLOTS, SlotValue, is_change
from .slots_budget import BUDGET_FRAMES, read_budgets
from .slots_counts import read_counts
from .slots_dates import date_mentions, read_dates
from .slots_diet import read_diet
from .slots_location import read_locations
from .text import content_words

__all__ = [
    "SlotValue",
    "taken_back_at",
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
    for pat in (*BUDGET_FRAMES, CHANGE_CUES, *SLOT_CUES.values()):
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


# -------------------------------------------------------------------- public
@lru_cache(maxsize=20_000)
def _read(text: str) -> tuple[SlotValue, ...]:
    vals = read_dates(text) + read_counts(text)
    dates = [(s, e) for s, e, _ in date_mentions(text)]
    budgets = read_budgets(text, [v.span for v in vals] + dates)
    vals = [v for v in vals if not _rate_unit(text, v, budgets)]
    vals += budgets + read_diet(text) + read_locations(text)
    return tuple(sorted(_not_taken_back(text, vals), key=lambda v: v.span))


_TAKEN_BACK = re.compile(r"(?:不是|并非|而非|\bnot|\binstead of|\brather than)\s*$", re.IGNORECASE)


def taken_back_at(text: str, start: int) -> bool:
    """Whether what is said at ``start`` follows "不是" / "not" / "instead of" (the value a correction takes back
    when the message says another).

    >>> taken_back_at("不是三个人，是四个人", 2), taken_back_at("不是三个人，是四个人", 8)
    (True, False)
    """
    return _TAKEN_BACK.search(text[max(0, start - 12) : start]) is not None


def _not_taken_back(text: str, vals: list[SlotValue]) -> list[SlotValue]:
    """``vals`` without a value the message takes back: one said right after "不是" / "not" / "instead of" where
    the same slot is said otherwise in the message ("不是三个人，是四个人", "it's 4 people, not 3 people"). Said
    alone ("不超过500", "我们不是三个人吗？") a value stays: there is nothing it is taken back for.

    >>> [(v.slot, v.value) for v in read_slots("更正一下，不是三个人，是四个人。")]
    [('party', 4.0)]
    >>> [(v.slot, v.value) for v in read_slots("我们不是三个人吗？")]
    [('party', 3.0)]
    """
    back = [taken_back_at(text, v.span[0]) for v in vals]
    if not any(back):
        return vals
    return [
        v
        for v, b in zip(vals, back, strict=True)
        if not b
        or not any(o.slot == v.slot and o.scope == v.scope and not ob for o, ob in zip(vals, back, strict=True))
    ]


_CLAUSE_BREAK = re.compile(r"[，,。；;！!？?\n]")
_STAY_VERB = re.compile(r"(?:住|待|呆|过|\bstay(?:ing)?|\bfor)\s*$", re.IGNORECASE)


def _rate_unit(text: str, v: SlotValue, budgets: list[SlotValue]) -> bool:
    """ "酒店一晚别超过五百" / "五百块一晚": "one night" beside a per-night amount in its clause is the amount's unit
    (a rate), not a stay of one night; "我们住一晚，每晚不超过500" keeps its stay (another clause), and so does
    "住一晚500的" (a stay verb says it is one).

    >>> [(v.slot, v.value) for v in read_slots("酒店一晚别超过五百块吧")]
    [('budget', 500.0)]
    >>> [(v.slot, v.value) for v in read_slots("我们住一晚，每晚不超过500")]
    [('nights', 1.0), ('budget', 500.0)]
    """
    if v.slot != "nights" or v.value != 1 or _STAY_VERB.search(text[: v.span[0]]):
        return False
    for b in budgets:
        if b.scope != "night":
            continue
        lo, hi = (v.span[1], b.span[0]) if v.span[1] <= b.span[0] else (b.span[1], v.span[0])
        if 0 <= hi - lo <= 16 and not _CLAUSE_BREAK.search(text[lo:hi]):
            return True
    return False


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
