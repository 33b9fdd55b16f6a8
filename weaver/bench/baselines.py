"""The systems a user would pick instead of the weaver, over all turns.

- ``dense``: cosine top-k with the same embedder the weaver uses;
- ``bm25``: ``bm25s`` over PyStemmer-stemmed, stopworded English words and
  jieba-segmented Chinese (bm25s' English stopword list plus a Chinese one);
- ``hybrid``: reciprocal-rank fusion of the two (what mem0-style search does);
- ``recency``: the latest turns first.

Each returns a full ranking (indices into the turn list); packing into the
budget is done by :func:`weaver.bench.common.pack` for all systems alike.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from ..text import STOPWORDS_ZH, jieba_segmenter

__all__ = ["bm25_tokens", "Baselines", "rrf"]

_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[A-Za-z0-9]+(?:'[A-Za-z]+)?")


@lru_cache(maxsize=1)
def _stop_en() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN

    return frozenset(STOPWORDS_EN)


@lru_cache(maxsize=1)
def _stemmer():
    import Stemmer

    return Stemmer.Stemmer("english")


@lru_cache(maxsize=200_000)
def _bm25_tokens(text: str) -> tuple[str, ...]:
    out: list[str] = []
    stop = _stop_en()
    for run in _CJK_RUN.findall(text):
        if run[0].isascii():
            w = run.lower().split("'")[0]
            if w and w not in stop:
                out.append(w)
        else:
            out.extend(w for w in jieba_segmenter().lcut(run) if w.strip() and w not in STOPWORDS_ZH)
    ascii_idx = [i for i, w in enumerate(out) if w.isascii() and w.isalpha()]
    if ascii_idx:
        stemmed = _stemmer().stemWords([out[i] for i in ascii_idx])
        for i, s in zip(ascii_idx, stemmed):
            out[i] = s
    return tuple(out)


def bm25_tokens(text: str) -> list[str]:
    """Stemmed, stopworded English words and jieba-segmented Chinese words.

    >>> bm25_tokens("She was running to the hotels")
    ['she', 'run', 'hotel']
    >>> bm25_tokens("我想去王府井附近的酒店")
    ['想', '王府井', '附近', '酒店']
    """
    return list(_bm25_tokens(text))


def rrf(rankings: list[list[int]], k: int = 60) -> list[int]:
    """Reciprocal-rank fusion of full rankings.

    >>> rrf([[0, 1, 2], [2, 0, 1]])
    [0, 2, 1]
    """
    score: dict[int, float] = {}
    for ranking in rankings:
        for r, i in enumerate(ranking):
            score[i] = score.get(i, 0.0) + 1.0 / (k + r + 1)
    return sorted(score, key=lambda i: (-score[i], i))


class Baselines:
    """Rankers over one haystack of texts (with their dense vectors, same embedder as the weaver)."""

    def __init__(self, texts: list[str], vectors: np.ndarray):
        import bm25s

        self.n = len(texts)
        self.vectors = vectors
        self._bm25 = bm25s.BM25()
        self._bm25.index([bm25_tokens(t) or ["<empty>"] for t in texts], show_progress=False)

    def dense(self, qvec: np.ndarray) -> list[int]:
        return [int(i) for i in np.argsort(-(self.vectors @ qvec), kind="stable")]

    def bm25(self, query: str) -> list[int]:
        q = bm25_tokens(query)
        if not q:
            return list(range(self.n))
        s = np.asarray(self._bm25.get_scores(q), dtype=np.float32)[: self.n]
        return [int(i) for i in np.argsort(-s, kind="stable")]

    def hybrid(self, query: str, qvec: np.ndarray) -> list[int]:
        return rrf([self.dense(qvec), self.bm25(query)])

    def recency(self) -> list[int]:
        return list(range(self.n - 1, -1, -1))

    def rankings(self, query: str, qvec: np.ndarray) -> dict[str, list[int]]:
        d, b = self.dense(qvec), self.bm25(query)
        return {"dense": d, "bm25": b, "hybrid": rrf([d, b]), "recency": self.recency()}
