"""The window a review pass reads: its newest nodes, the edges touching them, their nearest earlier nodes.

Shared by both proposers (:mod:`.review_rules`, :mod:`.review_llm`) and the pass (:mod:`.review`). A pass
runs every few messages, so the window is read without a pass over the whole space: it costs what the
window holds, not what the space holds (10k-100k nodes).
"""

from __future__ import annotations

import weakref

import numpy as np

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

    def nearest_earlier(self, nid: str, k: int) -> list[tuple[float, str]]:
        """The ``k`` earlier nodes most similar to ``nid``, most similar first.

        One matrix product for the whole window, on first use (the earlier rows read once, not once per
        window node), and a partial sort: a pass stays cheap on a big space.
        """
        if k > self._near_k:
            self._near, self._near_k = self._nearest(k), k
        return self._near.get(nid, [])[:k]

    def _nearest(self, k: int) -> dict[str, list[tuple[float, str]]]:
        w, m = self.w, self.matrix
        if m is None or not len(self.ids):
            return {}
        known = _NEAR.get(w.mirror)
        if known is None:
            known = _NEAR[w.mirror] = {}
        out = {nid: known[nid][1] for nid in self.ids if nid in known and known[nid][0] >= k}
        todo = [nid for nid in self.ids if nid not in out]
        if not todo:
            return {nid: near[:k] for nid, near in out.items()}
        rows = np.array([w.position_of(n) for n in todo])
        sims = m[: rows.max()] @ m[rows].T  # earlier rows x the window nodes not met before
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


def proposal_item(win: ReviewWindow, kind: str, source: str, target: str, **kw) -> ReviewItem:
    """A proposal on ``source -> target`` with the evidence a curator reads beside it."""
    return ReviewItem.make(kind, source=source, target=target, evidence=evidence_for(win.w, source, target), **kw)
