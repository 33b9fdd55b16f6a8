"""Numerals in running text, both languages: digits, Chinese characters and English words.

:func:`find_numbers` returns every number with its character span in the text,
so a reader can look at the words around it (the slot reader in
:mod:`weaver.slots`, ``extract_numbers`` in :mod:`weaver.text`).

Chinese numerals are read only when they carry a unit (十 / 百 / 千 / 万) and
start with a digit character, so words that merely contain numeral characters
stay words: 千万 ("by all means"), 万一 ("in case"), 十分 ("very"), 百分之,
一个 / 一起 / 三天 (counted things are read by the slot reader, not here).

>>> [(n.text, n.value) for n in find_numbers("预算五千，每晚六百，两千五或一万二，1.5万，5k")]
[('五千', 5000.0), ('六百', 600.0), ('两千五', 2500.0), ('一万二', 12000.0), ('1.5万', 15000.0), ('5k', 5000.0)]
>>> [n.value for n in find_numbers("三百五十块, 一千零五十, 二十, 十五")]
[350.0, 1050.0, 20.0, 15.0]
>>> [n.value for n in find_numbers("千万别点海鲜，万一下雨，十分好，一个人")]
[]
>>> [n.value for n in find_numbers("about five thousand yuan, or two thousand five hundred, 3,500 and 1.2w")]
[5000.0, 2500.0, 3500.0, 12000.0]
>>> [(n.text, n.value) for n in find_numbers("一晚四五百，人均七八十")]
[('四', 400.0), ('五百', 500.0), ('七', 70.0), ('八十', 80.0)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Numeral", "find_numbers", "cn_numeral_value", "small_number", "CN_DIGITS"]

CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_CN_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10_000, "亿": 100_000_000}
_EN_UNITS = {
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
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_EN_SCALES = {"hundred": 100, "thousand": 1000, "grand": 1000, "million": 1_000_000}


@dataclass(frozen=True)
class Numeral:
    value: float
    start: int
    end: int
    text: str


def cn_numeral_value(s: str) -> float | None:
    """The value of a Chinese numeral (None when it is not one).

    A digit after the last unit counts one unit lower, as people say prices:
    两千五 = 2500, 一万二 = 12000, 三百五 = 350; 零 keeps the place (一千零五 = 1005).

    >>> [cn_numeral_value(x) for x in ("八千", "两千五", "一万二", "三百五十", "十", "二十一", "一千零五", "千万")]
    [8000.0, 2500.0, 12000.0, 350.0, 10.0, 21.0, 1005.0, None]
    """
    if not s or (s[0] not in CN_DIGITS and s[0] != "十"):
        return None
    total, section, digit, last_unit, zero = 0, 0, None, 0, False
    for ch in s:
        if ch in CN_DIGITS:
            if digit is not None and not zero:
                return None  # two digits in a row ("七八百"): a rough range, not one number
            zero = ch in "零〇"
            digit = CN_DIGITS[ch]
        elif ch in ("万", "亿"):
            total = (total + section + (digit or 0)) * _CN_UNITS[ch]
            section, digit, last_unit, zero = 0, None, _CN_UNITS[ch], False
        elif ch in _CN_UNITS:
            section += (1 if digit is None else digit) * _CN_UNITS[ch]
            digit, last_unit, zero = None, _CN_UNITS[ch], False
        else:
            return None
    if digit:
        # a bare trailing digit right after a unit is one place lower (两千五); after 零 it is units
        prev = s[-2] if len(s) >= 2 else ""
        if prev in _CN_UNITS and prev != "十" and last_unit >= 100:
            digit *= last_unit // 10
        total += section + digit
    else:
        total += section
    return float(total)


_DIGITS = r"\d+(?:,\d{3})*(?:\.\d+)?"
_CN_RUN = "[零〇一二两三四五六七八九十百千万亿]+"
_EN_WORD = "|".join(sorted(list(_EN_UNITS) + list(_EN_SCALES) + ["a"], key=len, reverse=True))
_NUMBER_RE = re.compile(
    rf"(?P<d>(?<![A-Za-z\d.]){_DIGITS})(?:\s*(?P<m>[kK](?![A-Za-z])|千|万|[wW](?![A-Za-z])))?"
    rf"|(?P<c>{_CN_RUN})"
    rf"|(?P<e>\b(?:{_EN_WORD})(?:[\s-]+(?:and\s+)?(?:{_EN_WORD}))*\b)",
    re.IGNORECASE,
)
_MULT = {"k": 1e3, "千": 1e3, "万": 1e4, "w": 1e4}
# "四五百" / "一两百" / "七八十": about 400 to 500; read as the two amounts, side by side (a reader joins them)
_APPROX = re.compile(r"([一二两三四五六七八])([两二三四五六七八九])([十百千万])")


def _en_value(words: list[str]) -> float | None:
    total, current, seen = 0, 0, False
    for w in words:
        if w in _EN_UNITS:
            current += _EN_UNITS[w]
            seen = True
        elif w == "a":
            current += 1  # "a thousand"
        elif w in _EN_SCALES:
            if not seen and current == 0:
                return None
            scale = _EN_SCALES[w]
            if scale == 100:
                current *= 100
            else:
                total += current * scale
                current = 0
            seen = True
    return float(total + current) if seen else None


# a unit counted by one ("一晚", "一天", "一人"): a "一" before it is no abbreviated digit of the amount before
_ONE_OF = re.compile(r"[晚天夜人位间个次份张]")


def _cn_number(text: str, start: int, end: int) -> Numeral | None:
    run = text[start:end]
    # a run of bare digit characters without a unit is a word (一个, 三天, 五一); 十分 is "very"
    if not re.search("[十百千万亿]", run) or (run == "十" and text[end : end + 1] in ("分", "足")):
        return None
    abbreviated = len(run) > 3 and run[-2] in CN_DIGITS and run[-3] in "百千万"  # "一千二" is 1,200
    if len(run) > 2 and run[-1] == "一" and (run[-2] in "百千万" or abbreviated) and _ONE_OF.match(text, end):
        # "四百一晚" / "一千二一晚": 400 / 1,200 a night (the 一 counts the unit after it), not 410; "二十一天" is 21
        run, end = run[:-1], end - 1
    # trailing characters that do not belong to the number (千万 in 五千万别...) are rare: read greedily
    value = cn_numeral_value(run)
    return Numeral(value, start, end, run) if value is not None else None


def find_numbers(text: str) -> list[Numeral]:
    """Every number in ``text`` with its span, in order (see the module docstring)."""
    out: list[Numeral] = []
    for m in _NUMBER_RE.finditer(text):
        if m.group("d"):
            try:
                value = float(m.group("d").replace(",", ""))
            except ValueError:
                continue
            value *= _MULT.get((m.group("m") or "").lower(), 1)
            out.append(Numeral(value, m.start(), m.end(), m.group(0)))
        elif m.group("c"):
            pair = _APPROX.fullmatch(m.group("c"))
            if pair:  # "四五百" / "两三千": two neighbouring digits before one unit, two amounts side by side
                unit = _CN_UNITS[pair.group(3)]
                first, second = CN_DIGITS[pair.group(1)], CN_DIGITS[pair.group(2)]
                if second == first + 1 or (first, second) == (1, 2):
                    s0 = m.start()
                    out.append(Numeral(float(first * unit), s0, s0 + 1, pair.group(1)))
                    out.append(Numeral(float(second * unit), s0 + 1, m.end(), m.group("c")[1:]))
                    continue
            n = _cn_number(text, m.start(), m.end())
            if n:
                out.append(n)
        else:
            words = [w for w in re.split(r"[\s-]+", m.group("e").lower()) if w and w != "and"]
            # a lone "a" / "one" is an article or a pronoun, not an amount worth reading
            if all(w in ("a", "one") for w in words):
                continue
            amount = _en_value(words)
            if amount is not None:
                out.append(Numeral(amount, m.start(), m.end(), m.group(0)))
    return out


def small_number(word: str) -> int | None:
    """A small count written any way: "3", "三", "两", "three", "十".

    >>> small_number("两"), small_number("three"), small_number("12"), small_number("许多")
    (2, 3, 12, None)
    """
    word = word.strip().lower()
    if word.isdigit():
        return int(word)
    if word in _EN_UNITS:
        return _EN_UNITS[word]
    if word and all(ch in CN_DIGITS or ch in _CN_UNITS for ch in word):
        if len(word) == 1 and word in CN_DIGITS:
            return CN_DIGITS[word]
        v = cn_numeral_value(word)
        return int(v) if v is not None else None
    return None
