"""What the offline planner decides: a tool call (with the places to widen to) and one turn's plan.

Kept apart from the planner's logic so the search planning (``search_plan``) and the turn's other intents
(``planner``) share the two records without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .understanding import Constraint

__all__ = ["AROUND", "Call", "TurnPlan"]

AROUND = "place_around"  # a widening step: the same place, a wider ring around it


@dataclass
class Call:
    tool: str
    arguments: dict
    # places to retry with when nothing matches near the first (None: anywhere), only for remembered places
    fallbacks: list = field(default_factory=list)


@dataclass
class TurnPlan:
    intent: str
    domain: str | None
    calls: list[Call] = field(default_factory=list)
    used: list[Constraint] = field(default_factory=list)  # constraints applied, with their memory node ids
    stated: list[Constraint] = field(default_factory=list)  # constraints in this message
    missing: list[str] = field(default_factory=list)  # what is needed but unknown (e.g. dates)
    target: str | None = None  # the row a booking / info refers to
    follows: str | None = None  # "another one": the earlier search result this search continues
    carried: list[str] = field(default_factory=list)  # constraints that set the followed search too: reached through it
    cheaper_than: float | None = None  # "something cheaper": under the cheapest offered so far in the topic
    remove: dict | None = None  # the plan item a "remove" takes out (its memory node is retracted)
