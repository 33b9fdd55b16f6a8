"""The audit log: an append-only record of every change to a space's graph.

One entry per change: who made it (``human``, ``review`` or ``builder``), what
(``action`` and ``key``: an edge ``"s->t"``, a node id, or a review item's id for
a curator's rejection), the state ``before``
and ``after``, why, and when. Undo and redo are entries too (``ref`` names the
entry they revert or re-apply), so the log never rewrites history: whether an
entry is currently undone is *computed* from the undo/redo entries after it.

Entries are persisted in the space as records of kind ``audit`` (the record id
sorts by sequence number, so the log reloads in order), except the builder's
``build`` entries, which ride on their message's decision (the commit marker).

>>> log = AuditLog()
>>> e = log.new("human", "edge.update", "a->b", {"relation": "temporal"}, {"relation": "causal"}, "wrong label")
>>> log.append(e); log.undo_target().id == e.id
True
>>> log.append(log.new("human", "undo", "a->b", e.after, e.before, "undo", ref=e.id))
>>> log.undone(e.id), log.undo_target(), log.redo_target().id == e.id
(True, None, True)
"""

from __future__ import annotations

import copy
import time
import uuid
from dataclasses import asdict, dataclass, field, is_dataclass
from typing import Any, Iterable

__all__ = ["AuditEntry", "AuditLog", "EDIT_ACTIONS", "ACTORS", "replay"]

ACTORS = ("human", "review", "builder", "lifecycle")
# actions that change one edge, one node or one review item and can be undone
# node.add / node.delete: a whole node with its edges appears or goes (a reflection summary, delete_node)
# item.reject: a curator rejected a proposal or dismissed a flag (key: the item id; state: {"review_item": status})
EDIT_ACTIONS = ("edge.add", "edge.update", "edge.remove", "node.status", "node.add", "node.delete", "item.reject")


@dataclass
class AuditEntry:
    id: str
    seq: int
    at: float
    actor: str  # human | review | builder | lifecycle
    action: str  # edge.add | edge.update | edge.remove | node.status | node.add | node.delete | item.reject | build
    # | undo | redo
    key: str  # "source->target" for edges, the node id for nodes, the review item's id for item.reject
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    why: str = ""
    ref: str = ""  # undo/redo: the entry reverted or re-applied; review: the queue item
    message_id: str = ""  # build: the message whose ingest wrote this (crash repair)

    @property
    def is_edge(self) -> bool:
        return "->" in self.key

    @property
    def is_item(self) -> bool:
        """A review item's decision (``item.reject``, or its undo / redo): no edge or node changed."""
        return "review_item" in (self.after or self.before or {})

    def to_dict(self) -> dict[str, Any]:
        """The entry as a dict, its states copied (what ``dataclasses.asdict`` gives, without its generic walk:
        two entries a message, ~0.2 ms each).

        >>> e = AuditEntry("a1", 1, 0.0, "human", "edge.update", "a->b", {"r": ["x", ("y",)]}, None, "why")
        >>> e.to_dict() == asdict(e), e.to_dict()["before"]["r"] is e.before["r"]
        (True, False)
        """
        return {
            "id": self.id,
            "seq": self.seq,
            "at": self.at,
            "actor": self.actor,
            "action": self.action,
            "key": self.key,
            "before": _copied(self.before),
            "after": _copied(self.after),
            "why": self.why,
            "ref": self.ref,
            "message_id": self.message_id,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "AuditEntry":
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


def _copied(x: Any) -> Any:
    """A deep copy of JSON-like state as ``asdict`` makes it (dicts, lists and tuples rebuilt, the rest as
    ``copy.deepcopy`` gives it)."""
    if isinstance(x, (str, int, float, bool)) or x is None:
        return x
    if isinstance(x, dict):
        return {_copied(k): _copied(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_copied(v) for v in x]
    if isinstance(x, tuple) and not hasattr(x, "_fields"):
        return tuple(_copied(v) for v in x)
    return copy.deepcopy(x) if not is_dataclass(x) else asdict(x)  # type: ignore[arg-type]


@dataclass
class AuditLog:
    """The in-memory log of a space (loaded once, appended to as changes happen)."""

    entries: list[AuditEntry] = field(default_factory=list)
    # an index of the entries seen so far, extended as entries are appended (a lifecycle pass writes thousands:
    # a full scan per lookup made each pass quadratic)
    _seen: int = field(default=0, repr=False, compare=False)
    _undone: dict[str, bool] = field(default_factory=dict, repr=False, compare=False)
    _ids: dict[str, AuditEntry] = field(default_factory=dict, repr=False, compare=False)
    _human: list[AuditEntry] = field(default_factory=list, repr=False, compare=False)

    def _sync(self) -> None:
        if self._seen > len(self.entries):  # the list was replaced or cut: index it again
            self._seen, self._undone, self._ids, self._human = 0, {}, {}, []
        for e in self.entries[self._seen :]:
            self._ids[e.id] = e
            if e.action in ("undo", "redo"):
                self._undone[e.ref] = e.action == "undo"
            elif e.actor == "human" and e.action in EDIT_ACTIONS:
                self._human.append(e)
        self._seen = len(self.entries)

    def new(
        self,
        actor: str,
        action: str,
        key: str,
        before: dict | None,
        after: dict | None,
        why: str = "",
        ref: str = "",
        message_id: str = "",
    ) -> AuditEntry:
        seq = (self.entries[-1].seq + 1) if self.entries else 1
        # the id sorts by sequence; the suffix keeps two processes' entries apart
        return AuditEntry(
            f"a{seq:09d}-{uuid.uuid4().hex[:6]}",
            seq,
            time.time(),
            actor,
            action,
            key,
            before,
            after,
            why,
            ref,
            message_id,
        )

    def append(self, entry: AuditEntry) -> None:
        self.entries.append(entry)

    def by_id(self, entry_id: str) -> AuditEntry | None:
        if not entry_id:  # "" prefixes every id: it names no entry
            return None
        self._sync()
        if entry_id in self._ids:
            return self._ids[entry_id]
        for e in reversed(self.entries):
            if e.id == entry_id or e.id.startswith(entry_id):
                return e
        return None

    def undone(self, entry_id: str) -> bool:
        """True when the last undo/redo referring to the entry is an undo."""
        self._sync()
        return self._undone.get(entry_id, False)

    def _stacks(self) -> tuple[list[str], list[str]]:
        """(done human edits, redo stack) after replaying the log's undo/redo semantics."""
        done: list[str] = []
        redo: list[str] = []
        for e in self.entries:
            if e.action == "undo":
                if e.ref in done:
                    done.remove(e.ref)
                redo.append(e.ref)
            elif e.action == "redo":
                if redo and redo[-1] == e.ref:
                    redo.pop()
                done.append(e.ref)
            elif e.actor == "human" and e.action in EDIT_ACTIONS:
                done.append(e.id)
                redo.clear()  # a fresh edit ends the redo chain, as in any editor
        return done, redo

    def undo_target(self) -> AuditEntry | None:
        """The human edit ``undo`` reverts: the latest one not undone."""
        done, _ = self._stacks()
        return self.by_id(done[-1]) if done else None

    def redo_target(self) -> AuditEntry | None:
        _, redo = self._stacks()
        return self.by_id(redo[-1]) if redo else None

    def _undone_map(self) -> dict[str, bool]:
        """Entry id -> whether its last undo/redo is an undo (one pass: ``undone`` per entry was quadratic, and
        the builder asks on every message)."""
        state: dict[str, bool] = {}
        for e in self.entries:
            if e.action in ("undo", "redo"):
                state[e.ref] = e.action == "undo"
        return state

    def undone_entries(self) -> list[AuditEntry]:
        """The entries whose last undo/redo is an undo (from the index: a review pass asks every few messages,
        and a scan of the whole log grew with every message ever ingested)."""
        self._sync()
        return [self._ids[i] for i, u in self._undone.items() if u and i in self._ids]

    def human_edits(self) -> list[AuditEntry]:
        """Human edits in force (not undone), oldest first."""
        self._sync()
        return [e for e in self._human if not self._undone.get(e.id, False)]

    def to_rows(self) -> list[dict[str, Any]]:
        """Flat rows for display and export (newest first)."""
        rows = []
        undone = self._undone_map()
        for e in reversed(self.entries):
            rows.append(
                {
                    "id": e.id,
                    "seq": e.seq,
                    "at": e.at,
                    "actor": e.actor,
                    "action": e.action,
                    "key": e.key,
                    "before": _short(e.before),
                    "after": _short(e.after),
                    "why": e.why,
                    "ref": e.ref,
                    "undone": undone.get(e.id, False) if e.action in EDIT_ACTIONS else False,
                }
            )
        return rows


def _short(state: dict | None) -> str:
    if not state:
        return ""
    if "review_item" in state:
        return str(state["review_item"])
    if "relation" in state:
        return f"{state['relation']} ({state.get('origin', '')}, {state.get('status', '')})"
    if "status" in state:
        return str(state["status"])
    if "node" in state:
        return f"node {state['node'].get('id')} + {len(state.get('edges', []))} edges"
    return str(state)[:80]


def replay(entries: Iterable[AuditEntry]) -> tuple[dict[str, str], dict[str, str]]:
    """The graph the log describes: ({edge key: relation}, {node id: status}).

    Replaying a complete log gives the space's graph; ``ContextWeaver`` and the
    crash tests compare the two.

    >>> log = AuditLog()
    >>> log.append(log.new("builder", "build", "n1", None, {"node": {"id": "n1"}, "edges": []}))
    >>> log.append(log.new("builder", "build", "n2", None,
    ...            {"node": {"id": "n2"}, "edges": [{"source": "n1", "target": "n2", "relation": "causal"}]}))
    >>> log.append(log.new("human", "edge.update", "n1->n2", {"relation": "causal"}, {"relation": "temporal"}))
    >>> replay(log.entries)
    ({'n1->n2': 'temporal'}, {'n1': 'active', 'n2': 'active'})
    """
    edges: dict[str, str] = {}
    nodes: dict[str, str] = {}
    for e in entries:
        if e.is_item:  # a queue decision: the graph did not change
            continue
        if e.action == "build":
            node = (e.after or {}).get("node", {})
            nodes[node.get("id", e.key)] = node.get("status", "active")
            for ed in (e.after or {}).get("edges", []):
                edges[f"{ed['source']}->{ed['target']}"] = ed["relation"]
        elif e.after is not None and "node" in e.after:  # node.add, or the undo of a node.delete
            nodes[e.key] = e.after["node"].get("status", "active")
            for ed in e.after.get("edges", []):
                edges[f"{ed['source']}->{ed['target']}"] = ed["relation"]
        elif e.after is None and e.before is not None and "node" in e.before:  # node.delete, or undo of node.add
            nodes.pop(e.key, None)
            for k in [k for k in edges if e.key in k.split("->")]:
                edges.pop(k)
        elif e.is_edge:
            if e.after is None:
                edges.pop(e.key, None)
            else:
                edges[e.key] = e.after["relation"]
        elif e.after is not None and "status" in e.after:
            nodes[e.key] = e.after["status"]
    return edges, nodes
