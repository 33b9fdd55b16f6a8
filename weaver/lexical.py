"""Lexical (BM25) scoring for mixed Chinese/English memories.

BM25 as ``bm25s`` scores it, kept incrementally (see :class:`LexicalIndex`);
English words are stemmed with PyStemmer and stopworded, Chinese runs are
segmented with jieba.
"""

from __future__ import annotations

import math
from collections.abc import Callable
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
    """BM25 (bm25s's default "lucene" variant: k1 1.5, b 0.75) kept incrementally.

    bm25s builds its index in one go, so the weaver used to rebuild it on the first
    query after any write (274 ms at 10k nodes, seconds at 100k). Postings here grow
    with each memory and the corpus statistics (document count, frequencies, mean
    length) are read at query time, so every score equals a fresh bm25s index over
    the same texts (tests/test_scale.py checks it) at the cost of the query's own
    postings only.
    """

    K1, B = 1.5, 0.75

    def __init__(self) -> None:
        self.ids: list[str] = []
        self._tokens: list[list[str]] = []  # rows added since load_columns (see _loaded)
        # the token lists of the rows load_columns read, made only if a removal rebuilds the postings (kept as
        # lists they cost ~40 MB at 100k nodes, for a removal that rarely comes)
        self._loaded: Callable[[], list[list[str]]] = list
        self._lengths: list[int] = []
        self._postings: dict[str, tuple[list[int], list[int]]] = {}  # term -> (doc rows, term counts)
        self._arrays: dict[str, tuple[np.ndarray, np.ndarray]] = {}  # cached postings of queried terms
        self._len_array: np.ndarray | None = None
        # postings read from a snapshot as columns (term -> slot; offsets, rows, counts), thawed into
        # ``_postings`` term by term when a new memory adds to one (see load_columns)
        self._base: tuple[dict[str, int], np.ndarray, np.ndarray, np.ndarray] | None = None

    def __len__(self) -> int:
        return len(self.ids)

    def add(self, ids: list[str], texts: list[str]) -> None:
        self.add_tokens(ids, [lexical_tokens(t) for t in texts])

    def add_tokens(self, ids: list[str], tokens: list[list[str]]) -> None:
        """Add memories already tokenised by :func:`lexical_tokens` (a cache of them makes opening cheap)."""
        for nid, toks in zip(ids, tokens):
            # bm25s indexes an empty text as one token; the list is kept, not copied (never changed: a
            # 100k-node space held every token list twice, here and in the mirror's derived facts)
            self._add(nid, toks if isinstance(toks, list) and toks else list(toks) or ["<empty>"])
        self._len_array = None

    def _add(self, nid: str, tokens: list[str]) -> None:
        row = len(self.ids)
        self.ids.append(nid)
        self._tokens.append(tokens)
        self._lengths.append(len(tokens))
        counts: dict[str, int] = {}
        for t in tokens:
            counts[t] = counts.get(t, 0) + 1
        for t, c in counts.items():
            got = self._postings.get(t)
            if got is None:
                got = self._postings[t] = self._thaw(t)
            got[0].append(row)
            got[1].append(c)
            self._arrays.pop(t, None)

    def _thaw(self, term: str) -> tuple[list[int], list[int]]:
        if self._base is not None:
            slot = self._base[0].pop(term, None)
            if slot is not None:
                _, offsets, rows, tfs = self._base
                a, b = offsets[slot], offsets[slot + 1]
                return rows[a:b].tolist(), [int(x) for x in tfs[a:b]]
        return [], []

    def columns(self) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
        """The postings as columns: ``(terms, offsets, rows, counts)``, term ``i``'s postings at
        ``offsets[i]:offsets[i + 1]`` (what a snapshot stores; :meth:`load_columns` reads it back)."""
        terms: list[str] = []
        lengths: list[int] = []
        rows: list[int] = []
        tfs: list[int] = []
        for t, (r, c) in self._postings.items():
            terms.append(t)
            lengths.append(len(r))
            rows += r
            tfs += c
        if self._base is not None:
            index, offsets, base_rows, base_tfs = self._base
            for t, slot in index.items():
                a, b = int(offsets[slot]), int(offsets[slot + 1])
                terms.append(t)
                lengths.append(b - a)
                rows += base_rows[a:b].tolist()
                tfs += base_tfs[a:b].tolist()
        out = np.zeros(len(terms) + 1, dtype=np.int64)
        np.cumsum(np.asarray(lengths, dtype=np.int64), out=out[1:])
        return terms, out, np.asarray(rows, dtype=np.int32), np.asarray(tfs, dtype=np.float32)

    def load_columns(self, ids: list[str], tokens, columns, counts=None) -> None:
        """Become the index of ``ids`` (tokenised as ``tokens``) from :meth:`columns` of an index of the same
        memories, without re-counting a token (opening a 100k-node space spent seconds here).

        ``tokens``: the token lists, or (with ``counts``, each memory's token count) a function that makes them,
        called only if :meth:`remove` rebuilds the postings.
        """
        terms, offsets, rows, tfs = columns
        self.ids = list(ids)
        if counts is None:
            made = [list(t) for t in tokens]
            self._loaded = lambda: made
            counts = [len(t) for t in made]
        else:
            self._loaded = tokens
            counts = np.asarray(counts).tolist()
        self._tokens = []
        self._lengths = [c or 1 for c in counts]  # an empty text is indexed as one token (see add_tokens)
        self._postings, self._arrays, self._len_array = {}, {}, None
        self._base = ({t: i for i, t in enumerate(terms)}, offsets, rows, tfs)

    def token_lists(self) -> list[list[str]]:
        """Each memory's tokens as indexed, in row order (an empty text's as ``["<empty>"]``); those of loaded
        columns are made here.

        >>> x = LexicalIndex(); x.add(["a", "b"], ["hotels", ""]); x.token_lists()
        [['hotel'], ['<empty>']]
        """
        return [t if t else ["<empty>"] for t in self._loaded()] + self._tokens

    def remove(self, ids: set[str]) -> None:
        """Drop memories (rare: a reembed or a repair); the postings are rebuilt once."""
        kept = [(x, t) for x, t in zip(self.ids, self.token_lists()) if x not in ids]
        self.ids, self._tokens, self._lengths, self._loaded = [], [], [], list
        self._postings, self._arrays, self._len_array, self._base = {}, {}, None, None
        for x, t in kept:
            self._add(x, t)

    def holders(self, term: str) -> int:
        """How many memories hold ``term`` (a :func:`lexical_tokens` token): its document frequency.

        >>> ix = LexicalIndex(); ix.add(["a", "b"], ["hiking trip", "the trip home"])
        >>> ix.holders("trip"), ix.holders("hike"), ix.holders("boat")
        (2, 1, 0)
        """
        got = self._posting(term)
        return 0 if got is None else len(got[0])

    def _posting(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        got = self._arrays.get(term)
        if got is None:
            p = self._postings.get(term)
            if p is None:
                slot = self._base[0].get(term) if self._base is not None else None
                if slot is None:
                    return None
                _, offsets, rows, tfs = self._base  # type: ignore[misc]  # not None when slot is
                a, b = offsets[slot], offsets[slot + 1]
                got = self._arrays[term] = (rows[a:b].astype(np.int64), tfs[a:b])
                return got
            got = self._arrays[term] = (np.asarray(p[0], dtype=np.int64), np.asarray(p[1], dtype=np.float32))
        return got

    def raw_scores(self, tokens: list[str]) -> np.ndarray:
        """Unscaled BM25 of every indexed memory for query tokens (a repeated token counts again, as in bm25s)."""
        n = len(self.ids)
        out = np.zeros(n, dtype=np.float32)
        if not n:
            return out
        if self._len_array is None:
            self._len_array = np.asarray(self._lengths, dtype=np.float32)
        lengths = self._len_array
        norm = self.K1 * ((1 - self.B) + self.B * lengths / lengths.mean())
        for term in tokens:
            p = self._posting(term)
            if p is None:
                continue
            rows, tf = p
            idf = np.float32(math.log(1 + (n - len(rows) + 0.5) / (len(rows) + 0.5)))
            out[rows] += idf * tf / (norm[rows] + tf)
        return out

    def scores(self, query: str) -> np.ndarray:
        """BM25 score per indexed id (aligned with ``self.ids``), scaled to [0, 1] by the best."""
        if not self.ids:
            return np.zeros(0, dtype=np.float32)
        q = lexical_tokens(query)
        if not q:
            return np.zeros(len(self.ids), dtype=np.float32)
        s = self.raw_scores(q)
        top = float(s.max()) if s.size else 0.0
        return s / top if top > 0 else s
