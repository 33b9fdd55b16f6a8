"""Template texts in the user's language (zh / en): thoughts, tool-result memories, replies, honest refusals."""

from __future__ import annotations

import re
from typing import cast

from .db import all_present, load_database, station_of
from .gloss import gloss_duration, gloss_name, gloss_station, gloss_type, pinyin
from .lexicon import CATEGORY_NAMES, CITY_EN, FACILITY_ALIASES, PLACE_ALIASES
from .meals import NOT_DISHES
from .tools import ToolOutput
from .understanding import CLOSING, Constraint

__all__ = [
    "display_name",
    "constraint_phrase",
    "thought_text",
    "tool_memory_text",
    "results_text",
    "ack_text",
    "sourced",
    "honest_text",
    "fmt_money",
]

_EN_NAME: dict[str, str] = {}
for _en, _zh in PLACE_ALIASES.items():
    _EN_NAME.setdefault(_zh, _en.title())


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
            return (f"行程{n}晚" if zh else f"a stay of {n} nights") if n else ("日期未定" if zh else "dates not set")
        if zh:
            when = f"{ci.replace('-', '月')}日" if ci else ""
            return f"日期：{when}{'至' + co.replace('-', '月') + '日' if co else ''}{f'（{n}晚）' if n else ''}"
        return f"dates: {ci or '?'}{' to ' + co if co else ''}{f' ({n} nights)' if n else ''}"
    if c.slot == "people":
        return f"{v}人" if zh else f"{v} people"
    if c.slot == "facilities":
        return ("设施：" if zh else "facilities: ") + "、".join(cast(list[str], v))
    if c.slot == "hotel_type":
        return f"酒店类型：{v}" if zh else f"hotel type {v}"
    return f"{c.slot}={v}"


def sourced(used: list[Constraint], lang: str) -> str:
    """The constraints as the user stated them, each with its turn: a recap, restated from memory."""
    parts = []
    for c in used:
        turn = f"（第{c.turn}轮）" if lang == "zh" else f" (turn {c.turn})"
        parts.append(constraint_phrase(c, lang) + (turn if c.turn else ""))
    return ("；" if lang == "zh" else "; ").join(parts)


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
            "用户问某个约束之前的值：读约束记录的历史。",
            "The user asks for a constraint's earlier value: read its record's history.",
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
    if missing:
        parts.append(("缺少：" if zh else "Missing: ") + ", ".join(missing) + ("。" if zh else "."))
    for call in calls:
        args = ", ".join(f"{k}={v}" for k, v in call.arguments.items())
        parts.append((f"调用 {call.tool}({args})。" if zh else f"Call {call.tool}({args})."))
    return " ".join(parts) if not zh else "".join(parts)


_MEAL_WORDS = {
    "breakfast": ("早饭", "breakfast"),
    "lunch": ("午饭", "lunch"),
    "dinner": ("晚饭", "dinner"),
    "late-night": ("夜宵", "a late-night meal"),
}


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
        dishes = (
            "、".join(listed[:4])
            if zh
            else ", ".join(f"{d} ({pinyin(d)})" if re.search(r"[\u4e00-\u9fff]", d) else d for d in listed[:3])
        )
        body = (
            f"人均{fmt_money(r.get('人均消费'))}，{rt}，推荐菜：{dishes}"
            if zh
            else f"{fmt_money(r.get('人均消费'))} per person, {rt}, recommended: {dishes}"
        )
    elif dom == "attraction":
        t = r.get("门票")
        ticket = (
            ("免费" if zh else "free")
            if t == 0
            else (fmt_money(t) if t is not None else ("票价未知" if zh else "ticket n/a"))
        )
        body = (
            f"门票{ticket}，游玩时间{r.get('游玩时间')}，{rt}"
            if zh
            else f"ticket {ticket}, visit {gloss_duration(r.get('游玩时间'))}, {rt}"
        )
    elif dom == "metro":
        st = (r.get("地铁") or "无地铁站记录") if zh else gloss_station(r.get("地铁"))
        body = f"最近的地铁站：{st}" if zh else f"nearest metro: {st}"
    else:
        body = f"{fmt_money(r.get('cost'))}"
    return f"{i}. {_name(r.get('名称') or r.get('name', ''), lang)} — {body}"


def tool_memory_text(out: ToolOutput, lang: str) -> str:
    """What the weaver stores for a tool result: short, self-explanatory, in the user's language."""
    zh = lang == "zh"
    args = ", ".join(f"{k}={v}" for k, v in out.arguments.items())
    if out.error:
        return f"{out.tool}({args}) 出错：{out.error}" if zh else f"{out.tool}({args}) error: {out.error}"
    f = out.facts
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
        return (
            f"book_hotel 已加入行程：{f['name']}，{f['check_in']}入住{f['nights']}晚，每晚{fmt_money(f['unit_price'])}，"
            f"共{fmt_money(f['cost'])}"
            if zh
            else f"book_hotel added to plan: {f['name']}, check-in {f['check_in']}, {f['nights']} nights at "
            f"{fmt_money(f['unit_price'])}, total {fmt_money(f['cost'])}"
        )
    if out.tool == "add_to_plan":
        day = (f"（第{f['day']}天）" if zh else f" (day {f['day']})") if f.get("day") else ""
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


def _failure_reason(out: ToolOutput, lang: str) -> str:
    zh, f = lang == "zh", out.facts
    name = f.get("name") or out.arguments.get("name")
    if out.reason == "over_budget":
        if out.tool == "book_hotel":
            return (
                f"{name} 每晚{fmt_money(f['unit_price'])} × {f['nights']}晚（{f['check_in']}入住）= {fmt_money(f['cost'])}，"
                f"加上已选的{fmt_money(f['spent'])}，超出总预算{fmt_money(f['budget'])}"
                if zh
                else f"{name} costs {fmt_money(f['unit_price'])} x {f['nights']} nights (check-in {f['check_in']}) = "
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
        lines.append(
            tool_memory_text(out, lang).split("：", 1)[-1] if zh else tool_memory_text(out, lang).split(": ", 1)[-1]
        )
        lines[0] = ("已加入你的行程：" if zh else "Added to your plan: ") + lines[0] + ("。" if zh else ".")
        lines.append(
            "（这里只记录行程，不会真的下单预订。）" if zh else "(I keep the plan only; no real reservation is made.)"
        )
        return "\n".join(lines)
    if out.tool == "budget_tally":
        f = out.facts
        if not out.rows:
            return "行程里还没有选定任何项目。" if zh else "Nothing has been added to the plan yet."
        lines.append("目前的行程：" if zh else "Your plan so far:")
        # by day: the stay first, then each day's items, then what has no day
        rows = sorted(out.rows, key=lambda r: (r.get("kind") != "hotel", r.get("day") or 99))
        for i, r in enumerate(rows, 1):
            day = (f"第{r['day']}天：" if zh else f"day {r['day']}: ") if r.get("day") else ""
            stay = (
                (
                    f"（{r['check_in']}入住{r['nights']}晚）"
                    if zh
                    else f" (check-in {r['check_in']}, {r['nights']} nights)"
                )
                if r.get("kind") == "hotel" and r.get("check_in")
                else ""
            )
            lines.append(f"{i}. {day}{r['name']}{stay} — {fmt_money(r.get('cost'))}")
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
                f"Nothing fit near {_name(relaxed_from, lang)}, so I "
                + (
                    f"looked a little further around {_name(str(now), lang)}"
                    if around
                    else f"looked near {_name(now, lang)} instead"
                    if now
                    else "searched all of Beijing"
                )
                + " (only the place is widened; every other condition still applies)."
            )
        )
    if out.facts.get("excluded"):
        n = out.facts["excluded"]
        lines.append(
            f"已排除{n}家推荐菜里有你要避开的食物的餐厅。"
            if zh
            else f"I excluded {n} places whose dishes include what you avoid."
        )
    meal = out.arguments.get("meal") if out.tool == "search_restaurants" else None
    if meal in _MEAL_WORDS:
        zh_word, en_word = _MEAL_WORDS[meal]
        lines.append(f"（只列{zh_word}时段营业、供应正餐的餐厅。）" if zh else f"(Only places open for {en_word}.)")
    if skipped:
        lines.append(
            f"（不重复之前推荐过的{skipped}个。）" if zh else f"(Leaving out the {skipped} already suggested.)"
        )
    if "quiet_proxy" in out.notes:
        lines.append(
            "（数据库没有噪音数据：我按周边场所较少来挑安静的。）"
            if zh
            else "(The database has no noise data: I kept hotels with fewer venues around as the quieter ones.)"
        )
    if out.tool == "metro_station" and out.count == 1:  # one place, one station: no "1 found" list
        return _row_line(1, out.rows[0], lang)[3:]
    lines.append(
        f"共找到{out.count}个，前{len(out.rows)}个：" if zh else f"{out.count} found; the top {len(out.rows)}:"
    )
    wanted = out.arguments.get("dishes") or []
    lines.extend(_row_line(i, _dishes_first(r, wanted), lang) for i, r in enumerate(out.rows, 1))
    return "\n".join(lines)


def _dishes_first(row: dict, wanted: list[str]) -> dict:
    """The row with the dishes asked for shown first (the reply lists only a few), placeholders ("其他") dropped.

    >>> _dishes_first({"推荐菜": ["其他", "酸菜鱼", "招牌烤鸭"]}, ["烤鸭"])["推荐菜"]
    ['招牌烤鸭', '酸菜鱼']
    """
    if "推荐菜" not in row:
        return row
    dishes = [d for d in row.get("推荐菜") or [] if d not in NOT_DISHES]
    hit = [d for d in dishes if any(w in d for w in wanted)]
    return dict(row, 推荐菜=hit + [d for d in dishes if d not in hit])


def route_text(outs: list[ToolOutput], lang: str) -> str:
    """Two places' stations: the route as far as the data goes (it has no lines or transfers)."""
    zh = lang == "zh"
    stations = [station_of(o.rows[0].get("地铁")) if o.count else None for o in outs]
    lines = [
        results_text(o, lang, [])
        if o.count
        else (
            f"数据库里没有“{o.arguments.get('place')}”的地铁站。"
            if zh
            else f"The database lists no metro station for {o.arguments.get('place')}."
        )
        for o in outs
    ]
    a, b = stations[0], stations[-1]
    if a and b and a == b:
        lines.append(
            f"两处离同一个地铁站（{a}）最近，步行即可。"
            if zh
            else f"Both are nearest the same station ({gloss_station(a)}): walk."
        )
    elif a and b:
        lines.append(
            f"坐地铁从{a}到{b}（数据库没有线路和换乘信息，具体线路请看地铁图）。"
            if zh
            else f"Take the metro from {gloss_station(a)} to {gloss_station(b)} (the data has no lines or "
            "transfers: check the metro map for the line)."
        )
    return "\n".join(lines)


def ack_text(lang: str, stated: list[Constraint]) -> str:
    zh = lang == "zh"
    if not stated:
        return (
            "我可以帮你查北京的酒店、餐厅、景点和地铁，并记录行程和预算。"
            if zh
            else "I can look up Beijing hotels, restaurants, attractions and metro stations, and keep your plan and budget."
        )
    body = sourced([Constraint(c.slot, c.value, c.scope) for c in stated], lang)
    return f"记下了：{body}。之后的推荐都会考虑这些。" if zh else f"Noted: {body}. I will apply this to what I suggest."


def honest_text(kind: str, lang: str, **kw) -> str:
    zh = lang == "zh"
    if kind == "city":
        city = kw.get("city", "")
        return (
            f"抱歉，我的数据库只有北京的酒店、餐厅和景点，没有{city}的数据，没法帮你查{city}的{kw.get('what', '信息')}。"
            if zh
            else f"Sorry, my database covers Beijing only: I have no data for {CITY_EN.get(city, city)}, so I "
            f"can't search {kw.get('what_en', 'it')} there."
        )
    if kind == "dates":
        return (
            "要加入酒店，我需要入住日期和晚数，但记忆里没有找到。请告诉我几号入住、住几晚。"
            if zh
            else "To add a hotel I need the check-in date and the number of nights, and I found none in memory. "
            "When do you check in, and for how many nights?"
        )
    if kind == "target":
        return (
            "我不确定你指的是哪一家，请说出名字或先让我搜索一下。"
            if zh
            else "I'm not sure which one you mean: name it, or let me search first."
        )
    if kind == "already":
        what, day = kw.get("name", ""), kw.get("day")
        return (
            f"{what}已经在{f'第{day}天的' if day else ''}行程里了，没有重复添加。"
            if zh
            else f"{what} is already in your plan{f' for day {day}' if day else ''}; I did not add it twice."
        )
    if kind == "beyond":
        n = kw.get("n", 0)
        return (
            f"我刚才只列出了{n}个：{kw.get('names', '')}，没有第{kw.get('ordinal')}个。要我多找几个吗？"
            if zh
            else f"I only showed {n}: {kw.get('names', '')}; there is no number {kw.get('ordinal')}. Shall I find more?"
        )
    if kind == "plan_item":
        return "行程里没有找到要移除的项目。" if zh else "I found nothing like that in your plan to remove."
    if kind == "no_base":
        return (
            "我在记忆里没有找到要调整的预算，请直接告诉我新的总数。"
            if zh
            else "I found no budget in memory to change by that amount: tell me the new total."
        )
    if kind == "place":
        return "请告诉我是哪个地点。" if zh else "Which place do you mean?"
    if kind == "why_none":
        return (
            "记忆里没有找到相关的经过，所以我答不上来。"
            if zh
            else "I found nothing about that in memory, so I can't say why."
        )
    if kind == "greeting":
        said = kw.get("text", "").lower()
        if CLOSING.search(said):  # the close the understanding reads as a goodbye
            return (
                "不客气，祝旅途愉快！需要时随时找我。"
                if zh
                else "You're welcome, enjoy the trip! I'm here when you need me."
            )
        if any(w in said for w in ("谢", "thank", "thx")):
            return "不客气！还需要查什么吗？" if zh else "You're welcome! Anything else to look up?"
        if any(w in said for w in ("你好", "您好", "hi", "hello", "hey", "嗨")):
            return ack_text(lang, [])
        return "好的。还需要查什么吗？" if zh else "OK. Anything else to look up?"
    return ack_text(lang, [])


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


def has_text(row: dict, asked: list[str], lang: str) -> str:
    """Whether a hotel's listed facilities hold what was asked, said from its row (the data lists, never guesses).

    >>> has_text({"名称": "X酒店", "酒店设施": ["停车位", "wifi"]}, ["停车位"], "zh")
    'X酒店有停车位。'
    >>> has_text({"名称": "X酒店", "酒店设施": ["wifi"]}, ["停车位"], "en")
    'X酒店 (X Hotel) does not list parking (it lists: wifi).'
    """
    zh = lang == "zh"
    listed = row.get("酒店设施") or []
    found = [f for f in asked if all_present(listed, [f])]
    lacks = [f for f in asked if f not in found]
    # said as the row lists it: "停车位" asked, "收费停车位" listed (paid parking, which the user should hear)
    has = [next((x for x in listed if f in x and x != f), f) for f in found]
    name = _name(row.get("名称", ""), lang)
    parts = []
    if has:
        parts.append(
            f"{name}有{'、'.join(has)}。" if zh else f"{name} lists {', '.join(gloss_facility(f) for f in has)}."
        )
    if lacks:
        shown = ("、" if zh else ", ").join((listed if zh else [gloss_facility(f) for f in listed])[:8]) or (
            "无" if zh else "none"
        )
        parts.append(
            f"{'' if has else name}数据里没有列出{'、'.join(lacks)}（它列出的设施：{shown}）。"
            if zh
            else f"{'It' if has else name} does not list {', '.join(gloss_facility(f) for f in lacks)} (it lists: {shown})."
        )
    return "".join(parts) if zh else " ".join(parts)
