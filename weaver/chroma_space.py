"""One space in Chroma: its collections, the single-writer lock, atomic write sections, repair on open.

Collections are found through the registry (:mod:`weaver.registry`): ``<prefix>-meta``
(the space record, the ``vectors`` pointer), ``-edges``, the node, decision and
(layout 2) held-vector collections the pointer names, and record collections
``<prefix>-x-<kind>``. Layout 2 stores each vector once (see :mod:`weaver.store`).

**Write sections** (the machinery is in :mod:`weaver.sections`). ``ContextWeaver.writing()``
holds the lock and buffers every write (``ChromaSpace.deferred``); on exit the buffer becomes a list of raw
Chroma calls, one per collection and operation. A section of new messages only
(their nodes, edges and decisions, and a supersede on arrival's builder audit
entries and status change) is written audit -> nodes -> edges -> decisions: the
decision is the commit marker (it also carries the builder's ``build`` entry and
a focus shift), :meth:`_repair` and ``Curation._load`` remove or revert what a
kill left without one. Any other section of more than one call (a curation edit,
a review pass, a status change with its review flags, deletions...) first writes
its calls to the ``x-journal`` collection, then applies them, then clears the
journal: a kill before the journal landed leaves nothing, after it the next
open (or the next writer) replays it. Either way the section lands whole or
not at all.

The class is assembled from mixins, one concern each: :mod:`weaver.sections` (write sections,
journal, write-behind), :mod:`weaver.space_loading` (load, repair, snapshot, local caches),
:mod:`weaver.space_writes` (node/edge/decision/meta writes), :mod:`weaver.space_records` (record
kinds); the lock is :mod:`weaver.space_lock`'s. This module owns the collections and the reembed.

**Reembed** builds new node and decision collections beside the old ones and
switches the ``vectors`` pointer (one upsert) under the lock; a ``building``
record written first lets the repair on open remove a half-built generation
(or the old one, when the kill came after the switch).
"""

from __future__ import annotations

import atexit
import json
import weakref
from typing import Any

import numpy as np

from .chroma_access import PLACEHOLDER_VECTOR, NoEmbeddingFunction
from .chroma_disk import persist_dir_of, sweep_orphan_segments
from .chroma_io import Call, is_missing_collection
from .models import Edge, FilterDecision, MemoryNode, WeaverError
from .registry import new_vector_names
from .sections import WriteSections
from .space_loading import SpaceLoading, document_of
from .space_lock import LOCK_TIMEOUT, SpaceLock, write_log_path
from .space_records import RecordKinds
from .space_writes import SpaceWrites
from .store_api import SpaceStore
from .write_log import WriteLog

# SpaceLock, LOCK_TIMEOUT and write_log_path lived here before weaver.space_lock: still importable from here
__all__ = ["ChromaSpace", "SpaceLock", "LOCK_TIMEOUT", "write_log_path"]

# inner product: on the weaver's unit vectors the same order and distance (1 - cos) as "cosine", but Chroma keeps
# the vector as given ("cosine" stores it renormalised, off by ~1e-8), so a reload reads back the bits written
_VECTOR_SPACE = {"hnsw:space": "ip"}
# the collections whose records carry a placeholder vector (never searched by it): the fewest graph links per
# vector Chroma allows (its default 16 made the index ~150 bytes a record, 35 MB at 100k nodes; 2 makes ~50)
_PLACEHOLDER_INDEX = {"hnsw": {"max_neighbors": 2}}


_LIVE: weakref.WeakSet = weakref.WeakSet()  # spaces of this process, whose write-behind logs land at exit


@atexit.register
def _sync_at_exit() -> None:
    """A clean exit leaves Chroma complete (a kill leaves the log, which the next open applies)."""
    for space in list(_LIVE):
        try:
            space.sync()
        except Exception:  # noqa: BLE001 - at exit nothing can be reported; the log stays for the next open
            pass


class ChromaSpace(WriteSections, SpaceLoading, SpaceWrites, RecordKinds, SpaceStore):
    def __init__(self, store, name: str, create: bool):
        self.store = store
        self.client = store.client
        self.name = name
        self._create = create
        self._space_lock = store.space_lock(name)
        self.lock_path = self._space_lock.path
        self._ef = NoEmbeddingFunction()
        self._buffer: list[tuple[str, str, tuple]] | None = None  # see deferred()
        self._sink: list[Call] | None = None  # raw calls of a flush being prepared
        self._crash_point = self.client.crash_point
        # small record kinds as read (collection -> (revision token then, their JSON)); local mode only, where
        # the token is a file every process writing the space bumps (a server's token is per process)
        self._records_seen: dict[str, tuple[str, str]] = {}
        self._bind()
        _LIVE.add(self)

    # ------------------------------------------------------------ collections
    def _bind(self) -> None:
        """Resolve the space's collections (again: another process may have deleted or re-embedded it)."""
        rec = self.store.resolve(self.name, self._create)
        self.prefix = rec["prefix"]
        self._cols: dict[str, Any] = {}
        self.meta_col = self._col(f"{self.prefix}-meta")
        self._pointer = document_of(self.meta_col, "vectors") or {}
        fresh = (
            self._create
            and not self._pointer
            and not self.meta_col.get(ids=["space"])["ids"]
            and not self._col(f"{self.prefix}-decisions").count()  # an older space without its space record
        )
        if fresh:  # a new space: layout 2 from its first record (the pointer lands before the space record)
            self._pointer = {"nodes": f"{self.prefix}-nodes", "decisions": f"{self.prefix}-decisions"}
            self._pointer["held"] = f"{self.prefix}-held"
            self.meta_col.upsert(
                ids=["vectors"], embeddings=[PLACEHOLDER_VECTOR], documents=[json.dumps(self._pointer)]
            )
        self.nodes_name = self._pointer.get("nodes") or f"{self.prefix}-nodes"
        self.decisions_name = self._pointer.get("decisions") or f"{self.prefix}-decisions"
        # layout 2 (``held`` in the pointer): a node's vector is stored once, in the nodes collection; decisions
        # carry a placeholder and a rejected message's vector is held in ``held`` (keyed by message id) for a
        # promote. Layout 1 (older spaces): every decision carries its message's vector.
        self.held_name: str | None = self._pointer.get("held")
        self.nodes = self._col(self.nodes_name, vectors=True)
        self.decisions = self._col(self.decisions_name, vectors=self.held_name is None)
        if self.held_name:
            self._col(self.held_name, vectors=True)
        # the pointer names the edges since a compact or reembed rewrote them (packed, weaver.record_codec)
        self.edges = self._col(self._pointer.get("edges") or f"{self.prefix}-edges")
        # write-behind (weaver.write_log) in local mode: the log is named by the prefix, so a space deleted and
        # made again never replays the old one's log
        group = getattr(self.store, "write_behind", 0)
        self._write_log = WriteLog(write_log_path(self.lock_path, self.prefix)) if group and self.lock_path else None
        self.write_behind = max(1, group)
        if self._create and not self.meta_col.get(ids=["space"])["ids"]:
            self.put_meta({"name": self.name})

    def _col(self, name: str, vectors: bool = False):
        col = self._cols.get(name)
        if col is None:
            opts = dict(metadata=_VECTOR_SPACE) if vectors else dict(configuration=_PLACEHOLDER_INDEX)
            col = self.client.get_or_create_collection(name, embedding_function=self._ef, **opts)
            self._cols[name] = col
        return col

    def close(self) -> None:
        """Apply the write-behind log (what a clean exit does) and drop the collection handles; the store's
        client stays the runtime's to close."""
        self.sync()
        _LIVE.discard(self)
        self._cols = {}
        self._records_seen = {}

    def _write(self, collection: str, op: str, **kwargs) -> None:
        """One raw Chroma write: run now, or collected by the flush being prepared."""
        self._records_seen.pop(collection, None)  # a raw write (a journal replayed, a repair): read it again
        if self._sink is not None:
            self._sink.append(Call(collection, op, kwargs))
        else:
            getattr(self._col(collection), op)(**kwargs)

    def _drop_collection(self, name: str) -> None:
        self._cols.pop(name, None)
        try:
            self.client.delete_collection(name)
        except Exception as exc:
            if not is_missing_collection(exc):
                raise
        sweep_orphan_segments(persist_dir_of(self.client))  # Chroma keeps a dropped collection's index folder

    # ------------------------------------------------------- single writer
    def write_lock(self):
        """Hold the space's writer lock (re-entrant in one thread)."""
        return self._space_lock.hold()

    def revision(self) -> str:
        return self._space_lock.revision()

    def bump_revision(self) -> str:
        """A new token after a write section."""
        before = self.revision() if self._records_seen else None
        token = self._space_lock.bump()
        # records read as of the token this section started from are still current: the section holds the writer
        # lock, so no other writer came between, and every write of this one dropped what it touched
        for name, (rev, text) in list(self._records_seen.items()):
            if rev == before:
                self._records_seen[name] = (token, text)
        return token

    # ------------------------------------------------------- vector index
    def all_applied(self) -> bool:
        """Whether every acknowledged write is in Chroma (nothing buffered in a section, nothing in the log)."""
        log = self._write_log
        return not self._buffer and not self._sink and (log is None or not log.pending())

    def warm_indexes(self) -> int:
        """Load the vector indexes of the edges and decisions collections now; returns how many were loaded.

        Chroma reads a collection's index from disk on its first query or write in a process, and the first
        write-behind apply after an open wrote to both: 0.3-1.2 s at 100k nodes (232k edges), against 10 ms for
        the same records once loaded. A query of one stored vector loads the index the writes use."""
        loaded = 0
        for col in (self.edges, self.decisions):
            try:
                got = col.get(limit=1, include=["embeddings"])
                if got["ids"]:
                    col.query(query_embeddings=np.asarray(got["embeddings"], dtype=np.float32), n_results=1, include=[])
                    loaded += 1
            except Exception:  # noqa: BLE001 - a warm-up that cannot load leaves the first write to load it
                continue
        return loaded

    def similar_ids(self, vecs: np.ndarray, k: int) -> list[list[str]] | None:
        """The ids of the ``k`` nodes nearest each vector by Chroma's own HNSW index of the nodes (approximate:
        what :mod:`weaver.nearest` scores exactly); None when the index cannot answer."""
        try:
            res = self.nodes.query(query_embeddings=vecs, n_results=k, include=[])
        except WeaverError:
            raise
        except Exception:  # an index Chroma cannot read, fewer nodes than k: the exact product answers
            return None
        return res["ids"]

    # --------------------------------------------------------------- reembed
    def replace_vectors(
        self,
        nodes: list[MemoryNode],
        node_vectors,
        decisions: list[FilterDecision],
        decision_vectors,
        embedder: dict[str, Any],
        edges: list[Edge] | None = None,
    ) -> None:
        """Write every node and decision (and ``edges``, when given) into new collections, then switch to them
        (hold the writer lock). Records are written packed (weaver.record_codec), so this also rewrites an
        older space's records; the edges go to a new collection because Chroma merges metadata on upsert and
        never drops a document (rewriting in place would keep the old keys)."""
        self.sync()  # pending sections name the old collections: they land before those are dropped
        new = new_vector_names()
        old = {"nodes": self.nodes_name, "decisions": self.decisions_name}
        if self.held_name:
            old["held"] = self.held_name
        if edges is None:
            new["edges"] = self.edges.name  # kept as they are
        else:
            old["edges"] = self.edges.name
        self.meta_col.upsert(
            ids=["building"], embeddings=[PLACEHOLDER_VECTOR], documents=[json.dumps(new | {"old": old})]
        )
        for k in ("nodes", "decisions", "held"):
            self._col(new[k], vectors=k != "decisions")
        if nodes:
            self._upsert_vectors(new["nodes"], nodes, node_vectors, lambda n: n.id)
        if decisions:  # always layout 2: a reembed (or `weaver compact`) moves an older space to it
            self._put_decisions(new["decisions"], new["held"], decisions, decision_vectors)
        if edges:
            self._col(new["edges"])
            self._write_edges(new["edges"], edges)
        # the switch: one upsert names the new collections and the embedder that made them
        self.meta_col.upsert(
            ids=["vectors"], embeddings=[PLACEHOLDER_VECTOR], documents=[json.dumps(new | {"embedder": embedder})]
        )
        self._pointer = new | {"embedder": embedder}
        self.nodes_name, self.decisions_name, self.held_name = new["nodes"], new["decisions"], new["held"]
        self.nodes, self.decisions = self._col(new["nodes"]), self._col(new["decisions"])
        self.edges = self._col(new["edges"])
        for name in old.values():
            self._drop_collection(name)
        self.meta_col.delete(ids=["building"])
