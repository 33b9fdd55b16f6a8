"""What the travel agent reads back from its own memories: the plan, the lists it showed, noted dates, searches.

A mixin of ``TravelAgent`` (as the space's record kinds are of ``ChromaSpace``): each
read walks the weaver's nodes newest first and needs nothing of one message's state,
so it is kept apart from the steps that write.
"""

from __future__ import annotations

from typing import Any

from ..tool_records import tool_records
from .memory import Known
from .understanding import Constraint

__all__ = ["MemoryReads"]


class MemoryReads:
    """Reads over ``self.weaver``'s tool results and replies (the plan is the active bookings in memory)."""

    weaver: Any

    def plan_items(self, status: str = "active") -> list[dict]:
        """The plan: every successful booking / addition the weaver holds as a tool-result memory; ``status=
        "retracted"``: the items taken out of the plan, oldest first (what "put it back" adds again)."""
        out = []
        for nid in self.weaver.node_ids:
            n = self.weaver.nodes[nid]
            item = n.meta.get("plan_item") if n.kind == "tool_result" and n.status == status else None
            if item:
                out.append(dict(item, node_id=nid, turn=n.turn))
        return out

    def _taken_out(self, item: dict) -> str | None:
        """The latest retracted memory of this very plan item (the same name, day, party and cost), if any."""
        for nid in reversed(self.weaver.node_ids):
            n = self.weaver.nodes[nid]
            if n.kind == "tool_result" and n.status == "retracted" and n.meta.get("plan_item") == item:
                return nid
        return None

    def _shown_in(self, name: str) -> str | None:
        """The latest search result in memory that listed ``name``, if any."""
        for nid in reversed(self.weaver.node_ids) if name else ():
            n = self.weaver.nodes[nid]
            if n.kind == "tool_result" and n.status == "active" and name in (n.meta.get("names") or []):
                return nid
        return None

    def last_shown(self, lists_only: bool = False) -> dict[str, list[str]]:
        """Per topic, the names of the latest search results in memory (for "the first one"); ``lists_only``:
        skip the look-ups of one item by name ("第二个" then "第二个怎么样": the second of the list, still)."""
        if lists_only:  # a topic with look-ups only keeps them (the one item shown is still "the first one")
            return {**self.last_shown(), **self._lists_shown()}
        return self._lists_shown(lookups=True)

    def _lists_shown(self, lookups: bool = False) -> dict[str, list[str]]:
        shown: dict[str, list[str]] = {}
        for nid in reversed(self.weaver.node_ids):
            n = self.weaver.nodes[nid]
            if not lookups and "name" in (n.meta.get("arguments") or {}):
                continue
            if n.kind == "tool_result" and str(n.meta.get("tool", "")).startswith("search_") and n.meta.get("names"):
                shown.setdefault(n.meta.get("domain"), list(n.meta["names"]))
            elif lookups and n.meta.get("about"):  # one item singled out since: "第一家几点关门？", "the cheapest"
                shown.setdefault(n.meta["about"]["domain"], [n.meta["about"]["name"]])
        return shown

    def topic_in_play(self, turn: int) -> str | None:
        """The kind of place the reply before ``turn`` listed ("推荐几个景点" -> "attraction"), None when that reply
        listed none ("别太贵" said then is about that list; said after anything else, a wish for later)."""
        latest = None
        for nid in reversed(self.weaver.node_ids):
            n = self.weaver.nodes[nid]
            if n.turn >= turn or n.kind not in ("tool_result", "agent_response"):
                continue
            latest = n.turn if latest is None else latest
            if n.turn < latest:
                return None
            tool = str(n.meta.get("tool", ""))
            if n.kind == "tool_result" and tool.startswith("search_") and len(n.meta.get("names") or []) > 1:
                return n.meta.get("domain")
        return None

    def topic_noted(self, turn: int) -> str | None:
        """The one kind of place whose constraints the reply before ``turn`` noted ("Noted: at most ¥600 per night"
        -> "hotel"), None when it noted none or several kinds ("any recommendations?" then asks for that kind)."""
        for nid in reversed(self.weaver.node_ids):
            n = self.weaver.nodes[nid]
            if n.turn < turn and n.kind == "agent_response" and n.status == "active":
                kinds = {c.get("scope") for c in n.meta.get("noted") or []} & {"hotel", "restaurant", "attraction"}
                return next(iter(kinds)) if len(kinds) == 1 else None
        return None

    def shown_in_order(self, domain: str) -> list[tuple[str, int]]:
        """Every item of ``domain`` the search lists in memory showed, in the order shown, each once with the turn
        that first listed it ("the first hotel you showed me" counts in this order, not in the latest list)."""
        seen: dict[str, int] = {}
        for nid in self.weaver.node_ids:
            n = self.weaver.nodes[nid]
            if (
                n.kind == "tool_result"
                and n.status == "active"
                and n.meta.get("domain") == domain
                and str(n.meta.get("tool", "")).startswith("search_")
                and "name" not in (n.meta.get("arguments") or {})
            ):
                for name in n.meta.get("names") or []:
                    seen.setdefault(name, n.turn)
        return list(seen.items())

    def _with_noted_dates(self, known):
        """``known`` with the latest trip dates the agent noted back to the user (a reply's ``meta["noted"]``), for a
        booking whose retrieval missed them: "下周三" is resolved when said, and no slot reader can read it again."""
        for nid in reversed(self.weaver.node_ids):
            n = self.weaver.nodes[nid]
            if n.kind != "agent_response" or n.status != "active":
                continue
            for c in n.meta.get("noted") or []:
                if c.get("slot") == "dates" and isinstance(c.get("value"), dict) and c["value"].get("check_in"):
                    return Known(known.constraints + [Constraint("dates", c["value"], "any", n.turn, nid)])
        return known

    def awaited(self) -> dict | None:
        """What the latest reply asked the user for, to complete now (its meta ``awaiting``), if anything."""
        for nid in reversed(self.weaver.node_ids):
            n = self.weaver.nodes[nid]
            if n.kind == "agent_response" and n.status == "active":
                return n.meta.get("awaiting")
        return None

    def previous_search(self, domain: str | None) -> dict | None:
        """The latest search of ``domain`` in memory and every name offered in it so far ("another one")."""
        offered = list(
            dict.fromkeys(
                r.entity for r in tool_records(self.weaver, domain=domain) if r.tool.startswith("search_") and r.entity
            )
        )
        for nid in reversed(self.weaver.node_ids):
            n = self.weaver.nodes[nid]
            args = n.meta.get("arguments") or {}
            if (
                n.kind == "tool_result"
                and n.status == "active"
                and n.meta.get("domain") == domain
                and str(n.meta.get("tool", "")).startswith("search_")
                and "name" not in args
            ):
                # the constraints that set it, directly or through the search it continued
                set_by = n.meta.get("set_by") or n.meta.get("because") or []
                return {"node_id": nid, "arguments": dict(args), "offered": offered, "set_by": list(set_by)}
        return None

    def item_talked_about_last(self) -> tuple[str, int] | None:
        """The one item the latest look-up, side question or booking was about, and its turn; None when a list (of
        several) or nothing was shown since ("how do I get there?" then means that item, not the area searched)."""
        for nid in reversed(self.weaver.node_ids):
            n = self.weaver.nodes[nid]
            if n.kind not in ("tool_result", "agent_response") or n.status != "active":
                continue
            args = n.meta.get("arguments") or {}
            item = n.meta.get("plan_item") or {}
            # a route's stations are looked up from, then to: the latest is where it goes
            named = (
                args.get("names") if n.meta.get("tool") == "place_facts" else [args.get("name") or args.get("place")]
            )
            named = named if any(named or []) else [item.get("name")]
            named = [x for x in named or [] if x]
            if n.meta.get("about"):
                return str(n.meta["about"]["name"]), n.turn
            if len(named) == 1:
                return str(named[0]), n.turn
            if str(n.meta.get("tool", "")).startswith("search_") and len(n.meta.get("names") or []) > 1:
                return None
        return None
