"""Template texts in the user's language (zh / en): thoughts, tool-result memories, replies, honest refusals.

This module owns the replies that are no list of results (a route, an acknowledgement,
the honest refusals, a hotel's facilities); the shared phrases live in
``reply_phrases`` and the results' texts in ``result_texts`` (re-exported here).
"""

from __future__ import annotations


from .db import all_present, station_of
from .gloss import gloss_station
from .lexicon import CATEGORY_NAMES, CITY_EN, FACILITY_ALIASES
from .tools import ToolOutput
from .understanding import CLOSING, Constraint
from .reply_phrases import constraint_phrase, display_name, gloss_facility, en_date, fmt_money, sourced, thought_text
from .result_texts import results_text, tool_memory_text

__all__ = [
    "display_name",
    "constraint_phrase",
    "thought_text",
    "tool_memory_text",
    "results_text",
    "ack_text",
    "sourced",
    "honest_text",
    "length_clash_text",
    "home_text",
    "own_experience_text",
    "fmt_money",
]


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


def ack_text(lang: str, stated: list[Constraint], lifted: list[str] | None = None) -> str:
    """What a statement said, acknowledged; ``lifted``: the foods it says are no longer avoided.

    >>> ack_text("en", [], ["meat"])
    'Noted: you no longer avoid meat (vegetarian). I will apply this to what I suggest.'
    """
    zh = lang == "zh"
    if lifted:
        names = [CATEGORY_NAMES[lang].get(t, t) for t in lifted]
        said = f"不再忌口{'、'.join(names)}" if zh else f"you no longer avoid {', '.join(names)}"
        rest = sourced([Constraint(c.slot, c.value, c.scope) for c in stated], lang) if stated else ""
        body = f"{said}；{rest}" if zh and rest else f"{said}; {rest}" if rest else said
        return (
            f"记下了：{body}。之后的推荐都会考虑这些。"
            if zh
            else f"Noted: {body}. I will apply this to what I suggest."
        )
    if not stated:
        return (
            "我可以帮你查北京的酒店、餐厅、景点和地铁，并记录行程和预算。"
            if zh
            else "I can look up Beijing hotels, restaurants, attractions and metro stations, and keep your plan and budget."
        )
    body = sourced([Constraint(c.slot, c.value, c.scope) for c in stated], lang)
    return f"记下了：{body}。之后的推荐都会考虑这些。" if zh else f"Noted: {body}. I will apply this to what I suggest."


def home_text(home: str, lang: str) -> str:
    """Where the user lives, noted (remembered as a fact about them, not a destination).

    >>> home_text("Shanghai", "en")
    'Noted: you live in Shanghai. For this trip I can look up Beijing hotels, restaurants, attractions and metro stations.'
    """
    if lang == "zh":
        return f"记下了：你住在{home}。这次的行程我可以帮你查北京的酒店、餐厅、景点和地铁。"
    return (
        f"Noted: you live in {home}. For this trip I can look up Beijing hotels, restaurants, attractions and metro "
        "stations."
    )


def own_experience_text(lang: str, place: str | None = None, done: str = "been") -> str:
    """ "你去过吗？" / "Have you been?": said plainly, the assistant has not travelled (``place``: the place asked
    about, as the reply names it; ``done``: "been", "eaten" or "stayed"), before what it can do instead.

    >>> own_experience_text("zh", "上海"), own_experience_text("en")
    ('我是AI助手，自己没有去过上海，也没有亲身经历可以分享。', "I'm an AI assistant, so I haven't been there myself and have no first-hand experience to share.")
    >>> own_experience_text("en", None, "eaten")
    "I'm an AI assistant, so I haven't tried it myself and have no first-hand experience to share."
    """
    if lang == "zh":
        verb = {"eaten": "吃过", "stayed": "住过"}.get(done, "去过")
        return f"我是AI助手，自己没有{verb}{place or ('' if done == 'eaten' else '那里')}，也没有亲身经历可以分享。"
    said = {
        "been": f"been to {place}" if place else "been there",
        "eaten": f"eaten at {place}" if place else "tried it",
        "stayed": f"stayed at {place}" if place else "stayed there",
    }[done if done in ("eaten", "stayed") else "been"]
    return f"I'm an AI assistant, so I haven't {said} myself and have no first-hand experience to share."


def length_clash_text(clash: dict, lang: str, kept_dates: bool = True) -> str:
    """The stay's length said against its dates, asked back ("a 3-day trip" but May 1 to May 4 is 3 nights).

    >>> print(length_clash_text({"said": 3, "unit": "days", "nights": 3, "check_in": "5-1", "check_out": "5-4"}, "en"))
    Please check: you said a 3-day trip, but May 1 to May 4 is 4 days (3 nights). I kept the dates; if you meant 3 days (2 nights), tell me the dates again.
    """
    n, nights, ci, co = clash["said"], clash["nights"], clash["check_in"], clash["check_out"]
    days = clash["unit"] == "days"
    if lang == "zh":
        span = f"{ci.replace('-', '月')}日到{co.replace('-', '月')}日"
        said = f"玩{n}天" if days else f"住{n}晚"
        meant = f"{n}天{n - 1}晚" if days else f"{n}晚"
        head = f"请确认一下：你说{said}，但{span}是{nights + 1}天{nights}晚。"
        if not kept_dates:  # the length came after the dates: which one holds is the user's to say
            return head + f"是按日期，还是按{meant}？"
        return head + f"我先按日期记下了；如果是{meant}，请告诉我正确的日期。"
    said = f"a {n}-day trip" if days else f"{n} nights"
    meant = f"{n} days ({n - 1} nights)" if days else f"{n} nights"
    head = f"Please check: you said {said}, but {en_date(ci)} to {en_date(co)} is {nights + 1} days ({nights} nights). "
    if not kept_dates:
        return head + f"Which is right: the dates, or {meant}?"
    return head + f"I kept the dates; if you meant {meant}, tell me the dates again."


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
    if kind == "unplaced":
        place = kw.get("place", "")
        return (
            f"我没能定位“{place}”：我只有北京的数据（CrossWOZ 数据库里的酒店、餐厅和景点），所以没有按它搜索。"
            "如果它在北京，请告诉我它附近的地标或区域；如果在别的城市，我帮不上忙。"
            if zh
            else f'I couldn\'t place "{place}": I only know Beijing (the hotels, restaurants and sights of the CrossWOZ '
            "database), so I searched nothing near it. If it is in Beijing, tell me a landmark or area near it; "
            "if it is in another city, I can't help there."
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
    if kind == "pick":  # "那就这家吧" after a list of several: the list said back, numbered, to pick from
        names = kw.get("names") or []
        listed = ("；" if zh else "; ").join(f"{i}. {display_name(str(n), lang)}" for i, n in enumerate(names, 1))
        return (
            f"你指的是哪一家？刚才列了{len(names)}个：{listed}。告诉我第几个或名字就行。"
            if zh
            else f"Which one do you mean? I listed {len(names)}: {listed}. Tell me its number or name."
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
    if kind == "no_party":
        return (
            "我在记忆里没有找到你们原来几个人，请告诉我现在一共几位。"
            if zh
            else "I found no party size in memory to add them to: how many of you are there now in all?"
        )
    if kind == "place":
        return "请告诉我是哪个地点。" if zh else "Which place do you mean?"
    if kind == "why_none":
        return (
            "记忆里没有找到相关的经过，所以我答不上来。"
            if zh
            else "I found nothing about that in memory, so I can't say why."
        )
    if kind == "nothing_shown":
        return (
            "我还没有推荐过什么可以比较。想找哪一类：酒店、餐厅还是景点？"
            if zh
            else "I haven't suggested anything yet to compare with. Hotels, restaurants or sights?"
        )
    if kind == "declined":
        what = {"hotel": ("酒店", "hotels"), "restaurant": ("餐厅", "restaurants"), "attraction": ("景点", "sights")}
        zh_what, en_what = what.get(kw.get("domain") or "", ("", ""))
        return (
            f"好的，先不找{zh_what}了。需要时再告诉我。"
            if zh
            else f"OK, I won't look for {en_what or 'that'} then. Tell me when you need something."
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
    name = display_name(row.get("名称", ""), lang)
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
