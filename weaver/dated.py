"""A question that names a date asks about that time: the memories of the sittings held then rank higher.

"What movie did Joanna watch on 1 May, 2022?", "Where did Joanna travel to in July 2022?", "What did Maria
donate to a homeless shelter in December 2023?": 13% of LoCoMo's questions (categories 1-4) name a day, a
month or a year, and the answer is a turn of the session held then ("I watched 'The Lord of the Rings' last
night!", in the session of 2 May 2022). The date is in the memory's metadata (``meta["date"]``, which the
narrative shows), never in the words the embedder and BM25 see, so nothing else matched it. A memory whose
sitting falls in the span the question names gains ``weight``; one a few days outside gains less (an event is
told days after it happened, and "on March 16" may be the telling or the doing).

Only a question that names a date, and only memories that carry one: the agent's memories, CrossWOZ's turns
and a question without a date are untouched. The weight was chosen by leave-one-conversation-out on LoCoMo
(docs/benchmarks/README.md, "A question that names a date"). English and Chinese dates ("on 1 May, 2022",
"in July 2022", "2022年5月1日", "五月").
"""

from __future__ import annotations

import re
import weakref
from datetime import date
from functools import lru_cache

import numpy as np

from .numerals import small_number

__all__ = ["question_span", "memory_day", "date_affinity", "date_lift", "DAY_SPREAD"]

DAY_SPREAD = 3.0  # days: a sitting this far from the named day keeps 1/e of the lift (a story told days later)

_MONTHS = "january february march april may june july august september october november december".split()
_MONTH = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
_YEAR = r"((?:19|20)\d\d)"
_EN_MDY = re.compile(rf"\b{_MONTH}\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+{_YEAR}\b", re.I)
_EN_DMY = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\.?,?\s+{_YEAR}\b", re.I)
_ISO = re.compile(r"\b((?:19|20)\d\d)[-/.](\d{1,2})[-/.](\d{1,2})\b")
_EN_MY = re.compile(rf"\b{_MONTH}\.?,?\s+{_YEAR}\b", re.I)
# a bare month: "in June"; "may" only after "in" or "of" (else it is the verb)
_EN_M = re.compile(
    r"\b(?:in|of|during)\s+" + _MONTH + r"\b|\b(january|february|march|april|june|july|august|september|october|"
    r"november|december)\b",
    re.I,
)
_EN_Y = re.compile(rf"\b{_YEAR}\b")
_CN = r"(\d{1,2}|[一二三四五六七八九十]{1,3})"
_ZH_YMD = re.compile(r"(\d{4})\s*年\s*" + _CN + r"\s*月(?:\s*" + _CN + r"\s*[日号])?")
_ZH_MD = re.compile(r"(?<![\d年])" + _CN + r"\s*月")
_ZH_Y = re.compile(r"(\d{4})\s*年")
# "as of December 2023", "since May", "截至五月": a bound, not a span (the answer is all that came before or after)
_BOUND = re.compile(r"\b(?:as of|since|until|till|up to)\s+(?:the\s+)?$|截至$|截止$|自从$", re.I)


def _month(word: str) -> int:
    return next(i for i, m in enumerate(_MONTHS, 1) if m.startswith(word.lower()[:3]))


def _day(y: int, m: int, d: int) -> int | None:
    """The day's ordinal, or None for a day that does not exist."""
    try:
        return date(y, m, d).toordinal()
    except ValueError:
        return None


def _month_span(y: int, m: int) -> tuple[int, int] | None:
    first = _day(y, m, 1)
    if first is None:
        return None
    nxt = _day(y + (m == 12), m % 12 + 1, 1)
    return first, nxt - 1 if nxt is not None else first + 30


def _number(text: str | None) -> int | None:
    return small_number(text) if text else None


def question_span(query: str) -> tuple[int, int, int | None] | None:
    """``(first day, last day, month)`` (day ordinals) of the time a question names, or None. A month named without
    a year is ``(0, 0, month)``: that month of any year.

    >>> from datetime import date
    >>> s = question_span("What movie did Joanna watch on 1 May, 2022?"); date.fromordinal(s[0]), s[0] == s[1]
    (datetime.date(2022, 5, 1), True)
    >>> s = question_span("Where did Joanna travel to in July 2022?"); date.fromordinal(s[0]), date.fromordinal(s[1])
    (datetime.date(2022, 7, 1), datetime.date(2022, 7, 31))
    >>> question_span("When did Melanie go camping in June?"), question_span("What may happen next?")
    ((0, 0, 6), None)
    >>> s = question_span("2022年5月1日看了什么电影？"); date.fromordinal(s[0])
    datetime.date(2022, 5, 1)
    >>> question_span("五月去了哪里？"), question_span("How many times in 2023?")[2]
    ((0, 0, 5), None)
    >>> question_span("How many pets did Andrew have, as of September 2023?"), question_span("截至2023年5月有几只猫？")
    (None, None)
    >>> question_span("What has Tim read since 2021?"), question_span("What did Tim read in 2021?") is not None
    (None, True)
    """
    found = _span(query or "")
    if found is None:
        return None
    span, at = found
    return None if _BOUND.search((query or "")[:at]) else span


def _span(text: str) -> tuple[tuple[int, int, int | None], int] | None:
    """:func:`question_span`'s span, with where its date starts in ``text``."""
    for rx, order in ((_EN_MDY, (3, 1, 2)), (_EN_DMY, (3, 2, 1))):
        m = rx.search(text)
        if m:
            y, mo, d = (m.group(i) for i in order)
            day = _day(int(y), _month(mo), int(d))
            if day is not None:
                return (day, day, None), m.start()
    m = _ISO.search(text)
    if m:
        day = _day(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if day is not None:
            return (day, day, None), m.start()
    m = _ZH_YMD.search(text)
    if m:
        y, mo, d = int(m.group(1)), _number(m.group(2)), _number(m.group(3))
        if mo and d:
            day = _day(y, mo, d)
            return ((day, day, None), m.start()) if day is not None else None
        span = _month_span(y, mo) if mo and 1 <= mo <= 12 else None
        return ((*span, None), m.start()) if span else None
    m = _EN_MY.search(text)
    if m:
        span = _month_span(int(m.group(2)), _month(m.group(1)))
        return ((*span, None), m.start()) if span else None
    m = _ZH_MD.search(text)
    if m and (mo := _number(m.group(1))) and 1 <= mo <= 12:
        return (0, 0, mo), m.start()
    m = _EN_M.search(text)
    if m:
        return (0, 0, _month(m.group(1) or m.group(2))), m.start(1) if m.group(1) else m.start()
    m = _EN_Y.search(text) or _ZH_Y.search(text)
    if m:
        y = int(m.group(1))
        return (date(y, 1, 1).toordinal(), date(y, 12, 31).toordinal(), None), m.start()
    return None


@lru_cache(maxsize=4096)
def memory_day(raw: str) -> int:
    """The day ordinal of a memory's ``meta["date"]`` ("8 May 2023", "May 8, 2023", "2023-05-08", "2023年5月8日";
    a time of day around it is ignored), or 0 when it names no whole day.

    >>> from datetime import date
    >>> [date.fromordinal(memory_day(x)).isoformat() for x in ("8 May 2023", "1:56 pm on 8 May, 2023", "2023年5月8日")]
    ['2023-05-08', '2023-05-08', '2023-05-08']
    >>> memory_day("May 2023"), memory_day("")
    (0, 0)
    """
    span = question_span(raw or "")
    return span[0] if span and span[2] is None and span[0] == span[1] else 0


# each NodeFacts' memories' day ordinals, extended as memories arrive (a query reads, it does not parse)
_DAYS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _days_of(facts, g, ids: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Each memory's day ordinal and month (0: none), in node order."""
    got = _DAYS.get(facts)
    if got is None or len(got[0]) > len(ids):
        got = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
    if len(got[0]) < len(ids):
        new = [memory_day(str((g.nodes[i].get("meta") or {}).get("date") or "")) for i in ids[len(got[0]) :]]
        months = [date.fromordinal(d).month if d else 0 for d in new]
        got = (
            np.concatenate([got[0], np.asarray(new, dtype=np.int64)]),
            np.concatenate([got[1], np.asarray(months, dtype=np.int64)]),
        )
        _DAYS[facts] = got
    return got


def date_affinity(days: np.ndarray, span: tuple[int, int, int | None], months: np.ndarray | None = None) -> np.ndarray:
    """How much each memory's day (ordinal; 0: none) falls in ``span`` (:func:`question_span`): 1 inside, decaying
    with the days outside (:data:`DAY_SPREAD`); a month of any year: 1 in that month, else 0.

    >>> d = np.array([date(2022, 5, 1).toordinal(), date(2022, 5, 4).toordinal(), 0])
    >>> date_affinity(d, (d[0], d[0], None)).round(2).tolist(), date_affinity(d, (0, 0, 5)).tolist()
    ([1.0, 0.37, 0.0], [1.0, 1.0, 0.0])
    """
    has = days > 0
    first, last, month = span
    if month is not None:
        if months is None:
            months = np.array([date.fromordinal(int(x)).month if x > 0 else 0 for x in days])
        return np.where(has & (months == month), 1.0, 0.0)
    gap = np.maximum(first - days, 0) + np.maximum(days - last, 0)
    return np.where(has, np.exp(-gap / DAY_SPREAD), 0.0)


def date_lift(g, ids: list[str], facts, query: str, weight: float) -> np.ndarray | float:
    """``weight`` times each memory's :func:`date_affinity` to the time ``query`` names; 0.0 when the query names
    none, the weight is off, or no memory carries a date (``facts``: the weaver's :class:`NodeFacts`, the key its
    memories' days are kept under)."""
    if not weight or facts is None or len(facts) != len(ids) or not ids:
        return 0.0
    span = question_span(query)
    if span is None:
        return 0.0
    days, months = _days_of(facts, g, ids)
    if not days.any():
        return 0.0
    return weight * date_affinity(days, span, months)
