"""The lines a search result's reply says around its rows: how many were found, what a diet left out, where a
"nothing too expensive" cut fell, and the dishes asked for shown first.

Split from ``result_texts`` (which composes the reply) so each stays one reader's length.
"""

from __future__ import annotations

from .meals import NOT_DISHES
from .reply_phrases import display_name, fmt_money
from .tool_models import ToolOutput

__all__ = ["cheaper_half_line", "excluded_lines", "found_line", "dishes_first", "walk_line", "hours_line"]

_PRICE_UNIT = {
    "search_hotels": ("每晚", "a night"),
    "search_restaurants": ("人均", "a head"),
    "search_attractions": ("门票", "a ticket"),
}


def cheaper_half_line(out: ToolOutput, zh: bool) -> str:
    """Where "nothing too expensive" cut, said (no number was the user's: the median of what fit is the line)."""
    cut, of = fmt_money(out.facts["cheaper_half"]), out.facts.get("cheaper_of")
    zh_unit, en_unit = _PRICE_UNIT.get(out.tool, ("", ""))
    if out.facts.get("free_kept"):  # free places are never too expensive: kept, and the line is the paid ones'
        return (
            f"（你没有说具体价位：符合条件的{of}个里，免费的{out.facts['free_kept']}个都保留，收费的只保留{zh_unit}不超过"
            f"{cut}的（收费那些的中位数）。）"
            if zh
            else f"(You gave no figure, so of the {of} that fit I kept all {out.facts['free_kept']} free ones and the "
            f"cheaper half of the rest: at most {cut} {en_unit}, the median of those that charge.)"
        )
    return (
        f"（你没有说具体价位：我只保留了符合条件的{of}个里价格较低的一半，{zh_unit}不超过{cut}（它们的中位数）。）"
        if zh
        else f"(You gave no figure, so I kept the cheaper half of the {of} that fit: at most {cut} {en_unit}, "
        "their median price.)"
    )


def walk_line(out: ToolOutput, zh: bool) -> str:
    """What a walking limit did: the data has no walking times, so the search kept to the place's own neighbours
    (no wider ring), or, with no place to be near, could not narrow anything."""
    minutes, near = out.facts["walk_minutes"], out.facts.get("near")
    if near:
        return (
            f"（数据里没有步行时间：按你说的步行不超过{minutes}分钟，我只保留了数据里列为{near}近邻的地方，没有往更远处扩大。）"
            if zh
            else f"(The data has no walking times: for your walk of at most {minutes} minutes I kept only places it lists "
            f"right next to {display_name(near, 'en')}, and looked no further out.)"
        )
    return (
        f"（数据里没有步行时间，你也没有说在哪附近，所以步行不超过{minutes}分钟这一条没法用来筛选。）"
        if zh
        else f"(The data has no walking times and no place was given to be near, so your {minutes}-minute walking "
        "limit could not narrow this search.)"
    )


def hours_line(out: ToolOutput, zh: bool) -> str:
    """What a visit-length limit left out: the places whose listed visit time (游玩时间, often a range such as
    "2小时 - 3小时") runs past it."""
    hours, cut = out.facts["max_hours"], out.facts.get("too_long") or 0
    said = f"{hours:g}"
    if not cut:
        return (
            f"（游玩时间都在{said}小时以内。）"
            if zh
            else f"(All of these fit in {said} hour{'' if hours == 1 else 's'}, by the visit time listed.)"
        )
    return (
        f"（按你说的{said}小时以内：已去掉{cut}个列出的游玩时间会超过{said}小时的地方（按时长区间的上限算）。）"
        if zh
        else f"(For your limit of {said} hour{'' if hours == 1 else 's'} I left out {cut} places whose listed visit time can run past it "
        "(the upper end of the range the data gives).)"
    )


def excluded_lines(facts: dict, zh: bool) -> list[str]:
    """What the diet left out: places with a dish avoided outright (an allergy), and places that do not suit a
    diet style (a meat place by name, or too few dishes that fit), the rest ranked by how much of the menu fits.

    >>> excluded_lines({"excluded": 5, "excluded_style": 3, "styles": ["meat"]}, False)[1][:60]
    'I left out 3 places that do not suit a vegetarian (a meat pl'
    """
    style = facts.get("excluded_style") or 0
    strict = (facts.get("excluded") or 0) - style
    lines = []
    if strict:
        lines.append(
            f"已排除{strict}家推荐菜里有你要避开的食物的餐厅。"
            if zh
            else f"I excluded {strict} places whose dishes include what you avoid."
        )
    if facts.get("styles") and not style:
        lines.append("（按推荐菜中素菜的占比排序。）" if zh else "(Ranked by how much of each menu is meat-free.)")
    elif facts.get("styles"):
        lines.append(
            f"已排除{style}家不适合素食的餐厅（店名就是荤菜，或推荐菜里素菜不到一半）；其余按素菜占比排序。"
            if zh
            else f"I left out {style} places that do not suit a vegetarian (a meat place by name, or fewer than"
            " half of their signature dishes meat-free) and ranked the rest by how much of the menu is meat-free."
        )
    return lines


def found_line(count: int, shown: int, zh: bool) -> str:
    """How many fit and how many are listed ("3 found; the top 1:" read as a slip when one was asked for).

    >>> found_line(3, 1, False), found_line(2, 2, False), found_line(9, 5, True), found_line(5, 1, True)
    ('3 found; the best fit:', '2 found:', '共找到9个，前5个：', '共找到5个，最合适的是：')
    """
    if shown >= count:
        return f"共找到{count}个：" if zh else f"{count} found:"
    if shown == 1:
        return f"共找到{count}个，最合适的是：" if zh else f"{count} found; the best fit:"
    return f"共找到{count}个，前{shown}个：" if zh else f"{count} found; the top {shown}:"


def dishes_first(row: dict, wanted: list[str]) -> dict:
    """The row with the dishes asked for shown first (the reply lists only a few), placeholders ("其他") dropped.

    >>> dishes_first({"推荐菜": ["其他", "酸菜鱼", "招牌烤鸭"]}, ["烤鸭"])["推荐菜"]
    ['招牌烤鸭', '酸菜鱼']
    """
    if "推荐菜" not in row:
        return row
    dishes = [d for d in row.get("推荐菜") or [] if d not in NOT_DISHES]
    hit = [d for d in dishes if any(w in d for w in wanted)]
    return dict(row, 推荐菜=hit + [d for d in dishes if d not in hit])
