""" "How do I get there?" / "怎么去那里？": "there" is the item talked about last, when it came after the area.

"Is the second one open late?" then "how do I get there from Dongzhimen?" asks the
way to that restaurant, not to the area the list was searched around: the item of the
latest look-up stands in for "there" when it was talked about at or after the turn
the latest place was stated (a place stated later is what "there" means). A bare
"附近有清淡的餐厅吗" after "第二个门票多少？" is near that item, for the same reason.
"""

from __future__ import annotations

import re

from .memory import Known
from .understanding import Constraint, Parsed

__all__ = ["THERE", "with_there", "resolve_there"]

THERE = re.compile(r"那里|那儿|那边|那个地方|过去|\b(?:there|that place)\b", re.IGNORECASE)
_FROM_THERE = re.compile(r"从那(?:里|儿|边)|\bfrom there\b", re.IGNORECASE)


def with_there(
    text: str, entities: list[tuple[str, str]], item: tuple[str, int] | None, place_turn: int | None
) -> list[tuple[str, str]]:
    """``entities`` with the item talked about last put where "there" stands (first after "from there", else last),
    when the message says "there" and the item is newer than the place stated last.

    >>> with_there("How do I get there from Dongzhimen?", [("东直门", "area")], ("孔乙己(后海店)", 2), 1)
    [('东直门', 'area'), ('孔乙己(后海店)', 'item')]
    >>> with_there("How do I get there?", [], ("孔乙己(后海店)", 2), 3)
    []
    """
    if not item or not THERE.search(text) or any(e[0] == item[0] for e in entities):
        return entities
    if place_turn is not None and item[1] < place_turn:
        return entities
    there = (item[0], "item")
    return [there] + entities if _FROM_THERE.search(text) else entities + [there]


def resolve_there(p: Parsed, known: Known, item: tuple[str, int] | None, plan_items: list[dict]) -> Known:
    """Where "there" / a bare "nearby" points for ``p``: a way asked gets the item talked about last among its
    places (``p.entities``); a search near "here" gets it as the place talked about last (the ``Known`` returned)."""
    said = known.place_talked_about_last(plan_items)
    if p.intent == "metro" and not (p.refers or p.ordinal):
        p.entities = with_there(p.text, p.entities, item, said.turn if said else None)
    elif p.intent == "search" and p.near_latest and item and (said is None or item[1] > said.turn):
        return Known(known.constraints + [Constraint("place", item[0], "any", item[1])], known.wishes, known.lifted)
    return known
