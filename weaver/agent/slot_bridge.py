"""The weaver's slot reader and constraint records in the agent's terms (search arguments).

One reader for every amount: the agent's understanding of a message and the
weaver's constraint memory both read budgets through :mod:`weaver.slots`, so
"住宿每晚别超过六百块" is a ceiling of 600 per night in both, never a floor.

>>> money_from_slots("住宿每晚别超过六百块", None), money_from_slots("人均不低于一百", "restaurant")
([('price', '0-600', 600.0)], [('cost', '100-100000', 100.0)])
>>> money_from_slots("预算大概几千块", None)  # not read as a number: no bound at all
[]
>>> [(c.slot, c.value) for c in constraints_from_records(records_from_statements(
...     [("n1", 1, "我对海鲜过敏，人均150以内"), ("n2", 2, "我们两个人，五月二号入住，住三晚")]))]
[('cost', '0-150'), ('avoid', ['seafood']), ('people', 2), ('dates', {'check_in': '5-2', 'nights': 3})]
"""

from __future__ import annotations

import re
from typing import cast

from ..constraints import ConstraintRecord
from ..slots import SlotValue, read_slots
from ..slots_diet import DIET_ITEMS, DIET_STYLES
from .lexicon import FACILITY_ALIASES, HOTEL_TYPE_ALIASES
from .understanding import Constraint

__all__ = [
    "money_from_slots",
    "range_of",
    "constraints_from_records",
    "records_from_statements",
    "diet_term",
    "lifted_terms",
    "grows_party",
]

from ..constraints import records_from_statements  # noqa: E402  (re-exported for the doctest and callers)

_OPEN_HIGH = 100_000  # a floor ("不低于100") as a closed range the database's range syntax takes
_SCOPE_SLOT = {"night": "price", "person": "cost", "ticket": "ticket", "total": "budget"}
_DOMAIN_SLOT = {"hotel": "price", "restaurant": "cost", "attraction": "ticket"}
_DIET = {"vegetarian": "meat", "vegan": "meat", "halal": "pork"}
_STYLE_WORDS = {**DIET_STYLES, "halal": DIET_ITEMS["halal"]}  # the words that name a style
_TYPES = {"economy": "经济型", "comfort": "舒适型", "upscale": "高档型", "luxury": "豪华型"}
_AMENITY_DB = {
    "hot water": "24小时热水",
    "wake-up call": "叫醒服务",
    "hair dryer": "吹风机",
    "international calls": "国际长途电话",
    "foreign guests": "接待外宾",
    "accessible": "残疾人设施",
    "broadband": "宽带上网",
    "pool": "游泳池",
}


def range_of(bound: str, value: float, high: float | None = None) -> str:
    """A bound as the database's range: max 600 -> '0-600', min 100 -> '100-100000', about 600 -> '480-720'."""
    if bound == "range" and high is not None:
        return f"{value:g}-{high:g}"
    if bound == "min":
        return f"{value:g}-{_OPEN_HIGH}"
    if bound == "about":
        return f"{round(value * 0.8):g}-{round(value * 1.2):g}"
    return f"0-{value:g}"


def _money(v: SlotValue | ConstraintRecord, domain: str | None) -> tuple[str, str, float] | None:
    if v.value is None or v.bound == "delta":
        return None  # an amount said but not read, or a change by an amount (its record holds the new value)
    slot = _SCOPE_SLOT.get(v.scope, "budget")
    if slot == "budget" and domain in _DOMAIN_SLOT and not v.scope:
        slot = _DOMAIN_SLOT[domain]
    amount = float(v.high if v.bound == "range" and v.high is not None else v.value)
    return slot, range_of(v.bound, float(v.value), v.high), amount


def money_from_slots(text: str, domain: str | None) -> list[tuple[str, str, float]]:
    """(slot, range, amount) for each budget the slot reader finds: slot is budget / price / cost / ticket."""
    out = []
    for v in read_slots(text):
        if v.slot == "budget":
            m = _money(v, domain)
            if m:
                out.append(m)
    return out


def constraints_from_records(records: list[ConstraintRecord]) -> list[Constraint]:
    """The agent's constraints for the current records (each with the node that stated it), oldest first."""
    out: list[Constraint] = []
    avoid: list[str] = []
    avoid_by: dict[str, tuple[ConstraintRecord, list[str]]] = {}  # statement -> the foods it set
    start: ConstraintRecord | None = None
    end: ConstraintRecord | None = None
    nights: ConstraintRecord | None = None
    for r in sorted(records, key=lambda r: r.turn):
        if r.status != "current":
            continue
        assert r.value is not None  # only an unread record has no value
        c = None
        if r.slot == "budget":
            m = _money(r, None)
            if m:
                slot, rng, amount = m
                c = Constraint(
                    slot,
                    amount if slot == "budget" else rng,
                    {"price": "hotel", "cost": "restaurant", "ticket": "attraction"}.get(slot, "any"),
                )
        elif r.slot == "diet" and r.bound == "restrict":
            term = diet_term(str(r.value))
            if term not in avoid:
                avoid.append(term)
                avoid_by.setdefault(r.node_id, (r, []))[1].append(term)
        elif r.slot == "party":
            c = Constraint("people", int(float(r.value)))
        elif r.slot == "date" and r.scope == "start":
            start = r
        elif r.slot == "date" and r.scope == "end":
            end = r
        elif r.slot == "nights":
            nights = r
        elif r.slot == "rating":
            scope = r.scope if r.scope in ("hotel", "restaurant", "attraction") else "any"
            c = Constraint("rating", f"{float(r.value):g}-5" if r.bound == "min" else f"0-{float(r.value):g}", scope)
        elif r.slot == "hotel_type":
            c = Constraint(
                "hotel_type", _TYPES.get(str(r.value), HOTEL_TYPE_ALIASES.get(str(r.value), r.value)), "hotel"
            )
        elif r.slot == "amenity":
            key = str(r.value)
            c = Constraint("facilities", [_AMENITY_DB.get(key) or FACILITY_ALIASES.get(key, key)], "hotel")
        elif r.slot == "quiet":
            c = Constraint("quiet", True, "hotel")
        elif r.slot == "location" and r.scope in ("hotel", "restaurant") and _known_place(str(r.value)):
            # a phrase the reader took for a place ("near the museum under 700") that names no place in the
            # data would send a later search to nowhere: only a place the database knows is remembered; an
            # English area is kept as the database names it ("Haidian" is 海淀区, as the message's own reading)
            known = _known_place(str(r.value))
            c = Constraint("place", known if known in _areas() else r.value, r.scope)
        if c is not None:
            c.turn, c.node_id, c.text = r.turn, r.node_id, r.text
            out.append(c)
    # one avoid constraint per statement (the planner's ``Known.avoid`` joins their foods): each food is credited
    # to where it was said, not all of them to the latest
    out += [Constraint("avoid", terms, "restaurant", r.turn, r.node_id, r.text) for r, terms in avoid_by.values()]
    if start is not None or nights is not None:
        value: dict[str, str | int] = {}
        if start is not None and not str(start.value).startswith("--"):
            value["check_in"] = f"{int(str(start.value)[:2])}-{int(str(start.value)[3:])}"
        if nights is not None:
            assert nights.value is not None  # a current record
            value["nights"] = int(float(nights.value))
        elif end is not None and start is not None and "check_in" in value and not str(end.value).startswith("--"):
            from datetime import date

            try:  # "5月1日到3日": the nights between arrival and departure
                n = (
                    date(2024, int(str(end.value)[:2]), int(str(end.value)[3:]))
                    - date(2024, int(str(start.value)[:2]), int(str(start.value)[3:]))
                ).days
            except ValueError:
                n = 0
            if n > 0:
                value["check_out"] = f"{int(str(end.value)[:2])}-{int(str(end.value)[3:])}"
                value["nights"] = n
        src = start or nights
        assert src is not None  # the branch needs one of them
        if value:
            out.append(Constraint("dates", value, "any", src.turn, src.node_id, src.text))
    # facilities accumulate into one constraint, as the search takes them (each a list, built above)
    fac = [c for c in out if c.slot == "facilities"]
    if len(fac) > 1:
        merged = Constraint(
            "facilities", [v for c in fac for v in cast(list[str], c.value)], "hotel", fac[-1].turn, fac[-1].node_id
        )
        out = [c for c in out if c.slot != "facilities"] + [merged]
    return sorted(out, key=lambda c: c.turn)


def moved_constraints(weaver, text: str, node_id: str | None) -> list[Constraint]:
    """The budgets a message changed by an amount ("预算再加两千"), as the values they now hold: the message's own
    reading has only the change; the weaver's constraint records apply it to the value it changes."""
    if not node_id or not changes_by_amount(text):
        return []
    from ..constraints import constraint_records

    mine = [r for r in constraint_records(weaver) if r.node_id == node_id and r.slot == "budget"]
    return [c for c in constraints_from_records(mine) if c.slot in ("budget", "price", "cost", "ticket")]


def changes_by_amount(text: str) -> bool:
    """The message changes a budget by an amount ("预算再加两千", "raise the budget by 2,000")."""
    return any(v.slot == "budget" and v.bound == "delta" for v in read_slots(text))


def grows_party(text: str) -> int:
    """How many the message adds to the party ("我们又多了两个人", "two more friends are joining us": 2), else 0."""
    return sum(int(v.value) for v in read_slots(text) if v.slot == "party" and v.bound == "delta" and v.value)


def _known_place(name: str) -> str | None:
    """The database's name of a place (a row, station or area), None when it knows none."""
    from .db import load_database
    from .tools import resolve_place

    return resolve_place(load_database(), name)


def _areas() -> tuple[str, ...]:
    from .lexicon import AREAS_ZH

    return AREAS_ZH


def diet_term(value: str) -> str:
    """The agent's avoid term for a diet record's value (the library's words -> the tools' categories)."""
    return _DIET.get(value, value)


def lifted_terms(text: str) -> set[str]:
    """The avoid terms ``text`` lifts, as the one diet reader reads it: "其实不用吃素了" / "scrap the vegetarian
    thing, I eat meat now" lift a style (the foods of the styles it names, meat when it names none),
    "我朋友现在也吃牛肉了" an item; a food restricted again in the same message stays avoided.

    >>> lifted_terms("Hmm, scrap the vegetarian thing, I eat meat now."), lifted_terms("我对花生过敏")
    ({'meat'}, set())
    >>> sorted(lifted_terms("我不再吃素了，牛肉也可以吃了"))
    ['beef', 'meat']
    """
    diet = [v for v in read_slots(text) if v.slot == "diet"]
    out = {diet_term(str(v.value)) for v in diet if v.bound == "lift" and v.scope != "style"}
    if any(v.bound == "lift" and v.scope == "style" for v in diet):
        named = {diet_term(s) for s, pat in _STYLE_WORDS.items() if re.search(pat, text, re.IGNORECASE)}
        out |= (named & set(_DIET.values())) or {"meat"}
    return out - {diet_term(str(v.value)) for v in diet if v.bound == "restrict"}
