"""Which memories set a tool call's arguments: each argument matched against the constraints in force.

The offline planner knows which constraint set each argument because it set them; a model's call (LLM mode) is
read back instead: an argument is credited to the constraint in force for its slot (``Known``, as the planner
reads it: this message's own constraints newest, then the weaver's records and retrieved memory) only when the
values agree, so a value the model invented, or one the user has since changed, is credited to no memory.

>>> from weaver.agent.memory import Known
>>> from weaver.agent.understanding import Constraint
>>> known = Known([Constraint("price", "0-800", "hotel", 1, "n1"), Constraint("avoid", ["seafood"], "restaurant",
...     2, "n2"), Constraint("budget", 5000.0, "any", 3, "n3"), Constraint("people", 2, "any", 3, "n3")])
>>> argument_sources("search_hotels", {"near": "王府井", "price": "<800", "rating": "4.5-5"}, known)
{'price': ['n1']}
>>> argument_sources("search_restaurants", {"avoid": ["海鲜", "花生"], "people": 2, "budget": 4000}, known)
{'avoid': ['n2'], 'people': ['n3']}
>>> argument_sources("search_hotels", {"price": "<5000"}, known)  # no ceiling of 5000 a night: the total budget's
{'price': ['n3']}
>>> known.constraints.append(Constraint("dates", {"check_in": "5-1", "nights": 2}, "any", 4, "n4"))
>>> argument_sources("book_hotel", {"name": "x", "check_in": "2024-05-01", "nights": 3, "budget": 5000}, known)
{'check_in': ['n4'], 'budget': ['n3']}
>>> known.constraints += [Constraint("people", 4, "any", 5, "n5"), Constraint("not_pricey", True, "any", 6, "n6")]
>>> argument_sources("book_hotel", {"name": "x", "rooms": 2}, known), argument_sources("search_hotels",
...     {"cheaper_half": True, "rooms": 3}, known)  # 4 people need 2 rooms, not 3
({'rooms': ['n5']}, {'cheaper_half': ['n6']})
>>> known.wishes = [Constraint("dishes", ["烤鸭"], "restaurant", 5, "n5"), Constraint("meal", "dinner", "restaurant",
...     6, "n6")]
>>> argument_sources("search_restaurants", {"dishes": ["Peking duck", "火锅"], "meal": "dinner", "cuisine": ["sichuan"]},
...     known)  # hotpot and Sichuan food no memory asked for: the model's own
{'dishes': ['n5'], 'meal': ['n6']}
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable, cast

from ..models import WeaverError
from ..slots import read_slots
from .db import load_database, parse_range
from .diet_lexicon import category_of
from .lexicon import DISH_ALIASES, FACILITY_ALIASES, HOTEL_TYPE_ALIASES
from .memory import Known
from .tool_models import rooms_for
from .tools import resolve_place
from .understanding import Constraint

__all__ = ["argument_sources", "call_domain"]

_DOMAINS = {
    "search_hotels": "hotel",
    "search_restaurants": "restaurant",
    "search_attractions": "attraction",
    "book_hotel": "hotel",
}
_MONEY = ("budget", "price", "cost", "ticket")  # the money slots: one amount can reach an argument of another
_TOP = {"rating": 5.0}  # a bound at the scale's end says nothing ("4.5-5" is "at least 4.5"); money: no ceiling
_OPEN_HIGH = 100_000  # the database range's stand-in for "no ceiling" (slot_bridge writes floors so)


def call_domain(tool: str, arguments: dict) -> str | None:
    """The domain a call is about (``add_to_plan`` says it in ``kind``)."""
    return _DOMAINS.get(tool) or (str(arguments.get("kind")) if tool == "add_to_plan" else None)


def _bounds(spec: Any, slot: str) -> dict[str, float]:
    """The bounds a value states, without the uninformative ones: '<800' -> {'hi': 800}, 5000 -> {'hi': 5000}."""
    try:
        r = parse_range(spec) if not isinstance(spec, (bool, list, dict)) else None
    except WeaverError:  # not a range: it states no bound
        return {}
    if r is None:
        return {}
    lo, hi = r[0], r[1]
    out = {}
    if math.isfinite(lo) and lo > 0:
        out["lo"] = lo
    if math.isfinite(hi) and hi < _TOP.get(slot, _OPEN_HIGH):
        out["hi"] = hi
    return out


def _agrees_amount(arg: Any, c: Constraint, arg_slot: str) -> bool:
    """Every bound the constraint states is the argument's: 0-800 sets '<800' and '500-800', not '<1000'."""
    want, have = _bounds(c.value, c.slot), _bounds(arg, arg_slot)
    return bool(want) and all(k in have and abs(have[k] - v) < 1e-6 for k, v in want.items())


def _month_day(value: Any) -> tuple[int, int] | None:
    """'5-1', '2024-05-01', '5月1日', 'May 1' -> (5, 1)."""
    s = str(value)
    nums = [int(n) for n in re.findall(r"\d+", s)]
    if len(nums) >= 2:
        return nums[-2], nums[-1]
    for v in read_slots(f"from {s}"):  # a month named in words: the one date reader reads it
        if v.slot == "date" and v.value and not str(v.value).startswith("--"):
            return int(str(v.value)[:2]), int(str(v.value)[3:5])
    return None


def _place(name: Any) -> str | None:
    return resolve_place(load_database(), str(name)) if name else None


def _term(word: Any) -> str:
    """An avoided food as one category ('海鲜' and 'seafood' are one), else the word itself."""
    w = str(word).strip()
    return category_of(w) or w.lower()


def _ids(cons: list[Constraint]) -> list[str]:
    return list(dict.fromkeys(c.node_id for c in cons if c.node_id))


def _money(key: str, value: Any, slots: dict[str, Constraint]) -> list[Constraint]:
    """The money constraint whose amount the argument states: its own slot first, else another's (a total budget
    that set a price ceiling); only the one in force of each slot, so a changed amount is credited to none."""
    own = "budget" if key == "budget" else key
    mine = slots.get(own)
    if mine is not None and _agrees_amount(value, mine, key):
        return [mine]
    return [c for s, c in slots.items() if s in _MONEY and s != own and _agrees_amount(value, c, key)][:1]


def _avoid(terms: Any, known: Known) -> list[Constraint]:
    """The statement that set each avoided term, the latest that said it (each food credited to where it was said,
    once)."""
    by_term: dict[str, Constraint] = {}
    for held in sorted(known.avoid()[1], key=lambda c: c.turn):
        for t in cast(list, held.value):  # an avoid value is its list of foods
            by_term[_term(t)] = held
    said = [_term(t) for t in (terms if isinstance(terms, list) else [terms])]
    found = [by_term[t] for t in said if t in by_term]
    return sorted({id(c): c for c in found}.values(), key=lambda c: c.turn)


def _wish_term(key: str, word: Any) -> str:
    """A dish as the lexicon names it ("Peking duck" is 烤鸭), a cuisine or meal key as a key."""
    w = str(word).strip()
    return DISH_ALIASES.get(w.lower(), w) if key == "dishes" else w.lower()


def _same_wish(key: str, a: str, b: str) -> bool:
    # a dish is asked for by a name holding it ("烤鸭" by "北京烤鸭", as the search matches a dish), a cuisine by its key
    return a == b or (key == "dishes" and bool(a) and bool(b) and (a in b or b in a))


def _wished(key: str, value: Any, known: Known) -> list[Constraint]:
    """The message that asked for each dish / cuisine (the latest that did), or for the meal (the meal said last):
    a wish the user has since avoided ("不吃烤鸭了") or a meal since changed is in force no more."""
    wishes = sorted((c for c in known.wishes if c.slot == key), key=lambda c: c.turn)
    if key == "meal":
        return wishes[-1:] if wishes and _wish_term(key, wishes[-1].value) == _wish_term(key, value) else []
    avoided: dict[str, int] = {}
    for c in known.avoid()[1]:
        for t in cast(list, c.value):
            avoided[_term(t)] = max(avoided.get(_term(t), 0), c.turn)
    found = []
    for word in value if isinstance(value, list) else [value]:
        t = _wish_term(key, word)
        said = [c for c in wishes if any(_same_wish(key, t, _wish_term(key, v)) for v in cast(list, c.value))]
        if said and said[-1].turn > avoided.get(_term(t), -1):
            found.append(said[-1])
    return sorted({id(c): c for c in found}.values(), key=lambda c: c.turn)


def _near(value: Any, known: Known, plan_items: list[dict]) -> list[Constraint]:
    """The latest place said (or the planned stay / sight) that the argument names."""
    where = _place(value)
    if not where:
        return []
    hits = [c for c in known.constraints if c.slot == "place" and c.value and _place(c.value) == where]
    hits += [
        Constraint("place", i["name"], str(i.get("kind") or "any"), int(i.get("turn") or 0), str(i["node_id"]))
        for i in plan_items
        if i.get("name") == where and i.get("node_id")
    ]
    return sorted(hits, key=lambda c: c.turn)[-1:]


def _dates(key: str, value: Any, slots: dict[str, Constraint]) -> list[Constraint]:
    c = slots.get("dates")
    v = c.value if c is not None and isinstance(c.value, dict) else {}
    if key == "nights":
        return [c] if c is not None and v.get("nights") is not None and str(v["nights"]) == str(value) else []
    said = _month_day(value)
    return [c] if c is not None and said is not None and v.get("check_in") and _month_day(v["check_in"]) == said else []


def _same(slot: str, norm: Callable[[Any], Any] = lambda v: v) -> Callable[[str, Any, dict], list[Constraint]]:
    def match(_key: str, value: Any, slots: dict[str, Constraint]) -> list[Constraint]:
        c = slots.get(slot)
        return [c] if c is not None and norm(c.value) == norm(value) else []

    return match


def _facilities(_key: str, value: Any, slots: dict[str, Constraint]) -> list[Constraint]:
    c = slots.get("facilities")
    norm = lambda f: FACILITY_ALIASES.get(str(f).lower(), str(f))  # noqa: E731
    have = {norm(f) for f in (c.value if c is not None and isinstance(c.value, list) else [])}
    return [c] if c is not None and have & {norm(f) for f in (value if isinstance(value, list) else [value])} else []


def _flag(slot: str) -> Callable[[str, Any, dict], list[Constraint]]:
    # a yes/no wish ("quiet", "near the metro"): set by the statement only when the call asks for it
    return lambda _key, value, slots: [slots[slot]] if value is True and slot in slots else []


def _rooms(_key: str, value: Any, slots: dict[str, Constraint]) -> list[Constraint]:
    # the rooms a party needs (``rooms_for``, as the planner books them): set by the party size that needs them
    c = slots.get("people")
    try:
        rooms = int(value)
    except (TypeError, ValueError):
        return []
    return [c] if c is not None and rooms > 1 and rooms_for(c.value) == rooms else []


_MATCHERS: dict[str, Callable[[str, Any, dict], list[Constraint]]] = {
    **{k: _money for k in _MONEY},
    "people": _same("people", lambda v: str(v)),
    "nights": _dates,
    "check_in": _dates,
    "rating": lambda key, value, slots: [c for c in [slots.get("rating")] if c and _agrees_amount(value, c, key)],
    "hotel_type": _same("hotel_type", lambda v: HOTEL_TYPE_ALIASES.get(str(v).lower(), str(v))),
    "facilities": _facilities,
    "quiet": _flag("quiet"),
    "near_metro": _flag("near_metro"),
    "cheaper_half": _flag("not_pricey"),  # "别太贵" said, with no number: the cheaper half kept
    "walk_minutes": _same("walk", lambda v: str(v)),
    "rooms": _rooms,
}


def argument_sources(
    tool: str, arguments: dict, known: Known, plan_items: list[dict] | None = None
) -> dict[str, list[str]]:
    """Argument -> the memory nodes that state its value, for the arguments some memory states (in call order).

    ``known``: the constraints in force, this message's own included (with their nodes); ``plan_items``: the
    plan's bookings, whose names a ``near`` may point at."""
    domain = call_domain(tool, arguments)
    slots = known.for_domain(domain)
    out: dict[str, list[str]] = {}
    for key, value in arguments.items():
        if key == "avoid" and tool == "search_restaurants":
            found = _avoid(value, known)
        elif key == "near":
            found = _near(value, known, plan_items or [])
        elif key in ("dishes", "cuisine", "meal") and tool == "search_restaurants" and value:
            found = _wished(key, value, known)
        elif key in _MATCHERS and value is not None:
            found = _MATCHERS[key](key, value, slots)
        else:  # a name, a limit...: this call's own choice, not a remembered constraint
            continue
        ids = _ids(found)
        if ids:
            out[key] = ids
    return out
