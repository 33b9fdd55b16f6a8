"""The facade: ``ContextWeaver(space_store, embedder, reasoner, config)``.

Data flows one way: message -> filter -> node -> relations -> store; query ->
seeds -> expansion -> rank -> order -> context. The in-memory view (graph, vectors,
status mask, BM25, edge index: :class:`~weaver.mirror.Mirror`) mirrors the
space's Chroma collections (the system of record); it is built from them on open
and swapped whole when another writer changed the space.

This class owns that view and the single-writer section every write goes
through; the steps live beside it (as graphiti's facade delegates): filling the
mirror on open in :mod:`weaver.mirror_load`, the ingest path in
:mod:`weaver.ingest` and :mod:`weaver.kept_node`, the query in
:mod:`weaver.querying`, exports in :mod:`weaver.graph_export`.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import MutableMapping
from typing import Iterable

import networkx as nx
import numpy as np

from .backends.base import Correction, Reasoner
from .blas import one_blas_thread
from .constraints import constraint_records
from .curation import Curation
from .decision_context import revision_count
from .embedding import Embedder
from .filtering import TaskFocus, stored_meta
from .graph_export import edge_records, graphml, node_link
from .ingest import IngestResult, ingest_messages, promote_message
from .lexical import LexicalIndex
from .mirror import Mirror
from .mirror_load import check_embedder, fill_mirror
from .models import Edge, FilterDecision, MemoryNode, Message
from .neighbourhood import EdgeIndex, NodeFacts
from .probes import attach_probes
from .query_turns import query_vectors
from .querying import node_scores, run_query
from .retrieval import PLAIN_DENSE, NodeScores, RetrievalResult
from .settings import WeaverConfig
from .store_api import SpaceStore
from .tool_records import tool_records
from .validation import MAX_MESSAGE_CHARS, check_query, check_task

__all__ = ["ContextWeaver", "IngestResult", "MAX_MESSAGE_CHARS"]

_EMBED_CHARS = 4000  # the embedded text is cut here (the node keeps everything)


class ContextWeaver:
    closed = False  # see close()

    def __init__(
        self,
        space: SpaceStore,
        embedder: Embedder,
        reasoner: Reasoner,
        config: WeaverConfig | None = None,
        summarizer=None,
    ):
        self.space = space
        self.embedder = embedder
        self.reasoner = reasoner
        self.config = config or WeaverConfig()
        self.summarizer = summarizer  # optional: (tool, output) -> (summary | None, calls, tokens)
        # review pass backend (Runtime sets the review model; None: the builder's reasoner)
        self.review_reasoner = None
        self._depth = 0  # nesting of write sections in progress (see writing())
        self._open()

    # ------------------------------------------------------------------ load
    def _open(self) -> None:
        """Build the in-memory view from the store and its collaborators over it (on open and on refresh).

        Under the writer lock: the repairs on open (store, audit log) must never race a live writer.
        """
        with self.space.write_lock():
            self.mirror = Mirror(self.embedder.dim)
            self.focus = TaskFocus(self.config.focus_window)
            self.repaired: list[str] = []
            self.corrections: list[Correction] = []
            self._rev = ""  # the space's revision this mirror reflects (see writing())
            self._load()
            # audit log, review queue and the space's human corrections (loaded into self.corrections)
            self.curation = Curation(self)
            attach_probes(self)  # saved retrieval probes re-run after every review pass

    def _load(self) -> None:
        with self.space.write_lock():  # a consistent snapshot: no writer is mid-message
            data = self.space.load()
            self._rev = self.space.revision()
        self.repaired = data.repaired
        check_embedder(self.space, self.embedder, data.meta)
        self.meta = data.meta
        self.loaded_from = fill_mirror(self.space, data, self.embedder.dim, self.embed, self.mirror, self.focus)

    # ------------------------------------------------ reads of the mirror
    # what other modules read; the mirror itself is written only by the facade and its steps (ingest, load)
    @property
    def graph(self) -> nx.DiGraph:
        return self.mirror.graph

    @property
    def nodes(self) -> dict[str, MemoryNode]:
        return self.mirror.nodes

    @property
    def decisions(self) -> MutableMapping[str, FilterDecision]:
        return self.mirror.decisions

    @property
    def facts(self) -> NodeFacts:
        """Each node's speaker and episode, in node order."""
        return self.mirror.facts

    @property
    def lexical(self) -> LexicalIndex:
        return self.mirror.lexical

    @property
    def edge_index(self) -> EdgeIndex:
        """Retrieval's usable edges by node position (rebuilt here first if an edit made it stale)."""
        return self.mirror.usable_edges()

    @property
    def turn(self) -> int:
        return self.mirror.turn

    @turn.setter
    def turn(self, value: int) -> None:
        self.mirror.turn = value

    @property
    def matrix(self) -> np.ndarray:
        """Node vectors in node order (a read-only view, no copy)."""
        return self.mirror.matrix

    def edges_changed(self) -> None:
        """Call after editing graph edges in place: retrieval's edge index is rebuilt before the next query."""
        self.mirror.edge_index.stale = True
        self.mirror.changed()

    def memo(self, key, compute):
        """``compute()`` once per state of the mirror (recomputed after any node, status or edge change)."""
        return self.mirror.memo(key, compute)

    def set_node_status(self, node_id: str, status: str, meta: dict | None = None) -> None:
        """Change a node's status in the mirror (curation persists it): graph, node and query mask agree."""
        node = self.nodes[node_id]
        self.mirror.set_status(node_id, status, dict(node.meta if meta is None else meta))

    def decision_node(self, message_id: str) -> str | None:
        """The node a message's decision names ("" for a rejected message; None when there is no decision)."""
        return self.mirror.decision_node(message_id)

    def build_audits(self) -> list[dict]:
        """The build audit entries the decisions of kept messages carry (curation reads them on open), without
        making every decision an object."""
        return self.mirror.build_audits()

    def decision_vector(self, message_id: str) -> np.ndarray:
        """The embedding of a message (kept or not)."""
        return self.mirror.decision_vector(message_id)

    def embed(self, texts: list[str]) -> np.ndarray:
        """Unit vectors of texts with the space's embedder (cut where the weaver cuts what it embeds)."""
        return self.embedder.embed([t[:_EMBED_CHARS] for t in texts])

    def query_vector(self, text: str) -> np.ndarray:
        """A query's vector; for a query of several turns (a dialogue so far), the whole then each turn
        (weaver/query_turns.py: a memory's similarity hears the turn it matches best)."""
        return query_vectors(self.embed, text)

    def vector_of(self, node_id: str) -> np.ndarray:
        """A node's unit vector."""
        return self.mirror.vector_of(node_id)

    # kept one release for callers written before the mirror had an owner: use vector_of / edge_index / embed
    _matrix_row = vector_of
    _embed = embed

    def _edge_index(self) -> EdgeIndex:
        return self.mirror.usable_edges()

    # ------------------------------------------------------- single writer
    @contextlib.contextmanager
    def writing(self):
        """One write section: hold the space's writer lock, catch up with other writers, mark the change.

        Every write to the space goes through here, so two processes (the
        studio and a CLI ingest) never weave from a stale mirror or duplicate a
        message id.
        """
        with self.space.write_lock():
            outer = self._depth == 0
            if outer:  # a nested section (a curation edit inside another) must not reload mid-way
                self.refresh()
            self._depth += 1
            failed: BaseException | None = None
            try:
                with self.space.deferred():  # the section lands whole or not at all (see chroma_space)
                    yield
            except BaseException as exc:
                failed = exc
                raise
            finally:
                self._depth -= 1
                if outer and failed is not None:
                    self._reload_after_failure(now=isinstance(failed, Exception))
                elif outer:
                    self._rev = self.space.bump_revision()
                    if getattr(self, "_reload_pending", False):  # a node went or came back (see curation.nodes)
                        self._reload_pending = False
                        ContextWeaver.__init__(
                            self, self.space, self.embedder, self.reasoner, self.config, self.summarizer
                        )

    def _reload_after_failure(self, now: bool) -> None:
        """A write section that failed part-way (the Chroma server went away, a bug mid-message) may have left the
        mirror holding what the store never got: that message was then recalled, its budget read as a
        constraint, and the same message id sent again answered as a duplicate and never stored. The mirror is
        read again from the store (``now``; after an interrupt, Ctrl-C, at the next read or write: the process
        is usually on its way out); while the store cannot be read, reads raise rather than answer from it."""
        self._reload_pending = False
        self._stale = True
        self._rev = ""  # the next write section reloads whatever the store's revision
        if now:
            with contextlib.suppress(Exception):  # the store may be the part that failed
                self._open()
                self._stale = False

    def _current(self) -> None:
        """Before a read: a mirror left stale by a failed write section is read again from the store first."""
        if getattr(self, "_stale", False):
            self._open()
            self._stale = False

    def reload_after_write(self) -> None:
        """Rebuild every mirror from the store when the current write section ends (a node removed/restored)."""
        self._reload_pending = True

    def flush(self) -> int:
        """Apply every acknowledged write still in the space's write-behind log to Chroma (see
        :mod:`weaver.write_log`); returns the write sections applied. An ingest is durable without it; call it
        when another program reads the Chroma collections directly."""
        return self.space.sync()

    def close(self) -> None:
        """Apply the write-behind log to Chroma and release the in-memory view (idempotent); the weaver cannot
        be used after. The runtime's Chroma client stays open until :meth:`weaver.runtime.Runtime.close`.

        Why dropping the object is not enough: the weaver and its curation refer to each other, so only the
        cyclic collector frees them, and each open freezes every object the process holds (see
        :func:`weaver.mirror.paused_gc`): a weaver dropped before a later open stays, mirror and all, until the
        process ends. Closing drops the mirror and the curation here, so reference counting frees them."""
        if self.closed:
            return
        self.space.close()
        self.mirror = Mirror(self.embedder.dim)
        self.focus = TaskFocus(self.config.focus_window)
        self.corrections = []
        del self.curation  # breaks the weaver <-> curation cycle (its audit log: a record per message)
        self.closed = True

    def warm(self) -> dict[str, float]:
        """Load now what the first ingest and query after an open load on first use (the store's vector index
        at >= 20k nodes, the supersede index, the segmenter's tables); seconds per part. Safe in a thread beside
        ingest and queries; changes no result (see :mod:`weaver.warming`)."""
        from .warming import warm

        return warm(self)

    def refresh(self) -> bool:
        """Reload the mirror if another writer changed the space since it was read (cheap when not)."""
        if self.space.revision() == self._rev:  # a file read, no lock: a page run never waits for a writer
            return False
        with self.space.write_lock():
            if self.space.revision() == self._rev:
                return False
            # a new mirror (graph, vectors, BM25, focus, audit log, corrections...) from the store, swapped in
            self._open()
            return True

    # ---------------------------------------------------------------- public
    @property
    def node_ids(self) -> list[str]:
        return list(self.mirror.order)

    @property
    def node_count(self) -> int:
        return len(self.mirror)

    def position_of(self, node_id: str) -> int:
        """A node's index in ``node_ids`` (arrival order)."""
        return self.mirror.position[node_id]

    def edges(self) -> list[Edge]:
        return edge_records(self.graph)

    def set_task(self, text: str) -> None:
        """Set the task focus (kept in the space's focus history)."""
        text = check_task(text)
        vec = self.embed([text])[0]
        with self.writing():
            self.focus.set_task(text, vec)
            self.meta["task"] = text
            self.meta.setdefault("focus_history", []).append({"task": text, "turn": self.turn, "at": time.time()})
            self.space.put_meta(stored_meta(self.meta))

    def ingest(
        self,
        content: str,
        kind: str = "user_input",
        meta: dict | None = None,
        message_id: str | None = None,
        timestamp: float | None = None,
        depends_on: list | None = None,
    ) -> IngestResult:
        """Weave one message. ``depends_on``: what the caller knows it depends on, as ``(node id or
        message id, relation[, why])`` — recorded as edges of origin ``agent`` (confidence 1.0) instead of
        guessed ones."""
        return self.ingest_many([Message(content, kind, meta or {}, message_id, timestamp, depends_on or [])])[0]

    @one_blas_thread
    def ingest_many(self, messages: Iterable[Message]) -> list[IngestResult]:
        """Filter, weave and persist messages in order (their embeddings computed in one batch).

        A message whose id was already ingested returns its stored result (idempotent).
        """
        return ingest_messages(self, messages)

    def promote(self, message_id: str) -> IngestResult:
        """Weave a rejected message into the graph after all (a curator overrides the filter)."""
        with self.writing():
            return promote_message(self, message_id)

    # -------------------------------------------------------------- retrieval
    @one_blas_thread
    def query(
        self,
        text: str,
        budget: int | None = None,
        expand: bool = True,
        record_access: bool = False,
        config: WeaverConfig | None = None,
    ) -> RetrievalResult:
        """The context for ``text``: a decision's constraints in force first, then retrieval's memories
        within the rest of the token ``budget`` (weaver/querying.py)."""
        self._current()
        return run_query(self, check_query(text), budget, expand, record_access, config)

    def score_nodes(
        self, query: str, config: WeaverConfig | None = None, query_vec: np.ndarray | None = None
    ) -> NodeScores:
        """Every node's scores for a query, as retrieval computes them (aligned with ``node_ids``)."""
        self._current()
        return node_scores(self, check_query(query) or "", config, query_vec)

    def constraints(self, include_lifted: bool = False) -> list:
        """The user's constraint records: current value, provenance node, history (weaver/constraints.py)."""
        self._current()
        return constraint_records(self, include_lifted)

    def tool_records(self, tool: str | None = None, domain: str | None = None) -> list:
        """Entities the tools returned, with their fields and provenance node (weaver/tool_records.py)."""
        return tool_records(self, tool, domain)

    def revisions(self) -> int:
        """How often the user revised a constraint (supersedes edges): what personalised weighting counts."""
        return revision_count(self)

    def vector_top_k(self, text: str, budget: int | None = None) -> RetrievalResult:
        """Plain dense top-k at the same budget (the baseline the debugger compares against)."""
        cfg = self.config.with_(**PLAIN_DENSE)
        return self.query(text, budget, expand=False, config=cfg)

    # ---------------------------------------------------------------- export
    def export_node_link(self) -> dict:
        return node_link(self)

    def export_graphml(self) -> str:
        return graphml(self)
