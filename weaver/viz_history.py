"""The graph as it was after a given turn, replayed from the audit log (no streamlit).

A turn scrubber that filters today's graph by turn would show later prunes, relabels and
supersedes in the past. The audit log records every change in order (builds, edge edits, status
changes, undo/redo), so replaying its prefix up to the first build of a later turn gives the
nodes, edges and statuses exactly as they were. Node text and kinds come from today's graph
(they never change); a node that was deleted since is drawn from its build entry.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Iterable, Sequence

import networkx as nx

__all__ = ["TurnReplay", "graph_at_turn", "replay_turns"]


def _turn_of(g_now: nx.DiGraph, node_id: str) -> int | None:
    return int(g_now.nodes[node_id].get("turn", 0) or 0) if node_id in g_now else None


def _cut(entries: list, g_now: nx.DiGraph, turn: int) -> list:
    """The log prefix written before the first node of a turn later than ``turn`` arrived."""
    for i, e in enumerate(entries):
        if e.action == "build":
            t = _turn_of(g_now, (e.after or {}).get("node", {}).get("id", e.key))
            if t is not None and t > turn:
                return entries[:i]
    return entries


def graph_at_turn(g_now: nx.DiGraph, entries: Iterable, turn: int) -> nx.DiGraph:
    """The memory graph right after ``turn``, from the audit entries (``ContextWeaver.curation.log.entries``)."""
    g = nx.DiGraph()
    edge_state: dict[str, dict] = {}
    for e in _cut(list(entries), g_now, turn):
        if e.action == "build":
            node = (e.after or {}).get("node", {})
            nid = node.get("id", e.key)
            attrs = (
                dict(g_now.nodes[nid])
                if nid in g_now
                else {"content": node.get("content", ""), "kind": node.get("kind"), "turn": turn}
            )
            attrs["status"] = node.get("status", "active")
            g.add_node(nid, **attrs)
            for ed in (e.after or {}).get("edges", []):
                edge_state[f"{ed['source']}->{ed['target']}"] = {"status": "proposed", **ed}
        elif e.is_edge:
            if e.after is None:
                edge_state.pop(e.key, None)
            else:
                edge_state[e.key] = dict(e.after)
        elif e.after is not None and "status" in e.after and e.key in g:
            g.nodes[e.key]["status"] = e.after["status"]
    for key, state in edge_state.items():
        u, v = key.split("->", 1)
        if u in g and v in g:
            now = dict(g_now.edges[u, v]) if g_now.has_edge(u, v) else {}
            g.add_edge(u, v, **{**now, **{k: val for k, val in state.items() if k not in ("source", "target")}})
    return g


def replay_turns(g_now: nx.DiGraph) -> list[int]:
    """The turns a scrubber can stop at (every turn with a node today)."""
    return sorted({int(a.get("turn", 0) or 0) for _, a in g_now.nodes(data=True)})


class TurnReplay:
    """``graph_at_turn`` remembered for one live graph, so a rerun that changed nothing reuses its replay.

    A studio page reruns on every click; replaying the whole log each time is wasted work while the
    space stands still. Every change of the graph appends an audit entry and bumps the space's
    revision, and a reload builds a new graph object, so the key is: the graph object, the caller's
    ``version`` (the space's revision), the log's length and its last entry id. Any of them moving
    drops every remembered turn. The graphs returned are shared: callers must not change them.

    >>> g = nx.DiGraph(); g.add_node("a", turn=1)
    >>> memo = TurnReplay()
    >>> memo.graph_at_turn(g, [], 1) is memo.graph_at_turn(g, [], 1), memo.misses, memo.hits
    (True, 1, 1)
    """

    def __init__(self, max_turns: int = 64):
        self.max_turns = max_turns
        self.hits = 0
        self.misses = 0
        self._graph: nx.DiGraph | None = None
        self._key: tuple = ()
        self._turns: OrderedDict[int, nx.DiGraph] = OrderedDict()
        self._lock = threading.Lock()  # one per space in the studio, shared by its browser sessions

    def graph_at_turn(self, g_now: nx.DiGraph, entries: Sequence, turn: int, version: str = "") -> nx.DiGraph:
        """As :func:`graph_at_turn`, remembered until the graph, ``version`` or the log changes."""
        key = (version, len(entries), entries[-1].id if len(entries) else "")
        with self._lock:
            return self._lookup(g_now, entries, turn, key)

    def _lookup(self, g_now: nx.DiGraph, entries: Sequence, turn: int, key: tuple) -> nx.DiGraph:
        if g_now is not self._graph or key != self._key:
            self._graph, self._key = g_now, key  # the graph object itself is held: its id cannot be reused
            self._turns.clear()
        if turn in self._turns:
            self.hits += 1
            self._turns.move_to_end(turn)
            return self._turns[turn]
        self.misses += 1
        g = graph_at_turn(g_now, entries, turn)
        self._turns[turn] = g
        if len(self._turns) > self.max_turns:
            self._turns.popitem(last=False)
        return g
