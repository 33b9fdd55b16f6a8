"""Whole-node edits of :class:`~weaver.curation.edits.Curation`: delete, add (a reflection summary), pin.

A node that goes or comes is one audit entry holding the node's record and all
its edges (``node.delete``: ``before``; ``node.add``: ``after``), so undo and redo
bring back exactly what was there. The vector is not logged: it is recomputed
from the node's embedded text by the space's embedder (deterministic, and the
right one even after a ``reembed``).

Removing a node touches every mirror the weaver keeps (order, vectors, BM25,
episode facts, edge index), so the weaver rebuilds them from the store when the
write section ends (``ContextWeaver.reload_after_write``) instead of patching
each one here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import networkx as nx
import numpy as np

from ..models import Edge, FilterDecision, MemoryNode, WeaverError
from .audit import AuditEntry
from .writing import in_write_section

if TYPE_CHECKING:  # annotations only
    from .audit import AuditLog

__all__ = ["NODE_META_KEYS", "NodeActions", "creates_cycle", "embedded_text", "node_state"]

# lifecycle marks kept in a node's meta, changed only through audited status edits
# (archived_access: its retrieval count when archived, so a pass can tell it was wanted again since)
NODE_META_KEYS = ("pinned", "tier", "merged_into", "core", "archived_access")


def embedded_text(node: MemoryNode) -> str:
    """What a node's vector embeds (its ``embed_text``, or its content), cut where the weaver cuts it."""
    return (node.embed_text or node.content)[:4000]


def creates_cycle(g: nx.DiGraph, nid: str, edges: list[tuple[str, str]]) -> bool:
    """True when adding node ``nid`` with ``edges`` to the acyclic graph ``g`` would close a cycle.

    A node not yet in ``g`` whose edges all touch it closes a cycle only through itself: one of its targets
    reaches one of its sources in ``g``. A node with only incoming edges (a reflection summary) closes none, so
    the check costs nothing, where copying the graph to test it whole cost ~0.1 s a node at 3k memories.
    Anything else (edges elsewhere, a node already there) is checked on a copy of the whole graph.

    >>> g = nx.DiGraph([("a", "b"), ("b", "c")])
    >>> creates_cycle(g, "s", [("a", "s"), ("c", "s")]), creates_cycle(g, "x", [("c", "x"), ("x", "a")])
    (False, True)
    >>> creates_cycle(g, "x", [("x", "a"), ("a", "x")]), creates_cycle(g, "a", [("c", "a")])
    (True, True)
    """
    if nid not in g and all(nid in e for e in edges):
        targets = {t for s, t in edges if s == nid}
        sources = {s for s, t in edges if t == nid}
        if nid in targets or targets & sources:
            return True
        reached: set[str] = set()
        for t in targets:
            if t in g and t not in reached:
                reached |= nx.descendants(g, t) | {t}
        return bool(reached & sources)
    h = nx.DiGraph(g.edges())
    h.add_edges_from(edges)
    return nid in h and not nx.is_directed_acyclic_graph(h)


def node_state(w, nid: str) -> dict:
    """A node and every edge touching it, as JSON scalars (what ``node.delete`` logs)."""
    node = w.nodes[nid]
    edges = [e.to_record() for e in w.edges() if nid in (e.source, e.target)]
    return {"node": node.to_record(), "edges": edges}


class NodeActions:
    """Mixed into ``Curation`` (which provides ``w``, ``log``, ``_record``, ``_node``, ``_guard`` and ``set_status``)."""

    # what Curation provides, declared for the type checker (bare annotations: nothing is set here)
    w: Any
    log: AuditLog
    _record: Callable[[AuditEntry], AuditEntry]
    _node: Callable[[str], MemoryNode]
    resolve_node: Callable[[str], str]
    _guard: Callable[[str, str], None]
    set_status: Callable[..., AuditEntry]
    heir: Callable[[str], str]
    release_superseded: Callable[[str, AuditEntry, str, str], list[AuditEntry]]

    @in_write_section
    def delete_node(self, node_id: str, why: str = "", actor: str = "human", ref: str = "") -> AuditEntry:
        """Remove a node and its edges from the space (audited; ``undo`` restores both)."""
        node_id = self.resolve_node(node_id)
        self._guard(node_id, actor)
        before = node_state(self.w, node_id)
        entry = self._record(self.log.new(actor, "node.delete", node_id, before, None, why or "deleted", ref=ref))
        # what it superseded holds again (or passes to what superseded it): handed on while it is still there
        self.release_superseded(node_id, entry, "deleted", self.heir(node_id))
        self._remove(node_id, before)
        return entry

    @in_write_section
    def add_node(
        self,
        node: MemoryNode,
        edges: list[Edge],
        why: str,
        actor: str = "lifecycle",
        ref: str = "",
        vector: np.ndarray | None = None,
    ) -> AuditEntry:
        """Add a node the weaver did not ingest (a reflection summary) with its edges, audited and undoable.

        Its filter decision (the store's commit marker for a node) is written with it, marked as such.
        ``vector``: the node's embedded text (``embed_text`` or content) already embedded by the space's
        embedder (a pass embeds all its summaries in one batch); embedded here otherwise.
        """
        if node.id in self.w.nodes:
            raise WeaverError(f"node {node.id} already exists")
        for e in edges:
            for end in (e.source, e.target):
                if end != node.id:
                    self._node(end)
        after: dict[str, Any] = {"node": node.to_record(), "edges": [e.to_record() for e in edges]}
        self._check_acyclic(node.id, after["edges"])
        entry = self._record(
            self.log.new(actor, "node.add", node.id, None, after, why, ref=ref, message_id=node.message_id)
        )
        vec = self._restore(after, vector)
        if node.message_id not in self.w.decisions:
            d = FilterDecision(
                message_id=node.message_id,
                kind=node.kind,
                content=node.content,
                turn=node.turn,
                coarse=1.0,
                relevance=5,
                novelty=5,
                importance=node.importance,
                total=5.0,
                coarse_threshold=0.0,
                keep_threshold=0.0,
                kept=True,
                reason=why,
                backend=actor,
                latency_ms=0.0,
                node_id=node.id,
                timestamp=node.timestamp,
                language=node.language,
                meta={"lifecycle": node.meta.get("lifecycle", "")},
            )
            self.w.space.put_decisions([d], vec[None, :])
        return entry

    @in_write_section
    def pin(self, node_id: str, pinned: bool = True, why: str = "") -> AuditEntry:
        """Pin a node (a human decision: the lifecycle never archives, merges or moves it) or unpin it."""
        node_id = self.resolve_node(node_id)
        node = self._node(node_id)
        return self.set_status(
            node_id, node.status, why or ("pinned" if pinned else "unpinned"), marks={"pinned": bool(pinned)}
        )

    # --------------------------------------------------------------- helpers
    def _set_presence(self, entry: AuditEntry, state: dict | None, action: str) -> AuditEntry:
        """Undo / redo of ``node.add`` / ``node.delete``: bring the node back (state) or remove it (None)."""
        nid = entry.key
        present = nid in self.w.nodes
        if state is None:
            if not present:
                raise WeaverError(f"cannot {action} {entry.id}: node {nid} is already gone")
            cur = node_state(self.w, nid)
            rec = self._record(self.log.new("human", action, nid, cur, None, f"{action} of {entry.id}", ref=entry.id))
            self._remove(nid, cur)
            return rec
        if present:
            raise WeaverError(f"cannot {action} {entry.id}: node {nid} exists")
        alive = {k: v for k, v in state.items()}
        alive["edges"] = [
            e for e in state.get("edges", []) if all(x == nid or x in self.w.nodes for x in (e["source"], e["target"]))
        ]
        self._check_acyclic(nid, alive["edges"])
        rec = self._record(self.log.new("human", action, nid, None, alive, f"{action} of {entry.id}", ref=entry.id))
        self._restore(alive)
        return rec

    def _check_acyclic(self, nid: str, edges: list[dict]) -> None:
        if creates_cycle(self.w.graph, nid, [(e["source"], e["target"]) for e in edges]):
            raise WeaverError(f"refused: the edges of {nid} would create a cycle")

    def _remove(self, nid: str, state: dict) -> None:
        self.w.space.delete_edges([f"{e['source']}->{e['target']}" for e in state["edges"]])
        self.w.space.delete_nodes([nid])
        self.w.reload_after_write()

    def _restore(self, state: dict, vec: np.ndarray | None = None):
        node = MemoryNode.from_record(state["node"])
        if vec is None:
            vec = self.w.embedder.embed([embedded_text(node)])[0]
        self.w.space.put_nodes([node], vec[None, :])
        if state.get("edges"):
            self.w.space.put_edges([Edge.from_record(e) for e in state["edges"]])
        self.w.reload_after_write()
        return vec
