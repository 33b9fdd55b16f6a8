"""Trip dates in a message: month-day and bare days, a start or an end, only with a trip word or a change.

A date is a trip date only with a trip word (出发 / check in / 日期 ...): "I spent $200
on May 3rd" states none.
"""

from __future__ import annotations

import re

from .numerals import small_number
from .slot_value import SlotValue, around_span, compile_ci, is_change

__all__ = ["read_dates", "date_mentions"]

# -------------------------------------------------------------------- dates
_MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split()
_MD = r"(\d{1,2}|[一二三四五六七八九十]{1,3})"
_ZH_DATE = re.compile(_MD + r"\s*月\s*" + _MD + r"\s*[日号]?")
_ZH_DAY = re.compile(r"(?<![\d一二三四五六七八九十])" + _MD + r"\s*[日号](?!线|楼|门|房|馆|车厢|航站楼|口|位)")
_EN_DATE = compile_ci(
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b"
    r"|\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b"
    r"|\b(\d{4})-(\d{1,2})-(\d{1,2})\b"
)
_EN_DAY = compile_ci(r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b")
# "June 3-7" / "June 3rd to 7th": the day that ends a range after a month and day
_EN_RANGE_DAY = compile_ci(
    r"\s*(?:-|–|~|to|until|till|through)\s*(\d{1,2})(?:st|nd|rd|th)?\b"
    r"(?![\d:.,]\d|\s*(?:am|pm|people|persons|adults|guests|nights?|days?|hours?|yuan|rmb|元|块|jan|feb|mar|apr|may|jun"
    r"|jul|aug|sep|oct|nov|dec))"
)
_DATE_RANGE = compile_ci(r"^\s*(?:到|至|-|–|~|～|to|until|till|through|and)\s*$")
_END = compile_ci(
    r"退房|离开|返回|回来|回程|回家|回去|离店|(?:^|\s)(?:才|再|就)?走(?![路过遍进])|check(?:ing|s)?[- ]?out|"
    r"leav(?:e|es|ing)(?! for)|depart(?:s|ing)?(?! for)|return(?:s|ing)?|fly(?:ing)? (?:back|home|out(?! to| for))|"
    r"head(?:ing)? home|(?:^|\s)out on|until|till|back on|住到|待到|呆到|玩到|留到|stay(?:ing)? (?:until|till)"
)
_START = compile_ci(
    r"出发|到达|抵达|落地|入住|动身|启程|过去|开始|去北京|来北京|到北京|去|(?:^|\s)(?:才|就|会)?到了?$|arriv(?:e|es|ing|al)|"
    r"check(?:ing|s)?[- ]?in\b|get(?:ting)? (?:there|in)|land(?:s|ing)?\b|"
    r"fly(?:ing)? (?:in|out (?:to|for))|set(?:ting)? off|leav(?:e|ing) for|depart(?:ing)? for|start(?:ing)?|"
    r"begin(?:ning)?|travel(?:l?ing)?|trip|visit(?:ing)?|from"
)
# what ends the words that belong to a date: another clause joined by "and" / "then" / "然后"
_JOIN = compile_ci(r"\b(?:and|but|then)\b|然后|之后|再")
_MONTH_WORD = compile_ci(r"(?:下个?|这个?|本|上个?)月\s*$|\b(?:next|this) month(?:'s)?\s*(?:the\s*)?$")
_DATE_WORD = compile_ci(r"日期|时间|行程|哪天|那天|date|dates|day")


def _md(s: str) -> int:
    return int(s) if s.isdigit() else (small_number(s) or 0)


def date_mentions(text: str) -> list[tuple[int, int, str]]:
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
        if m.group(1) and (r := _EN_RANGE_DAY.match(text, m.end())):
            found.append((r.start(1), r.end(), f"--{int(r.group(1)):02d}"))
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


def _own_cue(text: str, mentions: list[tuple[int, int, str]], i: int) -> str | None:
    """The role the trip word nearest a date gives it, among the words that are its own.

    Its own words: from the date before it (or 30 characters back) to the date, and after it up to the next
    date or a joined clause. The nearest word wins, so in "we arrive May 1 and leave May 4" the first date is
    the start although "leave" follows it; words after the date count in Chinese order ("5月3号到，6号走").

    >>> m = date_mentions("We arrive May 1 and leave May 4")
    >>> [_own_cue("We arrive May 1 and leave May 4", m, i) for i in range(2)]
    ['start', 'end']
    >>> m = date_mentions("我们5月3号落地，6号走")
    >>> [_own_cue("我们5月3号落地，6号走", m, i) for i in range(2)]
    ['start', 'end']
    """
    s, e, _ = mentions[i]
    lo = max(mentions[i - 1][1] if i else 0, s - 30)
    hi = min(mentions[i + 1][0] if i + 1 < len(mentions) else len(text), e + 10)
    before, after = around_span(text[lo:hi], s - lo, e - lo, 30, 10)
    join = _JOIN.search(after)
    after = after[: join.start()] if join else after
    best: tuple[int, str] | None = None
    for role, pat in (("end", _END), ("start", _START)):
        for m in pat.finditer(before):
            gap = len(before) - m.end()
            if best is None or gap < best[0]:
                best = (gap, role)
        later = pat.search(after)
        if later and (best is None or later.start() < best[0]):
            best = (later.start(), role)
    return best[1] if best else None


def _role_near(before: str, after: str, change: bool) -> str | None:
    """The role from the wider clause when no trip word is a date's own (a date word, a change)."""
    if _END.search(before[-10:] + " " + after):
        return "end"
    if _START.search(before + " " + after) or _DATE_WORD.search(before + after) or change:
        return "start"
    return None


def read_dates(text: str) -> list[SlotValue]:
    mentions = date_mentions(text)
    out: list[SlotValue] = []
    roles: list[str | None] = [None] * len(mentions)
    for i, (s, e, v) in enumerate(mentions):
        if i + 1 < len(mentions) and _DATE_RANGE.match(text[e : mentions[i + 1][0]]):
            roles[i], roles[i + 1] = "start", "end"
    change = is_change(text)
    for i, (s, e, v) in enumerate(mentions):
        before, after = around_span(text, s, e, 30, 10)
        if roles[i] is None:
            roles[i] = _own_cue(text, mentions, i) or _role_near(before, after, change)
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
