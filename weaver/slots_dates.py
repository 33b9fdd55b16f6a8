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
_DATE_RANGE = compile_ci(r"^\s*(?:到|至|-|–|~|～|to|until|till|through|and)\s*$")
_END = compile_ci(
    r"退房|离开|返回|回来|回程|回家|回去|离店|(?:^|\s)(?:才|再|就)?走(?![路过遍进])|check[- ]?out|leav(?:e|ing)(?! for)|depart(?:ing)?(?! for)|"
    r"return(?:ing)?|fly back|head(?:ing)? home|until|till|back on|住到|待到|呆到|玩到|留到|stay(?:ing)? (?:until|till)"
)
_START = compile_ci(
    r"出发|到达|抵达|入住|动身|启程|过去|开始|去北京|来北京|到北京|去|(?:^|\s)(?:才|就|会)?到了?$|arriv(?:e|ing|al)|check[- ]?in|get(?:ting)? there|"
    r"fly(?:ing)? (?:in|out)|set(?:ting)? off|leav(?:e|ing) for|depart(?:ing)? for|start(?:ing)?|"
    r"begin(?:ning)?|travel(?:l?ing)?|trip|visit(?:ing)?|from"
)
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
