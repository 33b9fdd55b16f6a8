"""The storage interfaces of a memory space: what the facade reads on open and writes through.

:class:`SpaceStore` is one space (the facade's only view of storage: load whole, put and delete records,
the single-writer protocol, optional local caches and snapshot); :class:`Store` lists, opens and deletes
spaces; :class:`SpaceData` is what a load returns. Kept apart from the Chroma implementation
(:mod:`weaver.store`, :mod:`weaver.chroma_space`) so a fake or another backend needs only this module.
"""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from .models import Edge, FilterDecision, MemoryNode

__all__ = ["SpaceData", "SpaceStore", "Store"]


@dataclass
class SpaceData:
    nodes: list[MemoryNode] = field(default_factory=list)
    node_vectors: np.ndarray | None = None
    edges: list[Edge] = field(default_factory=list)
    # from a snapshot: a sequence whose decisions are made when read (weaver.snapshot.DecisionRows)
    decisions: Sequence[FilterDecision] = field(default_factory=list)
    decision_vectors: np.ndarray | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    repaired: list[str] = field(default_factory=list)
    # read from a local snapshot (weaver.snapshot) instead of Chroma: then ``decision_vectors`` is None and
    # ``own_decision_vectors`` holds the vectors of decisions without a node (a kept one's vector is its node's)
    from_snapshot: bool = False
    own_decision_vectors: dict[str, np.ndarray] | None = None
    snapshot: Any = None  # the weaver.snapshot.Snapshot read (its tokens, BM25 columns, words and numbers)
    # the stamp this data was read at (a full load from Chroma that repaired nothing): it may be snapshotted
    stamp: dict[str, Any] | None = None


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

    def sync(self) -> int:
        """Bring the system of record up to date with every acknowledged write (a store may write behind)."""
        return 0

    # single-writer protocol (a store without a lock directory has no cross-process writers)
    def write_lock(self):
        return contextlib.nullcontext()

    def revision(self) -> str:
        return ""

    def bump_revision(self) -> str:
        return ""

    # a local cache of facts derived from records (never the record itself: Chroma stays the system of record)
    def read_cache(self, kind: str) -> dict:
        return {}

    def write_cache(self, kind: str, data: dict) -> None:
        return None

    # a local snapshot of a full load (weaver.snapshot), for the next open; a store without one ignores it
    def write_snapshot(self, data: SpaceData, mirror: Any) -> bool:
        return False

    def close(self) -> None:
        """Apply what is written behind and let go of what this space holds (a store may hold nothing)."""
        self.sync()


class Store(ABC):
    @abstractmethod
    def list_spaces(self) -> list[str]: ...

    @abstractmethod
    def open_space(self, name: str, create: bool = True) -> SpaceStore: ...

    @abstractmethod
    def delete_space(self, name: str) -> None: ...

    # releasing what the store holds (a client, its connections); a store holding nothing has nothing to do
    @property
    def closed(self) -> bool:
        return False

    def close(self) -> None:
        return None
