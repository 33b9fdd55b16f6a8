"""Curation of one space: edge edits, node status, corrections, the review triggers (undo/redo: :mod:`.undo`).

``ContextWeaver`` builds one :class:`Curation` on open (``weaver.curation``).
Every graph change goes through here and lands in the audit log *before* the
graph itself changes (a write-ahead record): on open (:mod:`.recovery`), an entry whose change did
not land is rolled forward, and builder entries of a message whose decision
(the ingest commit marker) never landed are dropped, so the log always agrees
with the graph (:meth:`Curation.verify`).

Human edits are authoritative: edges a human set (origin ``human``), pairs a
human deleted and node statuses a human chose are never changed by the review
pass or the builder.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any, Callable

from ..backends.base import Correction
from ..decision_context import GRAPH_EDITS
from ..graph import would_create_cycle
from ..models import RELATIONS, Edge, WeaverError
from .arrival import supersede_on_arrival
from .audit import AuditEntry, AuditLog
from .nodes import NodeActions
from .queue import ReviewItem
from .queue_actions import QueueActions
from .recovery import RecoveryActions
from .refs import resolve_node
from .status import StatusActions
from .triggers import ReviewTriggers
from .undo import UndoActions
from .writing import in_write_section

__all__ = ["Curation"]

_EDGE_FIELDS = ("relation", "confidence", "origin", "rationale", "created_at", "status")


class Curation(RecoveryActions, UndoActions, NodeActions, QueueActions, StatusActions, ReviewTriggers):
    """One space's curation; opening it repairs the log against the graph (:mod:`.recovery`), undo/redo live
    in :mod:`.undo`, whole-node edits in :mod:`.nodes`, the review queue in :mod:`.queue_actions`, status
    edits in :mod:`.status`, the automatic passes' triggers in :mod:`.triggers`."""

    def __init__(self, weaver):
        self.w = weaver
        self.log = AuditLog()
        self.queue: dict[str, ReviewItem] = {}
        self.state: dict[str, Any] = {}
        self.repaired: list[str] = []
        # called with each ReviewSummary after a review pass (e.g. saved retrieval probes re-run)
        self.listeners: list[Callable] = []
        self._load()

    @contextlib.contextmanager
    def write_section(self):
        """The weaver's write section (writer lock, catch up with other writers, one new revision); re-entrant."""
        writing = getattr(self.w, "writing", None)
        with writing() if writing else contextlib.nullcontext():
            fresh = getattr(self.w, "curation", self)
            if fresh is not self:  # another writer changed the space and the weaver reloaded: adopt its state
                self.log, self.queue, self.state = fresh.log, fresh.queue, fresh.state
                self.w.curation = self
            yield

    # --------------------------------------------------------------- records
    def _record(self, entry: AuditEntry) -> AuditEntry:
        self.w.space.put_records("audit", {entry.id: entry.to_dict()})
        self.log.append(entry)
        return entry

    def save_items(self, items: list[ReviewItem]) -> None:
        if items:
            self.w.space.put_records("queue", {i.id: i.to_dict() for i in items})
            for i in items:
                self.queue[i.id] = i

    def save_state(self) -> None:
        self.w.space.put_records("review", {"state": self.state})

    # ------------------------------------------------------------ the builder
    def build_entry(self, node, edges: list[Edge]) -> AuditEntry:
        """The builder's audit entry for a new node and its edges, in the log; the caller stores it on the
        message's decision (the commit marker), so it lands with it or not at all and costs no write."""
        after = {
            "node": {"id": node.id, "kind": node.kind, "content": node.content[:200], "status": node.status},
            "edges": [
                {
                    "source": e.source,
                    "target": e.target,
                    "relation": e.relation,
                    "origin": e.origin,
                    "confidence": e.confidence,
                }
                for e in edges
            ],
        }
        entry = self.log.new(
            "builder", "build", node.id, None, after, f"ingest of {node.message_id}", message_id=node.message_id
        )
        self.log.append(entry)
        return entry

    def supersede_on_arrival(self, node, edges: list[Edge]) -> list[Edge]:
        """A new user statement restating a slot supersedes the earlier one now (see :mod:`.arrival`)."""
        return supersede_on_arrival(self, node, edges)

    # ------------------------------------------------------------- the graph
    def edge_state(self, source: str, target: str) -> dict[str, Any] | None:
        if not self.w.graph.has_edge(source, target):
            return None
        d = self.w.graph.edges[source, target]
        return {k: d.get(k) for k in _EDGE_FIELDS}

    def _write_edge(self, source: str, target: str, state: dict | None) -> None:
        self.w.edges_changed()
        self._edited()
        if state is None:
            self.w.space.delete_edges([f"{source}->{target}"])
            if self.w.graph.has_edge(source, target):
                self.w.graph.remove_edge(source, target)
            return
        e = Edge(
            source,
            target,
            state["relation"],
            float(state.get("confidence") or 1.0),
            state.get("origin") or "human",
            state.get("rationale") or "",
            float(state.get("created_at") or time.time()),
            state.get("status") or "confirmed",
        )
        self.w.space.put_edges([e])
        self.w.graph.add_edge(source, target, **{k: getattr(e, k) for k in _EDGE_FIELDS})

    def _edited(self) -> None:
        """Count an edit of an existing edge or node status (what decision_context.remembered keeps is stale)."""
        g = self.w.graph
        g.graph[GRAPH_EDITS] = g.graph.get(GRAPH_EDITS, 0) + 1

    def _node(self, nid: str):
        node = self.w.nodes.get(nid)
        if node is None:
            raise WeaverError(f"no node {nid!r} in space {self.w.space.name!r}")
        return node

    def resolve_node(self, ref: str) -> str:
        """A node id from an id, an unambiguous id prefix or a message id (:func:`.refs.resolve_node`): what every
        edit here takes, and the CLI passes on as typed."""
        return resolve_node(self.w, ref)

    # ---------------------------------------------------------- authority
    def human_pairs(self) -> set[str]:
        """Edge keys and node ids a human edit in force decided (automatic passes leave them alone)."""
        return {e.key for e in self.log.human_edits()}

    def _guard(self, key: str, actor: str) -> None:
        if actor != "human" and key in self.human_pairs():
            raise WeaverError(f"{key} was set by a human; automatic passes do not override human edits")

    # ---------------------------------------------------------------- edits
    @in_write_section
    def set_edge(
        self,
        source: str,
        target: str,
        relation: str,
        why: str = "",
        actor: str = "human",
        confidence: float | None = None,
        ref: str = "",
        message_id: str = "",
    ) -> AuditEntry:
        """Add ``source -> target`` or change its relation. Refuses cycles and unknown relations. Nodes by id, an
        unambiguous id prefix or a message id (:meth:`resolve_node`), as in every edit here."""
        source, target = self.resolve_node(source), self.resolve_node(target)
        if relation not in RELATIONS:
            raise WeaverError(f"unknown relation {relation!r}: expected one of {', '.join(RELATIONS)}")
        key = f"{source}->{target}"
        self._guard(key, actor)
        before = self.edge_state(source, target)
        if before is None and would_create_cycle(self.w.graph, source, target):
            raise WeaverError(
                f"refused: {key} would create a cycle (the graph must stay acyclic so memories "
                f"can be ordered causes-first)"
            )
        if before and before["origin"] == "human" and actor != "human":
            raise WeaverError(f"{key} was set by a human; automatic passes do not override human edits")
        after = {
            "relation": relation,
            "confidence": 1.0 if actor == "human" else float(confidence if confidence is not None else 0.8),
            "origin": actor if actor in ("human", "review") else "rules",
            "rationale": why or (before or {}).get("rationale") or f"set by {actor}",
            "created_at": (before or {}).get("created_at") or time.time(),
            "status": "confirmed" if actor == "human" else "proposed",
        }
        action = "edge.update" if before else "edge.add"
        entry = self._record(self.log.new(actor, action, key, before, after, why, ref=ref, message_id=message_id))
        self._write_edge(source, target, after)
        self._corrections_changed(actor, key, ref)
        return entry

    @in_write_section
    def confirm_edge(self, source: str, target: str, why: str = "confirmed by a curator") -> AuditEntry:
        source, target = self.resolve_node(source), self.resolve_node(target)
        state = self.edge_state(source, target)
        if state is None:
            raise WeaverError(f"no edge {source}->{target}")
        return self.set_edge(source, target, state["relation"], why)

    @in_write_section
    def remove_edge(self, source: str, target: str, why: str = "", actor: str = "human", ref: str = "") -> AuditEntry:
        source, target = self.resolve_node(source), self.resolve_node(target)
        key = f"{source}->{target}"
        before = self.edge_state(source, target)
        if before is None:
            raise WeaverError(f"no edge {key} in space {self.w.space.name!r}")
        self._guard(key, actor)
        if before["origin"] == "human" and actor != "human":
            raise WeaverError(f"{key} was set by a human; automatic passes do not override human edits")
        entry = self._record(self.log.new(actor, "edge.remove", key, before, None, why, ref=ref))
        self._write_edge(source, target, None)
        self._corrections_changed(actor, key, ref)
        return entry

    # ----------------------------------------------------------- corrections
    def corrections(self) -> list[Correction]:
        """The space's human edge corrections in force (latest per edge), for the relation builder."""
        latest: dict[str, AuditEntry] = {}
        first_before: dict[str, dict | None] = {}
        for e in self.log.human_edits():
            if e.is_edge:
                latest[e.key] = e
                first_before.setdefault(e.key, e.before)
        out = []
        for key, e in latest.items():
            s, t = key.split("->", 1)
            if s not in self.w.nodes or t not in self.w.nodes:
                continue
            p, c = self.w.nodes[s], self.w.nodes[t]
            was = (first_before[key] or {}).get("relation")
            out.append(
                Correction(
                    p.kind,
                    c.kind,
                    p.content,
                    c.content,
                    (e.after or {}).get("relation"),
                    was,
                    self.w.vector_of(s),
                    self.w.vector_of(t),
                )
            )
        return out

    def _corrections_changed(self, actor: str, key: str = "", ref: str = "") -> None:
        if actor == "human":
            self.w.corrections = self.corrections()
            if key:  # a curator decided this edge: proposals about it are moot
                stale = [
                    i
                    for i in self.queue.values()
                    if i.status == "pending" and i.kind != "needs_review" and i.edge_key == key and i.id != ref
                ]
                for i in stale:
                    i.status, i.resolved_at, i.resolved_by = "withdrawn", time.time(), "superseded by a human edit"
                self.save_items(stale)
