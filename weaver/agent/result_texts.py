"""What a tool's result says: the memory text of a tool result, and the reply listing what was found (or why not).

One numbered line per row (price, rating, dishes, ticket, station), a failure's reason
with its numbers (over budget by how much), the plan's tally, and what was widened
when nothing fit near a place. The words of names and constraints come from
``reply_phrases``.
"""

from __future__ import annotations

import re

from .gloss import gloss_duration, gloss_station, gloss_type, pinyin
from .diet_styles import food_dishes
from .meals import NOT_DISHES
from .tool_models import ROOM_SLEEPS
from .tools import ToolOutput
from .understanding import Constraint
from .reply_phrases import date_said, display_name, en_date, fmt_money, sourced
from .result_notes import cheaper_half_line, dishes_first, excluded_lines, found_line, hours_line, walk_line

__all__ = [
    "tool_memory_text",
    "results_text",
    "plan_only",
    "rebooked_text",
    "which_text",
    "field_text",
    "asked_fields",
    "when_said",
]

_MEAL_WORDS = {
    "breakfast": ("早饭", "breakfast"),
    "lunch": ("午饭", "lunch"),
    "dinner": ("晚饭", "dinner"),
    "late-night": ("夜宵", "a late-night meal"),
}


def plan_only(lang: str) -> str:
    """Said under a booking: the agent keeps a plan, it reserves nothing."""
    return (
        "（这里只记录行程，不会真的下单预订。）"
        if lang == "zh"
        else "(I keep the plan only; no real reservation is made.)"
    )


def rebooked_text(out: ToolOutput, lang: str) -> str:
    """A booking made again for new dates or a new party: the item as booked now, without "Added to your plan" (the
    line after it says the plan was updated) nor :func:`plan_only` (a change that moves several bookings says that
    once, after them all)."""
    said = results_text(out, lang, []).replace("\n" + plan_only(lang), "")
    added = "已加入你的行程：" if lang == "zh" else "Added to your plan: "
    return said[len(added) :] if said.startswith(added) else said


def _meal_order(item: dict) -> float:
    """A day's items in the order of the day: breakfast, lunch, what has no meal (a sight), dinner, a late meal.

    >>> sorted([{"meal": "dinner"}, {"name": "故宫"}, {"meal": "lunch"}], key=_meal_order)
    [{'meal': 'lunch'}, {'name': '故宫'}, {'meal': 'dinner'}]
    """
    meals = list(_MEAL_WORDS)
    return meals.index(item["meal"]) if item.get("meal") in _MEAL_WORDS else meals.index("lunch") + 0.5


def when_said(item: dict, lang: str) -> str:
    """The day and meal a plan item is for, as the plan says them ("第2天晚饭" / "day 2 dinner"); "" for neither.

    >>> when_said({"day": 2, "meal": "dinner"}, "zh"), when_said({"day": 2}, "en"), when_said({"meal": "lunch"}, "en")
    ('第2天晚饭', 'day 2', 'lunch')
    """
    zh = lang == "zh"
    day, meal = item.get("day"), _MEAL_WORDS.get(str(item.get("meal")))
    said = [f"第{day}天" if zh else f"day {day}"] if day else []
    said += [meal[0] if zh else meal[1].removeprefix("a ")] if meal else []
    return ("" if zh else " ").join(said)


def _dish_list(dishes: list[str], lang: str) -> str:
    """The first few dishes (four in Chinese; three in English, each with its pinyin)."""
    if lang == "zh":
        return "、".join(dishes[:4])
    return ", ".join(f"{d} ({pinyin(d)})" if re.search(r"[\u4e00-\u9fff]", d) else d for d in dishes[:3])


def _row_line(i: int, r: dict, lang: str) -> str:
    zh, dom = lang == "zh", r.get("domain")
    rating = r.get("评分")
    rt = (f"评分{rating}" if zh else f"rating {rating}") if rating is not None else ("暂无评分" if zh else "no rating")
    if dom == "hotel":
        price = fmt_money(r.get("价格")) + ("/晚" if zh else "/night")
        extra = (
            f"{r.get('酒店类型')}，地铁：{r.get('地铁')}"
            if zh
            else f"{gloss_type(r.get('酒店类型'))}, metro: {gloss_station(r.get('地铁'))}"
        )
        body = f"{price}，{rt}，{extra}" if zh else f"{price}, {rt}, {extra}"
    elif dom == "restaurant":
        listed = [d for d in r.get("推荐菜") or [] if d not in NOT_DISHES]
        fitting = r.get("fitting_dishes")
        if fitting is not None and listed:  # vegetarian (the one diet style): what they can eat, how much of it
            food = len(food_dishes(listed))  # of the food listed: drinks and sauces count neither way
            said = (
                f"推荐菜中的素菜（{len(fitting)}/{food}）：{_dish_list(fitting, lang)}"
                if zh
                else f"meat-free signature dishes ({len(fitting)} of {food}): {_dish_list(fitting, lang)}"
            )
        else:
            said = ("推荐菜：" if zh else "recommended: ") + _dish_list(listed, lang)
        body = (
            f"人均{fmt_money(r.get('人均消费'))}，{rt}，{said}"
            if zh
            else f"{fmt_money(r.get('人均消费'))} per person, {rt}, {said}"
        )
    elif dom == "attraction":
        t = r.get("门票")
        ticket = (
            ("免费" if zh else "free")
            if t == 0
            else (fmt_money(t) if t is not None else ("未知" if zh else "n/a"))  # after "门票" / "ticket"
        )
        # "0.3小时 - 0.3小时": one length, said once
        visit = re.sub(r"^(.+?)\s*-\s*\1$", r"\1", str(r.get("游玩时间")))
        body = (
            f"门票{ticket}，游玩时间{visit}，{rt}"
            if zh
            else f"ticket {ticket}, visit {gloss_duration(r.get('游玩时间'))}, {rt}"
        )
    elif dom == "metro":
        st = (r.get("地铁") or "无地铁站记录") if zh else gloss_station(r.get("地铁"))
        body = f"最近的地铁站：{st}" if zh else f"nearest metro: {st}"
    else:
        body = f"{fmt_money(r.get('cost'))}"
    return f"{i}. {display_name(r.get('名称') or r.get('name', ''), lang)} — {body}"


# the column a field question names ("门票多少钱" / "what's the rating"); a bare price is the domain's own
_FIELDS = [
    ("门票", re.compile(r"门票|票价|ticket", re.I)),
    ("评分", re.compile(r"评分|rating", re.I)),
    ("地址", re.compile(r"地址|在哪|address", re.I)),
    ("电话", re.compile(r"电话|phone", re.I)),
]
_PRICE = {"hotel": "价格", "restaurant": "人均消费", "attraction": "门票"}


def asked_fields(question: str) -> list[str]:
    """The columns a field question names, in the table's words ("故宫评分多少？" -> ["评分"]); [] when it names none.

    >>> asked_fields("故宫门票和评分是多少？"), asked_fields("What is the Forbidden City's rating?"), asked_fields("故宫怎么样")
    (['门票', '评分'], ['评分'], [])
    """
    return [c for c, pat in _FIELDS if pat.search(question)]


def _field_said(row: dict, col: str, domain: str, lang: str) -> tuple[str, str]:
    """(the field's label, its value) as a reply says them: a price in yuan (a free ticket said so), else as listed."""
    zh = lang == "zh"
    words = {
        "门票": ("门票", "ticket"),
        "评分": ("评分", "rating"),
        "地址": ("地址", "address"),
        "电话": ("电话", "phone"),
    }
    label = words.get(col, ("价格" if domain == "hotel" else "人均", "price" if domain == "hotel" else "per person"))
    v = row.get(col)
    if col in ("门票", "价格", "人均消费") and isinstance(v, (int, float)):
        shown = ("免费" if zh else "free") if v == 0 else fmt_money(v) + ("/晚" if zh else "/night") * (col == "价格")
    else:
        shown = str(v) if v not in (None, "") else ("未知" if zh else "n/a")
    return label[0] if zh else label[1], shown


def field_text(row: dict, cols: list[str], domain: str, lang: str) -> str:
    """ "故宫评分多少？": the fields asked of one place, with its name, and nothing else of its row.

    >>> field_text({"名称": "故宫", "评分": 4.7, "门票": 60}, ["评分"], "attraction", "zh")
    '故宫的评分是4.7。'
    >>> field_text({"名称": "东六宫", "评分": 5.0, "门票": 0}, ["门票", "评分"], "attraction", "en")
    '东六宫 (Dongliugong): ticket free, rating 5.0.'
    """
    zh = lang == "zh"
    parts = [_field_said(row, c, domain, lang) for c in cols]
    name = display_name(str(row.get("名称", "")), lang)
    if zh:
        return f"{name}的" + "，".join(f"{k}是{v}" if v != "免费" else f"{k}免费" for k, v in parts) + "。"
    return f"{name}: " + ", ".join(f"{k} {v}" for k, v in parts) + "."


def which_text(rows: list[dict], question: str, domain: str, lang: str) -> str:
    """ "门票多少钱？" after a list of several: the field for each item listed, and which one is meant, asked back.

    >>> which_text([{"名称": "故宫", "门票": 60}, {"名称": "东六宫", "门票": 0}], "门票多少钱？", "attraction", "zh")
    '刚才列出的几个：故宫：门票¥60；东六宫：门票免费。你问的是哪一个？'
    """
    zh = lang == "zh"
    col = next(iter(asked_fields(question)), _PRICE.get(domain, "评分"))
    parts = []
    for r in rows:
        label, shown = _field_said(r, col, domain, lang)
        name = display_name(str(r.get("名称", "")), lang)
        parts.append(f"{name}：{label}{shown}" if zh else f"{name}: {label} {shown}")
    if zh:
        return "刚才列出的几个：" + "；".join(parts) + "。你问的是哪一个？"
    return "The ones I just listed: " + "; ".join(parts) + ". Which one do you mean?"


def tool_memory_text(out: ToolOutput, lang: str, shown: bool = False) -> str:
    """What the weaver stores for a tool result: short, self-explanatory, in the user's language (``shown``: as
    the reply says it, the name glossed for a reader of English)."""
    zh = lang == "zh"
    args = ", ".join(f"{k}={v}" for k, v in out.arguments.items())
    if out.error:
        return f"{out.tool}({args}) 出错：{out.error}" if zh else f"{out.tool}({args}) error: {out.error}"
    f = out.facts
    if shown and f.get("name"):  # said to the user: the name as a reader of the language can use it (glossed)
        f = {**f, "name": display_name(str(f["name"]), lang)}
    if shown and zh and f.get("check_in"):  # "1月5日入住", not "1-5入住" (a range of days)
        f = {**f, "check_in": date_said(f["check_in"], lang)}
    if out.tool == "book_hotel" and out.reason:
        why = _failure_reason(out, lang)
        return f"book_hotel 预订失败：{why}" if zh else f"book_hotel booking failed: {why}"
    if out.tool in ("book_hotel", "add_to_plan") and out.reason:
        return (
            f"{out.tool} 失败：{_failure_reason(out, lang)}"
            if zh
            else f"{out.tool} failed: {_failure_reason(out, lang)}"
        )
    if out.tool == "book_hotel":
        rooms = _rooms_said(f.get("rooms") or 1, zh)
        return (
            f"book_hotel 已加入行程：{f['name']}，{f['check_in']}入住{f['nights']}晚{rooms}，每晚{fmt_money(f['unit_price'])}"
            f"{'/间' if rooms else ''}，共{fmt_money(f['cost'])}"
            if zh
            else f"book_hotel added to plan: {f['name']}, check-in {en_date(f['check_in'])}, {f['nights']} nights"
            f"{rooms} at {fmt_money(f['unit_price'])}{' a room' if rooms else ''}, total {fmt_money(f['cost'])}"
        )
    if out.tool == "add_to_plan":
        when = when_said(f, lang)
        day = (f"（{when}）" if zh else f" ({when})") if when else ""
        who = f"{f['people']} {'person' if f['people'] == 1 else 'people'}"
        return (
            f"add_to_plan 已加入行程：{f['name']}{day}，{f['people']}人，共{fmt_money(f['cost'])}"
            if zh
            else f"add_to_plan added: {f['name']}{day}, {who}, {fmt_money(f['cost'])}"
        )
    if out.tool == "budget_tally":
        return (
            f"budget_tally：已选{out.count}项，共{fmt_money(f['total'])}"
            + (f"，预算{fmt_money(f['budget'])}" if f.get("budget") else "")
            if zh
            else f"budget_tally: {out.count} items, total {fmt_money(f['total'])}"
            + (f" of budget {fmt_money(f['budget'])}" if f.get("budget") else "")
        )
    names = "、".join(r.get("名称", "") for r in out.rows) if zh else ", ".join(r.get("名称", "") for r in out.rows)
    return (
        f"{out.tool}({args})：共{out.count}个结果，前{len(out.rows)}个：{names}"
        if zh
        else f"{out.tool}({args}): {out.count} results, top {len(out.rows)}: {names}"
    )


def _rooms_said(rooms: int, zh: bool) -> str:
    """More than one room, said with the rule that counted them (the data has no room sizes); "" for one."""
    if rooms <= 1:
        return ""
    return (
        f"，{rooms}间（数据里没有房型，按每间住{ROOM_SLEEPS}人算）"
        if zh
        else (f", {rooms} rooms (the data has no room sizes: {ROOM_SLEEPS} people to a room)")
    )


def _failure_reason(out: ToolOutput, lang: str) -> str:
    zh, f = lang == "zh", out.facts
    name = f.get("name") or out.arguments.get("name")
    if name and out.reason != "not_found":  # a database name, glossed for a reader of English
        name = display_name(str(name), lang)
    if out.reason == "over_budget":
        if out.tool == "book_hotel":
            return (
                f"{name} 每晚{fmt_money(f['unit_price'])} × {f['nights']}晚（{f['check_in']}入住）"
                + (f" × {f['rooms']}间" if (f.get("rooms") or 1) > 1 else "")
                + f"= {fmt_money(f['cost'])}，"
                f"加上已选的{fmt_money(f['spent'])}，超出总预算{fmt_money(f['budget'])}"
                if zh
                else f"{name} costs {fmt_money(f['unit_price'])} x {f['nights']} nights (check-in {en_date(f['check_in'])})"
                + (f" x {f['rooms']} rooms" if (f.get("rooms") or 1) > 1 else "")
                + " = "
                f"{fmt_money(f['cost'])}; with {fmt_money(f['spent'])} already planned it exceeds the total budget "
                f"of {fmt_money(f['budget'])}"
            )
        return (
            f"{name} 需{fmt_money(f['cost'])}，加上已选的{fmt_money(f['spent'])}，超出总预算{fmt_money(f['budget'])}"
            if zh
            else f"{name} costs {fmt_money(f['cost'])}; with {fmt_money(f['spent'])} already planned it exceeds "
            f"the budget of {fmt_money(f['budget'])}"
        )
    if out.reason == "not_found":
        return f"数据库里没有“{name}”" if zh else f"no {name!r} in the database"
    if out.reason == "no_price":
        return f"{name} 没有价格记录" if zh else f"{name} has no price in the database"
    return out.reason


def results_text(out: ToolOutput, lang: str, used: list[Constraint], relaxed_from: str | None = None) -> str:
    zh = lang == "zh"
    lines = []
    if out.error:
        return f"抱歉，查询出错：{out.error}" if zh else f"Sorry, the lookup failed: {out.error}"
    if out.tool in ("book_hotel", "add_to_plan"):
        if out.reason:
            return (
                ("没能加入行程：" if zh else "I could not add it to the plan: ")
                + _failure_reason(out, lang)
                + ("。" if zh else ".")
            )
        said = tool_memory_text(out, lang, shown=True)
        lines.append(said.split("：", 1)[-1] if zh else said.split(": ", 1)[-1])
        lines[0] = ("已加入你的行程：" if zh else "Added to your plan: ") + lines[0] + ("。" if zh else ".")
        if "not_for_meal" in out.notes:  # "dinner on day 2" at a place that closes at 17:30: said, kept as chosen
            zh_word, en_word = _MEAL_WORDS[str(out.facts.get("meal"))]
            lines.append(
                f"（注意：按数据里的营业时间和推荐菜，这家不太像供应{zh_word}的地方，要不要换一家？）"
                if zh
                else f"(Note: by its listed hours and dishes it may not serve {en_word}. Shall I find another place?)"
            )
        lines.append(plan_only(lang))
        return "\n".join(lines)
    if out.tool == "budget_tally":
        f = out.facts
        if not out.rows:
            return "行程里还没有选定任何项目。" if zh else "Nothing has been added to the plan yet."
        lines.append("目前的行程：" if zh else "Your plan so far:")
        # by day: the stay first, then each day's items, then what has no day
        rows = sorted(out.rows, key=lambda r: (r.get("kind") != "hotel", r.get("day") or 99, _meal_order(r)))
        for i, r in enumerate(rows, 1):
            when = when_said(r, lang)
            day = (f"{when}：" if zh else f"{when}: ") if when else ""
            rooms = int(r.get("rooms") or 1)  # more than one room: said, as the booking said it
            stay = (
                (
                    f"（{date_said(r['check_in'], lang)}入住{r['nights']}晚{f'，{rooms}间' if rooms > 1 else ''}）"
                    if zh
                    else f" (check-in {en_date(r['check_in'])}, {r['nights']} nights{f', {rooms} rooms' if rooms > 1 else ''})"
                )
                if r.get("kind") == "hotel" and r.get("check_in")
                else ""
            )
            lines.append(f"{i}. {day}{display_name(str(r['name']), lang)}{stay} — {fmt_money(r.get('cost'))}")
        total = fmt_money(f["total"])
        if f.get("budget"):
            ok = f["within"]
            lines.append(
                (
                    f"合计{total}，总预算{fmt_money(f['budget'])}，"
                    + (f"还剩{fmt_money(f['remaining'])}。" if ok else f"超出{fmt_money(-f['remaining'])}！")
                )
                if zh
                else (
                    f"Total {total} of your {fmt_money(f['budget'])} budget: "
                    + (f"{fmt_money(f['remaining'])} left." if ok else f"over by {fmt_money(-f['remaining'])}!")
                )
            )
        else:
            lines.append(
                f"合计{total}（你还没有告诉我总预算）。" if zh else f"Total {total} (you have not told me a budget)."
            )
        return "\n".join(lines)
    if "unknown_place" in " ".join(out.notes):
        place = out.arguments.get("near")
        return (
            f"数据库里找不到“{place}”这个北京地点。"
            if zh
            else f"I can't find {place!r} among Beijing places in the database."
        )
    skipped = out.facts.get("skipped")  # "another one": fitting ones offered before are left out
    if out.count == 0 and skipped:
        return (
            f"除了之前推荐过的{skipped}个，没有其他符合条件的了"
            if zh
            else f"Apart from the {skipped} already suggested, nothing else matches"
        ) + (
            f"（{sourced(used, lang)}）。可以放宽某个条件再试。"
            if zh and used
            else f" ({sourced(used, lang)}). Try relaxing one of them."
            if used
            else ("。" if zh else ".")
        )
    if out.count == 0:
        return ("没有找到符合所有条件的结果" if zh else "Nothing matches all the conditions") + (
            f"（{sourced(used, lang)}）。可以放宽某个条件再试。"
            if zh and used
            else f" ({sourced(used, lang)}). Try relaxing one of them."
            if used
            else ("。" if zh else ".")
        )
    if used:
        lines.append(
            ("按照你之前说的：" if zh else "Going by what you told me: ") + sourced(used, lang) + ("。" if zh else ".")
        )
    if relaxed_from:
        now = out.arguments.get("near")
        around = bool(out.arguments.get("around"))
        lines.append(
            (
                f"{relaxed_from}附近没有符合条件的，"
                + (f"改为在{now}周边更大的范围找" if around else f"改为在{now}附近找" if now else "所以不限位置")
                + "（只放宽了位置，其他条件不变）。"
            )
            if zh
            else (
                f"Nothing fit near {display_name(relaxed_from, lang)}, so I "
                + (
                    f"looked a little further around {display_name(str(now), lang)}"
                    if around
                    else f"looked near {display_name(now, lang)} instead"
                    if now
                    else "searched all of Beijing"
                )
                + " (only the place is widened; every other condition still applies)."
            )
        )
    lines.extend(excluded_lines(out.facts, zh))
    meal = out.arguments.get("meal") if out.tool == "search_restaurants" else None
    if meal in _MEAL_WORDS:
        zh_word, en_word = _MEAL_WORDS[meal]
        lines.append(f"（只列{zh_word}时段营业、供应正餐的餐厅。）" if zh else f"(Only places open for {en_word}.)")
    if skipped:
        lines.append(
            f"（不重复之前推荐过的{skipped}个。）" if zh else f"(Leaving out the {skipped} already suggested.)"
        )
    if out.arguments.get("sort") == "hours":
        lines.append(
            "（按游玩时间从短到长排。）" if zh else "(Shortest visits first, by the visit time the data lists.)"
        )
    if out.facts.get("cheaper_half") is not None:
        lines.append(cheaper_half_line(out, zh))
    if out.facts.get("walk_minutes"):
        lines.append(walk_line(out, zh))
    if out.facts.get("max_hours"):
        lines.append(hours_line(out, zh))
    if "quiet_proxy" in out.notes:
        lines.append(
            "（数据库没有噪音数据：我按周边场所较少来挑安静的。）"
            if zh
            else "(The database has no noise data: I kept hotels with fewer venues around as the quieter ones.)"
        )
    if out.tool == "metro_station" and out.count == 1:  # one place, one station: no "1 found" list
        return _row_line(1, out.rows[0], lang)[3:]
    if out.arguments.get("name") and out.arguments.get("limit") == 1 and len(out.rows) == 1 and not lines:
        # "这家餐厅人均多少钱？": the place asked about, not "2 found; the best fit" (two places share its name)
        return _row_line(1, out.rows[0], lang)[3:]
    lines.append(found_line(out.count, len(out.rows), zh))
    wanted = out.arguments.get("dishes") or []
    lines.extend(_row_line(i, dishes_first(r, wanted), lang) for i, r in enumerate(out.rows, 1))
    return "\n".join(lines)
