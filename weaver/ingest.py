"""The ingest path of :class:`~weaver.core.ContextWeaver`: messages -> filter -> decisions (and kept nodes).

Owns the order of one ingest: validate every message and its declared dependencies before anything is
written, embed the new ones in one batch, then weave them in write sections of ``WRITE_BATCH`` messages,
each message's decision (the commit marker) written last. What a *kept* message becomes (its node, edges,
focus shift) is :mod:`weaver.kept_node`'s. The facade keeps the public methods and the write section; the
steps live here so the facade stays a readable list of what the weaver does.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable

import numpy as np

from .embedding import embed_text_for
from .filler import echo_words, is_filler
from .filtering import asks, judge
from .kept_node import make_node
from .mirror import Mirror
from .nearest import INDEX_MIN_ROWS, nearest_indexed
from .models import Edge, FilterDecision, MemoryNode, Message, WeaverError, dependency_parts
from .text import detect_language
from .validation import prepare_messages

if TYPE_CHECKING:
    from .core import ContextWeaver

__all__ = ["IngestResult", "WRITE_BATCH", "existing", "ingest_messages", "promote_message"]

WRITE_BATCH = 32  # messages per deferred write batch in ingest_many


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


def check_dependencies(w: ContextWeaver, prepared: list[Message]) -> None:
    """Every declared dependency names an earlier memory: a known node or message, or one earlier in the
    batch (checked before anything is written)."""
    seen: set[str] = set()
    for m in prepared:
        for dep in m.depends_on:
            ref = dependency_parts(dep)[0]
            if ref == m.message_id:
                raise WeaverError(f"depends_on: message {ref!r} cannot depend on itself (a cycle)")
            if ref in w.nodes or ref in w.decisions or ref in seen:
                continue
            if any(ref == later.message_id for later in prepared):
                raise WeaverError(
                    f"depends_on: {ref!r} comes later in the batch; a memory depends only on earlier ones"
                )
            raise WeaverError(f"depends_on: no node or message {ref!r} in space {w.space.name!r}")
        assert m.message_id is not None  # a prepared message has its id
        seen.add(m.message_id)


def ingest_messages(w: ContextWeaver, messages: Iterable[Message]) -> list[IngestResult]:
    """Filter, weave and persist messages in order (their embeddings computed in one batch).

    A message whose id was already ingested returns its stored result (idempotent).
    """
    prepared = prepare_messages(messages)  # every rule, before any write (weaver/validation.py)
    check_dependencies(w, prepared)
    todo = [m for m in prepared if m.message_id not in w.decisions]
    texts = []
    summary_cost: dict[str | None, tuple[int, int]] = {}  # LLM calls and tokens, counted on its decision
    for m in todo:
        if m.kind == "tool_result" and w.summarizer and len(m.content) > 400 and "summary" not in m.meta:
            summary, calls, tokens = w.summarizer(m.meta.get("tool", ""), m.content)
            summary_cost[m.message_id] = (calls, tokens)
            if summary:
                m.meta["summary"] = summary
        texts.append(embed_text_for(m.content, m.kind, m.meta, w.config.embed_prefix))
    vecs: np.ndarray | list[np.ndarray] = w.embed(texts) if texts else []
    by_id = {m.message_id: (v, t) for m, v, t in zip(todo, vecs, texts)}
    out = []
    # a batch holds the writer lock and defers its Chroma writes to a few calls at its end
    # (decisions, the commit markers, last); another writer can interleave between batches
    for start in range(0, len(prepared), WRITE_BATCH):
        with w.writing():
            batch = [
                existing(w, m.message_id or "")  # (a key: never None)
                if m.message_id in w.decisions
                else weave(w, m, *by_id[m.message_id], summary_cost.get(m.message_id, (0, 0)))
                for m in prepared[start : start + WRITE_BATCH]
            ]
        out += batch
        if any(r.kept and not r.duplicate for r in batch):
            # the periodic review pass: after the batch committed, as its own write section, so a crash
            # mid-batch never leaves an automatic edit whose cause was rolled back
            w.curation.after_kept()
    return out


def existing(w: ContextWeaver, message_id: str) -> IngestResult:
    """The stored result of a message already ingested (what a repeated ingest returns)."""
    d = w.decisions[message_id]
    node = w.nodes.get(d.node_id) if d.node_id else None
    edges = [e for e in w.edges() if node and e.target == node.id]
    return IngestResult(d, node, edges, duplicate=True)


def weave(
    w: ContextWeaver, m: Message, vec: np.ndarray, embed_text: str, summary_cost: tuple[int, int] = (0, 0)
) -> IngestResult:
    """One message inside a write section: the filter's verdict, the kept node, the decision written last."""
    cfg = w.config
    if m.kind == "user_input" and "turn" not in m.meta:
        w.turn += 1
    turn = int(m.meta.get("turn", w.turn))
    w.turn = max(w.turn, turn)
    assert m.message_id is not None  # a prepared message has its id
    mirror = w.mirror
    speaker, echoes, answers = _heard(mirror, m)
    v = judge(
        w.reasoner,
        cfg,
        m.content,
        m.kind,
        vec,
        w.focus,
        mirror.matrix if len(mirror) else None,
        _Contents(mirror),
        mirror.words,  # read, never changed, before this message's words join them
        mirror.numbers,
        speaker,
        echoes,
        near=_near(w),
        answers=answers,
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
    node: MemoryNode | None = None
    edges: list[Edge] = []
    if v.kept:
        node, edges, rel = make_node(w, decision, vec, embed_text, m.depends_on)
        decision.llm_calls += rel.llm_calls
        decision.llm_tokens += rel.llm_tokens
        if rel.fallback:
            decision.fallback = "; ".join(x for x in (decision.fallback, "relations: " + rel.fallback) if x)
    # the decision is the commit marker: written last
    w.space.put_decisions([decision], vec[None, :])
    mirror.add_decision(decision, vec)
    return IngestResult(decision, node, edges)


def _near(w: ContextWeaver):
    """The filter's nearest memory through the store's index in a large space (:mod:`weaver.nearest`); an LLM
    scorer reads the nearest memory's text, not only its similarity, so it always gets the exact product."""
    if getattr(w.reasoner, "kind", "") != "rules" or len(w.mirror) < INDEX_MIN_ROWS:
        return None
    return lambda vec: nearest_indexed(w, vec)


def _heard(mirror: Mirror, m: Message) -> tuple[str, frozenset[str], bool]:
    """How a message is heard after the one before it (kept or not): the speaker's name its text may begin with,
    what it may echo of that message (a reaction is filler when nothing of its own is left: weaver/filler.py), and
    whether it answers that message's question. "Yeah, awesome! Glad to be part of it." after another speaker's
    "Did you enjoy the festival?" is the answer (an attitude), not a reaction; "不用了，谢谢" after "还需要查什么吗？"
    (itself filler) stays filler, and so does a speaker reacting to their own question."""
    speaker = str((m.meta or {}).get("speaker") or "")
    before = mirror.latest_decision()
    if before is None:
        return speaker, frozenset(), False
    asker = str((before.meta or {}).get("speaker") or "")
    # without speaker names (the agent's chats) the kinds tell who speaks: a user answers the agent's question
    answers = (
        asks(before.content)
        and (asker or before.kind) != (speaker or m.kind)
        and not is_filler(before.content, speaker=asker)
    )
    return speaker, echo_words(before.content, asker), answers


def promote_message(w: ContextWeaver, message_id: str) -> IngestResult:
    """Weave a rejected message into the graph after all (inside the caller's write section)."""
    d = w.decisions.get(message_id)
    if d is None:
        raise WeaverError(f"no message {message_id!r} in this space")
    if d.kept:
        return existing(w, message_id)
    vec = w.decision_vector(message_id)
    text = embed_text_for(d.content, d.kind, d.meta, w.config.embed_prefix)
    node, edges, _ = make_node(w, d, vec, text)
    d.kept, d.promoted = True, True
    d.reason = f"promoted by a curator ({d.reason})"
    w.space.put_decisions([d], vec[None, :])
    return IngestResult(d, node, edges)


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
