"""Constraints read from memory: what the retrieved nodes (or, for the ablation, a window of turns) say.

The agent keeps no private state about the user. Each turn it parses the user
messages among the memories the weaver returned (and reads the constraints its
own replies confirmed or its thoughts applied, recorded in their meta); later statements override
earlier ones for the same slot, avoided foods accumulate. If the weaver did not
return a constraint, the agent does not apply it.
"""

from __future__ import annotations

from datetime import date

from dataclasses import dataclass, field, replace
from typing import cast

from .understanding import Constraint, Parsed, parse

__all__ = [
    "MemoryItem",
    "Known",
    "read_constraints",
    "items_from_result",
    "items_from_turns",
    "with_records",
    "wishes_of",
]


@dataclass
class MemoryItem:
    id: str
    content: str
    kind: str
    turn: int
    meta: dict = field(default_factory=dict)
    timestamp: float = 0.0  # when it was said: relative dates in it ("下周三") count from that day


def items_from_result(weaver, result) -> list[MemoryItem]:
    """The retrieved nodes (RetrievalResult.nodes) as memory items."""
    out = []
    for rn in result.nodes:
        node = weaver.nodes.get(rn.id)
        meta = dict(node.meta) if node else {}
        out.append(MemoryItem(rn.id, rn.content, rn.kind, rn.turn, meta, node.timestamp if node else 0.0))
    return out


def items_from_turns(messages: list[tuple], last_k: int) -> list[MemoryItem]:
    """A last-k-turns window over ``(turn, kind, content[, meta])`` messages: the baseline the ablation compares."""
    if not messages:
        return []
    newest = max(m[0] for m in messages)
    return [
        MemoryItem(f"win_{i}", m[2], m[1], m[0], dict(m[3]) if len(m) > 3 else {})
        for i, m in enumerate(messages)
        if m[0] > newest - last_k
    ]


@dataclass
class Known:
    """Constraints in force, each with the memory it came from; ``wishes``: the dishes, cuisines and meals the
    user asked for (``dishes`` / ``cuisine`` / ``meal``), which no search applies unasked (the planner reads them
    from the message itself) but which say where a model's argument came from."""

    constraints: list[Constraint]
    wishes: list[Constraint] = field(default_factory=list)
    lifted: set[str] = field(default_factory=set)  # foods the records say are no longer avoided

    def latest(self, slot: str, scopes: tuple[str, ...]) -> Constraint | None:
        hits = [c for c in self.constraints if c.slot == slot and c.scope in scopes]
        return hits[-1] if hits else None

    def place_talked_about_last(self, plan_items: list[dict]) -> Constraint | None:
        """The place of the latest message that stated one, of whatever kind, or the plan item added after it."""
        said = next((c for c in reversed(self.constraints) if c.slot == "place"), None)
        item = plan_items[-1] if plan_items else None
        if item is not None and item.get("name") and (said is None or item.get("turn", 0) > said.turn):
            return Constraint(
                "place", item["name"], item.get("kind", "any"), item.get("turn", 0), item.get("node_id", "")
            )
        return said

    def avoid(self) -> tuple[list[str], list[Constraint]]:
        terms: list[str] = []
        used: list[Constraint] = []
        for c in self.constraints:
            if c.slot == "avoid":
                used.append(c)
                terms.extend(t for t in cast(list[str], c.value) if t not in terms)  # an avoid value is its list
        return terms, used

    def for_domain(self, domain: str | None) -> dict[str, Constraint]:
        """Slot -> the constraint in force for a search in ``domain`` (place handled by the planner)."""
        scopes = ("any", domain) if domain else ("any",)
        out = {}
        for slot in (
            "dates",
            "people",
            "budget",
            "price",
            "cost",
            "ticket",
            "rating",
            "quiet",
            "near_metro",
            "facilities",
            "hotel_type",
            "walk",
            "not_pricey",
        ):
            c = self.latest(slot, scopes)
            if c is not None:
                out[slot] = c
        return out


def wishes_of(p: Parsed, node_id: str | None, turn: int) -> list[Constraint]:
    """The dishes, cuisines and meal a parsed message asks for, as ``Known.wishes`` (each with its node)."""
    said = [("dishes", list(p.dishes)), ("cuisine", list(p.cuisines)), ("meal", p.meal)]
    return [Constraint(slot, value, "restaurant", turn, node_id or "", p.text) for slot, value in said if value]


def read_constraints(items: list[MemoryItem], skip_ids: set[str] | None = None) -> Known:
    """Constraints in the memories ``items`` (oldest first): parsed from user messages, and from the agent's
    replies that confirmed them (``meta["noted"]``) and from thoughts that applied them (``meta["constraints"]``),
    so any of these memories suffices. Another city's statements are skipped."""
    cons: list[Constraint] = []
    wishes: list[Constraint] = []
    seen: set[tuple] = set()
    for item in sorted(items, key=lambda i: (i.turn, i.kind != "user_input")):
        if skip_ids and item.id in skip_ids:
            continue
        if item.kind == "user_input":
            p = parse(item.content, date.fromtimestamp(item.timestamp) if item.timestamp else None)
            found = [] if p.city else p.constraints
            wishes += [] if p.city else wishes_of(p, item.id, item.turn)
        elif item.kind == "agent_response" and item.meta.get("noted"):
            found = [Constraint(n["slot"], n["value"], n.get("scope", "any"), item.turn) for n in item.meta["noted"]]
        elif item.kind == "agent_thought" and item.meta.get("constraints"):
            # a thought that applied a constraint remembers it, with the turn it was stated in
            found = [
                Constraint(n["slot"], n["value"], n.get("scope", "any"), int(n.get("turn") or item.turn))
                for n in item.meta["constraints"]
                if n.get("slot") != "place"
            ]
        else:
            continue
        for c in found:
            c.turn = c.turn or item.turn
            key = (c.turn, c.slot, str(c.value), c.scope)
            if key in seen:  # the same statement remembered more than once (message, confirmation, thought)
                continue
            seen.add(key)
            c.node_id = item.id
            cons.append(c)
    cons.sort(key=lambda c: c.turn)  # stable: later statements override earlier ones
    return Known(cons, wishes)


# the slots the weaver's constraint records hold: where a record exists, it is what applies
_RECORD_SLOTS = frozenset(
    {"budget", "price", "cost", "ticket", "rating", "people", "dates", "avoid", "hotel_type", "facilities", "quiet"}
)


# record slots the agent also reads where the library does not (relative dates, a trip moved by days)
_AGENT_READ = frozenset({"dates"})


def _as_placed(r, said: Parsed):
    """A location record at the place the agent reads in the same statement, where the two differ: "东直门地铁站附近
    的酒店" is near 东直门, where the record's "地铁站" would match every row with a station."""
    places = [str(c.value) for c in said.constraints if c.slot == "place"]
    if r.slot != "location" or not places or str(r.value) in places:
        return r
    return replace(r, value=places[0])


def with_records(known: Known, records: list, skip_ids: set[str] | None = None, weaver=None) -> Known:
    """``known`` with the weaver's constraint records for this decision (``RetrievalResult.decision``) in force:
    a slot a record holds takes the record's value (read by the one slot reader, with its provenance node),
    not the reading of an older message."""
    from .slot_bridge import constraints_from_records

    if weaver is not None:  # a statement about a trip to another city ("上海外滩附近安静的酒店") holds here nothing
        said = {r.node_id: parse(weaver.nodes[r.node_id].content) for r in records if r.node_id in weaver.nodes}
        records = [_as_placed(r, said[r.node_id]) if r.node_id in said else r for r in records]
        records = [r for r in records if not (r.node_id in said and said[r.node_id].city)]
    rec = [c for c in constraints_from_records(records) if not (skip_ids and c.node_id in skip_ids)]
    slots = {c.slot for c in rec}
    newest = {slot: max(c.turn for c in rec if c.slot == slot) for slot in slots}
    kept = [
        c
        for c in known.constraints
        if not (c.slot in _RECORD_SLOTS and c.slot in slots)
        # dates the records' reader cannot read ("下周六出发", "行程推迟一天", resolved when said) stand when newer
        or (c.slot in _AGENT_READ and c.turn > newest[c.slot])
    ]
    lifted: set[str] = set()
    if weaver is not None:
        from .slot_bridge import diet_term

        diets = [r for r in weaver.constraints(include_lifted=True) if r.slot == "diet"]
        # each diet record's foods (a lifted style by the foods its earlier values avoided: "不用吃素了" lifts the
        # meat "我吃素" avoided)
        foods = {id(r): {diet_term(str(v)) for v in [r.value, *(h.get("value") for h in r.history)]} for r in diets}
        # foods the records' reader never read ("we dont eat beef": the agent reads it, the library does not)
        # still apply; a food it did read, lifted or not, is the records' to decide: all of them when a record
        # is in force here, else the lifted ones (every diet lifted leaves no record in force, and a message
        # read again must not bring a lifted food back)
        read = set().union(*foods.values()) if "avoid" in slots else set()
        lifted = set().union(*(foods[id(r)] for r in diets if r.status == "lifted"))
        read |= lifted
        if read:
            kept = [c for c in kept if c.slot != "avoid"]
            for c in known.constraints:
                values = c.value if c.slot == "avoid" and isinstance(c.value, list) else []
                extra = [t for t in values if t not in read]
                if extra:
                    kept.append(Constraint("avoid", extra, c.scope, c.turn, c.node_id, c.text))
    # newest last, as ``latest`` reads them: a place the records still hold from an older message ("想住在天安门附近")
    # must not outrank a newer one their reader missed ("帮我找个海淀区的酒店"); at one turn the record's reading wins
    return Known(sorted(kept + rec, key=lambda c: c.turn), known.wishes, lifted)
