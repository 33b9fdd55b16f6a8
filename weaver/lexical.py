"""Lexical (BM25) scoring for mixed Chinese/English memories.

``bm25s`` scores; English words are stemmed with PyStemmer and stopworded,
Chinese runs are segmented with jieba. The index is rebuilt lazily after adds
(cheap: ~0.1 s for 10k short texts).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .text import STOPWORDS_EN, STOPWORDS_ZH, tokenize

__all__ = ["lexical_tokens", "LexicalIndex"]


@lru_cache(maxsize=1)
def _stemmer():
    import Stemmer

    return Stemmer.Stemmer("english")


@lru_cache(maxsize=100_000)
def _stem(word: str) -> str:
    return _stemmer().stemWord(word)


def lexical_tokens(text: str) -> list[str]:
    """Stemmed, stopworded tokens.

    >>> lexical_tokens("The hotels near Wangfujing")
    ['hotel', 'near', 'wangfuj']
    """
    out = []
    for w in tokenize(text):
        if w in STOPWORDS_EN or w in STOPWORDS_ZH:
            continue
        out.append(_stem(w) if w.isascii() and w.isalpha() else w)
    return out


class LexicalIndex:
    def __init__(self) -> None:
        self.ids: list[str] = []
        self._tokens: list[list[str]] = []
        self._bm25 = None
        self._dirty = False

    def __len__(self) -> int:
        return len(self.ids)

    def add(self, ids: list[str], texts: list[str]) -> None:
        self.ids.extend(ids)
        self._tokens.extend(lexical_tokens(t) for t in texts)
        self._dirty = True

    def remove(self, ids: set[str]) -> None:
        keep = [i for i, x in enumerate(self.ids) if x not in ids]
        self.ids = [self.ids[i] for i in keep]
        self._tokens = [self._tokens[i] for i in keep]
        self._dirty = True

    def _index(self):
        if self._dirty or self._bm25 is None:
            import bm25s

            self._bm25 = bm25s.BM25()
            corpus = [t or ["<empty>"] for t in self._tokens] or [["<empty>"]]
            self._bm25.index(corpus, show_progress=False)
            self._dirty = False
        return self._bm25

    def scores(self, query: str) -> np.ndarray:
        """BM25 score per indexed id (aligned with ``self.ids``), scaled to [0, 1] by the best."""
        if not self.ids:
            return np.zeros(0, dtype=np.float32)
        q = lexical_tokens(query)
        if not q:
            return np.zeros(len(self.ids), dtype=np.float32)
        s = np.asarray(self._index().get_scores(q), dtype=np.float32)[: len(self.ids)]
        top = float(s.max()) if s.size else 0.0
        return s / top if top > 0 else s
