"""The in-memory view of one space: the one owner of what the weaver mirrors from Chroma.

Chroma is the system of record; a :class:`Mirror` holds what queries and the
builder read on every call, kept incrementally as memories arrive so that no
query or write re-derives it from scratch:

- nodes in arrival order, each with its position (``position``);
- their vectors in one growable float32 array (``matrix`` is a view of its
  filled rows: appending a memory copies nothing at amortised cost, where
  re-stacking every row cost 24 ms at 10k nodes);
- each node's status as a code in a numpy array, so the "which memories may
  answer" mask is one comparison, not a Python scan over every node (84 ms per
  query at 100k);
- the dependency graph (networkx), retrieval's edge index, the speakers and
  episodes (:class:`~weaver.neighbourhood.NodeFacts`), the BM25 index, the
  words and numbers the filter's novelty compares against, the decisions.

Only :class:`~weaver.core.ContextWeaver` writes to it (through the methods
here); everything else reads through the weaver's narrow read methods. A
refresh builds a new mirror from the store and swaps it in whole.

This module holds the :class:`Mirror` (a space's state and every change to
it); the stateless pieces it is built from (status codes, graph attributes,
derived text facts, the bulk-loading graph and GC pause) are in
:mod:`weaver.mirror_parts`, re-exported here.
"""

from __future__ import annotations

import zlib
from collections.abc import MutableMapping

import numpy as np

from .lazy_records import LazyRecords
from .lexical import LexicalIndex
from .mirror_parts import (
    COLD,
    EDGE_ATTRS,
    HIDDEN,
    STATUS_CODES,
    MirrorGraph,
    derived_of,
    edge_attrs,
    edge_dict,
    node_attrs,
    paused_gc,
    status_code,
)
from .models import Edge, FilterDecision, MemoryNode
from .neighbourhood import EdgeIndex, NodeFacts, lends
from .snapshot_columns import NO_NODE

__all__ = [
    "Mirror",
    "MirrorGraph",
    "paused_gc",
    "STATUS_CODES",
    "COLD",
    "EDGE_ATTRS",
    "derived_of",
    "edge_dict",
    "status_code",
]


class Mirror:
    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.graph = MirrorGraph()
        self.nodes: dict[str, MemoryNode] = {}
        self.order: list[str] = []
        self.position: dict[str, int] = {}
        self.facts = NodeFacts()
        self.edge_index = EdgeIndex()
        self.lexical = LexicalIndex()
        # message id -> decision (a LazyRecords from a snapshot: each made when first read)
        self.decisions: MutableMapping[str, FilterDecision] = {}
        self._audits: dict[str, dict] = {}  # a snapshot's build audit entries by message id (adopt_decisions)
        self._node_at = np.zeros(0, dtype=np.int32)  # a snapshot's decisions' node positions (adopt_decisions)
        self.decision_vecs: dict[str, np.ndarray] = {}
        self.words: set[str] = set()
        self.numbers: set[float] = set()
        self.turn = 0
        self.derived: dict[str, list] = {}  # node id -> derived_of(its content), for the store's cache
        self.derived_misses = 0  # nodes whose derived facts were computed (not found in the cache) this open
        self._vecs = np.zeros((0, dim), dtype=np.float32)
        self._status = np.zeros(0, dtype=np.int8)
        # bumped by every change of nodes, statuses or edges: what a query derives from all of them (the
        # constraint records, the revision count) is computed once per version (see memo)
        self.version = 0
        self._memo: dict = {}
        self._per_node: dict[str, dict] = {}

    def changed(self) -> None:
        """Something a memo depends on changed (a node, a status, an edge)."""
        self.version += 1

    def per_node(self, kind: str) -> tuple[dict, bool]:
        """A dict node id -> a fact of the node's text, kept while the mirror lives, and whether it was just
        made: only for facts of a node's text, which never changes (e.g. the slot values a user statement
        holds, which every constraint query reads)."""
        got = self._per_node.get(kind)
        if got is None:
            got = self._per_node[kind] = {}
            return got, True
        return got, False

    def memo(self, key, compute):
        """``compute()``, computed again only after the mirror changed (:meth:`changed`).

        The constraint records scanned every user statement with the slot readers on every query that
        decides something: 0.6 s at 10k nodes on a loaded box, tens of seconds at 100k.
        """
        got = self._memo.get(key)
        if got is None or got[0] != self.version:
            got = self._memo[key] = (self.version, compute())
        return got[1]

    def __len__(self) -> int:
        return len(self.order)

    # ------------------------------------------------------------ growth
    def _reserve(self, n: int) -> None:
        """Room for ``n`` rows: capacity doubles, so appends cost amortised O(1)."""
        if n <= len(self._vecs):
            return
        have = len(self._vecs)
        # doubling while small; past 64k rows a quarter more (a 100k-node space must not jump to 200k rows)
        cap = max(n, 2 * have if have < 65536 else have + have // 4, 64)
        vecs = np.zeros((cap, self.dim), dtype=np.float32)
        vecs[: len(self.order)] = self._vecs[: len(self.order)]
        status = np.full(cap, HIDDEN, dtype=np.int8)
        status[: len(self.order)] = self._status[: len(self.order)]
        self._vecs, self._status = vecs, status

    def add_node(self, node: MemoryNode, vec: np.ndarray, cached: list | None = None) -> None:
        """Append a node; ``cached``: its :func:`derived_of` from the store's cache (used when the crc matches)."""
        if cached is None or len(cached) != 4 or cached[0] != zlib.crc32(node.content.encode("utf-8")):
            cached = derived_of(node.content)
            self.derived_misses += 1
        self.derived[node.id] = cached
        row = len(self.order)
        self._reserve(row + 1)
        self._vecs[row] = vec
        self._status[row] = status_code(node.status, node.meta)
        self.nodes[node.id] = node
        self.position[node.id] = row
        self.order.append(node.id)
        self.facts.append(node.meta, node.turn, node.content)
        self.lexical.add_tokens([node.id], [cached[1]])
        self.graph.add_node(node.id, **node_attrs(node))
        self.version += 1
        self.words.update(cached[2])
        self.numbers.update(cached[3])

    @paused_gc()
    def adopt(self, nodes: list[MemoryNode], vecs: np.ndarray, snap) -> None:
        """Become the mirror of a :class:`weaver.snapshot.Snapshot` (on open, into an empty mirror): ``nodes``
        in node order, ``vecs`` aligned (adopted, not copied: 200 MB at 100k nodes), the BM25 postings as
        columns, the words and numbers as sets; nothing is tokenised or counted again. Each node's derived facts
        are not kept (they serve the cache file a full load writes)."""
        n = len(nodes)
        if self.order or vecs.shape != (n, self.dim) or vecs.dtype != np.float32 or not vecs.flags.c_contiguous:
            raise ValueError("adopt: an empty mirror and one float32 row per node")
        self.adopt_decisions(snap.decisions, snap.own_vectors)
        if not n:
            return
        # the rows after it in its buffer, when the snapshot read it with room (weaver.snapshot): new nodes
        # fill them instead of copying every vector into a bigger array
        room = vecs.base
        self._vecs = vecs
        if (
            isinstance(room, np.ndarray)
            and room.ndim == 2
            and room.flags.c_contiguous
            and room.shape[1] == self.dim
            and room.dtype == np.float32
            and room[:n].ctypes.data == vecs.ctypes.data
        ):
            self._vecs = room
        self._status = np.full(len(self._vecs), HIDDEN, dtype=np.int8)
        self._status[:n] = [status_code(nd.status, nd.meta) for nd in nodes]
        ids = [nd.id for nd in nodes]
        self.nodes.update(zip(ids, nodes))
        self.position.update(zip(ids, range(n)))
        self.order.extend(ids)
        for nd in nodes:
            self.facts.append(nd.meta, nd.turn, nd.content)
        self.lexical.load_columns(ids, snap.tokens.lists, snap.lexical, counts=snap.tokens.counts)
        self.graph.load_nodes((nd.id, node_attrs(nd)) for nd in nodes)
        self.words, self.numbers = snap.words, snap.numbers
        self.version += 1
        self._adopt_edges(snap.edges)

    def latest_decision(self) -> FilterDecision | None:
        """The latest message's decision, kept or not (in a dict or a snapshot's lazy records: newest key first)."""
        ds = self.decisions
        key = next(reversed(ds), None) if isinstance(ds, (dict, LazyRecords)) else next(reversed(list(ds)), None)
        return None if key is None else ds[key]

    def adopt_decisions(self, rows, own: dict[str, np.ndarray]) -> None:
        """The decisions of a snapshot (:class:`weaver.snapshot.DecisionRows`; ``own``: the vectors of those
        without a node), as :meth:`add_decision` adds them in time order, each made into an object when first
        read (:class:`~weaver.lazy_records.LazyRecords`)."""
        if self.decisions:
            raise ValueError("adopt_decisions: a mirror without decisions")
        self.decisions = rows.records()
        self._audits, self._node_at = rows.audits, rows.node_at
        self.decision_vecs = {mid: np.asarray(v, dtype=np.float32) for mid, v in own.items()}
        self.turn = max(self.turn, rows.turn)

    def _adopt_edges(self, cols) -> None:
        """The edges of a snapshot (:class:`weaver.snapshot.EdgeColumns`, ends as positions in node order), added as
        :meth:`add_edges` adds them but without an object per edge (200k of them took seconds to parse)."""
        if not len(cols):
            return
        ids, nodes = self.order, self.nodes
        src, dst = cols.source.tolist(), cols.target.tolist()
        rel, status = cols.column("relation"), cols.column("status")
        conf = cols.confidence.tolist()
        rows = zip(rel, conf, cols.column("origin"), cols.column("rationale"), cols.created_at.tolist(), status)
        edges = [(ids[u], ids[v], edge_dict(*row)) for u, v, row in zip(src, dst, rows)]
        if len(set(zip(src, dst))) == len(src):  # (called by adopt, on a graph of nodes only)
            self.graph.load_edges(edges)
            # the usable edges that lend (neighbourhood.lends: only an elaborates edge to a summary does not)
            usable = ~cols.holds("status", "rejected")
            for k in np.flatnonzero(usable & cols.holds("relation", "elaborates")).tolist():
                usable[k] = lends("elaborates", nodes[ids[dst[k]]].meta)
            self.edge_index.load(cols.source[usable], cols.target[usable], cols.confidence[usable])
        else:  # a pair written twice (never from Chroma, which keys an edge by its pair): as add_edges does it
            self.edge_index.stale = True
            self.graph.add_edges_from(edges)
        self.version += 1

    @paused_gc()
    def add_nodes(self, nodes: list[MemoryNode], vecs: np.ndarray, rows: np.ndarray, cache: dict) -> None:
        """Append many nodes at once (on open): :meth:`add_node` for each, in bulk; ``vecs[rows[i]]`` is the
        vector of ``nodes[i]``; ``cache``: node id -> its :func:`derived_of` (used when the crc matches)."""
        start, n = len(self.order), len(nodes)
        if not n:
            return
        self._reserve(start + n)
        np.take(np.asarray(vecs, dtype=np.float32), rows, axis=0, out=self._vecs[start : start + n])
        derived = []
        for node in nodes:
            got = cache.get(node.id)
            if got is None or len(got) != 4 or got[0] != zlib.crc32(node.content.encode("utf-8")):
                got = derived_of(node.content)
                self.derived_misses += 1
            self.derived[node.id] = got
            derived.append(got)
        self._status[start : start + n] = [status_code(nd.status, nd.meta) for nd in nodes]
        ids = [nd.id for nd in nodes]
        self.nodes.update(zip(ids, nodes))
        self.position.update(zip(ids, range(start, start + n)))
        self.order.extend(ids)
        for nd in nodes:
            self.facts.append(nd.meta, nd.turn, nd.content)
        self.lexical.add_tokens(ids, [got[1] for got in derived])
        self.graph.add_nodes_from((nd.id, node_attrs(nd)) for nd in nodes)
        for got in derived:
            self.words.update(got[2])
            self.numbers.update(got[3])
        self.version += 1

    @paused_gc()
    def add_edges(self, edges: list[Edge]) -> None:
        """Many edges at once (on open): :meth:`add_edge` for each, in bulk."""
        g, pos, nodes = self.graph, self.position, self.nodes
        fresh, seen = [], set()
        for e in edges:
            if e.source not in pos or e.target not in pos:
                continue
            if g.has_edge(e.source, e.target) or (e.source, e.target) in seen:
                self.edge_index.stale = True  # a replaced edge: its old state is in the index (as in add_edge)
                fresh.append(e)  # added below in order: the last state wins, as with add_edge
                continue
            seen.add((e.source, e.target))
            if e.status != "rejected" and lends(e.relation, nodes[e.target].meta):
                self.edge_index.add(pos[e.source], pos[e.target], e.confidence)
            fresh.append(e)
        g.add_edges_from((e.source, e.target, edge_attrs(e)) for e in fresh)
        self.version += 1

    def add_edge(self, e: Edge) -> None:
        if e.source not in self.graph or e.target not in self.graph:
            return
        self.version += 1
        if self.graph.has_edge(e.source, e.target):
            self.edge_index.stale = True  # a replaced edge: its old state is in the index
        elif e.status != "rejected" and lends(e.relation, self.nodes[e.target].meta):
            self.edge_index.add(self.position[e.source], self.position[e.target], e.confidence)
        self.graph.add_edge(e.source, e.target, **edge_attrs(e))

    def add_decision(self, d: FilterDecision, vec: np.ndarray | None) -> None:
        self.decisions[d.message_id] = d
        if d.node_id:
            # a kept message's vector is its node's: a second copy per decision cost 200 MB at 100k nodes
            self.decision_vecs.pop(d.message_id, None)
        elif vec is not None:  # a rejected message keeps its own, for a promote
            self.decision_vecs[d.message_id] = np.asarray(vec, dtype=np.float32)
        self.turn = max(self.turn, d.turn)

    def decision_node(self, message_id: str) -> str | None:
        """The node a message's decision names ("" for a rejected message; None: no decision), without making
        the decision an object when a snapshot stored it (curation asks for every builder entry on open)."""
        ds = self.decisions
        if isinstance(ds, LazyRecords) and message_id in ds and message_id not in ds.made_keys_view():
            at = int(self._node_at[ds.row(message_id)])
            if at >= 0:
                return self.order[at]  # (positions never move while a mirror lives: a removal reloads)
            if at == NO_NODE:
                return ""
        d = ds.get(message_id)
        return None if d is None else d.node_id

    def build_audits(self) -> list[dict]:
        """The build audit entries the decisions of kept messages carry, in the mirror's order. From a snapshot,
        a decision not made into an object yet gives the entry the snapshot stored for it (only an object can
        change or gain one): a space built by ingest has one per kept message, and making each decision on open
        to read it cost ~100 MB at 100k."""
        ds = self.decisions
        if not isinstance(ds, LazyRecords):
            return [d.audit for d in ds.values() if d.audit and d.node_id]
        made, stored = set(ds.made_keys()), self._audits
        out = []
        for k in ds:
            if k in made:
                d = ds[k]
                if d.audit and d.node_id:
                    out.append(d.audit)
            elif k in stored:
                out.append(stored[k])
        return out

    def decision_vector(self, message_id: str) -> np.ndarray:
        got = self.decision_vecs.get(message_id)
        if got is None:
            got = self.vector_of(self.decisions[message_id].node_id)
        return got

    def set_status(self, nid: str, status: str, meta: dict) -> None:
        """A node's status changed (a curator, a review pass, a supersede): node, graph and mask agree."""
        node = self.nodes[nid]
        node.status, node.meta = status, meta
        self.version += 1
        self.graph.nodes[nid]["status"] = status
        self.graph.nodes[nid]["meta"] = meta
        self._status[self.position[nid]] = status_code(status, meta)

    # ------------------------------------------------------------- reads
    @property
    def matrix(self) -> np.ndarray:
        """The node vectors in node order (a read-only view: rows are never changed in place)."""
        view = self._vecs[: len(self.order)]
        view.flags.writeable = False
        return view

    def vector_of(self, nid: str) -> np.ndarray:
        return self._vecs[self.position[nid]]

    def shown(self, history: bool = False) -> np.ndarray:
        """Which nodes may answer a query: the active ones (and the superseded, for a question about history).

        One comparison over the status codes that :meth:`set_status` keeps.
        """
        codes = self._status[: len(self.order)]
        return codes <= (1 if history else 0)

    def cold(self) -> np.ndarray:
        """The cold tier: archived memories (not merged duplicates), which retrieval may seed on by vector and
        words but never reaches over an edge."""
        return self._status[: len(self.order)] == COLD

    def resync_status(self) -> None:
        """Re-read every node's status from the graph (after an edit made outside :meth:`set_status`)."""
        self.version += 1
        for nid, row in self.position.items():
            a = self.graph.nodes[nid]
            self._status[row] = status_code(a.get("status", "active"), a.get("meta"))

    def usable_edges(self) -> EdgeIndex:
        if self.edge_index.stale:
            self.edge_index.rebuild(self.graph, self.position)
        return self.edge_index

    def latest_active(self, k: int) -> list[MemoryNode]:
        """The ``k`` latest active memories, oldest first (from the status codes, newest backwards)."""
        out: list[MemoryNode] = []
        for row in range(len(self.order) - 1, -1, -1):
            if self._status[row] == 0:
                out.append(self.nodes[self.order[row]])
                if len(out) == k:
                    break
        return out[::-1]
