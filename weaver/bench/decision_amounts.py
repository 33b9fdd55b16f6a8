"""How the generated chats (``bench decisions``) say amounts, budgets and ratings, in Chinese and English.

Amounts in digits or Chinese numerals as people say them (:func:`cn_number`), CrossWOZ's range values read
back (:func:`range_of`), and the several phrasings of a budget or a rating a user might state; each draws
from the chat's seeded ``rng``, so a chat is the same on every run.
"""

from __future__ import annotations

import re

from ..numerals import CN_DIGITS

__all__ = ["cn_number", "range_of", "say_amount", "say_money", "say_rating"]

_DOM_ZH = {"hotel": "酒店", "restaurant": "餐厅", "attraction": "景点"}


def cn_number(n: int) -> str:
    """An amount in Chinese numerals as people say it: 600 -> 六百, 2500 -> 两千五, 8000 -> 八千, 350 -> 三百五.

    >>> [cn_number(x) for x in (600, 2500, 8000, 350, 1200, 50, 4000, 12000)]
    ['六百', '两千五', '八千', '三百五', '一千二', '五十', '四千', '一万二']
    """
    digits = {v: k for k, v in CN_DIGITS.items() if k not in "〇两零"}
    if n >= 10000:
        w, rest = divmod(n, 10000)
        if w >= 10 or rest % 1000:
            return str(n)  # said in digits: rarer Chinese forms are not what this bench measures
        return ("一" if w == 1 else digits[w]) + "万" + (digits[rest // 1000] if rest else "")
    out, units = "", [(1000, "千"), (100, "百"), (10, "十")]
    for i, (u, name) in enumerate(units):
        d, n = divmod(n, u)
        if d:
            out += ("两" if d == 2 and u >= 100 else digits[d]) + name
            lower = u // 10
            if n and u >= 100 and n % lower == 0 and n // lower < 10:
                return out + digits[n // lower]  # 两千五 = 2500, 三百五 = 350: the next unit is left unsaid
    return out + (digits[n] if n else "")


def say_amount(rng, n: int, lang: str) -> str:
    return cn_number(n) if lang == "zh" and rng.random() < 0.5 and n >= 50 and n % 50 == 0 else str(n)


def range_of(text: str) -> tuple[str, float, float | None] | None:
    """A CrossWOZ range value ('300-400元', '1000元以上', '50元以下', '免费') -> (bound, low, high)."""
    if text == "免费":
        return ("max", 0.0, None)
    m = re.fullmatch(r"(\d+)-(\d+)元", text)
    if m:
        return ("range", float(m.group(1)), float(m.group(2)))
    m = re.fullmatch(r"(\d+)元以上", text)
    if m:
        return ("min", float(m.group(1)), None)
    m = re.fullmatch(r"(\d+)元以下", text)
    if m:
        return ("max", float(m.group(1)), None)
    return None


def say_money(rng, lang: str, scope: str, bound: str, lo: float, hi: float | None) -> str:
    a, b = say_amount(rng, int(lo), lang), (say_amount(rng, int(hi), lang) if hi is not None else "")
    if lang == "zh":
        what = {
            "night": rng.choice(["住宿每晚", "酒店每晚", "酒店价格每晚"]),
            "person": rng.choice(["吃饭人均", "餐厅人均"]),
            "ticket": "景点门票",
            "total": rng.choice(["总预算", "整个行程的预算"]),
        }[scope]
        if scope == "ticket" and bound == "max" and lo == 0:
            return rng.choice(["景点门票免费的最好", "想去门票免费的景点"])
        if bound == "range":
            return rng.choice([f"{what}在{a}到{b}元之间", f"{what}{a}到{b}块"])
        if bound == "min":
            return rng.choice([f"{what}不低于{a}元", f"{what}{a}元以上"])
        return rng.choice([f"{what}别超过{a}", f"{what}{a}元以内", f"{what}最多{a}块"])
    what = {
        "night": rng.choice(["per night for the hotel", "a night for the hotel"]),
        "person": rng.choice(["per person for meals", "per person at restaurants"]),
        "ticket": "for attraction tickets",
        "total": "for the whole trip",
    }[scope]
    if scope == "ticket" and bound == "max" and lo == 0:
        return rng.choice(["I'd prefer attractions with free entry", "Attraction tickets should be free"])
    if bound == "range":
        return rng.choice([f"We want to spend between {a} and {b} yuan {what}", f"Between {a} and {b} yuan {what}"])
    if bound == "min":
        return rng.choice([f"At least {a} yuan {what}", f"We'd spend no less than {a} yuan {what}"])
    if scope == "total":
        return rng.choice([f"Our total budget is at most {a} yuan", f"Keep the whole trip under {a} yuan"])
    return rng.choice([f"At most {a} yuan {what}", f"No more than {a} yuan {what}"])


def say_rating(rng, lang: str, domain: str, v: float) -> str:
    if lang == "zh":
        return rng.choice([f"{_DOM_ZH[domain]}评分要{v:g}分以上", f"{_DOM_ZH[domain]}的评分不低于{v:g}分"])
    return rng.choice([f"The {domain} should be rated {v:g} or above", f"I want a {domain} rating of at least {v:g}"])
