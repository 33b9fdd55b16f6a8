"""How a Chroma space writes its nodes, edges, decisions and meta: packed, batched, deferred into a section.

Mixed into :class:`~weaver.chroma_space.ChromaSpace`, which owns the collections. Every ``put_*`` /
``delete_*`` first offers itself to the open write section (``_defer``, :mod:`weaver.sections`), which
calls it again at the section's end; only then are the records packed (:mod:`weaver.record_codec`), cut
into Chroma's batch size and handed to ``_write`` (one raw call, or collected for the journal). Layout 2's
rule for decisions (a placeholder vector on the decision, a rejected message's vector held apart) is here.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import numpy as np

from .models import Edge, FilterDecision, MemoryNode
from .record_codec import pack
from .chroma_access import CHROMA_BATCH, PLACEHOLDER_VECTOR, chunked

__all__ = ["SpaceWrites"]


class SpaceWrites:
    if TYPE_CHECKING:  # provided by ChromaSpace, the class this one is mixed into (and its WriteSections)
        meta_col: Any
        nodes_name: str
        decisions_name: str
        held_name: str | None
        edges: Any

        def _write(self, collection: str, op: str, **kwargs) -> None: ...
        def _defer(self, group: str, op: str, *args) -> bool: ...

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
