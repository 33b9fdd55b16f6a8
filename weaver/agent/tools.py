"""The agent's tools: real queries over the CrossWOZ Beijing database, plus the plan's budget.

Each tool takes a pydantic-validated argument object (its JSON schema is what LLM
mode offers the model) and returns a :class:`ToolOutput` holding real rows.
Search semantics follow database.md: numeric ranges ``<x`` / ``>x`` / ``x-y``,
all listed dishes / facilities must be present, and "near" means listed among a
place's nearby entries (the lists are symmetric; when a place has none, sharing its
metro station), or,
for an area such as 王府井 that is not a row itself, named in the address, name
or station.

This module owns ``ToolBox`` (running a tool by name) and the plan's tools (booking,
adding, facts, the tally); the argument models and ``ToolOutput`` live in
``tool_models``, the searches in ``tool_searches`` (re-exported here).
"""

from __future__ import annotations

from typing import Callable

from pydantic import ValidationError

from ..models import WeaverError
from .db import Database, load_database
from .meals import serves_meal
from .side import place_facts
from .tool_models import TOOL_MODELS, AddToPlan, BookHotel, BudgetTally, PlaceFacts, ToolOutput, tool_schemas
from .tool_searches import PlaceSearches, compact_row, resolve_place

__all__ = ["ToolBox", "ToolOutput", "TOOL_MODELS", "tool_schemas", "resolve_place", "compact_row"]


class ToolBox(PlaceSearches):
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

    # ---------------------------------------------------------------- plan
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
        out.facts.update(
            name=row["名称"], unit_price=row.get("价格"), nights=a.nights, check_in=a.check_in, rooms=a.rooms
        )
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
            if a.rooms > 1:  # one room is the default a booking always had: only more is recorded
                out.plan_item["rooms"] = a.rooms
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
        meal = a.meal if a.kind == "restaurant" else None  # a sight is visited, not eaten at
        out.facts.update(name=row["名称"], unit_price=unit, people=a.people, day=a.day, meal=meal)
        if meal and not serves_meal(row, meal):  # closed then, or a snack shop: said, the user's choice kept
            out.notes.append("not_for_meal")
        self._budget_check(out, cost, a.budget, row["名称"])
        if out.ok:
            out.plan_item = {"kind": a.kind, "name": row["名称"], "cost": cost, "people": a.people, "unit": unit}
            if a.day:
                out.plan_item["day"] = a.day
            if meal:  # "dinner on day 2": the meal is part of the plan, shown with the day
                out.plan_item["meal"] = meal
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
