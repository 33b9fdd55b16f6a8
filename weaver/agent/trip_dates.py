"""The days a trip message states: check-in, check-out and nights, absolute or counted from the day it was said.

Owned apart from the rest of the understanding because it is its own small grammar
(month-day ranges, "下个月十号", "next Friday", "住到四号") with its own doctests;
``understanding.parse`` asks it for one dict and the loop for ``nights_between``.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from ..numerals import small_number
from ..slots import is_change, read_slots
from ..text import extract_dates
from .numbers import stay_length

__all__ = ["stated_dates", "nights_between", "shift_said", "shifted", "has_check_in", "keep_stay_end"]


_RELATIVE_DAY = re.compile(
    r"(下个?月|这个?月|本月|next month|this month)\s*(?:the\s*)?(\d{1,2}|[一二三四五六七八九十]{1,3})\s*(?:号|日|st|nd|rd|th)",
    re.IGNORECASE,
)


_EN_DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_WEEKDAY = re.compile(
    r"(下个?|这个?|本)?(?:周|星期|礼拜)([一二三四五六日天末])|"
    r"\b(next|this|on)?\s*(monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend)\b",
    re.IGNORECASE,
)
# "next week, arriving Monday" / "下周，周一到": the week said once holds for the bare weekdays after it
_NEXT_WEEK = re.compile(r"\bnext week\b|下个?(?:周|星期|礼拜)(?![一二三四五六日天末])", re.IGNORECASE)
_BARE_DAY = re.compile(
    r"\b(?:from|on|starting|check(?:ing)?[- ]in|arriv\w*)\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b|"
    r"(?<![月\d一二三四五六七八九十])(\d{1,2}|[一二三四五六七八九十]{1,3})\s*[号日](?=入住|开始|出发|到北京|住|到)",
    re.IGNORECASE,
)


def _relative_days(text: str, today: date | None = None) -> list[tuple[int, int]]:
    """ "下个月十号" / "next month the 10th": the day in the month counted from today; a bare day to start on
    ("from the 12th", "12号入住"): its next coming date.

    >>> d = date(2026, 12, 3)  # a Thursday
    >>> _relative_days("我们下个月十号到", d), _relative_days("this month the 20th", d), _relative_days("from the 2nd", d)
    ([(1, 10)], [(12, 20)], [(1, 2)])
    >>> _relative_days("下周三我们去北京", d), _relative_days("arriving next Friday", d), _relative_days("周六出发", d)
    ([(12, 9)], [(12, 11)], [])
    >>> _relative_days("next week, arriving Monday and leaving Thursday", d), _relative_days("下周末去玩两天", d)
    ([(12, 7), (12, 10)], [(12, 12)])
    """
    today = today or date.today()
    out = []
    for m in _RELATIVE_DAY.finditer(text):
        month = today.month % 12 + 1 if m.group(1).lower().startswith(("下", "next")) else today.month
        day = int(m.group(2)) if m.group(2).isdigit() else (small_number(m.group(2)) or 0)
        if 1 <= day <= 31:
            out.append((month, day))
    week_next = bool(_NEXT_WEEK.search(text))
    for m in _WEEKDAY.finditer(text):
        said = m.group(1) or m.group(3) or ""
        if not said and m.group(2) and not week_next:  # a bare "周六" names no week (the English one, the coming)
            continue
        nxt = bool(re.match(r"下|next", said, re.I)) or (week_next and not re.match(r"这|本|this", said, re.I))
        wd = m.group(2) or m.group(4)
        # a weekend starts on Saturday
        target = (
            5
            if wd.lower() in ("末", "weekend")
            else "一二三四五六日".index(wd)
            if wd in "一二三四五六日天" and wd != "天"
            else 6
            if wd == "天"
            else _EN_DAYS.index(wd.lower()[:3])
        )
        monday = today - timedelta(days=today.weekday()) + timedelta(days=7 if nxt else 0)
        when = monday + timedelta(days=target)
        if not nxt and m.group(3) is None and when < today:  # "周三" already past this week: the coming one
            when += timedelta(days=7)
        out.append((when.month, when.day))
    if not out:
        for m in _BARE_DAY.finditer(text):
            g = m.group(1) or m.group(2)
            day = int(g) if g.isdigit() else (small_number(g) or 0)
            if 1 <= day <= 31:
                out.append((today.month if day >= today.day else today.month % 12 + 1, day))
    return out


_D = r"(\d{1,2}|[一二三四五六七八九十]{1,3})"
_TO = r"\s*(?:到|至|-|~|–|\bto\b|\buntil\b|\bthrough\b|\btill\b)\s*(?:the\s*)?"
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# a range of days in one month said once: "下个月5号到8号" / "next month, the 5th to the 8th" (the month first), "from
# the 5th to the 8th of next month" / "the 5th to the 8th of June" (the month last)
_DAY_RANGE = re.compile(
    r"(下个?月|这个?月|本月|next month|this month)[\s,]*(?:from\s+)?(?:the\s*)?"
    + _D
    + r"\s*(?:号|日|st|nd|rd|th)?"
    + _TO
    + _D
    + r"\s*(?:号|日|st|nd|rd|th)|"
    r"\bthe\s+" + _D + r"(?:st|nd|rd|th)?" + _TO + _D + r"(?:st|nd|rd|th)?\s+of\s+(?:the\s+)?"
    r"(next month|this month|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*)\b",
    re.IGNORECASE,
)


def _day_range(text: str, today: date | None = None) -> list[tuple[int, int]]:
    """(month, day) of the start and end of a range of days whose month is said once; an end before its start
    is in the month after.

    >>> d = date(2026, 12, 3)
    >>> _day_range("下个月5号到8号", d), _day_range("from the 5th to the 8th of next month", d)
    ([(1, 5), (1, 8)], [(1, 5), (1, 8)])
    >>> _day_range("the 30th to the 2nd of June", d), _day_range("next month, the 5th to the 8th", d)
    ([(6, 30), (7, 2)], [(1, 5), (1, 8)])
    >>> _day_range("下个月5号到", d), _day_range("6月5号到8号", d)
    ([], [])
    """
    m = _DAY_RANGE.search(text)
    if not m:
        return []
    today = today or date.today()
    said, first, last = (m.group(1), m.group(2), m.group(3)) if m.group(1) else (m.group(6), m.group(4), m.group(5))
    said = said.lower()
    if said.startswith(("下", "next")):
        month = today.month % 12 + 1
    elif said.startswith(("这", "本", "this")):
        month = today.month
    else:
        month = _MONTHS.index(said[:3]) + 1
    a, b = (int(x) if x.isdigit() else (small_number(x) or 0) for x in (first, last))
    if not (1 <= a <= 31 and 1 <= b <= 31) or a == b:
        return []
    return [(month, a), (month if b > a else month % 12 + 1, b)]


_EN_RANGE = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*(\d{1,2})(?:st|nd|rd|th)?\s*(?:-|–|to|until|"
    r"through|till)\s*(\d{1,2})(?:st|nd|rd|th)?\b(?!\s*(?:am|pm|:|\d|[ap]\.m))",
    re.IGNORECASE,
)


def stated_dates(text: str, today: date | None = None) -> dict | None:
    """Check-in, check-out and nights a message states.

    >>> stated_dates("hi, 3 ppl, beijing sept 10-13, budget 9000")
    {'check_in': '9-10', 'check_out': '9-13', 'nights': 3}
    """
    ds = _day_range(text, today) or extract_dates(text) or _relative_days(text, today)
    roles = {v.scope for v in read_slots(text) if v.slot == "date"}
    if len(ds) == 1 and roles == {"end"}:  # "we'll stay until June 5" / "住到6月5号": the stay's end only
        return {"check_out": f"{ds[0][0]}-{ds[0][1]}"}
    r = _EN_RANGE.search(text)
    if len(ds) == 1 and r and int(r.group(2)) > int(r.group(1)):  # "Sept 10-13": the end day takes the month
        ds = [ds[0], (ds[0][0], int(r.group(2)))]
    out: dict = {}
    if ds:
        out["check_in"] = f"{ds[0][0]}-{ds[0][1]}"
        if len(ds) >= 2:
            try:
                nights = (date(2024, *ds[-1]) - date(2024, *ds[0])).days
            except ValueError:
                nights = 0
            if nights > 0:
                out["check_out"] = f"{ds[-1][0]}-{ds[-1][1]}"
                out["nights"] = nights
    stay = stay_length(text)
    if stay and "nights" not in out:
        out["nights"] = stay
    if "nights" not in out:  # "改成五月二号出发，还是住到四号": the slot reader's start and end (a bare end day)
        said = {v.scope: str(v.value) for v in read_slots(text) if v.slot == "date" and isinstance(v.value, str)}
        start, end = said.get("start", ""), said.get("end", "")
        if start[:2].isdigit() and end[:2].isdigit():
            span = nights_between(start, end)
            if span:
                out.update(check_in=f"{int(start[:2])}-{int(start[3:])}", nights=span)
                out["check_out"] = f"{int(end[:2])}-{int(end[3:])}"
    return out or None


def nights_between(start: str, end: str) -> int | None:
    """Nights from ``MM-DD`` (or ``M-D``) to a later one, across a new year; None when not later.

    >>> nights_between("05-02", "05-04"), nights_between("12-30", "1-2"), nights_between("5-4", "5-2")
    (2, 3, None)
    """
    try:
        (m1, d1), (m2, d2) = (tuple(int(x) for x in v.split("-")) for v in (start, end))
        a, b = date(2025, m1, d1), date(2025 if (m2, d2) >= (m1, d1) else 2026, m2, d2)
    except ValueError:
        return None
    n = (b - a).days
    return n if 0 < n <= 60 else None


_N_DAYS = r"(\d{1,2}|[一两二三四五六七八九十]|one|two|three|four|five|six|seven|a)"
_SHIFT_ZH = re.compile(r"(推迟|延后|延迟|往后推|往后挪|推后|晚|提前|提早|往前挪|早)\s*" + _N_DAYS + r"\s*天")
_SHIFT_EN = re.compile(
    r"\b(?:(?:push|move|shift)\w*\b[^.?!]{0,30}?\b(back|later|forward|earlier|up)|(delay|postpone)\w*)\b"
    r"[^.?!]{0,30}?\bby\s+" + _N_DAYS + r"\s+days?\b",
    re.IGNORECASE,
)


def shift_said(text: str) -> int | None:
    """Days a message moves the whole trip by, signed ("行程推迟一天" +1, "move it forward by two days" -2), or None.

    >>> shift_said("行程推迟一天"), shift_said("提前两天出发"), shift_said("Push the trip back by one day.")
    (1, -2, 1)
    >>> shift_said("Can we move everything forward by 2 days?"), shift_said("晚饭推迟一点"), shift_said("we stay 3 days")
    (-2, None, None)
    """
    m = _SHIFT_ZH.search(text)
    if m:
        n = small_number(m.group(2))
        return None if not n else (-n if m.group(1) in ("提前", "提早", "往前挪", "早") else n)
    m = _SHIFT_EN.search(text)
    if m:
        n = 1 if m.group(3).lower() == "a" else small_number(m.group(3))
        earlier = (m.group(1) or "").lower() in ("forward", "earlier", "up")
        return None if not n else (-n if earlier else n)
    return None


def shifted(dates: dict, days: int) -> dict | None:
    """``dates`` (check_in / check_out as ``M-D``, nights) moved by ``days``; None without a check-in.

    >>> shifted({"check_in": "10-2", "check_out": "10-5", "nights": 3}, 1), shifted({"nights": 2}, 1)
    ({'check_in': '10-3', 'check_out': '10-6', 'nights': 3}, None)
    """
    out = dict(dates)
    for key in ("check_in", "check_out"):
        if not dates.get(key):
            continue
        try:
            m, d = (int(x) for x in str(dates[key]).split("-")[-2:])
            day = date(2025, m, d) + timedelta(days=days)  # 2025: no leap day; a shift across new year wraps
        except ValueError:
            return None
        out[key] = f"{day.month}-{day.day}"
    return out if dates.get("check_in") else None


def has_check_in(known) -> bool:
    """Does memory (``known``) hold a check-in date?"""
    return any(c.slot == "dates" and isinstance(c.value, dict) and c.value.get("check_in") for c in known.constraints)


def keep_stay_end(p, known) -> None:
    """ "改成五月二号出发": a new start keeps the stay's known end, so the nights follow (2 -> 4 is 2 nights), or,
    with no end known, its length ("住三晚"); "we'll stay until June 5": a new end keeps the known start."""
    for c in p.constraints:
        v = c.value if c.slot == "dates" and isinstance(c.value, dict) else None
        before = known.latest("dates", ("any",))
        if v is not None and "check_in" not in v and v.get("check_out"):
            start = before.value.get("check_in") if before is not None and isinstance(before.value, dict) else None
            nights = nights_between(str(start), str(v["check_out"])) if start else None
            if nights:
                c.value = {"check_in": start, **v, "nights": nights}
            continue
        if v is not None and set(v) == {"nights"} and is_change(p.text):
            # "把酒店改成住三晚" / "change the hotel to 3 nights": the stay's start kept, its end follows (and a hotel
            # booked under the old length is booked again); a length said without a change word against dates
            # said before is asked back instead (``length_note``)
            held = before.value if before is not None and isinstance(before.value, dict) else {}
            end = shifted({"check_in": held["check_in"]}, int(v["nights"])) if held.get("check_in") else None
            if end:
                c.value = {"check_in": held["check_in"], "check_out": end["check_in"], "nights": v["nights"]}
            continue
        if v is None or "nights" in v or "check_in" not in v:
            continue
        held = before.value if before is not None and isinstance(before.value, dict) else {}
        end = held.get("check_out")
        nights = nights_between(str(v["check_in"]), str(end)) if end else None
        if nights:
            c.value = {**v, "check_out": end, "nights": nights}
        elif not end and held.get("nights"):  # "住三晚" with no end date: a later start keeps the stay's length
            c.value = {**v, "nights": held["nights"]}
