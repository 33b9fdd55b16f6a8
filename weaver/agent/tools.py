"""The agent's tools: real queries over the CrossWOZ Beijing database, plus the plan's budget.

Each tool takes a pydantic-validated argument object (its JSON schema is what LLM
mode offers the model) and returns a :class:`ToolOutput` holding real rows.
Search semantics follow database.md: numeric ranges ``<x`` / ``>x`` / ``x-y``,
all listed dishes / facilities must be present, and "near" means listed among a
place's nearby entries (the lists are symmetric; when a place has none, sharing its
metro station), or,
for an area such as 王府井 that is not a row itself, named in the address, name
or station.
"""

from __future__ import annotations

import re
from collections import Counter
import statistics
from dataclasses import dataclass, field
from typing import Callable, Literal

from pydantic import BaseModel, Field, ValidationError

from ..models import WeaverError
from .db import Database, all_present, base_name, in_range, load_database, station_of
from .cuisine import CuisineKey, name_is
from .meals import serves_meal
from .side import place_facts
from .lexicon import (
    AREAS_ZH,
    DISH_ALIASES,
    FACILITY_ALIASES,
    HOTEL_TYPE_ALIASES,
    PLACE_ALIASES,
    PLACE_ALIASES_ZH,
    dish_matches,
    is_kind,
)

__all__ = ["ToolBox", "ToolOutput", "TOOL_MODELS", "tool_schemas", "resolve_place", "compact_row"]

_NEARBY = {"hotel": "周边酒店", "restaurant": "周边餐馆", "attraction": "周边景点"}


class _Search(BaseModel):
    near: str | None = Field(
        None,
        description="a Beijing place (attraction, area such as 王府井, or a row's name), "
        "Chinese or common English name",
    )
    name: str | None = Field(None, description="the name (or part of it) of a specific place")
    rating: str | None = Field(None, description="rating range 评分: '<x', '>x' or 'x-y', e.g. '4.5-5'")
    near_metro: bool = Field(False, description="only places with a metro station listed")
    limit: int = Field(5, ge=1, le=20, description="how many rows to return")
    budget: float | None = Field(
        None,
        gt=0,
        description="the user's total trip budget in yuan: one unit of a row "
        "(a night; a meal or tickets for the party) must fit what "
        "the plan has left",
    )
    people: int | None = Field(None, ge=1, le=50, description="party size (a meal or tickets cost this many times)")
    exclude: list[str] = Field(default_factory=list, description="names already offered: 'find another one'")
    around: bool = Field(
        False,
        description="with near: also places listed near the place's own nearby places "
        "(a wider ring, when nothing fits right there)",
    )


class SearchHotels(_Search):
    price: str | None = Field(None, description="price per night 价格 in yuan: '<x', '>x' or 'x-y'")
    hotel_type: str | None = Field(None, description="酒店类型: 经济型 / 舒适型 / 高档型 / 豪华型")
    facilities: list[str] = Field(
        default_factory=list, description="facilities that must all be present, e.g. ['wifi', '健身房']"
    )
    quiet: bool = Field(
        False, description="prefer quieter surroundings (fewer venues nearby: the database has no noise data)"
    )
    nights: int | None = Field(
        None, ge=1, le=60, description="nights of the stay (booking checks the whole stay against the budget)"
    )


class SearchRestaurants(_Search):
    cost: str | None = Field(None, description="cost per person 人均消费 in yuan: '<x', '>x' or 'x-y'")
    dishes: list[str] = Field(default_factory=list, description="recommended dishes that must all be present")
    avoid: list[str] = Field(
        default_factory=list,
        description="dish words or diet categories to exclude, e.g. ['seafood'] for an allergy, ['spicy'], ['花生']",
    )
    meal: Literal["breakfast", "lunch", "dinner", "late-night"] | None = Field(
        None, description="the meal: only places open then that serve it (no bakeries or canteens for dinner)"
    )
    cuisine: list[CuisineKey] = Field(
        default_factory=list,
        description="cuisines, any of them (read from the name only: the database has no cuisine field)",
    )


class SearchAttractions(_Search):
    ticket: str | None = Field(None, description="ticket price 门票 in yuan: '<x', '>x' or 'x-y' ('0-0' = free)")
    max_hours: float | None = Field(None, gt=0, description="the visit can be done within this many hours")
    kind: Literal["museum", "park", "temple"] | None = Field(
        None, description="a kind of sight, read from its name (the database has no type field)"
    )


class MetroStation(BaseModel):
    place: str = Field(..., description="a place name (Chinese or English)")


class BookHotel(BaseModel):
    name: str = Field(..., description="the hotel's name as in the search results")
    check_in: str = Field(..., description="check-in date, e.g. '5-1'")
    nights: int = Field(..., ge=1, le=60, description="number of nights")
    rooms: int = Field(1, ge=1, le=20)
    budget: float | None = Field(None, gt=0, description="the user's total trip budget in yuan, if stated")


class AddToPlan(BaseModel):
    kind: Literal["restaurant", "attraction"]
    name: str
    people: int = Field(1, ge=1, le=50)
    day: int | None = Field(None, ge=1, le=60, description="the day of the trip it is for (1 = the first day)")
    budget: float | None = Field(None, gt=0, description="the user's total trip budget in yuan, if stated")


class PlaceFacts(BaseModel):
    names: list[str] = Field(default_factory=list, max_length=4, description="the places asked about")
    ask: Literal["distance", "hours", "reserve", "crowd", "evening", "weather", "checkin"] = Field(
        ...,
        description="what is asked: distance between two places, opening hours, booking ahead, crowds, evening "
        "visits, the weather, a hotel's check-in / check-out time (the data has neither of the last two)",
    )


class BudgetTally(BaseModel):
    budget: float | None = Field(None, gt=0, description="the user's total trip budget in yuan, if stated")


TOOL_MODELS: dict[str, tuple[type[BaseModel], str]] = {
    "search_hotels": (
        SearchHotels,
        "Search Beijing hotels (CrossWOZ database) by place, price per night, rating, type, facilities, metro, quiet.",
    ),
    "search_restaurants": (
        SearchRestaurants,
        "Search Beijing restaurants by place, cost per person, rating, "
        "dishes wanted, dishes or diet categories to avoid.",
    ),
    "search_attractions": (
        SearchAttractions,
        "Search Beijing attractions by place, name, ticket price, visit duration, rating.",
    ),
    "metro_station": (MetroStation, "The nearest metro station of a Beijing place."),
    "book_hotel": (
        BookHotel,
        "Add a hotel stay to the trip plan after checking dates, price and budget (no real reservation is made).",
    ),
    "add_to_plan": (AddToPlan, "Add a restaurant meal or an attraction visit to the trip plan, checking the budget."),
    "budget_tally": (BudgetTally, "Total what the plan has chosen so far against the budget."),
    "place_facts": (
        PlaceFacts,
        "What the database says about places for a side question (nearby lists and "
        "metro for distance; hours; tickets; phone). It has no coordinates, sight hours, "
        "booking rules or crowd data.",
    ),
}


def tool_schemas() -> list[dict]:
    """OpenAI function-calling tool definitions."""
    out = []
    for name, (model, desc) in TOOL_MODELS.items():
        params = model.model_json_schema()
        params.pop("title", None)
        out.append({"type": "function", "function": {"name": name, "description": desc, "parameters": params}})
    return out


@dataclass
class ToolOutput:
    tool: str
    arguments: dict
    rows: list[dict] = field(default_factory=list)
    count: int = 0
    ok: bool = True
    error: str = ""  # a fault (bad arguments, unknown tool): the call itself failed
    reason: str = ""  # a negative outcome of a valid call, e.g. "over_budget"
    notes: list[str] = field(default_factory=list)
    facts: dict = field(default_factory=dict)  # numbers the reply templates use
    plan_item: dict | None = None


def resolve_place(db: Database, text: str | None) -> str | None:
    """English or short names -> the database's name (or an area word); None when unknown."""
    if not text:
        return None
    t = text.strip()
    low = t.lower()
    if low in PLACE_ALIASES:
        return PLACE_ALIASES[low]
    if t in PLACE_ALIASES_ZH:
        return PLACE_ALIASES_ZH[t]
    if t in db.by_name or t in db.metro or t in AREAS_ZH:
        return t
    row = db.find(t)
    return row["名称"] if row else (t if re.search(r"[\u4e00-\u9fff]", t) else None)


def _near_filter(db: Database, place: str, domain: str) -> Callable[[dict], bool]:
    entity = db.by_name.get(place)
    if entity is not None:
        listed = set(entity.get(_NEARBY[domain]) or [])
        # the database's own nearby lists (symmetric); many rows share a metro exit, too coarse to use
        return lambda r: (
            r["名称"] != place and (r["名称"] in listed or any(place in (r.get(k) or []) for k in _NEARBY.values()))
        )
    return lambda r: place in r["名称"] or place in (r.get("地址") or "") or place in (r.get("地铁") or "")


def _sort(rows: list[dict], price_key: str) -> list[dict]:
    return sorted(
        rows,
        key=lambda r: (-(r.get("评分") or 0), r.get(price_key) if r.get(price_key) is not None else 1e9, r["名称"]),
    )


def compact_row(row: dict, domain: str) -> dict:
    """The fields the chat shows (nearby lists trimmed to five, as database.md suggests)."""
    keep = {
        "hotel": ("名称", "酒店类型", "价格", "评分", "地址", "地铁", "电话", "酒店设施"),
        "restaurant": ("名称", "人均消费", "评分", "推荐菜", "地址", "地铁", "电话", "营业时间"),
        "attraction": ("名称", "门票", "游玩时间", "评分", "地址", "地铁", "电话"),
    }[domain]
    out = {k: row.get(k) for k in keep}
    out["domain"] = domain
    for k in ("周边景点", "周边餐馆", "周边酒店"):
        out[k] = (row.get(k) or [])[:5]
    return out


def _hours(duration: str | None) -> float | None:
    """The shortest visit in hours of a 游玩时间 string ("2小时 - 3小时", "3天")."""
    if not duration:
        return None
    m = re.match(r"\s*(\d+(?:\.\d+)?)\s*(小时|天)", duration)
    if not m:
        return None
    return float(m.group(1)) * (24 if m.group(2) == "天" else 1)


class ToolBox:
    """Runs tools by name. ``plan`` returns the plan's chosen items (read from memory by the agent)."""

    def __init__(self, db: Database | None = None, plan: Callable[[], list[dict]] | None = None):
        self.db = db or load_database()
        self.plan = plan or (lambda: [])

    def run(self, name: str, arguments: dict | None) -> ToolOutput:
        """Validate and run; a bad call returns ``ok=False`` with ``error`` (it never raises)."""
        if name not in TOOL_MODELS:
            return ToolOutput(name, dict(arguments or {}), ok=False, error=f"unknown tool {name!r}")
        model = TOOL_MODELS[name][0]
        try:
            args = model.model_validate(arguments or {})
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(x) for x in err["loc"]) or "arguments"
            return ToolOutput(name, dict(arguments or {}), ok=False, error=f"{where}: {err['msg']}")
        try:
            return getattr(self, name)(args)
        except WeaverError as exc:
            return ToolOutput(name, args.model_dump(exclude_defaults=True), ok=False, error=str(exc))

    # ------------------------------------------------------------- searches
    def _common(self, rows: list[dict], args: _Search, domain: str, out: ToolOutput) -> list[dict]:
        if args.name:
            rows = [r for r in rows if args.name in r["名称"] or base_name(r["名称"]) in args.name]
        if args.near:
            place = resolve_place(self.db, args.near)
            if place is None:
                out.notes.append(f"unknown_place:{args.near}")
                return []
            out.facts["near"] = place
            near = [r for r in rows if _near_filter(self.db, place, domain)(r)]
            if args.around:
                near = self._ring(rows, place, domain, near)
            entity = self.db.by_name.get(place)
            if not near and entity is not None and station_of(entity.get("地铁")):
                # many rows have empty nearby lists: fall back to sharing the metro station
                station = station_of(entity.get("地铁"))
                near = [r for r in rows if r["名称"] != place and station_of(r.get("地铁")) == station]
                out.notes.append(f"near_by_station:{station}")
            rows = near
        if args.rating:
            rows = [r for r in rows if in_range(r.get("评分"), args.rating)]
        if args.near_metro:
            rows = [r for r in rows if r.get("地铁")]
        return rows

    def _ring(self, rows: list[dict], place: str, domain: str, near: list[dict]) -> list[dict]:
        """The place's nearby rows plus the rows listed near those of its nearby places (of any kind)."""
        first = {r["名称"] for dom in _NEARBY for r in self.db.table(dom) if _near_filter(self.db, place, dom)(r)}
        listed = {n for name in first for n in (self.db.by_name.get(name) or {}).get(_NEARBY[domain]) or []}
        ring = [
            r
            for r in rows
            if r["名称"] != place
            and r not in near
            and (r["名称"] in listed or any(n in first for k in _NEARBY.values() for n in r.get(k) or []))
        ]
        return near + ring

    def _finish(self, out: ToolOutput, rows: list[dict], domain: str, limit: int, price_key: str) -> ToolOutput:
        rows = _sort(rows, price_key)
        if out.arguments.get("exclude"):  # "another one": what the conversation offered is not offered again
            rows, fitting = [r for r in rows if r["名称"] not in set(out.arguments["exclude"])], len(rows)
            out.facts["skipped"] = fitting - len(rows)
        out.count = len(rows)
        out.rows = [compact_row(r, domain) for r in rows[:limit]]
        return out

    def _fits_budget(self, rows: list[dict], a: _Search, price_key: str, times: int, out: ToolOutput) -> list[dict]:
        """Rows whose cost (price x nights or x people) fits what the plan leaves of the total budget."""
        if not a.budget:
            return rows
        left = a.budget - self._spent()
        out.facts["budget_left"] = left
        return [r for r in rows if r.get(price_key) is None or float(r[price_key]) * times <= left]

    def search_hotels(self, a: SearchHotels) -> ToolOutput:
        out = ToolOutput("search_hotels", a.model_dump(exclude_defaults=True))
        rows = self._common(self.db.hotel, a, "hotel", out)
        if a.price:
            rows = [r for r in rows if in_range(r.get("价格"), a.price)]
        if a.hotel_type:
            wanted = HOTEL_TYPE_ALIASES.get(a.hotel_type.lower(), a.hotel_type)
            rows = [r for r in rows if r.get("酒店类型") == wanted]
        if a.facilities:
            terms = [FACILITY_ALIASES.get(f.lower(), f) for f in a.facilities]
            rows = [r for r in rows if all_present(r.get("酒店设施"), terms)]
        if a.quiet and rows:
            # no noise data: keep the quieter half by how many venues are listed nearby
            busy = {r["名称"]: len(r.get("周边餐馆") or []) + len(r.get("周边景点") or []) for r in rows}
            cut = statistics.median(busy.values())
            rows = [r for r in rows if busy[r["名称"]] <= cut]
            out.notes.append("quiet_proxy")
        # one night must fit what is left of the total budget; the whole stay is checked when it is booked
        # (book_hotel fails with the sum, which the user can then see and change)
        rows = self._fits_budget(rows, a, "价格", 1, out)
        return self._finish(out, rows, "hotel", a.limit, "价格")

    def search_restaurants(self, a: SearchRestaurants) -> ToolOutput:
        out = ToolOutput("search_restaurants", a.model_dump(exclude_defaults=True))
        rows = self._common(self.db.restaurant, a, "restaurant", out)
        if a.cost:
            rows = [r for r in rows if in_range(r.get("人均消费"), a.cost)]
        if a.dishes:
            rows = [r for r in rows if all_present(r.get("推荐菜"), [DISH_ALIASES.get(d.lower(), d) for d in a.dishes])]
        if a.avoid:
            before = len(rows)
            rows = [
                r
                for r in rows
                if not any(dish_matches(d, t) for t in a.avoid for d in list(r.get("推荐菜") or []) + [r["名称"]])
            ]
            out.facts["excluded"] = before - len(rows)
        if a.cuisine:
            rows = [r for r in rows if name_is(r["名称"], list(a.cuisine))]
        if a.meal:
            before = len(rows)
            rows = [r for r in rows if serves_meal(r, a.meal)]
            out.facts["not_for_meal"] = before - len(rows)
        rows = self._fits_budget(rows, a, "人均消费", a.people or 1, out)
        return self._finish(out, rows, "restaurant", a.limit, "人均消费")

    def search_attractions(self, a: SearchAttractions) -> ToolOutput:
        out = ToolOutput("search_attractions", a.model_dump(exclude_defaults=True))
        rows = self._common(self.db.attraction, a, "attraction", out)
        if a.ticket:
            rows = [r for r in rows if in_range(r.get("门票"), a.ticket)]
        if a.max_hours:
            rows = [r for r in rows if (_hours(r.get("游玩时间")) or 1e9) <= a.max_hours]
        if a.kind:
            rows = [r for r in rows if is_kind(r["名称"], a.kind)]
        rows = self._fits_budget(rows, a, "门票", a.people or 1, out)
        return self._finish(out, rows, "attraction", a.limit, "门票")

    def metro_station(self, a: MetroStation) -> ToolOutput:
        out = ToolOutput("metro_station", a.model_dump())
        place = resolve_place(self.db, a.place)
        if place and place in self.db.metro:
            out.rows = [{"名称": place, "地铁": self.db.metro[place], "domain": "metro"}]
        elif place and place in self.db.by_name and self.db.by_name[place].get("地铁"):
            out.rows = [{"名称": place, "地铁": self.db.by_name[place]["地铁"], "domain": "metro"}]
        elif place:
            # an area (王府井): the station most of its listed places name, rather than five of them
            named = [s for n, s in self.db.metro.items() if place in n and station_of(s)]
            if named:
                top, _ = Counter(station_of(s) for s in named).most_common(1)[0]
                out.rows = [{"名称": place, "地铁": top, "domain": "metro"}]
                out.notes.append("station_of_area")
        out.count = len(out.rows)
        return out

    # ---------------------------------------------------------------- plan
    def _spent(self, exclude: str | None = None) -> float:
        return sum(float(i.get("cost") or 0) for i in self.plan() if i.get("name") != exclude)

    def _budget_check(self, out: ToolOutput, cost: float, budget: float | None, name: str) -> None:
        spent = self._spent(exclude=name)
        out.facts.update(cost=cost, spent=spent, budget=budget)
        if budget is not None and spent + cost > budget:
            out.ok, out.reason = False, "over_budget"

    def book_hotel(self, a: BookHotel) -> ToolOutput:
        out = ToolOutput("book_hotel", a.model_dump(exclude_defaults=True))
        row = self.db.find(a.name)
        if row is None or self.db.domain_of(row) != "hotel":
            out.ok, out.reason = False, "not_found"
            return out
        out.rows = [compact_row(row, "hotel")]
        out.count = 1
        out.facts.update(name=row["名称"], unit_price=row.get("价格"), nights=a.nights, check_in=a.check_in)
        if row.get("价格") is None:
            out.ok, out.reason = False, "no_price"
            return out
        cost = float(row["价格"]) * a.nights * a.rooms
        self._budget_check(out, cost, a.budget, row["名称"])
        if out.ok:
            out.plan_item = {
                "kind": "hotel",
                "name": row["名称"],
                "cost": cost,
                "check_in": a.check_in,
                "nights": a.nights,
                "unit": row["价格"],
            }
        return out

    def add_to_plan(self, a: AddToPlan) -> ToolOutput:
        out = ToolOutput("add_to_plan", a.model_dump(exclude_defaults=True))
        row = self.db.find(a.name)
        if row is None or self.db.domain_of(row) != a.kind:
            out.ok, out.reason = False, "not_found"
            return out
        out.rows, out.count = [compact_row(row, a.kind)], 1
        unit = row.get("人均消费" if a.kind == "restaurant" else "门票")
        if unit is None:
            out.notes.append("no_price")
        cost = float(unit or 0) * a.people
        out.facts.update(name=row["名称"], unit_price=unit, people=a.people, day=a.day)
        self._budget_check(out, cost, a.budget, row["名称"])
        if out.ok:
            out.plan_item = {"kind": a.kind, "name": row["名称"], "cost": cost, "people": a.people, "unit": unit}
            if a.day:
                out.plan_item["day"] = a.day
        return out

    def place_facts(self, a: PlaceFacts) -> ToolOutput:
        out = ToolOutput("place_facts", a.model_dump())
        names = [resolve_place(self.db, n) or n for n in a.names]
        out.facts = place_facts(self.db, names, a.ask)
        out.rows = out.facts["rows"]
        out.count = len(out.rows)
        return out

    def budget_tally(self, a: BudgetTally) -> ToolOutput:
        out = ToolOutput("budget_tally", a.model_dump(exclude_defaults=True))
        items = self.plan()
        total = sum(float(i.get("cost") or 0) for i in items)
        out.rows = [dict(i, domain="plan") for i in items]
        out.count = len(items)
        out.facts.update(
            total=total,
            budget=a.budget,
            remaining=None if a.budget is None else a.budget - total,
            within=None if a.budget is None else total <= a.budget,
        )
        return out
