"""Side questions about places, answered from the database or honestly not: distance, hours, booking ahead,
crowds, evening visits (a ticket question is an info search: its row holds the ticket and the visit time).

The CrossWOZ database has no coordinates, no opening hours for sights, no
reservation rules and no crowd data. What it has: each place's nearby lists
(周边景点 / 周边餐馆 / 周边酒店), its nearest metro station, restaurant hours
(营业时间), ticket prices (门票), visit durations (游玩时间) and phone numbers. So
"are A and B far apart?" is answered by whether the data lists them as neighbours
or they share a station, and says that it cannot give a distance.

>>> side_kind("颐和园和圆明园离得远吗？"), side_kind("故宫需要提前预约吗？"), side_kind("慕田峪和八达岭哪个人少？")
('distance', 'reserve', 'crowd')
>>> side_kind("What time does it open?"), side_kind("适合晚上去逛的景点？"), side_kind("推荐一家餐厅")
('hours', 'evening', None)
>>> f = place_facts(load_database(), ["颐和园", "圆明园"], "distance"); f["nearby"], f["same_station"]
(True, False)
"""

from __future__ import annotations

import re

from .db import Database, load_database
from .gloss import gloss_hours, gloss_station

__all__ = ["side_kind", "place_facts", "side_text", "caveat_text", "hostel_names", "SIDE_KINDS"]

SIDE_KINDS = ("distance", "hours", "reserve", "crowd", "evening", "weather", "checkin")
# questions no row can answer, with or without a place named
PLACELESS = ("evening", "crowd", "weather")
_KIND = [
    ("weather", re.compile(r"天气|下雨|下雪|气温|温度|冷不冷|热不热|\bweather\b|\brain(?:y|ing)?\b|temperature", re.I)),
    (
        "checkin",
        re.compile(
            r"几点(?:可以|能)?(?:入住|退房)|(?:入住|退房)时间|(?:check[- ]?(?:in|out)) time|"
            r"(?:when|what time) (?:can|do|should|must) (?:we|i) check[- ]?(?:in|out)",
            re.I,
        ),
    ),
    (
        "distance",
        re.compile(
            r"离得远|远不远|多远|距离|离.{0,8}(?:远|近)吗|近不近|how far|far (?:apart|from)|distance|"
            r"从.{1,12}到.{1,12}(?:要|需要)?多久|how long (?:does it take )?(?:to get )?from .{1,40} to|"
            r"close to each other|near each other|is .{2,40} (?:close|near) to",
            re.I,
        ),
    ),
    (
        "reserve",
        re.compile(
            r"预约|预订门票|提前订|提前买|要预定|订座|订位|订桌|book (?:it |them )?(?:in advance|ahead)|reserv|"
            r"book a table|table for|"
            r"need to book",
            re.I,
        ),
    ),
    ("crowd", re.compile(r"人少|人多|拥挤|挤不挤|排队|crowd|busy|less busy|queues?", re.I)),
    ("evening", re.compile(r"晚上去|夜游|夜景|晚上逛|晚上玩|at night|in the evening|evening|night-?time", re.I)),
    (
        "hours",
        re.compile(
            r"几点|营业时间|开门|关门|开放时间|闭馆|(?:周|星期)[一二三四五六日天]开|opening hours|what time|"
            r"when does .{0,30}(?:open|close)|\b(?:open|closed) on\b|"
            r"open(?:ing)? time|closing time|open late|open (?:till|until)|stay open|how late|open (?:on )?weekends",
            re.I,
        ),
    ),
]
_NEARBY = ("周边景点", "周边餐馆", "周边酒店")


def side_kind(text: str) -> str | None:
    """Which side question ``text`` asks, or None."""
    for kind, pat in _KIND:
        if pat.search(text or ""):
            return kind
    return None


def _station(v: str | None) -> str | None:
    m = re.match(r"(.+?地铁站)", v or "")
    return m.group(1) if m else None


def place_facts(db: Database, names: list[str], kind: str) -> dict:
    """What the data says about the places for a side question (``rows``: name and the fields that answer)."""
    rows = []
    for n in names:
        r = db.by_name.get(n) or db.find(n)
        if r is not None:
            rows.append(
                {
                    "名称": r["名称"],
                    "domain": db.domain_of(r),
                    "地铁": r.get("地铁"),
                    "电话": r.get("电话"),
                    "门票": r.get("门票"),
                    "游玩时间": r.get("游玩时间"),
                    "营业时间": r.get("营业时间"),
                    "评分": r.get("评分"),
                    "_nearby": [x for k in _NEARBY for x in (r.get(k) or [])],
                }
            )
    facts: dict = {"kind": kind}
    if kind == "distance" and len(rows) >= 2:
        a, b = rows[0], rows[1]
        facts["nearby"] = b["名称"] in a["_nearby"] or a["名称"] in b["_nearby"]
        sa, sb = _station(a["地铁"]), _station(b["地铁"])
        facts["same_station"] = bool(sa and sa == sb)
    for r in rows:
        r.pop("_nearby")
    facts["rows"] = rows
    return facts


def _gloss(name: str, lang: str) -> str:
    from .replies import display_name

    return display_name(name, lang)


def side_text(facts: dict, lang: str) -> str:
    """The answer in the user's language: what the data says, and what it does not hold."""
    zh, kind, rows = lang == "zh", facts.get("kind"), facts.get("rows") or []
    if kind == "weather":
        return (
            "我的数据里没有天气信息，没法告诉你天气，出发前请查一下天气预报。"
            if zh
            else "My data has no weather information, so I can't tell you the weather: check a forecast before you go."
        )
    if kind == "reserve" and not rows:  # "Can you book a table for 7pm?" with nothing shown to call
        return (
            "我不能真的订座或预约（这里只记录行程），我的数据里也没有订座信息。"
            if zh
            else "I can't make real reservations (I keep the plan only), and my data has no booking information."
        )
    if not rows and kind not in ("evening", "crowd"):
        return "我在数据库里没找到你说的地点。" if zh else "I can't find that place in my data."
    names = [_gloss(r["名称"], lang) for r in rows]
    if kind == "distance":
        if len(rows) < 2:
            return "请告诉我要比较的两个地点。" if zh else "Which two places should I compare?"
        a, b = names[0], names[1]
        st = [(r.get("地铁") or "无") if zh else gloss_station(r.get("地铁")) for r in rows[:2]]
        if facts.get("nearby"):
            head = (
                f"{a}和{b}离得近：数据库把它们列为彼此的周边地点。"
                if zh
                else f"{a} and {b} are close: my data lists them as nearby places."
            )
        elif facts.get("same_station"):
            head = (
                f"{a}和{b}最近的地铁站相同，应该不远。"
                if zh
                else f"{a} and {b} share the nearest metro station, so they should be close."
            )
        else:
            head = (
                f"数据库没有把{a}和{b}列为周边地点，它们可能相距较远。"
                if zh
                else f"My data does not list {a} and {b} as near each other, so they are probably some way apart."
            )
        tail = (
            f"最近的地铁站：{st[0]} / {st[1]}。我的数据里没有坐标和交通时间，给不出具体距离或路上要多久。"
            if zh
            else f" Nearest metro: {st[0]} / {st[1]}. My data has no coordinates or travel times, so I can't give a "
            "distance or how long the trip takes."
        )
        return head + tail
    if kind == "hours":
        parts = []
        for r, n in zip(rows, names):
            if r.get("营业时间"):
                parts.append(f"{n}营业时间：{r['营业时间']}。" if zh else f"{n} is open {gloss_hours(r['营业时间'])}.")
            else:
                parts.append(
                    f"我的数据里没有{n}的开放时间（电话：{r.get('电话') or '无'}）。"
                    if zh
                    else f"My data has no opening hours for {n} (phone: {r.get('电话') or 'none'})."
                )
        return "".join(parts) if zh else " ".join(parts)
    if kind == "ticket":
        parts = []
        for r, n in zip(rows, names):
            t = r.get("门票")
            if t is None:
                parts.append(f"我的数据里没有{n}的门票价格。" if zh else f"My data has no ticket price for {n}.")
            else:
                parts.append(
                    (f"{n}门票{'免费' if t == 0 else f'{t}元'}。")
                    if zh
                    else f"{n}: {'free entry' if t == 0 else f'ticket ¥{t}'}."
                )
        return "".join(parts) if zh else " ".join(parts)
    if kind == "reserve":
        phones = (
            "；".join(f"{n}：{r.get('电话') or '无'}" for r, n in zip(rows, names))
            if zh
            else "; ".join(f"{n}: {r.get('电话') or 'none'}" for r, n in zip(rows, names))
        )
        return (
            f"我不能真的订座或预约，我的数据里也没有是否需要预约的信息，建议打电话确认（{phones}）。"
            if zh
            else f"I can't make real reservations, and my data does not say whether you need to book ahead; best "
            f"to call ({phones})."
        )
    if kind == "checkin":
        phones = ("；" if zh else "; ").join(
            f"{n}{'：' if zh else ': '}{r.get('电话') or '无'}" for r, n in zip(rows, names)
        )
        return (
            f"我的数据里没有酒店的入住和退房时间，建议打电话确认（{phones}）。"
            if zh
            else f"My data has no check-in or check-out times for hotels; best to call ({phones})."
        )
    if kind == "crowd":
        return (
            "我的数据里没有客流或拥挤程度的信息，没法比较哪里人少。"
            if zh
            else "My data has no visitor numbers or crowd information, so I can't tell which is less crowded."
        )
    if kind == "evening":
        return (
            "我的数据里没有景点的开放时间，不能判断哪些适合晚上去；餐厅有营业时间，可以帮你找晚上营业的餐厅。"
            if zh
            else "My data has no opening hours for sights, so I can't tell which suit an evening visit; restaurants do "
            "have hours, so I can find places open in the evening."
        )
    return "我的数据里没有这方面的信息。" if zh else "That is not in my data."


def hostel_names() -> list[str]:
    """The hotels whose own name calls them a hostel (the data has no such type).

    >>> hostel_names()
    ['北京炮局工厂青年旅舍']
    """
    from .intent_cues import HOSTEL

    return [r["名称"] for r in load_database().hotel if HOSTEL.search(r["名称"])]


def caveat_text(kind: str, lang: str, what: str = "") -> str:
    """What the data cannot say about results found for a side question folded into a search.

    >>> caveat_text("evening", "en")
    'My data has no opening hours for sights: check that these are open in the evening before you go.'
    """
    if kind == "paid_parking":
        return (
            "注意：我的数据里酒店的停车位都标为收费停车位，没有免费停车的记录。"
            if lang == "zh"
            else "Note: my data lists hotel parking only as paid parking; it has no record of free parking."
        )
    if kind == "no_hostel_type":
        named = (
            f"名字里带“旅舍”的只有：{what}。"
            if what and lang == "zh"
            else f" Only these call themselves a hostel: {what}."
        )
        return (
            "（北京的数据库里没有“青旅”这个酒店类型（只有经济型、舒适型、高档型、豪华型），下面按价格从低到高列出最便宜的酒店。"
            + (named if what else "")
            + "）"
            if lang == "zh"
            else "(The Beijing database has no hostel type (only economy, mid-range, upscale and luxury hotels): below "
            "are the cheapest hotels, cheapest first." + (named if what else "") + ")"
        )
    if kind == "no_taxi_data":
        return (
            "（我的数据里没有出租车的价格和距离，没法估算车费和车程；下面是各处最近的地铁站，供参考。）"
            if lang == "zh"
            else "(My data has no taxi fares or distances, so I can't estimate a fare or a ride time; here is the nearest metro "
            "station of each place instead.)"
        )
    if kind == "no_walking_data":
        return (
            "（数据里没有步行距离或无障碍信息，没法按“少走路”来筛；下面把游玩时间短的排在前面，作为最接近的参考。）"
            if lang == "zh"
            else "(My data has no walking distances or access information, so I can't pick places with little "
            "walking; below, the shortest visits come first, as the nearest thing it has.)"
        )
    if kind == "no_family_tag":
        return (
            f"（北京的数据库里没有“亲子”或“适合孩子”这类标签，以上是不看这一点搜到的{what or '结果'}。）"
            if lang == "zh"
            else f"(The Beijing database has no family- or kid-friendly tag: these are {what or 'results'} found "
            "without it.)"
        )
    if kind == "evening":
        return (
            "我的数据里没有景点的开放时间，晚上去之前请先确认这些地方是否开放。"
            if lang == "zh"
            else "My data has no opening hours for sights: check that these are open in the evening before you go."
        )
    if kind == "asked_diet":
        return (
            f"（“{what}”只用在这次搜索里，没有记成你的忌口；如果你们一直这样吃，告诉我一声，之后都会照此推荐。）"
            if lang == "zh"
            else f"({what}: applied to this search only, not kept as your diet; if you always eat this way, tell me "
            "and I will keep to it.)"
        )
    return ""
