"""A fact said anew answers whatever the old statement answered: "Where do I work?" after "I work at a bank" and,
weeks later, "By the way, I got a new job at a bakery!".

The question shares words with the old statement ("work"), not with the new one, and the old one's session
neighbours lend it more: at a small budget the context held the bank and not the bakery. The builder links the
two (:mod:`weaver.relations.updates`, an edge :func:`~weaver.relations.updates.is_update`); along that edge the
later statement ranks as high as the one it updates, a hair above it, so the value in force comes first and the
history follows when there is room. Only forward (the old value answers nothing the new one does), only to a
memory that may answer (a superseded one stays out), and only from the best-ranked memories (a query looks at a
few edges, not the graph).

>>> import networkx as nx
>>> g = nx.DiGraph()
>>> g.add_edge("bank", "bakery", rationale="where they work said anew: bank -> bakery", origin="rules")
>>> g.add_edge("bakery", "cafe", rationale="where they work said anew: bakery -> cafe", origin="rules")
>>> out = carry_forward(g, ["bank", "sam", "bakery", "cafe"], np.array([0.8, 0.4, 0.35, 0.1]))
>>> [round(x, 3) for x in out.tolist()], int(np.argmax(out))
([0.8, 0.4, 0.8, 0.8], 3)
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from .relations.updates import is_update

__all__ = ["carry_forward"]

HAIR = 1e-6  # a tie-break, not a weight: the value in force before the value it replaced
TOP = 50  # memories whose updates are looked at: the seeds and what they can reach, many times over


def carry_forward(
    g: nx.DiGraph, ids: list[str], scores: np.ndarray, position: dict[str, int] | None = None, top: int = TOP
) -> np.ndarray:
    """``scores`` with each update of one of the ``top`` best memories raised to its score plus a hair, along
    chains of updates (Paris -> Berlin -> Lyon). ``-inf`` marks a memory that may not answer: it neither lends
    nor receives."""
    finite = np.isfinite(scores)
    if not finite.any():
        return scores
    k = min(top, int(finite.sum()))
    best = np.argpartition(-np.where(finite, scores, -np.inf), k - 1)[:k]
    out = None
    queue = [int(i) for i in best[np.argsort(-scores[best], kind="stable")]]
    while queue:
        i = queue.pop(0)
        for _, target, data in g.out_edges(ids[i], data=True):
            if not is_update(data):
                continue
            j = position.get(target) if position is not None else _index(ids, target)
            have = scores if out is None else out
            if j is None or not np.isfinite(have[j]) or have[j] > have[i]:
                continue
            if out is None:
                out = scores.copy()
            out[j] = out[i] + HAIR
            queue.append(j)  # and on to its own update
    return scores if out is None else out


def _index(ids: list[str], nid: str) -> int | None:
    try:
        return ids.index(nid)
    except ValueError:
        return None
