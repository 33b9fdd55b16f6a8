"""The searches the agent's tools run over the database: hotels, restaurants, attractions, metro stations.

A mixin of ``ToolBox`` with the pieces searches share: resolving a place named in
either language, "near" (listed among a place's nearby entries, or sharing its
station, or an area named in the address), the budget fit and the compact row shown.
"""

from __future__ import annotations

import re
from collections import Counter
import statistics
from typing import Callable


from .db import Database, all_present, base_name, in_range, station_of
from .cuisine import name_is
from .districts import district_of, is_district
from .diet_styles import DIET_STYLES, food_dishes, style_fit, style_kitchen
from .meals import NOT_DISHES, serves_meal
from .lexicon import (
    AREAS_ZH,
    DISH_ALIASES,
    DISTRICTS_SHORT,
    FACILITY_ALIASES,
    HOTEL_TYPE_ALIASES,
    PLACE_ALIASES,
    PLACE_ALIASES_ZH,
    dish_matches,
    is_kind,
)
from .tool_models import (
    NEARBY_LISTS,
    MetroStation,
    SearchArguments,
    SearchAttractions,
    SearchHotels,
    SearchRestaurants,
    ToolOutput,
)

__all__ = ["PlaceSearches", "resolve_place", "compact_row"]


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
    if t in DISTRICTS_SHORT:  # "海淀": the district, not a row whose name holds the word (基督教海淀堂)
        return DISTRICTS_SHORT[t]
    if t in db.by_name or t in db.metro or t in AREAS_ZH:
        return t
    row = db.find(t)
    return row["名称"] if row else (t if re.search(r"[\u4e00-\u9fff]", t) else None)


def _near_filter(db: Database, place: str, domain: str) -> Callable[[dict], bool]:
    entity = db.by_name.get(place)
    if entity is not None:
        listed = set(entity.get(NEARBY_LISTS[domain]) or [])
        # the database's own nearby lists (symmetric); many rows share a metro exit, too coarse to use
        return lambda r: (
            r["名称"] != place
            and (r["名称"] in listed or any(place in (r.get(k) or []) for k in NEARBY_LISTS.values()))
        )
    if is_district(place):  # a district: the rows the data places in it (address, else their station's district)
        return lambda r: district_of(r["名称"]) == place
    return lambda r: place in r["名称"] or place in (r.get("地址") or "") or place in (r.get("地铁") or "")


def _sort(rows: list[dict], price_key: str, first: dict[str, float] | None = None) -> list[dict]:
    """Best rated first, then cheaper; ``first``: a score by name that ranks before the rating (higher first)."""
    return sorted(
        rows,
        key=lambda r: (
            -(first or {}).get(r["名称"], 0.0),
            -(r.get("评分") or 0),
            r.get(price_key) if r.get(price_key) is not None else 1e9,
            r["名称"],
        ),
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


def _dishes(row: dict) -> list[str]:
    """A restaurant's signature dishes, without the placeholders and tags the data lists among them."""
    return [d for d in row.get("推荐菜") or [] if d not in NOT_DISHES]


def _hours(duration: str | None, longest: bool = False) -> float | None:
    """The shortest (``longest``: the longest) visit in hours of a 游玩时间 string, whose forms are "1小时",
    "2小时 - 3小时", "3天" and "12小时 - 3天"; None when none is listed ("0.0小时" lists none).

    >>> _hours("2小时 - 3小时"), _hours("2小时 - 3小时", longest=True), _hours("12小时 - 3天", True), _hours("0.0小时")
    (2.0, 3.0, 72.0, None)
    """
    found = re.findall(r"(\d+(?:\.\d+)?)\s*(小时|天)", duration or "")
    hours = [float(n) * (24 if unit == "天" else 1) for n, unit in found]
    if not hours or max(hours) <= 0:
        return None
    return max(hours) if longest else min(hours)


class PlaceSearches:
    """The search tools of ``ToolBox`` (over ``self.db``)."""

    db: Database
    plan: Callable[[], list[dict]]

    def _spent(self, exclude: str | None = None) -> float:
        return sum(float(i.get("cost") or 0) for i in self.plan() if i.get("name") != exclude)

    # ------------------------------------------------------------- searches
    def _common(self, rows: list[dict], args: SearchArguments, domain: str, out: ToolOutput) -> list[dict]:
        if args.name:  # the row of that exact name (a branch listed), else every row the name is part of
            exact = [r for r in rows if r["名称"] == args.name]
            rows = exact or [r for r in rows if args.name in r["名称"] or base_name(r["名称"]) in args.name]
        if args.near:
            place = resolve_place(self.db, args.near)
            if place is None:
                out.notes.append(f"unknown_place:{args.near}")
                return []
            out.facts["near"] = place
            near = [r for r in rows if _near_filter(self.db, place, domain)(r)]
            if args.around and not args.walk_minutes:  # a walking limit: the place's own neighbours only
                near = self._ring(rows, place, domain, near)
            entity = self.db.by_name.get(place)
            if not near and entity is not None and station_of(entity.get("地铁")):
                # many rows have empty nearby lists: fall back to sharing the metro station
                station = station_of(entity.get("地铁"))
                near = [r for r in rows if r["名称"] != place and station_of(r.get("地铁")) == station]
                out.notes.append(f"near_by_station:{station}")
            rows = near
        if args.walk_minutes:  # said in the reply: the data has no walking times
            out.facts["walk_minutes"] = args.walk_minutes
        if args.rating:
            rows = [r for r in rows if in_range(r.get("评分"), args.rating)]
        if args.near_metro:
            rows = [r for r in rows if r.get("地铁")]
        return rows

    def _ring(self, rows: list[dict], place: str, domain: str, near: list[dict]) -> list[dict]:
        """The place's nearby rows plus the rows listed near those of its nearby places (of any kind)."""
        first = {r["名称"] for dom in NEARBY_LISTS for r in self.db.table(dom) if _near_filter(self.db, place, dom)(r)}
        listed = {n for name in first for n in (self.db.by_name.get(name) or {}).get(NEARBY_LISTS[domain]) or []}
        ring = [
            r
            for r in rows
            if r["名称"] != place
            and r not in near
            and (r["名称"] in listed or any(n in first for k in NEARBY_LISTS.values() for n in r.get(k) or []))
        ]
        return near + ring

    def _finish(
        self,
        out: ToolOutput,
        rows: list[dict],
        domain: str,
        limit: int,
        price_key: str,
        diet_fits: dict[str, list[str]] | None = None,
        rank: dict[str, float] | None = None,
    ) -> ToolOutput:
        """Sorted (``rank``: a score by name that comes before the rating), "another one" applied, the first
        ``limit`` kept; ``diet_fits``: the dishes a diet style can eat at each place, which each row then lists."""
        rows = _sort(rows, price_key, rank)
        if out.arguments.get("sort") == "price":  # "the cheapest hotel": cheapest first, the best rated among equals
            rows = sorted(rows, key=lambda r: float(r[price_key]) if r.get(price_key) is not None else 1e9)
        if out.arguments.get("sort") == "hours":  # "short visits": the data's shortest visit time first
            rows = sorted(
                rows, key=lambda r: (_hours(r.get("游玩时间")) or 1e9, _hours(r.get("游玩时间"), longest=True) or 1e9)
            )
        if out.arguments.get("exclude"):  # "another one": what the conversation offered is not offered again
            rows, fitting = [r for r in rows if r["名称"] not in set(out.arguments["exclude"])], len(rows)
            out.facts["skipped"] = fitting - len(rows)
        out.count = len(rows)
        out.rows = [compact_row(r, domain) for r in rows[:limit]]
        if diet_fits is not None:
            for row in out.rows:
                row["fitting_dishes"] = diet_fits.get(row["名称"], [])
        return out

    def _cheaper_half(self, rows: list[dict], a: SearchArguments, price_key: str, out: ToolOutput) -> list[dict]:
        """ "Nothing too expensive": the rows priced at or under the median price of those that fit and cost
        something (no number is made up for the user; the reply says where the cut fell). A free place (¥0) is
        never too expensive: every one is kept, and the free ones do not pull the line down to ¥0 (near 颐和园
        most sights are free: "free only" would drop a ¥10 ticket). Rows with no price listed are left out."""
        if not a.cheaper_half:
            return rows
        priced = [r for r in rows if isinstance(r.get(price_key), (int, float))]
        paid = [float(r[price_key]) for r in priced if r[price_key] > 0]
        if not paid:
            return priced or rows
        cut = statistics.median(paid)
        out.facts.update(cheaper_half=cut, cheaper_of=len(rows), free_kept=len(priced) - len(paid))
        return [r for r in priced if float(r[price_key]) <= cut]

    def _fits_budget(
        self, rows: list[dict], a: SearchArguments, price_key: str, times: int, out: ToolOutput
    ) -> list[dict]:
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
        rows = self._fits_budget(self._cheaper_half(rows, a, "价格", out), a, "价格", 1, out)
        return self._finish(out, rows, "hotel", a.limit, "价格")

    def search_restaurants(self, a: SearchRestaurants) -> ToolOutput:
        out = ToolOutput("search_restaurants", a.model_dump(exclude_defaults=True))
        rows = self._common(self.db.restaurant, a, "restaurant", out)
        if a.cost:
            rows = [r for r in rows if in_range(r.get("人均消费"), a.cost)]
        if a.dishes:
            rows = [r for r in rows if all_present(r.get("推荐菜"), [DISH_ALIASES.get(d.lower(), d) for d in a.dishes])]
        fitting: dict[str, list[str]] | None = None
        rank: dict[str, float] | None = None
        if a.avoid:
            before = len(rows)
            strict = [t for t in a.avoid if t not in DIET_STYLES]
            rows = [
                r
                for r in rows
                if not any(dish_matches(d, t) for t in strict for d in list(r.get("推荐菜") or []) + [r["名称"]])
            ]
            out.facts["excluded"] = before - len(rows)
            styles = [t for t in a.avoid if t in DIET_STYLES]
            if styles:  # a vegetarian: places with enough dishes to eat well, not only meat-free kitchens
                fits = {r["名称"]: style_fit(r["名称"], _dishes(r), styles) for r in rows}
                fitting = {n: d for n, d in fits.items() if d is not None}
                out.facts["excluded_style"] = len(rows) - len(fitting)
                out.facts["excluded"] += out.facts["excluded_style"]
                out.facts["styles"] = styles
                rows = [r for r in rows if r["名称"] in fitting]
                # the share of the menu that fits ranks first; a kitchen whose name keeps the style (素食餐厅)
                # ranks above every mixed menu, cafes included
                rank = {
                    r["名称"]: len(fitting[r["名称"]]) / max(1, len(food_dishes(_dishes(r))))
                    + style_kitchen(r["名称"], styles)
                    for r in rows
                }
        if a.cuisine:
            rows = [r for r in rows if name_is(r["名称"], list(a.cuisine))]
        if a.meal:
            before = len(rows)
            rows = [r for r in rows if serves_meal(r, a.meal)]
            out.facts["not_for_meal"] = before - len(rows)
        rows = self._fits_budget(self._cheaper_half(rows, a, "人均消费", out), a, "人均消费", a.people or 1, out)
        return self._finish(out, rows, "restaurant", a.limit, "人均消费", fitting, rank)

    def search_attractions(self, a: SearchAttractions) -> ToolOutput:
        out = ToolOutput("search_attractions", a.model_dump(exclude_defaults=True))
        rows = self._common(self.db.attraction, a, "attraction", out)
        if a.ticket:
            rows = [r for r in rows if in_range(r.get("门票"), a.ticket)]
        if a.kind:
            rows = [r for r in rows if is_kind(r["名称"], a.kind)]
        if a.max_hours:  # the whole listed visit must fit: "2小时 - 3小时" does not fit in 2 hours (said)
            fit = [r for r in rows if (_hours(r.get("游玩时间"), longest=True) or 1e9) <= a.max_hours]
            out.facts.update(max_hours=a.max_hours, too_long=len(rows) - len(fit))
            rows = fit
        rows = self._fits_budget(self._cheaper_half(rows, a, "门票", out), a, "门票", a.people or 1, out)
        return self._finish(out, rows, "attraction", a.limit, "门票")

    def metro_station(self, a: MetroStation) -> ToolOutput:
        out = ToolOutput("metro_station", a.model_dump())
        place = resolve_place(self.db, a.place)
        if place and place in self.db.metro:
            out.rows = [{"名称": place, "地铁": self.db.metro[place], "domain": "metro"}]
        elif place and place in self.db.by_name and self.db.by_name[place].get("地铁"):
            out.rows = [{"名称": place, "地铁": self.db.by_name[place]["地铁"], "domain": "metro"}]
        elif place:
            # an area (王府井): the station named after it (建国门 -> 建国门地铁站) when the data has one, else the
            # station most of its listed places name, rather than five of them
            named = [s for n, s in self.db.metro.items() if place in n and station_of(s)]
            own = f"{place}地铁站"
            if any(station_of(s) == own for s in self.db.metro.values()):
                out.rows = [{"名称": place, "地铁": own, "domain": "metro"}]
            elif named:
                top, _ = Counter(station_of(s) for s in named).most_common(1)[0]
                out.rows = [{"名称": place, "地铁": top, "domain": "metro"}]
                out.notes.append("station_of_area")
        out.count = len(out.rows)
        return out
