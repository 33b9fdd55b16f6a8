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

**Reembed** builds new node and decision collections beside the old ones and
switches the ``vectors`` pointer (one upsert) under the lock; a ``building``
record written first lets the repair on open remove a half-built generation
(or the old one, when the kill came after the switch).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import threading
import uuid
import weakref
from pathlib import Path
from typing import Any

import numpy as np

from .chroma_disk import persist_dir_of, sweep_orphan_segments
from .chroma_io import Call, is_missing_collection
from .mirror import paused_gc
from .models import Edge, FilterDecision, MemoryNode, WeaverError
from .record_codec import pack, unpack
from .registry import new_vector_names
from .sections import WriteSections
from .snapshot import FORMAT as SNAPSHOT_FORMAT
from .snapshot import chroma_sequences, json_loads, read_snapshot, write_snapshot
from .write_log import WriteLog, overlay_documents
from .store import (
    CHROMA_BATCH,
    PLACEHOLDER_VECTOR,
    NoEmbeddingFunction,
    SpaceData,
    SpaceStore,
    chunked,
    get_all_records,
    get_with_vectors,
    vector_reader,
)

__all__ = ["ChromaSpace", "SpaceLock", "LOCK_TIMEOUT", "write_log_path"]

LOCK_TIMEOUT = 120.0  # seconds a writer waits for another writer before a clear error
# server mode: writer locks and revisions shared by every space object of this process
_PROCESS_LOCKS: dict[tuple, threading.RLock] = {}
_PROCESS_REVS: dict[tuple, str] = {}
_REGISTRY_LOCK = threading.Lock()
# inner product: on the weaver's unit vectors the same order and distance (1 - cos) as "cosine", but Chroma keeps
# the vector as given ("cosine" stores it renormalised, off by ~1e-8), so a reload reads back the bits written
_VECTOR_SPACE = {"hnsw:space": "ip"}
# the collections whose records carry a placeholder vector (never searched by it): the fewest graph links per
# vector Chroma allows (its default 16 made the index ~150 bytes a record, 35 MB at 100k nodes; 2 makes ~50)
_PLACEHOLDER_INDEX = {"hnsw": {"max_neighbors": 2}}
_SEEN_MAX = 64  # records of a kind kept as read between two reads (see ChromaSpace.get_records)


class SpaceLock:
    """The writer lock and revision token of one space name (files under the lock directory, or per process)."""

    def __init__(self, key: tuple, label: str, lock_dir: Path | None):
        self.key, self.label = key, label
        self.path = self._rev_path = None
        if lock_dir is None:
            with _REGISTRY_LOCK:
                self._plock = _PROCESS_LOCKS.setdefault(key, threading.RLock())
            self._lock = None
            return
        from filelock import FileLock

        Path(lock_dir).mkdir(parents=True, exist_ok=True)
        self.path = Path(lock_dir) / f"{key[1]}.lock"
        self._rev_path = Path(lock_dir) / f"{key[1]}.rev"
        # one lock object per path per process; each thread holds it through its own descriptor
        self._lock = FileLock(str(self.path), is_singleton=True)  # the timeout is given per acquire

    @contextlib.contextmanager
    def hold(self, timeout: float | None = None):
        if self._lock is None:
            if not self._plock.acquire(timeout=LOCK_TIMEOUT if timeout is None else timeout):
                raise WeaverError(f"space {self.label!r} is busy: another writer held it for over {LOCK_TIMEOUT:.0f} s")
            try:
                yield
            finally:
                self._plock.release()
            return
        from filelock import Timeout

        try:
            self._lock.acquire(timeout=LOCK_TIMEOUT if timeout is None else timeout)
        except Timeout as exc:
            raise WeaverError(
                f"space {self.label!r} is busy: another writer has held {self.path} for over {LOCK_TIMEOUT:.0f} s"
            ) from exc
        try:
            yield
        finally:
            self._lock.release()

    def revision(self) -> str:
        if self._lock is None:
            return _PROCESS_REVS.get(self.key, "")
        assert self._rev_path is not None  # set with the file lock
        try:
            return self._rev_path.read_text()
        except FileNotFoundError:
            return ""

    def bump(self) -> str:
        """A new token, written over the old one in place.

        Readers only compare a token with the one they hold, so a read torn by a write in progress (half old, half
        new) reads as "changed", as the whole new token would: at worst one reload more. A temporary file renamed
        over the token cost 2-3 ms a write section on a busy disk (ext4 flushes a file renamed over another).
        """
        token = uuid.uuid4().hex
        if self._lock is None:
            _PROCESS_REVS[self.key] = token
            return token
        assert self._rev_path is not None  # set with the file lock
        data = token.encode("ascii")
        fd = os.open(self._rev_path, os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            os.pwrite(fd, data, 0)
            if os.fstat(fd).st_size > len(data):  # a longer token of another writer's making: cut what is past it
                os.ftruncate(fd, len(data))
        finally:
            os.close(fd)
        return token


_LIVE: weakref.WeakSet = weakref.WeakSet()  # spaces of this process, whose write-behind logs land at exit


@atexit.register
def _sync_at_exit() -> None:
    """A clean exit leaves Chroma complete (a kill leaves the log, which the next open applies)."""
    for space in list(_LIVE):
        try:
            space.sync()
        except Exception:  # noqa: BLE001 - at exit nothing can be reported; the log stays for the next open
            pass


def write_log_path(lock_path: Path | str, prefix: str) -> Path:
    """``<data_dir>/locks/<space key>-<prefix>.wal``: the space's write-behind log, beside its lock."""
    return Path(lock_path).with_name(f"{Path(lock_path).stem}-{prefix}.wal")


def _node(meta: dict) -> MemoryNode:
    return unpack(MemoryNode, meta)


def _decision(meta: dict) -> FilterDecision:
    return unpack(FilterDecision, meta)


def _doc(col, rid: str) -> dict | None:
    got = col.get(ids=[rid], include=["documents"])
    return json.loads(got["documents"][0]) if got["ids"] else None


class ChromaSpace(WriteSections, SpaceStore):
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
        self._pointer = _doc(self.meta_col, "vectors") or {}
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
        b = _doc(self.meta_col, "building")
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

    # ---------------------------------------------------------------- writes
    def _upsert_vectors(self, collection: str, records, vectors, key) -> None:
        """Records packed (weaver.record_codec: one metadata key, no document) with their vectors, or (``vectors``
        None) their metadata alone."""
        for i in range(0, len(records), CHROMA_BATCH):
            batch = records[i : i + CHROMA_BATCH]
            kwargs = dict(ids=[key(r) for r in batch], metadatas=[pack(r) for r in batch])
            if vectors is not None:
                vecs = np.asarray(vectors[i : i + CHROMA_BATCH])
                self._write(
                    collection, "upsert", embeddings=vecs.tolist(), metadatas=kwargs["metadatas"], ids=kwargs["ids"]
                )
            else:  # metadata only (merged by Chroma; documents would be embedded)
                self._write(collection, "update", **kwargs)

    def put_nodes(self, nodes: list[MemoryNode], vectors: np.ndarray | None = None) -> None:
        if self._defer("nodes", "put_nodes", list(nodes), None if vectors is None else np.asarray(vectors)):
            return
        self._upsert_vectors(self.nodes_name, nodes, vectors, lambda n: n.id)

    def delete_nodes(self, ids: list[str]) -> None:
        if self._defer("nodes", "delete_nodes", list(ids)):
            return
        for batch in chunked(ids):
            self._write(self.nodes_name, "delete", ids=batch)

    def put_edges(self, edges: list[Edge]) -> None:
        if self._defer("edges", "put_edges", list(edges)):
            return
        self._write_edges(self.edges.name, edges)

    def _write_edges(self, collection: str, edges: list[Edge]) -> None:
        for batch in chunked(edges):
            self._write(
                collection,
                "upsert",
                ids=[e.id for e in batch],
                embeddings=[PLACEHOLDER_VECTOR] * len(batch),
                metadatas=[pack(e) for e in batch],
            )

    def delete_edges(self, ids: list[str]) -> None:
        if self._defer("edges", "delete_edges", list(ids)):
            return
        for batch in chunked(ids):
            self._write(self.edges.name, "delete", ids=batch)

    def put_decisions(self, decisions: list[FilterDecision], vectors: np.ndarray | None = None) -> None:
        if self._defer("decisions", "put_decisions", list(decisions), None if vectors is None else np.asarray(vectors)):
            return
        self._put_decisions(self.decisions_name, self.held_name, decisions, vectors)

    def _put_decisions(self, name: str, held: str | None, decisions: list[FilterDecision], vectors) -> None:
        """Decisions into collection ``name``; in layout 2 (``held`` names the held vectors) a decision carries a
        placeholder, a rejected message's vector is held (before its decision: the commit marker) and a
        promoted message's held vector goes after its decision (the node holds it now)."""
        key = lambda d: d.message_id  # noqa: E731
        if held is None:
            self._upsert_vectors(name, decisions, vectors, key)
            return
        if vectors is not None:
            rows = [i for i, d in enumerate(decisions) if not d.node_id]
            for batch in chunked(rows):
                vecs = np.asarray(vectors)[batch]
                self._write(held, "upsert", ids=[decisions[i].message_id for i in batch], embeddings=vecs.tolist())
            for batch in chunked(decisions):
                self._write(
                    name,
                    "upsert",
                    ids=[key(d) for d in batch],
                    embeddings=[PLACEHOLDER_VECTOR] * len(batch),
                    metadatas=[pack(d) for d in batch],
                )
            promoted = [d.message_id for d in decisions if d.node_id and d.promoted]
            for ids in chunked(promoted):
                self._write(held, "delete", ids=ids)
        else:
            self._upsert_vectors(name, decisions, None, key)

    def put_meta(self, meta: dict[str, Any]) -> None:
        if self._defer("meta", "put_meta", json.loads(json.dumps(meta))):
            return
        self._write(
            self.meta_col.name,
            "upsert",
            ids=["space"],
            embeddings=[PLACEHOLDER_VECTOR],
            documents=[json.dumps(meta, ensure_ascii=False)],
        )

    def _records(self, kind: str) -> str:
        if not (kind.isascii() and kind.isalpha() and kind.islower() and 2 <= len(kind) <= 20) or kind in (
            "meta",
            "nodes",
            "edges",
            "decisions",
            "journal",
        ):
            raise WeaverError(f"bad record kind {kind!r}")
        return f"{self.prefix}-x-{kind}"

    def put_records(self, kind: str, records: dict[str, dict]) -> None:
        self._records_seen.pop(self._records(kind), None)
        if self._defer("records", "put_records", kind, json.loads(json.dumps(records))):
            return
        name = self._records(kind)
        for batch in chunked(list(records.items())):
            self._write(
                name,
                "upsert",
                ids=[k for k, _ in batch],
                embeddings=[PLACEHOLDER_VECTOR] * len(batch),
                documents=[json.dumps(v, ensure_ascii=False) for _, v in batch],
            )

    def get_records(self, kind: str) -> dict[str, dict]:
        col = self._col(self._records(kind))
        # a small kind (the probes a review pass re-runs every few messages, an empty one most often) is read
        # once per revision of the space: a Chroma read was 1-10 ms a pass (see _records_seen)
        rev = self.revision() if self.lock_path is not None else None
        seen = self._records_seen.get(col.name)
        if rev is not None and seen is not None and seen[0] == rev:
            out = json.loads(seen[1])
        else:
            with self._logged_view(col.name) as logged:
                got = get_all_records(col, ["documents"])
                docs = dict(zip(got["ids"], got["documents"]))
                overlay_documents(docs, logged)
            out = {i: json.loads(doc) for i, doc in docs.items()}
            if rev is not None and len(out) <= _SEEN_MAX:
                self._records_seen[col.name] = (rev, json.dumps(out))
        for _, op, args in self._buffer or ():
            if op == "put_records" and args[0] == kind:
                out.update(json.loads(json.dumps(args[1])))
            elif op == "delete_records" and args[0] == kind:
                for i in args[1]:
                    out.pop(i, None)
        return out

    def delete_records(self, kind: str, ids: list[str]) -> None:
        self._records_seen.pop(self._records(kind), None)
        if self._defer("records", "delete_records", kind, list(ids)):
            return
        name = self._records(kind)
        for batch in chunked(ids):
            self._write(name, "delete", ids=batch)

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
