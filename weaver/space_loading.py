"""What opening a Chroma space reads: its records, the repairs a kill left for, the snapshot, local caches.

Mixed into :class:`~weaver.chroma_space.ChromaSpace` (as :mod:`weaver.sections` is), which owns the
collections and the lock. :meth:`SpaceLoading.load` reads a space whole under the writer lock: the journal
and the write-behind log first (committed sections must land before a repair judges what is committed),
then the snapshot when it still matches Chroma, else every record, and last the repair of an ingest or
reembed that a kill cut short (see the :mod:`weaver.chroma_space` docstring for the protocol). The local
files an open reuses (the snapshot, the derived cache) are named here too, so one module knows them all.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .mirror import paused_gc
from .models import Edge, FilterDecision, MemoryNode
from .record_codec import unpack
from .snapshot import FORMAT as SNAPSHOT_FORMAT
from .snapshot import chroma_sequences, json_loads, read_snapshot, write_snapshot
from .store_api import SpaceData
from .chroma_access import get_all_records, get_with_vectors, vector_reader
from .write_log import overlay_documents

if TYPE_CHECKING:
    import contextlib

__all__ = ["SpaceLoading", "document_of"]


def _node(meta: dict) -> MemoryNode:
    return unpack(MemoryNode, meta)


def _decision(meta: dict) -> FilterDecision:
    return unpack(FilterDecision, meta)


def document_of(col, rid: str) -> dict | None:
    """The JSON document of record ``rid`` in a collection (the space record, the vectors pointer), or None."""
    got = col.get(ids=[rid], include=["documents"])
    return json.loads(got["documents"][0]) if got["ids"] else None


class SpaceLoading:
    if TYPE_CHECKING:  # provided by ChromaSpace, the class this one is mixed into (and its WriteSections)
        client: Any
        lock_path: Path | None
        prefix: str
        meta_col: Any
        nodes_name: str
        decisions_name: str
        held_name: str | None
        decisions: Any
        edges: Any
        _pointer: dict
        _buffer: list | None
        _records_seen: dict[str, tuple[str, str]]

        def _bind(self) -> None: ...
        def _drop_collection(self, name: str) -> None: ...
        def _replay_journal(self, data: SpaceData) -> None: ...
        def _logged_view(self, collection: str) -> contextlib.AbstractContextManager: ...
        def write_lock(self) -> contextlib.AbstractContextManager: ...
        def revision(self) -> str: ...
        def sync(self) -> int: ...
        def delete_nodes(self, ids: list[str]) -> None: ...
        def delete_edges(self, ids: list[str]) -> None: ...

    # ------------------------------------------------------------- caches
    def _cache_file(self, kind: str) -> Path | None:
        """``<data_dir>/cache/<space key>-<prefix>.<kind>.json`` in local mode (none with a server: no local
        files). The prefix names the space's collections, so a space deleted and made again never reads the
        old one's cache."""
        if self.lock_path is None:
            return None
        return Path(self.lock_path).parent.parent / "cache" / f"{Path(self.lock_path).stem}-{self.prefix}.{kind}.json"

    def read_cache(self, kind: str) -> dict:
        path = self._cache_file(kind)
        try:
            data = json_loads(path.read_bytes()) if path else {}
        except (OSError, ValueError):
            return {}  # missing or torn: rebuilt from the records
        return data if isinstance(data, dict) else {}

    def write_cache(self, kind: str, data: dict) -> None:
        path = self._cache_file(kind)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
            tmp.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
            os.replace(tmp, path)  # atomic: a reader sees the old cache or the new one
        except OSError:
            pass  # a cache: the next open computes what it lacks

    # ----------------------------------------------------------------- reads
    def load(self) -> SpaceData:
        with self.write_lock(), paused_gc():  # repair must not race a live writer's half-done message
            self._records_seen.clear()
            self._bind()
            return self._load_locked()

    def _load_locked(self) -> SpaceData:
        data = SpaceData()
        self._replay_journal(data)  # first: a committed section the repair below must not undo
        self.sync()  # then acknowledged sections still in the write-behind log (any process's)
        self._repair_generations(data)
        data.meta = self.get_meta()
        # after the replay and the generation repair (they change the data), before any record is read: a
        # write landing during the read below leaves a stamp older than the data (stale, never wrong)
        stamp = self._snapshot_stamp()
        snap = read_snapshot(self._snapshot_file(), stamp) if stamp is not None else None
        if snap is not None:  # nothing changed since a full load that repaired nothing: no repair to do
            data.nodes, data.node_vectors = snap.nodes, snap.node_vectors  # the edges come with snap (adopt)
            # the decisions as rows made into objects when read (the mirror adopts them from snap)
            data.decisions, data.own_decision_vectors = snap.decisions, snap.own_vectors
            data.snapshot, data.from_snapshot = snap, True
            return data
        with vector_reader(self.client) as collection:  # vectors as every process wrote them
            data.nodes, data.node_vectors = get_with_vectors(collection(self.nodes_name), _node)
            if self.held_name is None:
                data.decisions, data.decision_vectors = get_with_vectors(collection(self.decisions_name), _decision)
            else:
                data.decisions, _ = get_with_vectors(self.decisions, _decision, vectors=False)
                data.own_decision_vectors = self._held(collection(self.held_name), data.decisions)
        data.edges = self.stored_edges()
        repaired = len(data.repaired)
        self._repair(data)
        if len(data.repaired) == repaired:  # a repair wrote to Chroma after the stamp: no snapshot of this load
            data.stamp = stamp
        return data

    def stored_edges(self) -> list[Edge]:
        """Every edge as Chroma holds it (either record form)."""
        return [unpack(Edge, m) for m in get_all_records(self.edges, ["metadatas"])["metadatas"]]

    @staticmethod
    def _held(col, decisions: list[FilterDecision], page: int = 5000) -> dict[str, np.ndarray]:
        """The held vectors of the decisions without a node (a promoted message's vector is its node's)."""
        own = {d.message_id for d in decisions if not d.node_id}
        out: dict[str, np.ndarray] = {}
        offset = 0
        while own:
            got = col.get(include=["embeddings"], limit=page, offset=offset)
            for rid, vec in zip(got["ids"], got["embeddings"] if got["ids"] else ()):
                if rid in own:
                    out[rid] = np.asarray(vec, dtype=np.float32)
            if len(got["ids"]) < page:
                break
            offset += page
        return out

    # -------------------------------------------------------------- snapshot
    def _snapshot_file(self) -> Path:
        path = self._cache_file("snapshot")
        assert path is not None  # only asked for in local mode (a stamp exists)
        return path.with_suffix(".npz")

    def _snapshot_stamp(self) -> dict[str, Any] | None:
        """What a snapshot of this space must match (see :mod:`weaver.snapshot`); None with a Chroma server."""
        if self.lock_path is None:
            return None  # a server: no local file shared with the other writers
        try:
            settings = self.client.get_settings()
        except Exception:
            return None
        if not getattr(settings, "is_persistent", False) or not settings.persist_directory:
            return None
        names = [self.nodes_name, self.decisions_name, self.edges.name]
        seqs = chroma_sequences(settings.persist_directory, names)
        if seqs is None:
            return None
        return {
            "format": SNAPSHOT_FORMAT,
            "revision": self.revision(),
            "prefix": self.prefix,
            "nodes": self.nodes_name,
            "decisions": self.decisions_name,
            "chroma": seqs,
        }

    def write_snapshot(self, data: SpaceData, mirror: Any) -> bool:
        """Snapshot a full load at the stamp it was read at (no-op for other data); True when written.

        ``mirror``: the :class:`~weaver.mirror.Mirror` just built from ``data`` alone (its node order, vectors,
        derived facts, BM25 postings, words and numbers are what the next open reads back)."""
        if data.stamp is None or data.from_snapshot:
            return False
        return write_snapshot(
            self._snapshot_file(),
            data.stamp,
            [mirror.nodes[i] for i in mirror.order],
            mirror.matrix,
            data.decisions,
            self.own_vectors(data),
            data.edges,
            mirror.derived,
            mirror.lexical.columns(),
            mirror.words,
            mirror.numbers,
            mirror.position,
        )

    @staticmethod
    def own_vectors(data: SpaceData) -> dict[str, np.ndarray]:
        """The vectors of the decisions without a node, by message id (a kept message's is its node's)."""
        if data.own_decision_vectors is not None:
            return data.own_decision_vectors
        vecs = data.decision_vectors
        if vecs is None:
            return {}
        return {d.message_id: vecs[i] for i, d in enumerate(data.decisions) if not d.node_id}

    def _repair_generations(self, data: SpaceData) -> None:
        """Remove the vector collections of a reembed that was killed (before or after its switch)."""
        b = document_of(self.meta_col, "building")
        if not b:
            return
        current = {self.nodes_name, self.decisions_name, self.held_name, self.edges.name}
        for v in (b, b.get("old") or {}):
            for k in ("nodes", "decisions", "held", "edges"):
                if isinstance(v.get(k), str) and v[k] not in current:
                    self._drop_collection(v[k])
                    data.repaired.append(f"removed vector collection {v[k]} of an interrupted reembed")
        self.meta_col.delete(ids=["building"])

    def _repair(self, data: SpaceData) -> None:
        """Undo the traces of an ingest that crashed before its decision (commit marker) landed.

        A node is committed when its message's decision names it; a node whose
        decision is missing, or still says "rejected" (a promote that crashed
        before its decision update), is removed with its edges.
        """
        committed = {d.message_id: d for d in data.decisions}

        def is_committed(nd: MemoryNode) -> bool:
            d = committed.get(nd.message_id)
            return d is not None and (d.node_id == nd.id or (d.kept and not d.node_id))

        orphans = [nd.id for nd in data.nodes if not is_committed(nd)]
        if orphans:
            assert data.node_vectors is not None  # loaded with the nodes, a row each
            keep = [i for i, nd in enumerate(data.nodes) if nd.id not in set(orphans)]
            data.nodes = [data.nodes[i] for i in keep]
            data.node_vectors = data.node_vectors[keep] if keep else None
            self.delete_nodes(orphans)
            data.repaired += [f"removed uncommitted node {o}" for o in orphans]
        alive = {nd.id for nd in data.nodes}
        dangling = [e.id for e in data.edges if e.source not in alive or e.target not in alive]
        if dangling:
            data.edges = [e for e in data.edges if e.source in alive and e.target in alive]
            self.delete_edges(dangling)
            data.repaired += [f"removed dangling edge {x}" for x in dangling]

    def get_meta(self) -> dict[str, Any]:
        pending = [args[0] for _, op, args in self._buffer or () if op == "put_meta"]
        if pending:
            meta = json.loads(json.dumps(pending[-1]))
        else:
            with self._logged_view(self.meta_col.name) as logged:
                got = self.meta_col.get(ids=["space"], include=["documents"])
                docs = dict(zip(got["ids"], got["documents"]))
                overlay_documents(docs, logged)
            meta = json.loads(docs["space"]) if docs.get("space") else {}
        if self._pointer.get("embedder"):  # the vectors pointer is the authority on what made the vectors
            meta["embedder"] = dict(self._pointer["embedder"])
        return meta
