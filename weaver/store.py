"""Persistence in Chroma: one *space* = one memory, held in four collections.

``cw-<slug>-nodes`` (kept nodes with their embeddings), ``-decisions`` (every
filter decision with the message embedding, kept or not: the per-message commit
marker), ``-edges`` and ``-meta`` (space record: display name, embedder, task
focus history). Write order for one message: node, then edges, then decision.
On open, a node whose decision never landed (a crash mid-ingest) is removed
with its edges, and edges to missing nodes are dropped: see ``repair``.

Chroma's default embedding function downloads a model, so every collection is
created with :class:`NoEmbeddingFunction` and every record carries its vector.
"""

from __future__ import annotations

import hashlib
import json
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from .models import Edge, FilterDecision, MemoryNode, WeaverError

__all__ = ["SpaceData", "SpaceStore", "Store", "ChromaStore", "connect", "space_slug", "NoEmbeddingFunction"]

_BATCH = 1000
_UNIT = [1.0]  # edges and meta need a vector in Chroma; they are never searched by it


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


def _chunks(seq: list, n: int = _BATCH) -> Iterable[list]:
    for i in range(0, len(seq), n):
        yield seq[i : i + n]


class ChromaSpace(SpaceStore):
    def __init__(self, client, name: str, create: bool):
        self.client = client
        self.name = name
        self.slug = space_slug(name)
        self._ef = NoEmbeddingFunction()
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

    # ----------------------------------------------------------------- reads
    def load(self) -> SpaceData:
        data = SpaceData(meta=self.get_meta())
        n = self.nodes.get(include=["metadatas", "embeddings"])
        data.nodes = [MemoryNode.from_record(m) for m in n["metadatas"]]
        data.node_vectors = np.asarray(n["embeddings"], dtype=np.float32) if data.nodes else None
        d = self.decisions.get(include=["metadatas", "embeddings"])
        data.decisions = [FilterDecision.from_record(m) for m in d["metadatas"]]
        data.decision_vectors = np.asarray(d["embeddings"], dtype=np.float32) if data.decisions else None
        e = self.edges.get(include=["metadatas"])
        data.edges = [Edge.from_record(m) for m in e["metadatas"]]
        self._repair(data)
        return data

    def _repair(self, data: SpaceData) -> None:
        """Undo the traces of an ingest that crashed before its decision (commit marker) landed."""
        committed = {d.message_id for d in data.decisions}
        orphans = [nd.id for nd in data.nodes if nd.message_id not in committed]
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
        got = self.meta_col.get(ids=["space"], include=["documents"])
        return json.loads(got["documents"][0]) if got["ids"] else {}

    # ---------------------------------------------------------------- writes
    def put_nodes(self, nodes: list[MemoryNode], vectors: np.ndarray | None = None) -> None:
        for i in range(0, len(nodes), _BATCH):
            batch = nodes[i : i + _BATCH]
            kwargs = dict(ids=[n.id for n in batch], metadatas=[n.to_record() for n in batch],
                          documents=[n.content for n in batch])
            if vectors is not None:
                self.nodes.upsert(embeddings=np.asarray(vectors[i : i + _BATCH]).tolist(), **kwargs)
            else:
                self.nodes.update(**kwargs)

    def delete_nodes(self, ids: list[str]) -> None:
        for batch in _chunks(ids):
            self.nodes.delete(ids=batch)

    def put_edges(self, edges: list[Edge]) -> None:
        for batch in _chunks(edges):
            self.edges.upsert(
                ids=[e.id for e in batch],
                embeddings=[_UNIT] * len(batch),
                metadatas=[e.to_record() for e in batch],
                documents=[e.relation for e in batch],
            )

    def delete_edges(self, ids: list[str]) -> None:
        for batch in _chunks(ids):
            self.edges.delete(ids=batch)

    def put_decisions(self, decisions: list[FilterDecision], vectors: np.ndarray | None = None) -> None:
        for i in range(0, len(decisions), _BATCH):
            batch = decisions[i : i + _BATCH]
            kwargs = dict(ids=[d.message_id for d in batch], metadatas=[d.to_record() for d in batch],
                          documents=[d.content for d in batch])
            if vectors is not None:
                self.decisions.upsert(embeddings=np.asarray(vectors[i : i + _BATCH]).tolist(), **kwargs)
            else:
                self.decisions.update(**kwargs)

    def put_meta(self, meta: dict[str, Any]) -> None:
        self.meta_col.upsert(ids=["space"], embeddings=[_UNIT], documents=[json.dumps(meta, ensure_ascii=False)])

    def _records(self, kind: str):
        if not re.fullmatch(r"[a-z]{2,20}", kind):
            raise WeaverError(f"bad record kind {kind!r}")
        return self.client.get_or_create_collection(f"cw-{self.slug}-x-{kind}", embedding_function=self._ef)

    def put_records(self, kind: str, records: dict[str, dict]) -> None:
        col = self._records(kind)
        items = list(records.items())
        for batch in _chunks(items):
            col.upsert(
                ids=[k for k, _ in batch],
                embeddings=[_UNIT] * len(batch),
                documents=[json.dumps(v, ensure_ascii=False) for _, v in batch],
            )

    def get_records(self, kind: str) -> dict[str, dict]:
        got = self._records(kind).get(include=["documents"])
        return {i: json.loads(doc) for i, doc in zip(got["ids"], got["documents"])}

    def delete_records(self, kind: str, ids: list[str]) -> None:
        col = self._records(kind)
        for batch in _chunks(ids):
            col.delete(ids=batch)


class ChromaStore(Store):
    def __init__(self, client):
        _register()
        self.client = client

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
        return ChromaSpace(self.client, name, create)

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


def connect(settings) -> ChromaStore:
    """PersistentClient under ``settings.data_dir``, or HttpClient when a Chroma server is configured."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    chroma_settings = ChromaSettings(anonymized_telemetry=False, allow_reset=False)
    try:
        if settings.chroma_host:
            client = chromadb.HttpClient(host=settings.chroma_host, port=settings.chroma_port,
                                         settings=chroma_settings)
            client.heartbeat()
        else:
            path = Path(settings.data_dir) / "chroma"
            path.mkdir(parents=True, exist_ok=True)
            client = chromadb.PersistentClient(path=str(path), settings=chroma_settings)
    except WeaverError:
        raise
    except Exception as exc:
        where = (f"Chroma server at {settings.chroma_host}:{settings.chroma_port}" if settings.chroma_host
                 else f"Chroma data directory {settings.data_dir}")
        raise WeaverError(f"cannot open the {where}: {type(exc).__name__}: {exc}") from exc
    return ChromaStore(client)
