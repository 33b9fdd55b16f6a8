"""The small phrases every reply is built from: money, a place's shown name, a constraint said back, a thought.

Owned apart from the longer texts (``result_texts``, ``replies``) because they all
say constraints and names the same way: one place to change how "¥800 a night" or
"王府井 (Wangfujing)" reads in either language.
"""

from __future__ import annotations

import re
from typing import cast

from .db import load_database
from .gloss import gloss_name, gloss_station
from .lexicon import CATEGORY_NAMES, FACILITY_ALIASES, PLACE_ALIASES
from .understanding import Constraint

__all__ = ["fmt_money", "display_name", "constraint_phrase", "sourced", "thought_text", "en_date", "gloss_facility"]

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def date_said(md: object, lang: str) -> str:
    """A month-day as the reply's reader reads it: "1-5" is "1月5日" / "Jan 5" ("1-5入住" reads as a range).

    >>> date_said("1-5", "zh"), date_said("1-5", "en"), date_said("?", "zh")
    ('1月5日', 'Jan 5', '?')
    """
    if lang != "zh":
        return en_date(md)
    nums = [int(n) for n in re.findall(r"\d+", str(md))]
    if len(nums) >= 2 and 1 <= nums[-2] <= 12 and 1 <= nums[-1] <= 31:
        return f"{nums[-2]}月{nums[-1]}日"
    return str(md)


def en_date(md: object) -> str:
    """A month-day as an English reader reads it: "6-3" is "Jun 3" (read "6-3 to 6-6" as a range of days, and "1-3"
    as January to March); anything else as given.

    >>> en_date("6-3"), en_date("2024-12-18"), en_date("?"), en_date(None)
    ('Jun 3', 'Dec 18', '?', 'None')
    """
    nums = [int(n) for n in re.findall(r"\d+", str(md))]
    if len(nums) >= 2 and 1 <= nums[-2] <= 12 and 1 <= nums[-1] <= 31:
        return f"{_MONTHS[nums[-2] - 1]} {nums[-1]}"
    return str(md)


_SMALL_WORDS = {"of", "the", "and", "in", "on", "at", "for", "to", "a", "an"}


def name_case(name: str) -> str:
    """A place's English name in title case, its small words lower but the first ("Temple of Heaven", not
    "Temple Of Heaven").

    >>> name_case("temple of heaven"), name_case("the summer palace")
    ('Temple of Heaven', 'The Summer Palace')
    """
    words = name.split()
    return " ".join(w if i and w in _SMALL_WORDS else w[:1].upper() + w[1:] for i, w in enumerate(words))


_EN_NAME: dict[str, str] = {}
for _en, _zh in PLACE_ALIASES.items():
    _EN_NAME.setdefault(_zh, name_case(_en))


def en_count(n, one: str, many: str) -> str:
    """An English count with its noun: "1 person", "2 people", "1 night"."""
    return f"{n} {one if n == 1 else many}"


def fmt_money(x) -> str:
    return f"¥{float(x):,.0f}" if x is not None else "?"


def display_name(name: str, lang: str) -> str:
    """A database name as shown to the user: glossed in English, as it is in Chinese."""
    return _name(name, lang)


def _name(name: str, lang: str) -> str:
    if lang != "en":
        return name
    if name in _EN_NAME:
        return f"{name} ({_EN_NAME[name]})"
    if re.fullmatch(r"[\u4e00-\u9fff]+地铁站", name):  # a station, as every list glosses it ("Dengshikou station")
        return gloss_station(name)
    row = load_database().by_name.get(name)
    return gloss_name(name, hotel=row is not None and load_database().domain_of(row) == "hotel")


def _range(r: str, lang: str) -> str:
    if r.startswith(">"):
        return f"{r[1:]}元以上" if lang == "zh" else f"over ¥{r[1:]}"
    if r.startswith("<"):
        return f"低于{r[1:]}元" if lang == "zh" else f"under ¥{r[1:]}"
    lo, _, hi = r.partition("-")
    if hi == "100000":  # a floor ("不低于1000"), written as a closed range for the database
        return f"{lo}元以上" if lang == "zh" else f"¥{lo} or more"
    if lo in ("0", "0.0"):
        return f"不超过{hi}元" if lang == "zh" else f"at most ¥{hi}"
    return f"{lo}-{hi}元" if lang == "zh" else f"¥{lo}-{hi}"


def constraint_phrase(c: Constraint, lang: str) -> str:
    # the value's type is fixed by the slot (as understanding and slot_bridge build them): the casts say which
    v, zh = c.value, lang == "zh"
    if c.slot == "avoid":
        names = [CATEGORY_NAMES[lang].get(t, t) for t in cast(list[str], v)]
        return ("忌口/过敏：" + "、".join(names)) if zh else "avoid " + ", ".join(names)
    if c.slot == "budget":
        return f"总预算{v:,.0f}元" if zh else f"total budget ¥{v:,.0f}"
    if c.slot == "price":
        return f"每晚{_range(cast(str, v), lang)}" if zh else f"{_range(cast(str, v), lang)} per night"
    if c.slot == "cost":
        return f"人均{_range(cast(str, v), lang)}" if zh else f"{_range(cast(str, v), lang)} per person"
    if c.slot == "ticket":
        return f"门票{_range(cast(str, v), lang)}" if zh else f"tickets {_range(cast(str, v), lang)}"
    if c.slot == "rating":
        rating = cast(str, v)
        return f"评分{rating.replace('-', '~')}" if zh else f"rating {rating.replace('-', ' to ')}"
    if c.slot == "quiet":
        return "安静" if zh else "quiet"
    if c.slot == "near_metro":
        return "靠近地铁" if zh else "near the metro"
    if c.slot == "place":
        return f"位置：{v}附近" if zh else f"near {_name(cast(str, v), lang)}"
    if c.slot == "dates":
        dates = cast(dict, v)
        ci, co, n = dates.get("check_in"), dates.get("check_out"), dates.get("nights")
        if not ci and not co:  # "three days next month": the length is known, the dates are not
            return (
                (f"行程{n}晚" if zh else f"a stay of {en_count(n, 'night', 'nights')}")
                if n
                else ("日期未定" if zh else "dates not set")
            )
        if zh:
            when = f"{ci.replace('-', '月')}日" if ci else ""
            return f"日期：{when}{'至' + co.replace('-', '月') + '日' if co else ''}{f'（{n}晚）' if n else ''}"
        stay = f" ({en_count(n, 'night', 'nights')})" if n else ""
        return f"dates: {en_date(ci) if ci else '?'}{' to ' + en_date(co) if co else ''}{stay}"
    if c.slot == "people":
        return f"{v}人" if zh else en_count(v, "person", "people")
    if c.slot == "facilities":
        listed = cast(list[str], v)
        return "设施：" + "、".join(listed) if zh else "facilities: " + ", ".join(gloss_facility(f) for f in listed)
    if c.slot == "hotel_type":
        return f"酒店类型：{v}" if zh else f"hotel type {v}"
    if c.slot == "walk":
        return f"步行不超过{v}分钟" if zh else f"a walk of at most {v} minutes"
    if c.slot == "not_pricey":
        return "别太贵" if zh else "nothing too expensive"
    return f"{c.slot}={v}"


def sourced(used: list[Constraint], lang: str) -> str:
    """The constraints as the user stated them, each with its turn: a recap, restated from memory."""
    parts = []
    for c in used:
        turn = f"（第{c.turn}轮）" if lang == "zh" else f" (turn {c.turn})"
        parts.append(constraint_phrase(c, lang) + (turn if c.turn else ""))
    return ("；" if lang == "zh" else "; ").join(parts)


# what the planner found missing, in words
_MISSING = {
    "target": ("指的是哪一家", "which place is meant"),
    "beyond": ("列表里没有这一项", "that item is not in the list"),
    "which": ("问的是列表里哪一个", "which of the items listed is meant"),
    "pick": ("选的是列表里哪一个", "which of the items listed is picked"),
    "already": ("这一项已在当天的行程里", "that item is already on that day"),
    "dates": ("日期", "the dates"),
    "place": ("地点", "the place"),
    "plan_item": ("行程里的这一项", "that item in the plan"),
    "unplaced": ("数据库（只有北京）里找不到的地点", "a place the database (Beijing only) cannot place"),
}


def thought_text(lang: str, intent: str, domain: str | None, used: list[Constraint], calls: list, missing: list) -> str:
    zh = lang == "zh"
    what = {"hotel": ("酒店", "hotels"), "restaurant": ("餐厅", "restaurants"), "attraction": ("景点", "attractions")}
    topic = what.get(domain or "", ("", "the request"))[0 if zh else 1]
    head = {
        "search": (f"用户要找{topic}。", f"The user wants {topic}."),
        "info": (f"用户问某个{topic}的信息。", f"The user asks about one of the {topic}."),
        "book": ("用户要把选中的一项加入行程。", "The user wants to add a chosen item to the plan."),
        "tally": ("用户要看行程花费。", "The user wants the plan's spending."),
        "metro": ("用户问地铁站。", "The user asks for a metro station."),
        "why": (
            "用户问原因：在记忆里找这件事和它的前因。",
            "The user asks why: look for the event and its causes in memory.",
        ),
        "dayplan": (
            "用户按天说了要去的景点：逐个加入行程。",
            "The user tells the sights day by day: add each to the plan.",
        ),
        "history": (
            "用户问之前说过或定下的内容：读约束记录和它们的历史。",
            "The user asks what was said or decided: read the constraint records and their history.",
        ),
        "city": (
            "用户问的城市不在数据库里（只有北京）。",
            "The city asked about is not in the database (Beijing only).",
        ),
    }.get(intent, ("用户在陈述信息或偏好。", "The user states information or a preference."))[0 if zh else 1]
    parts = [head]
    if used:
        parts.append(
            ("从记忆中读到的约束：" if zh else "Constraints from memory: ")
            + sourced(used, lang)
            + ("。" if zh else ".")
        )
    if missing:  # said in words, never the planner's own names ("缺少：target")
        said = [_MISSING.get(m, (m, m))[0 if zh else 1] for m in missing]
        parts.append(("缺少：" if zh else "Missing: ") + ("、" if zh else ", ").join(said) + ("。" if zh else "."))
    for call in calls:
        args = ", ".join(f"{k}={v}" for k, v in call.arguments.items())
        parts.append((f"调用 {call.tool}({args})。" if zh else f"Call {call.tool}({args})."))
    return " ".join(parts) if not zh else "".join(parts)


def gloss_facility(f: str) -> str:
    """A facility in English where the lexicon knows it ("停车位" -> "parking"), else as listed.

    >>> gloss_facility("收费停车位"), gloss_facility("早餐服务免费")
    ('paid parking', 'breakfast (free)')
    """
    if f.startswith("收费") and len(f) > 2:
        return "paid " + gloss_facility(f[2:])
    if f.endswith("免费") and len(f) > 2:
        return gloss_facility(f[:-2]) + " (free)"
    for alias, target in FACILITY_ALIASES.items():
        if target == f and alias.isascii():
            return alias
    return f
