"""The facade: ``ContextWeaver(space_store, embedder, reasoner, config)``.

Data flows one way: message -> filter -> node -> relations -> store; query ->
seeds -> expansion -> rank -> order -> context. The in-memory view (graph, vectors,
status mask, BM25, edge index: :class:`~weaver.mirror.Mirror`) mirrors the
space's Chroma collections (the system of record); it is built from them on open
and swapped whole when another writer changed the space.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Iterable

import networkx as nx
import numpy as np

from .blas import one_blas_thread
from .backends.base import Correction, Reasoner, RelateResult
from .builder import WINDOW, guess_edges, revisit_edge
from .relations.references import LOOKBACK
from .relations.revisits import REVISIT_LOOKBACK, episode_key
from .curation import Curation
from .probes import attach_probes
from .query_turns import query_vectors
from .embedding import Embedder, embed_text_for
from .filler import echo_words
from .filtering import TaskFocus, focus_history, judge, stored_meta
from .lexical import LexicalIndex
from .mirror import Mirror
from .graph import Neighbours
from .narrative import LineCosts
from .lifecycle.tiers import mark_tiers
from .models import Edge, FilterDecision, MemoryNode, Message, WeaverError, dependency_parts, new_id
from .neighbourhood import EdgeIndex, NodeFacts
from .retrieval import PLAIN_DENSE, NodeScores, RetrievalResult, retrieve, score_nodes
from .slots import asks_history
from .constraints import constraint_records, known_statement_values, moved_values
from .decision_context import apply_block, constraint_boost, decision_for, revision_count
from .tool_records import tool_records
from .settings import WeaverConfig
from .store import SpaceStore
from .text import clean_text, detect_language
from .validation import MAX_MESSAGE_CHARS, check_budget, check_task, prepare_message

__all__ = ["ContextWeaver", "IngestResult", "MAX_MESSAGE_CHARS"]

_EMBED_CHARS = 4000  # the embedded text is cut here (the node keeps everything)
_WRITE_BATCH = 32  # messages per deferred write batch in ingest_many


@dataclass
class IngestResult:
    decision: FilterDecision
    node: MemoryNode | None = None
    edges: list[Edge] = field(default_factory=list)
    duplicate: bool = False

    @property
    def kept(self) -> bool:
        return self.decision.kept

    def to_dict(self) -> dict[str, Any]:
        d = self.decision
        return {
            "message_id": d.message_id,
            "kept": d.kept,
            "scores": {
                "relevance": d.relevance,
                "novelty": d.novelty,
                "importance": d.importance,
                "total": d.total,
                "coarse": round(d.coarse, 4),
            },
            "reason": d.reason,
            "backend": d.backend,
            "fallback": d.fallback,  # why the model's answer was not used (shown in the chat and the tables)
            "node_id": self.node.id if self.node else None,
            "edges": [{"source": e.source, "target": e.target, "relation": e.relation} for e in self.edges],
            "duplicate": self.duplicate,
        }


class ContextWeaver:
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
        meta = data.meta
        emb = meta.get("embedder")
        if emb and (emb.get("name") != self.embedder.name or int(emb.get("dim", 0)) != self.embedder.dim):
            raise WeaverError(
                f"space {self.space.name!r} was built with embedder {emb.get('name')} ({emb.get('dim')}-d), "
                f"not {self.embedder.name} ({self.embedder.dim}-d); mixing vectors would make similarity "
                f"meaningless. Run `python -m weaver --space {self.space.name} reembed` to convert it."
            )
        if not emb:
            meta["embedder"] = {"name": self.embedder.name, "dim": self.embedder.dim}
            self.space.put_meta(meta)
        self.meta = meta
        m = self.mirror
        vecs = data.node_vectors if data.node_vectors is not None else np.zeros((0, self.embedder.dim), np.float32)
        decisions = data.decisions
        if data.snapshot is not None:  # nodes already in the mirror's order, with what the mirror derives
            m.adopt(data.nodes, vecs, data.snapshot)  # and the decisions, each made when first read
            decisions = data.snapshot.decisions.shifted()  # what the focus history reads below
        else:
            cache = self.space.read_cache("derived") if data.nodes else {}
            rows = sorted(range(len(data.nodes)), key=lambda i: (data.nodes[i].turn, data.nodes[i].timestamp))
            m.add_nodes([data.nodes[i] for i in rows], vecs, np.asarray(rows, dtype=np.int64), cache)
            if m.derived_misses or len(cache) > len(m.derived):  # new nodes (or removed ones): the next open
                self.space.write_cache("derived", m.derived)  # reuses it
        data.node_vectors = data.snapshot = None  # the mirror holds them now: one copy at a time
        del vecs
        m.add_edges(data.edges)
        own = data.own_decision_vectors
        dvecs = data.decision_vectors
        timed = (
            () if data.from_snapshot else sorted(range(len(data.decisions)), key=lambda i: data.decisions[i].timestamp)
        )
        for i in timed:
            dec = data.decisions[i]  # (from a snapshot, adopt took them)
            m.add_decision(dec, own.get(dec.message_id) if own is not None else None if dvecs is None else dvecs[i])
        self.loaded_from = "snapshot" if data.from_snapshot else "chroma"
        # a full load: the next open reads it back in a fraction of the time, while nothing changes the space
        self.space.write_snapshot(data, m)
        if any(d.focus_shift_at for d in decisions) or "focus_history" in meta:
            meta["focus_history"] = focus_history(meta.get("focus_history", []), decisions)
        task = meta.get("task")
        if task:
            self.focus.set_task(task, self.embed([task])[0])
        for nid in m.order[-self.focus.window :]:
            node = m.nodes[nid]
            d = m.decisions.get(node.message_id or "")
            if d is not None and d.focus_shift_at:  # the topic opened there, as when it was ingested
                self.focus.begin_topic()
            self.focus.observe(m.vector_of(nid), node.importance, node.kind, node.content)

    # ------------------------------------------------ reads of the mirror
    # what other modules read; the mirror itself is written only here
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
            try:
                with self.space.deferred():  # the section lands whole or not at all (see chroma_space)
                    yield
            finally:
                self._depth -= 1
                if outer:
                    self._rev = self.space.bump_revision()
                    if getattr(self, "_reload_pending", False):  # a node went or came back (see curation.nodes)
                        self._reload_pending = False
                        ContextWeaver.__init__(
                            self, self.space, self.embedder, self.reasoner, self.config, self.summarizer
                        )

    def reload_after_write(self) -> None:
        """Rebuild every mirror from the store when the current write section ends (a node removed/restored)."""
        self._reload_pending = True

    def flush(self) -> int:
        """Apply every acknowledged write still in the space's write-behind log to Chroma (see
        :mod:`weaver.write_log`); returns the write sections applied. An ingest is durable without it; call it
        when another program reads the Chroma collections directly."""
        return self.space.sync()

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
        return [
            Edge(
                u,
                v,
                d["relation"],
                d["confidence"],
                d["origin"],
                d.get("rationale", ""),
                d.get("created_at", 0.0),
                d.get("status", "proposed"),
            )
            for u, v, d in self.graph.edges(data=True)
        ]

    def set_task(self, text: str) -> None:
        """Set the task focus (kept in the space's focus history)."""
        text = check_task(text)
        vec = self.embed([text])[0]
        with self.writing():
            self.focus.set_task(text, vec)
            self.meta["task"] = text
            self.meta.setdefault("focus_history", []).append({"task": text, "turn": self.turn, "at": time.time()})
            self.space.put_meta(stored_meta(self.meta))

    def _prepare(self, msg: Message) -> Message:
        return prepare_message(msg)  # every rule, before any write (weaver/validation.py)

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

    def _check_dependencies(self, prepared: list[Message]) -> None:
        """Every declared dependency names an earlier memory: a known node or message, or one earlier in the
        batch (checked before anything is written)."""
        seen: set[str] = set()
        for m in prepared:
            for dep in m.depends_on:
                ref = dependency_parts(dep)[0]
                if ref == m.message_id:
                    raise WeaverError(f"depends_on: message {ref!r} cannot depend on itself (a cycle)")
                if ref in self.nodes or ref in self.decisions or ref in seen:
                    continue
                if any(ref == later.message_id for later in prepared):
                    raise WeaverError(
                        f"depends_on: {ref!r} comes later in the batch; a memory depends only on earlier ones"
                    )
                raise WeaverError(f"depends_on: no node or message {ref!r} in space {self.space.name!r}")
            assert m.message_id is not None  # a prepared message has its id
            seen.add(m.message_id)

    def _declared_edges(self, node: MemoryNode, depends_on: list) -> list[Edge]:
        edges: dict[str, Edge] = {}
        for dep in depends_on:
            ref, relation, why = dependency_parts(dep)
            parent = ref if ref in self.nodes else (self.decisions[ref].node_id if ref in self.decisions else "")
            if not parent or parent == node.id or parent in edges:
                continue  # a message the filter did not keep has no node to depend on
            edges[parent] = Edge(parent, node.id, relation, 1.0, "agent", why or "declared by the caller")
        return list(edges.values())

    @one_blas_thread
    def ingest_many(self, messages: Iterable[Message]) -> list[IngestResult]:
        """Filter, weave and persist messages in order (their embeddings computed in one batch).

        A message whose id was already ingested returns its stored result (idempotent).
        """
        prepared = [self._prepare(m) for m in messages]
        self._check_dependencies(prepared)
        todo = [m for m in prepared if m.message_id not in self.decisions]
        texts = []
        summary_cost: dict[str | None, tuple[int, int]] = {}  # LLM calls and tokens, counted on its decision
        for m in todo:
            if m.kind == "tool_result" and self.summarizer and len(m.content) > 400 and "summary" not in m.meta:
                summary, calls, tokens = self.summarizer(m.meta.get("tool", ""), m.content)
                summary_cost[m.message_id] = (calls, tokens)
                if summary:
                    m.meta["summary"] = summary
            texts.append(embed_text_for(m.content, m.kind, m.meta, self.config.embed_prefix))
        vecs: np.ndarray | list[np.ndarray] = self.embed(texts) if texts else []
        by_id = {m.message_id: (v, t) for m, v, t in zip(todo, vecs, texts)}
        out = []
        # a batch holds the writer lock and defers its Chroma writes to a few calls at its end
        # (decisions, the commit markers, last); another writer can interleave between batches
        for start in range(0, len(prepared), _WRITE_BATCH):
            with self.writing():
                batch = [
                    self._existing(m.message_id or "")  # (a key: never None)
                    if m.message_id in self.decisions
                    else self._weave(m, *by_id[m.message_id], summary_cost.get(m.message_id, (0, 0)))
                    for m in prepared[start : start + _WRITE_BATCH]
                ]
            out += batch
            if any(r.kept and not r.duplicate for r in batch):
                # the periodic review pass: after the batch committed, as its own write section, so a crash
                # mid-batch never leaves an automatic edit whose cause was rolled back
                self.curation.after_kept()
        return out

    def _existing(self, message_id: str) -> IngestResult:
        d = self.decisions[message_id]
        node = self.nodes.get(d.node_id) if d.node_id else None
        edges = [e for e in self.edges() if node and e.target == node.id]
        return IngestResult(d, node, edges, duplicate=True)

    def _weave(
        self, m: Message, vec: np.ndarray, embed_text: str, summary_cost: tuple[int, int] = (0, 0)
    ) -> IngestResult:
        cfg = self.config
        if m.kind == "user_input" and "turn" not in m.meta:
            self.turn += 1
        turn = int(m.meta.get("turn", self.turn))
        self.turn = max(self.turn, turn)
        assert m.message_id is not None  # a prepared message has its id
        mirror = self.mirror
        v = judge(
            self.reasoner,
            cfg,
            m.content,
            m.kind,
            vec,
            self.focus,
            mirror.matrix if len(mirror) else None,
            _Contents(mirror),
            mirror.words,  # read, never changed, before this message's words join them
            mirror.numbers,
            *self._heard(m),
        )
        res = v.result
        lang = detect_language(m.content)
        decision = FilterDecision(
            message_id=m.message_id,
            kind=m.kind,
            content=m.content,
            turn=turn,
            coarse=round(v.coarse, 4),
            relevance=res.relevance,
            novelty=res.novelty,
            importance=res.importance,
            total=v.total,
            coarse_threshold=cfg.coarse_threshold,
            keep_threshold=cfg.keep_threshold,
            kept=v.kept,
            reason=v.reason,
            backend=res.backend,
            latency_ms=round(v.latency_ms, 2),
            llm_calls=res.llm_calls + summary_cost[0],
            llm_tokens=res.llm_tokens + summary_cost[1],
            fallback=res.fallback,
            timestamp=m.timestamp or time.time(),
            language=lang,
            meta=m.meta,
        )
        node, edges = None, []
        if v.kept:
            node, edges, rel = self._make_node(decision, vec, embed_text, m.depends_on)
            decision.llm_calls += rel.llm_calls
            decision.llm_tokens += rel.llm_tokens
            if rel.fallback:
                decision.fallback = "; ".join(x for x in (decision.fallback, "relations: " + rel.fallback) if x)
        # the decision is the commit marker: written last
        self.space.put_decisions([decision], vec[None, :])
        mirror.add_decision(decision, vec)
        return IngestResult(decision, node, edges)

    def _heard(self, m: Message) -> tuple[str, frozenset[str]]:
        """The speaker's name a message's text may begin with, and what it may echo of the message before it
        (kept or not): a reaction is filler when nothing of its own is left (weaver/filler.py)."""
        speaker = str((m.meta or {}).get("speaker") or "")
        before = self.mirror.latest_decision()
        if before is None:
            return speaker, frozenset()
        return speaker, echo_words(before.content, str((before.meta or {}).get("speaker") or ""))

    def _make_node(self, d: FilterDecision, vec, embed_text, depends_on=()):
        """The kept message's node and edges (written), and on its decision ``d`` (the commit marker, written
        last by the caller) what lands with it: the node id, the builder's audit entry, a focus shift."""
        content, kind, turn = d.content, d.kind, d.turn
        node = MemoryNode(
            id=new_id("n"),
            content=content,
            kind=kind,
            turn=turn,
            message_id=d.message_id,
            timestamp=d.timestamp,
            language=d.language,
            importance=float(d.importance),
            meta=d.meta,
            embed_text=embed_text[:2000],
        )
        if kind == "user_input":
            now = moved_values(self, content, d.meta.get("speaker"), d.language)
            if now:  # "预算再加两千": the line carries the value it makes, whatever else the context holds
                node.meta = {**node.meta, "now": now}
        if depends_on:  # the caller knows: nothing is guessed beside what it declared
            edges, rel = self._declared_edges(node, depends_on), RelateResult([], "agent")
        else:
            window = self._window()
            wvecs = np.stack([self.vector_of(n.id) for n in window]) if window else None
            earlier = [self.nodes[i] for i in self.mirror.order[-LOOKBACK:] if self.nodes[i].status == "active"]
            edges, rel = guess_edges(
                node,
                vec,
                window,
                wvecs,
                self.reasoner,
                list(self.corrections),
                earlier=earlier,
                vector_of=self.vector_of,
            )
            revisit = self._revisit(node, vec, {e.source for e in edges})
            if revisit is not None:
                edges.append(revisit)
        self.space.put_nodes([node], vec[None, :])
        if edges:
            self.space.put_edges(edges)
        # the builder's audit entry rides on the decision: it lands with the commit marker, at no write of its own
        d.node_id, d.audit = node.id, self.curation.build_entry(node, edges).to_dict()
        self.mirror.add_node(node, vec)
        for e in edges:
            self.mirror.add_edge(e)
        # a restated slot value (budget 5000 -> 8000) supersedes the earlier statement in this same write
        edges = self.curation.supersede_on_arrival(node, edges)
        if kind == "user_input" and self.focus.is_shift(vec, content):
            # a user message that opens a new topic (weaver.topic_shift): the focus follows it; the time
            # is kept on the message's decision, so the shift lands with it or not at all
            d.focus_shift_at = time.time()
            self.meta.setdefault("focus_history", []).append(
                {"shift": content[:120], "turn": turn, "at": d.focus_shift_at, "message_id": d.message_id}
            )
            self.focus.begin_topic()
        self.focus.observe(vec, float(d.importance), kind, content)
        return node, edges, rel

    def _revisit(self, node: MemoryNode, vec: np.ndarray, exclude: set[str]) -> Edge | None:
        """The builder's link to what ``node`` revisits from another session (weaver/relations/revisits.py),
        searched among the latest active memories; only a memory with a named speaker and a session has one."""
        if not node.meta.get("speaker") or episode_key(node.meta) is None:
            return None
        m = self.mirror
        rows = [r for r in range(max(0, len(m.order) - REVISIT_LOOKBACK), len(m.order))]
        rows = [r for r in rows if self.nodes[m.order[r]].status == "active"]
        if not rows:
            return None
        earlier = [self.nodes[m.order[r]] for r in rows]
        return revisit_edge(node, vec, earlier, m.matrix[rows], m.lexical.holders, exclude)

    def _window(self) -> list[MemoryNode]:
        """The latest active memories, oldest first: where a new memory's parent is guessed."""
        return self.mirror.latest_active(WINDOW)

    def promote(self, message_id: str) -> IngestResult:
        """Weave a rejected message into the graph after all (a curator overrides the filter)."""
        with self.writing():
            return self._promote(message_id)

    def _promote(self, message_id: str) -> IngestResult:
        d = self.decisions.get(message_id)
        if d is None:
            raise WeaverError(f"no message {message_id!r} in this space")
        if d.kept:
            return self._existing(message_id)
        vec = self.decision_vector(message_id)
        text = embed_text_for(d.content, d.kind, d.meta, self.config.embed_prefix)
        node, edges, _ = self._make_node(d, vec, text)
        d.kept, d.promoted = True, True
        d.reason = f"promoted by a curator ({d.reason})"
        self.space.put_decisions([d], vec[None, :])
        return IngestResult(d, node, edges)

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
        text = clean_text(text or "")
        if not text:
            raise WeaverError("the query is empty")
        budget = check_budget(budget)
        cfg = config or self.config
        qvec = self.query_vector(text)
        # a decision's constraints in force come first, their tokens reserved (weaver/decision_context.py)
        budget = cfg.budget if budget is None else budget
        block = decision_for(self, text, cfg, budget) if expand and cfg.decision_context else None
        boost = constraint_boost(self, cfg) if expand else None  # a user who revises often: constraints weigh more
        m = self.mirror
        result = retrieve(
            m.graph,
            m.order,
            m.matrix,
            m.lexical,
            text,
            qvec,
            cfg,
            budget - block.tokens if block else budget,
            expand_graph=expand,
            facts=m.facts,
            edges=m.usable_edges(),
            shown=m.shown(asks_history(text)),
            position=m.position,
            boost=boost,
            cold=m.cold(),
            line_costs=LineCosts(m.per_node("line_costs")[0]),  # kept while the mirror lives: see LineCosts
            neighbours=m.memo("neighbours", lambda: Neighbours(m.graph)),  # kept until a node or edge changes
        )
        result.config["revisions"] = block.revisions if block else (revision_count(self) if boost else 0)
        if block is not None:
            result = apply_block(m.graph, result, block, budget, lambda sts: known_statement_values(self, sts))
        mark_tiers(self, result)  # which memory tier each memory came from (weaver.lifecycle.tiers)
        if record_access and result.nodes:
            now = time.time()
            touched = []
            for rn in result.nodes:
                node = self.nodes[rn.id]
                node.access_count += 1
                node.last_access = now
                touched.append(node)
            self.space.put_nodes(touched)
        return result

    def score_nodes(
        self, query: str, config: WeaverConfig | None = None, query_vec: np.ndarray | None = None
    ) -> NodeScores:
        """Every node's scores for a query, as retrieval computes them (aligned with ``node_ids``)."""
        m = self.mirror
        qvec = self.query_vector(query) if query_vec is None else query_vec
        return score_nodes(
            m.graph,
            m.order,
            m.matrix,
            m.lexical,
            query,
            qvec,
            config or self.config,
            m.facts,
            m.usable_edges(),
            shown=m.shown(asks_history(query)),
            cold=m.cold(),
        )

    def constraints(self, include_lifted: bool = False) -> list:
        """The user's constraint records: current value, provenance node, history (weaver/constraints.py)."""
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
        return {
            "space": self.space.name,
            "embedder": self.meta.get("embedder"),
            "task": self.meta.get("task"),
            "nodes": [self.nodes[i].to_record() | {"meta": self.nodes[i].meta} for i in self.mirror.order],
            "edges": [e.to_record() for e in self.edges()],
            "decisions": [d.to_record() | {"meta": d.meta} for d in self.decisions.values()],
        }

    def export_graphml(self) -> str:
        g = nx.DiGraph()
        for i in self.mirror.order:
            n = self.nodes[i]
            g.add_node(
                i,
                content=n.content,
                kind=n.kind,
                turn=n.turn,
                status=n.status,
                language=n.language,
                timestamp=n.timestamp,
                message_id=n.message_id,
            )
        for e in self.edges():
            g.add_edge(
                e.source,
                e.target,
                relation=e.relation,
                origin=e.origin,
                confidence=e.confidence,
                status=e.status,
                rationale=e.rationale,
                created_at=e.created_at,
            )
        return "\n".join(nx.generate_graphml(g))


class _Contents(Sequence[str]):
    """The kept memories' texts in node order, read lazily (the filter reads a few, never all of them)."""

    def __init__(self, mirror: Mirror) -> None:
        self._m = mirror

    def __len__(self) -> int:
        return len(self._m.order)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self._m.nodes[x].content for x in self._m.order[i]]
        return self._m.nodes[self._m.order[i]].content

    def __iter__(self):
        return (self._m.nodes[x].content for x in self._m.order)
