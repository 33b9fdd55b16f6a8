"""Persistence in Chroma: one *space* = one memory, held in four collections.

``cw-<slug>-nodes`` (kept nodes with their embeddings), ``-decisions`` (every
filter decision with the message embedding, kept or not: the per-message commit
marker), ``-edges`` and ``-meta`` (space record: display name, embedder, task
focus history). Write order for one message: node, then edges, then decision.
On open, a node whose decision never landed (a crash mid-ingest) is removed
with its edges, and edges to missing nodes are dropped: see ``repair``.

Writers are serialised per space by a file lock under ``<data_dir>/locks``
(one writer at a time across processes and threads; a crashed writer's lock is
released by the kernel). With a Chroma server nothing is written locally: the
lock and revision are per process only (see docs/reliability.md). Each write section leaves a new revision token next to
the lock so another process's weaver knows to reload its in-memory mirror.
Repair runs only under that lock, so it never undoes a live writer's message.

Chroma's default embedding function downloads a model, so every collection is
created with :class:`NoEmbeddingFunction` and every record carries its vector.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import re
import threading
import uuid
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from .models import Edge, FilterDecision, MemoryNode, WeaverError

__all__ = ["SpaceData", "SpaceStore", "Store", "ChromaStore", "connect", "space_slug", "NoEmbeddingFunction"]

_BATCH = 1000
_UNIT = [1.0]  # edges and meta need a vector in Chroma; they are never searched by it
# A float32 copy of each node/decision vector rides in its metadata, and loads read that copy: Chroma's
# local mode serves `get(include=["embeddings"])` from a per-process HNSW reader that fails ("Nothing
# found on disk", "Error finding id") once another process has written the collection, while metadata
# comes from SQLite, which is safe across processes.
_VEC = "_vec"


def _pack(vec) -> str:
    return base64.b64encode(np.asarray(vec, dtype=np.float32).tobytes()).decode("ascii")


def _with_vectors(records: list[dict], vectors) -> list[dict]:
    return [r | {_VEC: _pack(v)} for r, v in zip(records, vectors)]


def _vectors(col, got: dict) -> np.ndarray | None:
    """The rows' vectors from their metadata copies (older records: from Chroma's embeddings)."""
    metas = got["metadatas"]
    if not metas:
        return None
    if all(_VEC in m for m in metas):
        return np.stack([np.frombuffer(base64.b64decode(m[_VEC]), dtype=np.float32) for m in metas])
    emb = [v for ids in _chunks(got["ids"], 5000) for v in col.get(ids=ids, include=["embeddings"])["embeddings"]]
    return np.asarray(emb, dtype=np.float32)


def space_slug(name: str) -> str:
    """A valid Chroma collection stem for any space name (Chinese included).

    >>> space_slug("beijing-trip")
    'beijing-trip'
    >>> space_slug("北京 三日游")[:6]
    'space-'
    """
    if not isinstance(name, str) or not name.strip():
        raise WeaverError("a space needs a non-empty name")
    if len(name) > 200:
        raise WeaverError("space names are limited to 200 characters")
    if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]{0,62}", name):
        return name
    ascii_part = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-_")[:40]
    digest = hashlib.sha1(name.encode("utf-8")).hexdigest()[:10]
    return f"{ascii_part or 'space'}-{digest}" if ascii_part else f"space-{digest}"


@dataclass
class SpaceData:
    nodes: list[MemoryNode] = field(default_factory=list)
    node_vectors: np.ndarray | None = None
    edges: list[Edge] = field(default_factory=list)
    decisions: list[FilterDecision] = field(default_factory=list)
    decision_vectors: np.ndarray | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    repaired: list[str] = field(default_factory=list)


class SpaceStore(ABC):
    name: str

    @abstractmethod
    def load(self) -> SpaceData: ...

    @abstractmethod
    def put_nodes(self, nodes: list[MemoryNode], vectors: np.ndarray | None = None) -> None: ...

    @abstractmethod
    def delete_nodes(self, ids: list[str]) -> None: ...

    @abstractmethod
    def put_edges(self, edges: list[Edge]) -> None: ...

    @abstractmethod
    def delete_edges(self, ids: list[str]) -> None: ...

    @abstractmethod
    def put_decisions(self, decisions: list[FilterDecision], vectors: np.ndarray | None = None) -> None: ...

    @abstractmethod
    def get_meta(self) -> dict[str, Any]: ...

    @abstractmethod
    def put_meta(self, meta: dict[str, Any]) -> None: ...

    @abstractmethod
    def put_records(self, kind: str, records: dict[str, dict]) -> None:
        """Auxiliary JSON records (audit log, probes, review queue...) by id."""

    @abstractmethod
    def get_records(self, kind: str) -> dict[str, dict]: ...

    @abstractmethod
    def delete_records(self, kind: str, ids: list[str]) -> None: ...

    @contextlib.contextmanager
    def deferred(self):
        """Batch writes until the block ends (a store may write through immediately)."""
        yield

    # single-writer protocol (a store without a lock directory has no cross-process writers)
    def write_lock(self):
        return contextlib.nullcontext()

    def revision(self) -> str:
        return ""

    def bump_revision(self) -> str:
        return ""


class Store(ABC):
    @abstractmethod
    def list_spaces(self) -> list[str]: ...

    @abstractmethod
    def open_space(self, name: str, create: bool = True) -> SpaceStore: ...

    @abstractmethod
    def delete_space(self, name: str) -> None: ...


class NoEmbeddingFunction:
    """Registered with Chroma so it never falls back to its downloading default."""

    def __init__(self, *args, **kwargs) -> None:
        pass

    def __call__(self, input):  # noqa: A002 - Chroma's signature
        raise WeaverError("ContextWeaver always passes vectors; Chroma must not embed")

    @staticmethod
    def name() -> str:
        return "contextweaver-external"

    def get_config(self) -> dict:
        return {}

    @staticmethod
    def build_from_config(config: dict) -> "NoEmbeddingFunction":
        return NoEmbeddingFunction()

    def default_space(self) -> str:
        return "cosine"

    def supported_spaces(self) -> list[str]:
        return ["cosine", "l2", "ip"]

    def is_legacy(self) -> bool:
        return False


_registered = False


def _register() -> None:
    global _registered
    if not _registered:
        from chromadb.utils.embedding_functions import register_embedding_function

        try:
            register_embedding_function(NoEmbeddingFunction)
        except ValueError:
            pass  # already registered in this process
        _registered = True


def _get_all(col, include: list[str], page: int = 5000) -> dict:
    """Every record of a collection, read in pages (one huge get overruns SQLite's variable limit)."""
    out: dict = {"ids": [], **{k: [] for k in include}}
    offset = 0
    while True:
        got = col.get(include=include, limit=page, offset=offset)
        out["ids"] += got["ids"]
        for k in include:
            out[k] += got[k] or []
        if len(got["ids"]) < page:
            return out
        offset += page


def _chunks(seq: list, n: int = _BATCH) -> Iterable[list]:
    for i in range(0, len(seq), n):
        yield seq[i : i + n]


LOCK_TIMEOUT = 120.0  # seconds a writer waits for another writer before a clear error
# server mode: writer locks and revisions shared by every space object of this process
_PROCESS_LOCKS: dict[tuple, threading.RLock] = {}
_PROCESS_REVS: dict[tuple, str] = {}
_REGISTRY_LOCK = threading.Lock()


class ChromaSpace(SpaceStore):
    def __init__(self, client, name: str, create: bool, lock_dir: Path | None = None):
        self.client = client
        self.name = name
        self.slug = space_slug(name)
        self._lock = None
        self._key = (id(client), self.slug)
        if lock_dir is None:
            with _REGISTRY_LOCK:
                self._plock = _PROCESS_LOCKS.setdefault(self._key, threading.RLock())
        else:
            from filelock import FileLock

            Path(lock_dir).mkdir(parents=True, exist_ok=True)
            self._lock_path = Path(lock_dir) / f"{self.slug}.lock"
            self._rev_path = Path(lock_dir) / f"{self.slug}.rev"
            # one lock object per path per process; each thread holds it through its own descriptor
            self._lock = FileLock(str(self._lock_path), timeout=LOCK_TIMEOUT, is_singleton=True)
        self._ef = NoEmbeddingFunction()
        self._buffer: list[tuple[str, str, tuple]] | None = None  # see deferred()
        get = client.get_or_create_collection if create else client.get_collection
        try:
            self.meta_col = get(f"cw-{self.slug}-meta", embedding_function=self._ef)
        except Exception as exc:
            raise WeaverError(f"space {name!r} does not exist") from exc
        opts = dict(embedding_function=self._ef, metadata={"hnsw:space": "cosine"})
        self.nodes = client.get_or_create_collection(f"cw-{self.slug}-nodes", **opts)
        self.decisions = client.get_or_create_collection(f"cw-{self.slug}-decisions", **opts)
        self.edges = client.get_or_create_collection(f"cw-{self.slug}-edges", embedding_function=self._ef)
        if create and not self.meta_col.get(ids=["space"])["ids"]:
            self.put_meta({"name": name})

    def recreate_vector_collections(self) -> None:
        """Drop and recreate the vector collections (Chroma fixes a collection's dimension)."""
        opts = dict(embedding_function=self._ef, metadata={"hnsw:space": "cosine"})
        for attr, suffix in (("nodes", "nodes"), ("decisions", "decisions")):
            self.client.delete_collection(f"cw-{self.slug}-{suffix}")
            setattr(self, attr, self.client.get_or_create_collection(f"cw-{self.slug}-{suffix}", **opts))

    # ------------------------------------------------------ batched writes
    # commit order on flush: a crash mid-flush leaves at worst nodes/edges without their decision,
    # which _repair removes on the next open; decisions (the commit markers) land last
    _FLUSH_ORDER = ("nodes", "edges", "records", "meta", "decisions")

    @contextlib.contextmanager
    def deferred(self):
        """Buffer every write and apply them on exit, one Chroma call per collection and operation.

        Chroma pays a fixed cost per call (~5-30 ms); a batch of messages then costs a
        handful of calls instead of four or more per message. Reads of records and meta
        inside the block see the buffered writes. Hold the writer lock around it.
        """
        if self._buffer is not None:  # nested: the outer block flushes
            yield
            return
        self._buffer = []
        try:
            yield
        finally:
            ops, self._buffer = self._buffer, None
            self._flush(ops)

    def _defer(self, group: str, op: str, *args) -> bool:
        if self._buffer is None:
            return False
        self._buffer.append((group, op, args))
        return True

    def _flush(self, ops: list[tuple[str, str, tuple]]) -> None:
        for group in self._FLUSH_ORDER:
            run: list[tuple[tuple, tuple]] = []
            for g, op, args in ops:
                if g != group:
                    continue
                key = (op, args[0] if op.endswith("records") else None)
                if run and run[-1][0] != key:
                    self._apply(run)
                    run = []
                run.append((key, args))
            if run:
                self._apply(run)

    def _apply(self, run: list[tuple[tuple, tuple]]) -> None:
        """One Chroma call for consecutive writes of the same kind."""
        (op, _), first = run[0]
        if op in ("put_nodes", "put_decisions"):
            fn = self.put_nodes if op == "put_nodes" else self.put_decisions
            key = (lambda r: r.id) if op == "put_nodes" else (lambda r: r.message_id)
            with_vec: dict[str, tuple] = {}  # Chroma refuses an id twice in one call: the last write wins
            without: dict[str, object] = {}
            for _, (records, vectors) in run:
                for i, r in enumerate(records):
                    if vectors is not None:
                        with_vec[key(r)] = (r, vectors[i])
                        without.pop(key(r), None)
                    else:
                        without[key(r)] = r
            if with_vec:
                fn([r for r, _ in with_vec.values()], np.stack([v for _, v in with_vec.values()]))
            if without:
                fn(list(without.values()), None)
        elif op == "put_edges":
            self.put_edges(list({e.id: e for _, a in run for e in a[0]}.values()))
        elif op in ("delete_edges", "delete_nodes"):
            getattr(self, op)(list(dict.fromkeys(x for _, a in run for x in a[0])))
        elif op == "put_meta":
            self.put_meta(run[-1][1][0])
        elif op == "put_records":
            merged: dict[str, dict] = {}
            for _, a in run:
                merged.update(a[1])
            self.put_records(first[0], merged)
        elif op == "delete_records":
            self.delete_records(first[0], list(dict.fromkeys(x for _, a in run for x in a[1])))

    # ------------------------------------------------------- single writer
    @contextlib.contextmanager
    def write_lock(self):
        """Hold the space's writer lock (re-entrant in one thread)."""
        if self._lock is None:
            if not self._plock.acquire(timeout=LOCK_TIMEOUT):
                raise WeaverError(f"space {self.name!r} is busy: another writer held it for over {LOCK_TIMEOUT:.0f} s")
            try:
                yield
            finally:
                self._plock.release()
            return
        from filelock import Timeout

        try:
            self._lock.acquire()
        except Timeout as exc:
            raise WeaverError(
                f"space {self.name!r} is busy: another writer has held {self._lock_path} for over "
                f"{LOCK_TIMEOUT:.0f} s"
            ) from exc
        try:
            yield
        finally:
            self._lock.release()

    def revision(self) -> str:
        if self._lock is None:
            return _PROCESS_REVS.get(self._key, "")
        try:
            return self._rev_path.read_text()
        except FileNotFoundError:
            return ""

    def bump_revision(self) -> str:
        """A new token after a write section (atomic replace: a reader never sees half a token)."""
        token = uuid.uuid4().hex
        if self._lock is None:
            _PROCESS_REVS[self._key] = token
            return token
        tmp = self._rev_path.with_name(f"{self._rev_path.name}.{os.getpid()}.tmp")
        tmp.write_text(token)
        os.replace(tmp, self._rev_path)
        return token

    # ----------------------------------------------------------------- reads
    def load(self) -> SpaceData:
        with self.write_lock():  # repair must not race a live writer's half-done message
            return self._load_locked()

    def _load_locked(self) -> SpaceData:
        data = SpaceData(meta=self.get_meta())
        n = _get_all(self.nodes, ["metadatas"])
        data.nodes = [MemoryNode.from_record(m) for m in n["metadatas"]]
        data.node_vectors = _vectors(self.nodes, n)
        d = _get_all(self.decisions, ["metadatas"])
        data.decisions = [FilterDecision.from_record(m) for m in d["metadatas"]]
        data.decision_vectors = _vectors(self.decisions, d)
        e = _get_all(self.edges, ["metadatas"])
        data.edges = [Edge.from_record(m) for m in e["metadatas"]]
        self._repair(data)
        return data

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
            return json.loads(json.dumps(pending[-1]))
        got = self.meta_col.get(ids=["space"], include=["documents"])
        return json.loads(got["documents"][0]) if got["ids"] else {}

    # ---------------------------------------------------------------- writes
    def put_nodes(self, nodes: list[MemoryNode], vectors: np.ndarray | None = None) -> None:
        if self._defer("nodes", "put_nodes", list(nodes), None if vectors is None else np.asarray(vectors)):
            return
        for i in range(0, len(nodes), _BATCH):
            batch = nodes[i : i + _BATCH]
            kwargs = dict(ids=[n.id for n in batch], metadatas=[n.to_record() for n in batch],
                          documents=[n.content for n in batch])
            if vectors is not None:
                vecs = np.asarray(vectors[i : i + _BATCH])
                kwargs["metadatas"] = _with_vectors(kwargs["metadatas"], vecs)
                self.nodes.upsert(embeddings=vecs.tolist(), **kwargs)
            else:  # metadata only: Chroma would try to embed changed documents without a vector
                kwargs.pop("documents")
                self.nodes.update(**kwargs)

    def delete_nodes(self, ids: list[str]) -> None:
        if self._defer("nodes", "delete_nodes", list(ids)):
            return
        for batch in _chunks(ids):
            self.nodes.delete(ids=batch)

    def put_edges(self, edges: list[Edge]) -> None:
        if self._defer("edges", "put_edges", list(edges)):
            return
        for batch in _chunks(edges):
            self.edges.upsert(
                ids=[e.id for e in batch],
                embeddings=[_UNIT] * len(batch),
                metadatas=[e.to_record() for e in batch],
                documents=[e.relation for e in batch],
            )

    def delete_edges(self, ids: list[str]) -> None:
        if self._defer("edges", "delete_edges", list(ids)):
            return
        for batch in _chunks(ids):
            self.edges.delete(ids=batch)

    def put_decisions(self, decisions: list[FilterDecision], vectors: np.ndarray | None = None) -> None:
        if self._defer("decisions", "put_decisions", list(decisions),
                       None if vectors is None else np.asarray(vectors)):
            return
        for i in range(0, len(decisions), _BATCH):
            batch = decisions[i : i + _BATCH]
            kwargs = dict(ids=[d.message_id for d in batch], metadatas=[d.to_record() for d in batch],
                          documents=[d.content for d in batch])
            if vectors is not None:
                vecs = np.asarray(vectors[i : i + _BATCH])
                kwargs["metadatas"] = _with_vectors(kwargs["metadatas"], vecs)
                self.decisions.upsert(embeddings=vecs.tolist(), **kwargs)
            else:  # metadata only (merged by Chroma, so the vector copy stays)
                kwargs.pop("documents")
                self.decisions.update(**kwargs)

    def put_meta(self, meta: dict[str, Any]) -> None:
        if self._defer("meta", "put_meta", json.loads(json.dumps(meta))):
            return
        self.meta_col.upsert(ids=["space"], embeddings=[_UNIT], documents=[json.dumps(meta, ensure_ascii=False)])

    def _records(self, kind: str):
        if not re.fullmatch(r"[a-z]{2,20}", kind):
            raise WeaverError(f"bad record kind {kind!r}")
        return self.client.get_or_create_collection(f"cw-{self.slug}-x-{kind}", embedding_function=self._ef)

    def put_records(self, kind: str, records: dict[str, dict]) -> None:
        if self._defer("records", "put_records", kind, json.loads(json.dumps(records))):
            return
        col = self._records(kind)
        items = list(records.items())
        for batch in _chunks(items):
            col.upsert(
                ids=[k for k, _ in batch],
                embeddings=[_UNIT] * len(batch),
                documents=[json.dumps(v, ensure_ascii=False) for _, v in batch],
            )

    def get_records(self, kind: str) -> dict[str, dict]:
        got = _get_all(self._records(kind), ["documents"])
        out = {i: json.loads(doc) for i, doc in zip(got["ids"], got["documents"])}
        for _, op, args in self._buffer or ():
            if op == "put_records" and args[0] == kind:
                out.update(json.loads(json.dumps(args[1])))
            elif op == "delete_records" and args[0] == kind:
                for i in args[1]:
                    out.pop(i, None)
        return out

    def delete_records(self, kind: str, ids: list[str]) -> None:
        if self._defer("records", "delete_records", kind, list(ids)):
            return
        col = self._records(kind)
        for batch in _chunks(ids):
            col.delete(ids=batch)


class ChromaStore(Store):
    def __init__(self, client, lock_dir: Path | None = None):
        _register()
        self.client = client
        self.lock_dir = lock_dir

    def list_spaces(self) -> list[str]:
        names = []
        for col in self.client.list_collections():
            cname = col if isinstance(col, str) else col.name
            if cname.startswith("cw-") and cname.endswith("-meta"):
                meta = self.client.get_collection(cname, embedding_function=NoEmbeddingFunction())
                got = meta.get(ids=["space"], include=["documents"])
                if got["ids"]:
                    names.append(json.loads(got["documents"][0]).get("name", cname[3:-5]))
        return sorted(names)

    def open_space(self, name: str, create: bool = True) -> ChromaSpace:
        return ChromaSpace(self.client, name, create, self.lock_dir)

    def delete_space(self, name: str) -> None:
        slug = space_slug(name)
        prefix = f"cw-{slug}-"
        found = False
        for col in self.client.list_collections():
            cname = col if isinstance(col, str) else col.name
            if cname.startswith(prefix) and (cname[len(prefix):] in ("meta", "nodes", "edges", "decisions")
                                              or cname[len(prefix):].startswith("x-")):
                self.client.delete_collection(cname)
                found = True
        if not found:
            raise WeaverError(f"space {name!r} does not exist")


_CLIENTS: dict[tuple, Any] = {}  # one Chroma client per location per process


def connect(settings) -> ChromaStore:
    """PersistentClient under ``settings.data_dir``, or HttpClient when a Chroma server is configured.

    The client is created once per process and location (Chroma refuses two
    clients with different settings on one path); every call shares it.
    """
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    chroma_settings = ChromaSettings(anonymized_telemetry=False, allow_reset=False)
    lock_dir = None if settings.chroma_host else Path(settings.data_dir).resolve() / "locks"
    if settings.chroma_host:
        key: tuple = ("http", settings.chroma_host, int(settings.chroma_port))
    else:
        key = ("path", str(Path(settings.data_dir).resolve() / "chroma"))
    client = _CLIENTS.get(key)
    try:
        if client is not None:
            pass
        elif settings.chroma_host:
            client = chromadb.HttpClient(host=settings.chroma_host, port=settings.chroma_port,
                                         settings=chroma_settings)
            client.heartbeat()
        else:
            path = Path(key[1])
            path.mkdir(parents=True, exist_ok=True)
            client = chromadb.PersistentClient(path=str(path), settings=chroma_settings)
    except WeaverError:
        raise
    except Exception as exc:
        where = (f"Chroma server at {settings.chroma_host}:{settings.chroma_port}" if settings.chroma_host
                 else f"Chroma data directory {settings.data_dir}")
        raise WeaverError(f"cannot open the {where}: {type(exc).__name__}: {exc}") from exc
    _CLIENTS[key] = client
    return ChromaStore(client, lock_dir)
