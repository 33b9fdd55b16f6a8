"""The tools' typed interface: one pydantic argument model per tool, their JSON schemas, and ``ToolOutput``.

What LLM mode offers the model (``tool_schemas``) and what every tool returns; kept
apart from the tools' code so the interface can be read (and versioned) on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field

from .cuisine import CuisineKey

__all__ = [
    "TOOL_MODELS",
    "tool_schemas",
    "ToolOutput",
    "SearchArguments",
    "SearchHotels",
    "SearchRestaurants",
    "SearchAttractions",
    "MetroStation",
    "BookHotel",
    "AddToPlan",
    "PlaceFacts",
    "BudgetTally",
    "NEARBY_LISTS",
    "ROOM_SLEEPS",
    "rooms_for",
]

NEARBY_LISTS = {"hotel": "周边酒店", "restaurant": "周边餐馆", "attraction": "周边景点"}
# the data has no room types or sizes: a booking counts a standard room as sleeping two, and says so whenever it
# books more than one (a party of 4 is 2 rooms; one that grows re-books the stay for the rooms it now needs)
ROOM_SLEEPS = 2


def rooms_for(people: object) -> int:
    """Rooms a party needs at ``ROOM_SLEEPS`` to a room (1 when the party is unknown).

    >>> rooms_for(None), rooms_for(2), rooms_for(3), rooms_for(4)
    (1, 1, 2, 2)
    """
    n = int(people) if isinstance(people, (int, float)) and people > 0 else 0
    return max(1, -(-n // ROOM_SLEEPS))


class SearchArguments(BaseModel):
    near: str | None = Field(
        None,
        description="a Beijing place (attraction, area such as 王府井, or a row's name), "
        "Chinese or common English name",
    )
    name: str | None = Field(None, description="the name (or part of it) of a specific place")
    rating: str | None = Field(None, description="rating range 评分: '<x', '>x' or 'x-y', e.g. '4.5-5'")
    near_metro: bool = Field(False, description="only places with a metro station listed")
    limit: int = Field(5, ge=1, le=20, description="how many rows to return")
    sort: Literal["rating", "price", "hours"] = Field(
        "rating",
        description="best rated first, cheapest first ('price'), or for sights the shortest visit first ('hours', by "
        "游玩时间)",
    )
    cheaper_half: bool = Field(
        False,
        description="'nothing too expensive' with no number: keep the cheaper half of what fits (at or under the "
        "median price of the matches)",
    )
    budget: float | None = Field(
        None,
        gt=0,
        description="the user's total trip budget in yuan: one unit of a row "
        "(a night; a meal or tickets for the party) must fit what "
        "the plan has left",
    )
    people: int | None = Field(None, ge=1, le=50, description="party size (a meal or tickets cost this many times)")
    exclude: list[str] = Field(default_factory=list, description="names already offered: 'find another one'")
    walk_minutes: int | None = Field(
        None,
        ge=1,
        le=120,
        description="the longest walk the user accepts, in minutes: the data has no walking times, so only places "
        "listed right next to `near` are kept (never the wider ring of `around`)",
    )
    around: bool = Field(
        False,
        description="with near: also places listed near the place's own nearby places "
        "(a wider ring, when nothing fits right there)",
    )


class SearchHotels(SearchArguments):
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


class SearchRestaurants(SearchArguments):
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


class SearchAttractions(SearchArguments):
    ticket: str | None = Field(None, description="ticket price 门票 in yuan: '<x', '>x' or 'x-y' ('0-0' = free)")
    max_hours: float | None = Field(
        None, gt=0, description="the whole listed visit (游玩时间, the upper end of its range) fits in this many hours"
    )
    kind: Literal["museum", "park", "temple"] | None = Field(
        None, description="a kind of sight, read from its name (the database has no type field)"
    )


class MetroStation(BaseModel):
    place: str = Field(..., description="a place name (Chinese or English)")


class BookHotel(BaseModel):
    name: str = Field(..., description="the hotel's name as in the search results")
    check_in: str = Field(..., description="check-in date, e.g. '5-1'")
    nights: int = Field(..., ge=1, le=60, description="number of nights")
    rooms: int = Field(1, ge=1, le=20, description=f"rooms (the price is a room's: {ROOM_SLEEPS} people to a room)")
    budget: float | None = Field(None, gt=0, description="the user's total trip budget in yuan, if stated")


class AddToPlan(BaseModel):
    kind: Literal["restaurant", "attraction"]
    name: str
    people: int = Field(1, ge=1, le=50)
    day: int | None = Field(None, ge=1, le=60, description="the day of the trip it is for (1 = the first day)")
    meal: Literal["breakfast", "lunch", "dinner", "late-night"] | None = Field(
        None, description="for a restaurant: the meal it is for ('dinner on day 2')"
    )
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
