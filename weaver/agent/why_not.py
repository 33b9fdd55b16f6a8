"""Answer "why not X?" ("为什么没推荐烤鸭店？", "why not a roast duck place?") from the last search's own conditions.

"Why" explains a result by its premises; "why not X" asks about what the result left out. The last search
of that kind is run again asking for X (a dish, or a place by name): if X fits every condition, it simply
ranked below what was shown; if not, the search is run without each of its conditions in turn, and the
conditions whose removal lets X in are what left it out (a diet, a budget, the place), said in words.
"""

from __future__ import annotations

import re
from typing import Callable

from .lexicon import CATEGORY_NAMES, DISH_ALIASES
from .place_names import pinyin_named
from .reply_phrases import constraint_phrase, display_name
from .tools import ToolBox
from .understanding import Constraint, Parsed

__all__ = ["asks_why_not", "why_not", "answer_why_not"]

_WHY_NOT = re.compile(
    r"(?:为什么|为何|为啥|怎么)(?:都)?(?:没|不|没有)|\bwhy (?:not|no|didn't|did you not|don't|wasn't|weren't|isn't|"
    r"aren't|haven't|hasn't)\b|\bhow come (?:no|not|there (?:is|was|are|were) no)\b",
    re.IGNORECASE,
)
# argument -> the constraint slot that words it (the rest are said as they are)
_SLOTS = {
    "near": "place",
    "avoid": "avoid",
    "budget": "budget",
    "price": "price",
    "cost": "cost",
    "ticket": "ticket",
    "rating": "rating",
    "people": "people",
    "hotel_type": "hotel_type",
    "facilities": "facilities",
    "quiet": "quiet",
    "near_metro": "near_metro",
}
_MEALS = {"breakfast": ("早饭", "breakfast"), "lunch": ("午饭", "lunch"), "dinner": ("晚饭", "dinner")}
_NOT_CONDITIONS = ("limit", "exclude", "around")  # how many, what not to repeat, how far: no condition on X


def asks_why_not(text: str) -> bool:
    """Does the question ask why something was *not* suggested?

    >>> asks_why_not("为什么没推荐烤鸭店？"), asks_why_not("why not a roast duck place?"), asks_why_not("为什么推荐这家？")
    (True, True, False)
    """
    return bool(_WHY_NOT.search(text))


def _phrase(key: str, value: object, lang: str) -> str:
    zh = lang == "zh"
    if key == "avoid" and isinstance(value, list):
        names = [CATEGORY_NAMES[lang].get(str(t), str(t)) for t in value]
        return ("你的忌口：" if zh else "your diet: avoid ") + ("、" if zh else ", ").join(names)
    if key == "meal" and value in _MEALS:
        return f"{_MEALS[str(value)][0]}时段营业" if zh else f"open for {_MEALS[str(value)][1]}"
    if key == "cheaper_half":
        return (
            "只看价格较低的一半（你说别太贵）" if zh else "only the cheaper half (you asked for nothing too expensive)"
        )
    if key in _SLOTS:
        return constraint_phrase(Constraint(_SLOTS[key], value), lang)
    return f"{key}：{value}" if zh else f"{key}: {value}"


def why_not(tools: ToolBox, search: dict, wanted: dict[str, object], what: str, lang: str) -> str:
    """Why the search (``{"tool", "arguments", "offered"}``) left out ``wanted`` (``{"dishes": [...]}`` or
    ``{"name": ...}``; ``what`` names it in the reply), in words, from the database."""
    zh = lang == "zh"
    tool = str(search["tool"])
    args = {k: v for k, v in (search.get("arguments") or {}).items() if k not in _NOT_CONDITIONS}
    if "dishes" in wanted:
        args.pop("dishes", None)
    if args.get("near") and (search.get("arguments") or {}).get("around"):
        args["around"] = True  # a widened search looked around the place: so does the check
    asked = {**args, **wanted, "limit": 20}  # the most a search lists
    fit = tools.run(tool, asked)
    if fit.count:
        shown = set(search.get("offered") or [])
        names = [str(r["名称"]) for r in fit.rows]
        first = display_name(names[0], lang)
        if shown & set(names):
            hit = display_name(next(n for n in names if n in shown), lang)
            return f"其实推荐过：{hit}（{what}）。" if zh else f"I did suggest one: {hit} ({what})."
        return (
            f"{what}不是被条件排除的：有{fit.count}家符合你所有的条件（最好的是{first}），只是排名在我推荐的那几家之后"
            "（按条件的契合度、评分、价格排序）。要看看吗？"
            if zh
            else f"No condition left {what} out: {fit.count} fit all your conditions (the best is {first}); they "
            "just ranked below the ones I showed (by how well they fit, then rating and price). Want to see them?"
        )
    if not tools.run(tool, {**wanted, "limit": 1}).count:
        return f"数据库里没有{what}。" if zh else f"The database has no {what}."
    conditions = [k for k in args if k not in wanted and k != "around"]
    # a condition that on its own leaves out every X is the reason (a vegetarian diet and a roast-duck house);
    # else the one whose removal lets X in (the budget, the place)
    alone = [k for k in conditions if not tools.run(tool, {**_only(args, k), **wanted, "limit": 1}).count]
    if alone:
        said = ("；" if zh else "; ").join(_phrase(k, args[k], lang) for k in alone)
        every = ("它" if "name" in wanted else f"所有{what}") if zh else ("it" if "name" in wanted else "every one")
        return (
            f"没有推荐{what}，是因为这个条件本身就排除了{every}：{said}。"
            if zh
            else f"I did not suggest {what} because this condition on its own rules out {every}: {said}."
        )
    blocking = [k for k in conditions if tools.run(tool, _without(asked, k)).count]
    if blocking:
        said = ("；" if zh else "; ").join(_phrase(k, args[k], lang) for k in blocking)
        if len(blocking) > 1:
            return (
                f"没有推荐{what}，是因为这几个条件每一个都把它排除了：{said}。去掉其中任何一个就能找到。"
                if zh
                else f"I did not suggest {what} because each of these left it out: {said}. Without any one of them "
                "there are some."
            )
        return (
            f"没有推荐{what}，是因为这个条件把它排除了：{said}。去掉它就能找到。"
            if zh
            else f"I did not suggest {what} because this condition left it out: {said}. Without it there are some."
        )
    said = ("；" if zh else "; ").join(_phrase(k, v, lang) for k, v in args.items() if k != "around")
    return (
        f"没有推荐{what}：单去掉哪一个条件都不够，是这些条件一起把它排除了：{said}。"
        if zh
        else f"I did not suggest {what}: no single condition left it out, these together did: {said}."
    )


def _only(args: dict, key: str) -> dict:
    """One condition of the search alone (the place keeps how far it looked)."""
    return {k: v for k, v in args.items() if k == key or (key == "near" and k == "around")}


def _without(args: dict, key: str) -> dict:
    out = {k: v for k, v in args.items() if k != key}
    if key == "near":
        out.pop("around", None)
    return out


_SEARCHES = {"hotel": "search_hotels", "restaurant": "search_restaurants", "attraction": "search_attractions"}


def answer_why_not(
    p: Parsed, previous_search: Callable[[str | None], dict | None], tools: ToolBox, lang: str
) -> tuple[str, list[str]] | None:
    """The answer to "why not X?" and the memories it rests on (the search and its premises); None when the
    question names no dish or place, or no search of that kind was made (the plain "why" answer is given)."""
    named = [e for e in p.entities if e[1] in _SEARCHES]
    asked = _WHY_NOT.search(p.text)
    if not named and not p.dishes and asked:  # "why not Quanjude?": a name the English lexicon lacks, in pinyin
        named = [e for e in [pinyin_named(p.text[asked.end() :])] if e and e[1] in _SEARCHES]
    wanted: dict[str, object]
    if p.dishes:
        domain, wanted = "restaurant", {"dishes": p.dishes[:1]}
        dish = p.dishes[0]
        english = next((k for k, v in DISH_ALIASES.items() if v == dish), None)
        what = f"做{dish}的餐厅" if lang == "zh" else f"a place serving {dish}" + (f" ({english})" if english else "")
    elif named:
        domain, wanted = named[0][1], {"name": named[0][0]}
        what = display_name(named[0][0], lang)
    else:
        return None
    search = previous_search(domain)
    if search is None:
        return None
    text = why_not(tools, {**search, "tool": _SEARCHES[domain]}, wanted, what, lang)
    return text, [*search.get("set_by", []), search["node_id"]]
