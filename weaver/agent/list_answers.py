"""Questions answered from the list just shown: "其中哪家最便宜？" / "Which of these has the best rating?".

A comparison over the rows shown last is no new search: the rows are looked up by
name and the one that is cheapest (the domain's own price column, or the ticket when a
ticket is asked of sights) or rated highest is said, with the value it won by. The
data has no distances, so "which is nearest the metro" is answered with each row's
station, said as such; "which of those is free?" names every row that costs nothing.
"""

from __future__ import annotations

import re

from .db import load_database
from .intent_cues import CHEAPEST
from .reply_phrases import display_name, fmt_money

__all__ = ["AMONG", "CHEAPEST", "superlative_asked", "ask_among", "among_text", "winners", "about_of", "rows_named"]

# "among them" / "of these" / "其中" / "这几个里": the question is about the rows just shown
AMONG = re.compile(
    r"其中|它们(?:之)?中|它们里|他们(?:之)?中|这(?:几|些|两|三)[个家间处]?(?:里|中|当中|之中)|"
    r"那(?:几|些|两|三)[个家间处]?(?:里|中|当中|之中)|刚才(?:那|这)?(?:几|些)[个家间处]?(?:里|中)|"
    r"\b(?:among (?:them|these|those|the (?:ones|options))|of (?:these|those|them|the ones you (?:showed|listed))|"
    r"which of (?:these|those|them|the)|out of (?:these|those|them))\b",
    re.IGNORECASE,
)
# which one is asked for: a question word, so "find the cheapest hotel" stays a search
_WHICH = re.compile(r"哪(?:个|家|间|一[个家间])|\bwhich\b|\bwhat(?:'s| is) the\b", re.IGNORECASE)
# "帮我找最便宜的酒店" / "find the cheapest hotel": a search for one, not a question about the list
_SEARCH = re.compile(r"推荐|找|搜|查一下|\b(?:recommend|suggest|find|search|look for|show me)\b", re.IGNORECASE)
# "the cheapest": a list asked about, or a search ordered by price (the planner's sort)
_KEYS = [
    ("cheap", re.compile(CHEAPEST.pattern + r"|最低", re.I)),
    ("dear", re.compile(r"最贵|\b(?:most expensive|priciest|dearest)\b", re.I)),
    (
        "rating",
        re.compile(
            r"评分最高|分最高|评价最好|最好|口碑最好|\b(?:best|highest[- ]rated|top[- ]rated|highest rating)\b", re.I
        ),
    ),
    ("free", re.compile(r"免费|不要钱|不收费|\bfree\b", re.I)),
    (
        "metro",
        re.compile(
            r"离地铁(?:站)?最近|地铁最(?:近|方便)|\b(?:closest|nearest) (?:to )?(?:the |a )?(?:metro|subway)", re.I
        ),
    ),
]
_PRICE = {"hotel": "价格", "restaurant": "人均消费", "attraction": "门票"}


def superlative_asked(text: str) -> str | None:
    """The comparison asked over the list shown (cheap / dear / rating / metro), or None. "among them" asks it of the
    list; a bare "哪家最便宜？" too, unless a search is asked for ("帮我找最便宜的酒店")."""
    key = next((k for k, pat in _KEYS if pat.search(text)), None)
    if key is None or not (AMONG.search(text) or (_WHICH.search(text) and not _SEARCH.search(text))):
        return None
    return key


def ask_among(p, lists: dict[str, list[str]]) -> None:
    """``p`` (a ``Parsed``) made a comparison over the list shown (intent "among", the key in ``side``) when it asks
    one and a list was shown: "among them" is the list shown last, else the list of the kind it names."""
    # the comparison's own words ("离地铁最近" reads as a wish for a station nearby) are no constraint
    own = [c for c in p.constraints if c.slot not in ("near_metro", "rating", "price", "cost", "ticket")]
    best = None if p.entities or p.ordinal or own else superlative_asked(p.text)
    among = bool(AMONG.search(p.text))
    if best and lists and (among or not p.domain or p.domain in lists):  # "which hotels are free?": none shown yet
        p.domain = p.domain if p.domain in lists and not among else next(iter(lists))
        p.intent, p.side, p.constraints = "among", best, []


def among_text(rows: list[dict], key: str, domain: str, lang: str) -> str:
    """The row of ``rows`` that wins ``key`` and what it won by (ties all named), in the user's language.

    >>> among_text([{"名称": "故宫", "门票": 60}, {"名称": "东六宫", "门票": 0}], "cheap", "attraction", "zh")
    '刚才列出的2个里，门票最便宜的是：东六宫（门票免费）。'
    """
    zh = lang == "zh"
    if key == "metro":
        parts = [
            f"{_name(r, lang)}：{r.get('地铁') or '无记录'}"
            if zh
            else f"{_name(r, lang)}: {r.get('地铁') or 'none on record'}"
            for r in rows
        ]
        return (
            "数据里没有到地铁站的距离，只有各自最近的地铁站：" + "；".join(parts) + "。"
            if zh
            else "The data has no distances to stations, only each one's nearest station: " + "; ".join(parts) + "."
        )
    col = "评分" if key == "rating" else _PRICE.get(domain, "评分")  # a restaurant's "ticket" is what it costs
    if key == "free":  # a filter, not a winner: every row shown that costs nothing
        free = [r for r in rows if r.get(_PRICE.get(domain, "")) == 0]
        names = ("、" if zh else ", ").join(_name(r, lang) for r in free)
        if zh:
            return f"刚才列出的{len(rows)}个里，免费的是：{names}。" if free else f"刚才列出的{len(rows)}个都不免费。"
        return f"Of the {len(rows)} I just listed, free: {names}." if free else f"None of the {len(rows)} is free."
    won = winners(rows, key, domain)
    if not won:
        return "刚才列出的几个都没有这项记录。" if zh else "None of the ones I just listed has that on record."
    best = won[0][col]
    label = {
        ("cheap", "门票"): ("门票最便宜", "cheapest ticket"),
        ("dear", "门票"): ("门票最贵", "dearest ticket"),
        ("cheap", "价格"): ("每晚最便宜", "cheapest per night"),
        ("dear", "价格"): ("每晚最贵", "dearest per night"),
        ("cheap", "人均消费"): ("人均最便宜", "cheapest per person"),
        ("dear", "人均消费"): ("人均最贵", "dearest per person"),
    }.get((key, col), ("评分最高", "highest rated"))
    value = _value(col, best, lang)
    names = ("、" if zh else ", ").join(_name(r, lang) for r in won)
    n = len(rows)
    if zh:
        return f"刚才列出的{n}个里，{label[0]}的是：{names}（{value}）。"
    return f"Of the {n} I just listed, the {label[1]}: {names} ({value})."


def winners(rows: list[dict], key: str, domain: str) -> list[dict]:
    """The rows that win ``key`` (ties all kept; none for "metro", which the data cannot rank)."""
    col = "评分" if key == "rating" else _PRICE.get(domain, "评分")
    valued = [r for r in rows if isinstance(r.get(col), (int, float))] if key not in ("metro", "free") else []
    best = (max if key in ("dear", "rating") else min)((r[col] for r in valued), default=None)
    return [r for r in valued if r[col] == best]


def rows_named(names: list[str]) -> list[dict]:
    db = load_database()
    return [db.by_name[n] for n in names if n in db.by_name]


def about_of(names: list) -> dict | None:
    """The one item a reply singled out, as a reply's memory keeps it ("it" and "there" next); None unless one."""
    rows = rows_named([str(n) for n in names])
    if len(names) != 1 or not rows:
        return None
    return {"name": rows[0]["名称"], "domain": load_database().domain_of(rows[0])}


def _name(row: dict, lang: str) -> str:
    return display_name(str(row.get("名称", "")), lang)


def _value(col: str, v: float, lang: str) -> str:
    zh = lang == "zh"
    if col == "评分":
        return f"评分{v}" if zh else f"rating {v}"
    if v == 0:
        return ("门票" if zh else "ticket ") * (col == "门票") + ("免费" if zh else "free")
    money = fmt_money(v)
    if col == "价格":
        return f"每晚{money}" if zh else f"{money} per night"
    if col == "人均消费":
        return f"人均{money}" if zh else f"{money} per person"
    return f"门票{money}" if zh else f"ticket {money}"
