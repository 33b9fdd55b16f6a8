"""The first-release dependency builder (kept as a named baseline for `bench relations`): candidate parents by similarity, one relation call, typed edges.

Candidates are the top-K earlier active nodes by cosine plus shared content
words and constraint slots (so "need a restaurant within budget and allergy"
finds the budget and the allergy even when their vectors are far), plus the
thought a tool result answers. One backend call judges all candidates at
once; every yes becomes an edge, so a node may get several parents. Edges run
from earlier to later nodes only, which keeps the graph a DAG.
"""

from __future__ import annotations

import numpy as np

from ..backends.base import Candidate, Correction, Reasoner, RelateRequest, RelateResult
from ..cues import features
from ..models import Edge, MemoryNode
from ..settings import WeaverConfig

__all__ = ["select_candidates", "build_edges"]

_CLOSEST = 64  # nearest earlier nodes by cosine considered as parents
_RECENT = 200  # plus the most recent earlier nodes


def select_candidates(
    node: MemoryNode,
    vec: np.ndarray,
    earlier: list[MemoryNode],
    matrix: np.ndarray | None,
    cfg: WeaverConfig,
) -> list[Candidate]:
    """Top-K earlier nodes by cosine + lexical/slot overlap (with the asking thought always in)."""
    if not earlier or matrix is None:
        return []
    sims = matrix @ vec
    f = features(node.content)
    # bounded work in large spaces: the closest nodes by cosine plus the recent ones (where a
    # stated constraint that shares no vocabulary with its consequence usually sits)
    n = len(earlier)
    pool = set(range(max(0, n - _RECENT), n))
    if n > _CLOSEST:
        pool.update(int(i) for i in np.argpartition(-sims, _CLOSEST)[:_CLOSEST])
    else:
        pool.update(range(n))
    scored = []
    for i in sorted(pool):
        other = earlier[i]
        if other.status != "active":
            continue
        of = features(other.content)
        shared = len(f.words & of.words)
        slots = len(f.slots & of.slots)
        # a stated constraint on a slot is a likely premise of anything later on that slot
        slot_weight = 0.2 if of.constraint else 0.1
        combined = float(sims[i]) + 0.08 * min(shared, 4) + slot_weight * min(slots, 2)
        scored.append((combined, i))
    scored.sort(reverse=True)
    chosen = [i for c, i in scored[: cfg.top_k_parents] if c >= cfg.min_parent_similarity]
    asked_by = node.meta.get("thought_id")
    if node.kind == "tool_result":
        for i in range(len(earlier) - 1, -1, -1):
            other = earlier[i]
            if (asked_by and other.id == asked_by) or (
                not asked_by and other.kind == "agent_thought" and other.turn == node.turn
            ):
                if i not in chosen:
                    chosen.append(i)
                break
    return [
        Candidate(earlier[i].id, earlier[i].content, earlier[i].kind, earlier[i].turn, float(sims[i]), earlier[i].meta)
        for i in chosen
    ]


def build_edges(
    node: MemoryNode,
    candidates: list[Candidate],
    reasoner: Reasoner,
    corrections: list[Correction] | None = None,
) -> tuple[list[Edge], RelateResult]:
    if not candidates:
        return [], RelateResult([], reasoner.name)
    req = RelateRequest(node.content, node.kind, node.turn, node.meta, candidates)
    result = reasoner.relate(req, corrections)
    origin = "rules" if result.fallback else reasoner.kind  # the backend's declared kind, not its name
    edges = [
        Edge(
            source=j.parent_id,
            target=node.id,
            relation=j.relation,
            confidence=float(j.confidence),
            origin=origin,
            rationale=j.rationale,
        )
        for j in result.judgements
        if j.relation is not None and j.parent_id != node.id
    ]
    return edges, result
