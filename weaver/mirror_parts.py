"""The pieces a :class:`~weaver.mirror.Mirror` is made of: status codes, graph attributes, derived text facts.

- what a node's status codes to in the mirror's status array (:func:`status_code`);
- the attribute dicts the dependency graph holds for a node and an edge
  (:func:`node_attrs`, :func:`edge_dict`), in one spelling for records and
  for a snapshot's columns;
- what the mirror derives from a memory's text (:func:`derived_of`), which the
  store caches between opens;
- the bulk loading an open needs: a graph filled without networkx's per-item
  checks (:class:`MirrorGraph`) and the garbage collector paused (:func:`paused_gc`).

They are pure functions and a graph class with no state of a space, kept apart
from the mirror itself (which owns a space's state and its changes) so that
each module stays readable; :mod:`weaver.mirror` re-exports them.
"""

from __future__ import annotations

import contextlib
import gc
import zlib

import networkx as nx

from .lexical import lexical_tokens
from .models import Edge, MemoryNode
from .text import content_words, extract_numbers

__all__ = [
    "COLD",
    "EDGE_ATTRS",
    "HIDDEN",
    "STATUS_CODES",
    "MirrorGraph",
    "derived_of",
    "edge_attrs",
    "edge_dict",
    "node_attrs",
    "paused_gc",
    "status_code",
]

# status -> code; a query shows codes <= 0 (active) or, for a question about history, <= 1 (superseded too);
# archived memories (code COLD) are the cold tier: searched as seeds only, never walked to (weaver.retrieval)
STATUS_CODES = {"active": 0, "superseded": 1, "archived": 2, "retracted": 3}
COLD = STATUS_CODES["archived"]
HIDDEN = 4  # an unknown status (or a merged duplicate) is never shown


def status_code(status: str, meta: dict | None = None) -> int:
    """The code a node's status gets; a duplicate merged into another memory is never shown (its twin answers).

    >>> status_code("archived"), status_code("archived", {"merged_into": "n1"}), status_code("odd")
    (2, 4, 4)
    """
    if status == "archived" and (meta or {}).get("merged_into"):
        return HIDDEN
    return STATUS_CODES.get(status, HIDDEN)


def node_attrs(node: MemoryNode) -> dict:
    return dict(
        content=node.content,
        kind=node.kind,
        turn=node.turn,
        timestamp=node.timestamp,
        language=node.language,
        status=node.status,
        meta=node.meta,
        importance=node.importance,
        message_id=node.message_id,
    )


EDGE_ATTRS = ("relation", "confidence", "origin", "rationale", "created_at", "status")


def edge_dict(relation, confidence, origin, rationale, created_at, status) -> dict:
    """An edge's attributes on the graph (who made it, when, how sure, why): the fields :data:`EDGE_ATTRS`, in
    one spelling for an :class:`Edge` and for a snapshot's columns (a literal: building 200k of them by
    ``dict(zip(...))`` cost seconds on open).

    >>> list(edge_dict("causal", 0.5, "rules", "why", 1.0, "proposed")) == list(EDGE_ATTRS)
    True
    """
    return {
        "relation": relation,
        "confidence": confidence,
        "origin": origin,
        "rationale": rationale,
        "created_at": created_at,
        "status": status,
    }


def edge_attrs(e: Edge) -> dict:
    """:func:`edge_dict` of an edge."""
    return edge_dict(e.relation, e.confidence, e.origin, e.rationale, e.created_at, e.status)


def derived_of(content: str) -> list:
    """What the mirror derives from a memory's text: ``[crc32, BM25 tokens, content words, numbers]``.

    On open this was 60% of the time (tokenising, segmenting Chinese, number
    parsing, for every node); a memory's text never changes, so the store keeps
    these in a cache file and the next open reads them (checked by the crc).
    """
    return [
        zlib.crc32(content.encode("utf-8")),
        lexical_tokens(content),
        sorted(content_words(content)),
        extract_numbers(content),
    ]


@contextlib.contextmanager
def paused_gc():
    """Python's cyclic garbage collector off for a block that makes millions of objects and frees none (opening
    a space): each collection walks every object made so far, which was half the CPU time of a warm 100k-node
    open. Reference counting still frees what it can; the collector runs again after the block, with every
    object the process then holds frozen (``gc.freeze``) until the next open. Frozen objects in a reference
    cycle are never collected, so a weaver dropped without :meth:`~weaver.core.ContextWeaver.close` (it and its
    curation refer to each other) outlives every later open; closing drops its mirror by reference count.

    >>> with paused_gc():
    ...     made = [[] for _ in range(10)]
    ...     gc.isenabled()
    False
    >>> gc.isenabled(), gc.get_freeze_count() >= 10
    (True, True)
    """
    was = gc.isenabled()
    if was:
        gc.unfreeze()  # what an earlier open froze may be garbage now (a refreshed mirror): collectable again
    gc.disable()
    try:
        yield
    finally:
        if was:
            # what an open makes lives as long as the space: frozen, later collections need not walk it (at 10k
            # nodes each full collection during the first queries took 100-200 ms; 5-25 ms frozen)
            gc.freeze()
            gc.enable()


class MirrorGraph(nx.DiGraph):
    """A networkx DiGraph that a snapshot fills in bulk: at 100k nodes and 200k edges, networkx's per-item checks
    and copies in ``add_nodes_from`` / ``add_edges_from`` were most of a warm open.

    >>> g = MirrorGraph()
    >>> g.load_nodes([("a", {"turn": 1}), ("b", {"turn": 2})])
    >>> g.load_edges([("a", "b", {"relation": "causal"})])
    >>> sorted(g.nodes(data="turn")), list(g.edges(data="relation")), list(g.predecessors("b"))
    ([('a', 1), ('b', 2)], [('a', 'b', 'causal')], ['a'])
    >>> g.load_edges([("a", "zz", {})])
    Traceback (most recent call last):
    ...
    ValueError: load_edges: an edge a -> zz to a missing node or one already there
    """

    def load_nodes(self, nodes) -> None:
        """Add ``(id, attribute dict)`` pairs of nodes not in the graph (the dicts are adopted, not copied)."""
        succ, pred, attrs = self._succ, self._pred, self._node
        for nid, a in nodes:
            if nid in succ:
                raise ValueError(f"load_nodes: node {nid} is already there")
            succ[nid], pred[nid], attrs[nid] = {}, {}, a
        self.__networkx_cache__.clear()

    def load_edges(self, edges) -> None:
        """Add ``(source, target, attribute dict)`` edges between nodes already there, each pair once and not in
        the graph yet (the dicts are adopted, not copied)."""
        succ, pred = self._succ, self._pred
        for u, v, d in edges:
            out = succ.get(u)
            if out is None or v not in pred or v in out:
                raise ValueError(f"load_edges: an edge {u} -> {v} to a missing node or one already there")
            out[v] = d
            pred[v][u] = d
        self.__networkx_cache__.clear()
