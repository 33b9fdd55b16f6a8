"""Near-duplicate memories: which to fold into which, and the edges the kept one takes over.

Pure functions. Two memories are duplicates when they are of the same kind and
speaker, say the same numbers (a changed amount is news, not a repeat) and their
vectors' cosine is at least ``duplicate_cosine``. The earliest one is kept: the
later one is archived with ``merged_into`` pointing at it, keeps its own edges
(so undo restores it whole), and its edges are copied onto the kept memory
where that keeps the graph acyclic and earlier-to-later.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ..cues import features

__all__ = ["edges_to_carry", "find_duplicates", "sources_of"]

_BLOCK = 512  # rows per block of the cosine matrix (10k memories never need a 10k x 10k matrix)


def _signature(attrs: dict) -> tuple:
    meta = attrs.get("meta") or {}
    return attrs.get("kind"), str(meta.get("speaker", "")), tuple(sorted(features(attrs.get("content", "")).numbers))


def find_duplicates(
    g: nx.DiGraph, ids: list[str], vectors: np.ndarray, threshold: float
) -> list[tuple[str, str, float]]:
    """``(kept, duplicate, cosine)`` among ``ids`` (in time order; ``vectors`` their unit rows).

    >>> g = nx.DiGraph()
    >>> for n, c in (("a", "I love hiking"), ("b", "I love hiking!"), ("c", "budget 500"), ("d", "budget 800")):
    ...     g.add_node(n, kind="user_input", content=c, meta={})
    >>> v = np.array([[1, 0], [1, 0], [0, 1], [0, 1]], dtype=np.float32)
    >>> find_duplicates(g, ["a", "b", "c", "d"], v, 0.95)
    [('a', 'b', 1.0)]
    """
    if len(ids) < 2:
        return []
    sigs = [_signature(g.nodes[n]) for n in ids]
    keeper: dict[int, int] = {}  # duplicate index -> kept index
    vectors = np.asarray(vectors, dtype=np.float32)
    for start in range(0, len(ids), _BLOCK):
        block = vectors[start : start + _BLOCK] @ vectors.T
        for off, row in enumerate(block):
            j = start + off
            if j in keeper:
                continue
            for hit in np.nonzero(row[:j] >= threshold)[0]:  # earlier memories only: the earliest is kept
                i = int(hit)
                if sigs[i] == sigs[j] and i not in keeper:
                    keeper[j] = i
                    break
    return [(ids[i], ids[j], round(float(vectors[i] @ vectors[j]), 4)) for j, i in sorted(keeper.items())]


def edges_to_carry(g: nx.DiGraph, kept: str, dup: str, position: dict[str, int]) -> list[tuple[str, str, dict]]:
    """The duplicate's edges the kept memory takes over: ``(source, target, attrs)``.

    Skipped: an edge the kept memory already has, one between the two, one that would run later-to-earlier
    (an earlier memory cannot depend on a later one), or one that would close a cycle.
    """
    out = []
    for p in g.predecessors(dup):
        if p != kept and not g.has_edge(p, kept) and position.get(p, 0) < position.get(kept, 0):
            out.append((p, kept, dict(g.edges[p, dup])))
    for c in g.successors(dup):
        if c != kept and not g.has_edge(kept, c) and position.get(kept, 0) < position.get(c, 0):
            out.append((kept, c, dict(g.edges[dup, c])))
    return [e for e in out if e[2].get("status") != "rejected" and not nx.has_path(g, e[1], e[0])]


def sources_of(g: nx.DiGraph, nid: str) -> list[str]:
    """The message ids a memory stands for: its own and those of every duplicate merged into it, oldest first."""
    merged = [n for n, a in g.nodes(data=True) if (a.get("meta") or {}).get("merged_into") == nid]
    return [g.nodes[n].get("message_id", n) for n in [nid] + merged]
