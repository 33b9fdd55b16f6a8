"""The window a review pass reads: its newest nodes, the edges touching them, their nearest earlier nodes.

Shared by both proposers (:mod:`.review_rules`, :mod:`.review_llm`) and the pass (:mod:`.review`). A pass
runs every few messages, so the window is read without a pass over the whole space: it costs what the
window holds, not what the space holds (10k-100k nodes).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence

import numpy as np

from ..nearest import indexed_candidates
from .queue import ReviewItem, evidence_for

__all__ = ["ReviewWindow", "proposal_item"]

# mirror -> {node id: (k, its nearest earlier nodes)}. The mirror only appends (a refresh swaps in a new one,
# which starts a new cache), so a node's earlier rows never change once it arrived and its nearest earlier
# nodes hold for every later pass: a pass multiplies only the window nodes it has not met before by the
# space (at 100k nodes the whole window's product was 0.57 s a pass, two thirds of it nodes seen last pass).
_NEAR: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class ReviewWindow:
    """The newest ``size`` nodes a pass reviews, read without a pass over the whole space: a pass every few
    messages must cost what its window holds, not what the space holds (10k-100k nodes)."""

    def __init__(self, cur, size: int):
        w = cur.w
        self.cur, self.w = cur, w
        order = w.mirror.order
        self.ids = order[-size:] if 0 < size < len(order) else list(order)
        self.matrix = w.matrix
        ids = set(self.ids)
        g = w.graph
        # the edges touching the window, in the graph's order (by source, in node order): the window's own
        # nodes and their parents are the only sources such an edge can have
        sources = ids.union(*(g.pred[v] for v in self.ids))
        self.edges = [(u, v) for u in sorted(sources, key=w.position_of) for v in g.succ[u] if u in ids or v in ids]
        self.human = cur.human_pairs()
        self.skipped = 0  # candidates left alone because a human decided them
        self._near: dict[str, list[tuple[float, str]]] = {}
        self._near_k = 0

    def sim(self, a: str, b: str) -> float:
        if self.matrix is None:
            return 0.0
        return float(self.matrix[self.w.position_of(a)] @ self.matrix[self.w.position_of(b)])

    def nearest_earlier(self, nid: str, k: int, among: Sequence[str] = ()) -> list[tuple[float, str]]:
        """The ``k`` earlier nodes most similar to ``nid``, most similar first.

        ``among``: the window nodes the caller will ask about, searched together on the first ask (one matrix
        product for them all, the earlier rows read once, and a partial sort each); default the whole window.
        In a large space the store's index proposes the candidates, scored exactly (:mod:`weaver.nearest`).
        """
        if nid not in self._near or k > self._near_k:
            self._near.update(self._nearest(k, list(among) or self.ids))
            self._near_k = k
        return self._near.get(nid, [])[:k]

    def _nearest(self, k: int, ids: list[str]) -> dict[str, list[tuple[float, str]]]:
        w, m = self.w, self.matrix
        if m is None or not len(ids):
            return {}
        known = _NEAR.get(w.mirror)
        if known is None:
            known = _NEAR[w.mirror] = {}
        out = {nid: known[nid][1] for nid in ids if nid in known and known[nid][0] >= k}
        todo = [nid for nid in ids if nid not in out]
        if todo:
            todo = self._indexed(todo, k, out, known)
        if not todo:
            return {nid: near[:k] for nid, near in out.items()}
        rows = np.array([w.position_of(n) for n in todo])
        # two columns at least: numpy hands a one-column product to a matrix-vector routine whose sums round
        # differently, and a node's similarities must not depend on how many others a pass met with it
        cols = rows if len(rows) > 1 else np.repeat(rows, 2)
        sims = m[: rows.max()] @ m[cols].T  # earlier rows x the window nodes not met before
        order = w.mirror.order
        for c, (nid, i) in enumerate(zip(todo, rows)):
            col = sims[:i, c]
            if not len(col):
                continue
            top = np.argpartition(-col, k - 1)[:k] if len(col) > k else np.arange(len(col))
            top = top[np.lexsort((top, -col[top]))]  # most similar first, ties by position (as a stable sort)
            out[nid] = [(float(col[j]), order[j]) for j in top]
            known[nid] = (k, out[nid])
        return {nid: near[:k] for nid, near in out.items()}

    def _indexed(self, todo: list[str], k: int, out: dict, known: dict) -> list[str]:
        """Answer ``todo`` through the store's index in a large space (the earlier candidates scored exactly);
        returns what is left for the exact product (everything, without an index)."""
        w, m = self.w, self.matrix
        rows = [w.position_of(n) for n in todo]
        # a few more than k: a node's neighbours in the index include later nodes and the node itself
        cands = indexed_candidates(w, m[rows], k + 8)
        if cands is None:
            return todo
        order = w.mirror.order
        rest = []
        for nid, i, cand in zip(todo, rows, cands):
            cand = cand[cand < i]
            if len(cand) < min(k, i):  # the index's neighbours were mostly later nodes: the exact product answers
                rest.append(nid)
                continue
            sims = m[cand] @ m[i]
            top = np.lexsort((cand, -sims))[:k]  # most similar first, ties by position
            out[nid] = [(float(sims[j]), order[cand[j]]) for j in top]
            known[nid] = (k, out[nid])
        return rest


def proposal_item(win: ReviewWindow, kind: str, source: str, target: str, **kw) -> ReviewItem:
    """A proposal on ``source -> target`` with the evidence a curator reads beside it."""
    return ReviewItem.make(kind, source=source, target=target, evidence=evidence_for(win.w, source, target), **kw)
