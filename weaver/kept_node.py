"""What a kept message becomes: its node, its edges (declared or guessed), and the focus shift it may open.

The second half of the ingest path (:mod:`weaver.ingest` judges the message and writes its decision): it
writes the node and edges, adds them to the facade's mirror, and puts on the decision what must land with
the commit marker (the node id, the builder's audit entry, a focus shift). Kept apart from the filter
step because a curator's promote (:func:`weaver.ingest.promote_message`) runs it without a new verdict.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np

from .backends.base import RelateResult
from .builder import WINDOW, guess_edges, revisit_edge
from .constraints import moved_values
from .models import Edge, FilterDecision, MemoryNode, dependency_parts, new_id
from .relations.references import LOOKBACK
from .relations.revisits import REVISIT_LOOKBACK, episode_key

if TYPE_CHECKING:
    from .core import ContextWeaver

__all__ = ["declared_edges", "make_node"]


def make_node(
    w: ContextWeaver, d: FilterDecision, vec, embed_text, depends_on=()
) -> tuple[MemoryNode, list[Edge], RelateResult]:
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
        now = moved_values(w, content, d.meta.get("speaker"), d.language)
        if now:  # "预算再加两千": the line carries the value it makes, whatever else the context holds
            node.meta = {**node.meta, "now": now}
    if depends_on:  # the caller knows: nothing is guessed beside what it declared
        edges, rel = declared_edges(w, node, depends_on), RelateResult([], "agent")
    else:
        window = w.mirror.latest_active(WINDOW)  # the latest active memories, oldest first
        wvecs = np.stack([w.vector_of(n.id) for n in window]) if window else None
        earlier = [w.nodes[i] for i in w.mirror.order[-LOOKBACK:] if w.nodes[i].status == "active"]
        edges, rel = guess_edges(
            node,
            vec,
            window,
            wvecs,
            w.reasoner,
            list(w.corrections),
            earlier=earlier,
            vector_of=w.vector_of,
        )
        revisit = _revisit(w, node, vec, {e.source for e in edges})
        if revisit is not None:
            edges.append(revisit)
    w.space.put_nodes([node], vec[None, :])
    if edges:
        w.space.put_edges(edges)
    # the builder's audit entry rides on the decision: it lands with the commit marker, at no write of its own
    d.node_id, d.audit = node.id, w.curation.build_entry(node, edges).to_dict()
    w.mirror.add_node(node, vec)
    for e in edges:
        w.mirror.add_edge(e)
    # a restated slot value (budget 5000 -> 8000) supersedes the earlier statement in this same write
    edges = w.curation.supersede_on_arrival(node, edges)
    if kind == "user_input" and w.focus.is_shift(vec, content):
        # a user message that opens a new topic (weaver.topic_shift): the focus follows it; the time
        # is kept on the message's decision, so the shift lands with it or not at all
        d.focus_shift_at = time.time()
        w.meta.setdefault("focus_history", []).append(
            {"shift": content[:120], "turn": turn, "at": d.focus_shift_at, "message_id": d.message_id}
        )
        w.focus.begin_topic()
    w.focus.observe(vec, float(d.importance), kind, content)
    return node, edges, rel


def declared_edges(w: ContextWeaver, node: MemoryNode, depends_on: list) -> list[Edge]:
    """The edges the caller declared (origin ``agent``, confidence 1.0), one per parent that has a node."""
    edges: dict[str, Edge] = {}
    for dep in depends_on:
        ref, relation, why = dependency_parts(dep)
        parent = ref if ref in w.nodes else (w.decisions[ref].node_id if ref in w.decisions else "")
        if not parent or parent == node.id or parent in edges:
            continue  # a message the filter did not keep has no node to depend on
        edges[parent] = Edge(parent, node.id, relation, 1.0, "agent", why or "declared by the caller")
    return list(edges.values())


def _revisit(w: ContextWeaver, node: MemoryNode, vec: np.ndarray, exclude: set[str]) -> Edge | None:
    """The builder's link to what ``node`` revisits from another session (weaver/relations/revisits.py),
    searched among the latest active memories; a named speaker's memory with a session or date, or a user message
    with a session, may have one."""
    if not (node.meta.get("speaker") or node.kind == "user_input") or episode_key(node.meta) is None:
        return None  # (revisit_parent decides whose memory can be revisited)
    m = w.mirror
    rows = [r for r in range(max(0, len(m.order) - REVISIT_LOOKBACK), len(m.order))]
    rows = [r for r in rows if w.nodes[m.order[r]].status == "active"]
    if not rows:
        return None
    earlier = [w.nodes[m.order[r]] for r in rows]
    return revisit_edge(node, vec, earlier, m.matrix[rows], m.lexical.holders, exclude)
