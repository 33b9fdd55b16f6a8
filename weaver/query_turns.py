"""A query that is a conversation: its turns, and one similarity that hears each of them.

An agent often asks its memory with the dialogue so far ("what should I recall now?"), not with one
question. One embedding of a long, many-turn text is the average of everything said in it: a memory that
one turn is about scores like a memory the whole chat vaguely touches (on MADial-Bench zh, where the query
is the dialogue history, dense R@5 rose from 54 to 58 when the best-matching turn counted as much as the
whole). So a query of several turns is embedded whole *and* turn by turn, and a memory's dense similarity is
the mean of its similarity to the whole and to its best-matching turn. A one-line query is unchanged.

What ranks a memory for such a query is :func:`fused_relevance`: four channels with an equal say, the whole,
the best-matching turn, the **latest** turn (what was just said is what usually calls a memory up: in
MADial-Bench the reply that recalls it answers the last turn) and BM25 over the whole. The latest turn is heard
with the turns before it fading (:func:`latest_similarity`): a last turn is often an answer ("yes, I like maths
and science ones!") whose subject is in the question before it. A channel's say is its
spread over the memories: each is standardised (z-scores over the memories) and their mean is put back on the
whole's cosine scale. BM25's fixed weight (``retrieval.lexical_weight``) suits a question; for a dialogue no one
weight does: the best fixed one on MADial fell 13 points behind equal say once the user's memories sat among
3,000 other chat turns (docs/benchmarks/README.md).

A query is taken as a conversation when most of its lines start with a speaker tag (``<Bart>:``, ``User:``,
``用户：``), or when it has three lines or more; its turns are its non-empty lines, the speaker tags taken off (the
turn's words are embedded, not its speaker's name) and bare markers such as ``<BOD>`` dropped. Two untagged lines
(a message and a hint of what it needs, as the travel agent asks) stay one query.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

__all__ = [
    "query_turns",
    "query_vectors",
    "dense_similarity",
    "turn_similarities",
    "heard_similarity",
    "fused_relevance",
    "latest_similarity",
    "MAX_TURNS",
    "LATEST_FADE",
]

MAX_TURNS = 64  # the latest turns of a very long history: each costs one embedding per query
# how much a turn counts in the latest-turn channel against the turn after it. Chosen by 5-fold cross-validation
# over MADial-Bench zh dialogues among 0-0.5 (0.4 in 14 of 15 folds; 0, the latest turn alone, was the previous
# rule): docs/benchmarks/README.md#madial-bench-bench-madial
LATEST_FADE = 0.4
_FADED_OUT = 1e-3  # a turn weighing less than this in the latest-turn channel is left out (the ninth-latest on, at 0.4)
_MARKER = re.compile(r"^<[^<>\s]{1,20}>$")  # <BOD>, <EOD>: a transcript's frame, not a turn
_TAG = re.compile(r"^\s*(<[^<>]{1,30}>|[^\s:：<>]{1,20})\s*[:：]\s*")
_QUOTES = "\"'“”‘’「」"


def query_turns(text: str) -> list[str]:
    """The turns of a many-turn query (at least two), or [] when it is one utterance.

    >>> query_turns('<BOD>\\n<Bart>:"我要表演魔术！"\\n<Assistant>:"真棒！"\\n<EOD>')
    ['我要表演魔术！', '真棒！']
    >>> query_turns("User: my budget is 800\\nAgent: noted\\nUser: any hotel near the lake?")
    ['my budget is 800', 'noted', 'any hotel near the lake?']
    >>> query_turns("what did I say about the budget?")
    []
    >>> query_turns("Note: bring a coat\\nand the tickets")  # two lines, one tag: one query
    []
    >>> query_turns("Note: bring a coat\\nand the tickets\\nand the map")  # three lines: tags kept when few
    ['Note: bring a coat', 'and the tickets', 'and the map']
    """
    lines = [ln.strip() for ln in text.splitlines()]
    lines = [ln for ln in lines if ln and not _MARKER.match(ln)]
    if len(lines) < 2:
        return []
    tagged = sum(1 for ln in lines if _TAG.match(ln))
    strip = tagged >= 2 and 2 * tagged > len(lines)  # speaker tags on most lines: a transcript
    if not strip and len(lines) < 3:
        return []
    turns = []
    for ln in lines:
        if strip:
            ln = _TAG.sub("", ln, count=1)
        ln = ln.strip().strip(_QUOTES).strip()
        if ln:
            turns.append(ln)
    return turns[-MAX_TURNS:] if len(turns) >= 2 else []


def query_vectors(embed: Callable[[list[str]], np.ndarray], text: str) -> np.ndarray:
    """The query's vector (1-D), or for a many-turn query a (1 + turns, dim) matrix: the whole, then each turn."""
    turns = query_turns(text)
    vecs = embed([text, *turns])
    return vecs[0] if not turns else vecs


def dense_similarity(matrix: np.ndarray, query_vec: np.ndarray) -> np.ndarray:
    """Each row's similarity to the query: cosine to a 1-D vector; for a many-turn query (2-D), the mean of the
    similarity to the whole (row 0) and to the best-matching turn (rows 1:).

    >>> m = np.eye(3, dtype=np.float32)
    >>> dense_similarity(m, np.array([1.0, 0, 0], dtype=np.float32)).tolist()
    [1.0, 0.0, 0.0]
    >>> q = np.array([[0.6, 0.8, 0], [0, 1.0, 0], [0, 0, 1.0]], dtype=np.float32)
    >>> [round(x, 2) for x in dense_similarity(m, q).tolist()]
    [0.3, 0.9, 0.5]
    """
    if not len(matrix):
        return np.zeros(0, dtype=np.float32)
    if query_vec.ndim == 1:
        return matrix @ query_vec
    return heard_similarity(turn_similarities(matrix, query_vec))


def turn_similarities(matrix: np.ndarray, query_vec: np.ndarray) -> np.ndarray:
    """Each row's similarity to each of a many-turn query's vectors, (rows, 1 + turns), laid out so a turn's
    column is contiguous: the best turn per row is then a max over a few long rows (0.2 ms at 100k nodes, not 14).

    >>> turn_similarities(np.eye(2, dtype=np.float32), np.array([[1.0, 0], [0, 1.0]], dtype=np.float32)).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    return (query_vec @ matrix.T).T


def heard_similarity(sims: np.ndarray) -> np.ndarray:
    """:func:`dense_similarity` from the rows' similarities to the whole (column 0) and to each turn (the rest).

    >>> [round(x, 2) for x in heard_similarity(np.array([[0.6, 0.0, 0.0], [0.8, 1.0, 0.0]])).tolist()]
    [0.3, 0.9]
    """
    return (0.5 * (sims[:, 0] + sims[:, 1:].max(axis=1))).astype(sims.dtype, copy=False)


def latest_similarity(sims: np.ndarray, fade: float = LATEST_FADE) -> np.ndarray:
    """Each row's similarity to the latest turn, heard with the turns before it fading: the mean of its
    similarities to the turns (columns 1: of ``sims``), the last weighing 1, the one before ``fade``, the one
    before that ``fade**2``... (``fade`` 0: the latest turn alone).

    >>> s = np.array([[0.9, 0.8, 0.0], [0.9, 0.0, 0.7]])  # whole, then two turns: row 1 matches the earlier turn
    >>> latest_similarity(s, 0.0).tolist()
    [0.0, 0.7]
    >>> [round(x, 3) for x in latest_similarity(s, 0.5).tolist()]
    [0.267, 0.467]
    """
    turns = sims.shape[1] - 1
    weights = [1.0]
    while len(weights) < turns and weights[-1] * fade >= _FADED_OUT:
        weights.append(weights[-1] * fade)
    w = np.array(weights[::-1], dtype=np.float64)
    if len(w) == 1:
        return sims[:, -1].astype(np.float64)
    # one product over the turns' rows of sims.T (contiguous: turn_similarities), not a column loop
    return (w.astype(sims.dtype) @ sims.T[-len(w) :]).astype(np.float64) / w.sum()


def _standard(x: np.ndarray) -> np.ndarray:
    """``x`` as z-scores over its entries (zeros when it does not vary)."""
    sd = float(x.std())
    return (x - x.mean()) / sd if sd > 0 else np.zeros_like(x)


def fused_relevance(
    sims: np.ndarray,
    lexical: np.ndarray | None,
    w_dense: float = 1.0,
    w_lexical: float = 1.0,
    fade: float = LATEST_FADE,
) -> np.ndarray:
    """Each row's relevance to a many-turn query from ``sims``, its similarities to the whole (column 0) and to
    each turn (the rest, in order; :func:`turn_similarities`): the weighted
    mean of four standardised channels — similarity to the whole, to the best-matching turn, to the latest turn
    with the earlier ones fading by ``fade`` a turn (:func:`latest_similarity`; ``w_dense`` each) and ``lexical`` (``w_lexical``; None or all zero: left out) — on the whole's scale
    (its mean plus that many of its standard deviations), so what is added to it downstream keeps its size.

    >>> m = np.eye(3, dtype=np.float32)
    >>> q = np.array([[0.6, 0.8, 0], [0, 1.0, 0], [0, 0, 1.0]], dtype=np.float32)
    >>> [round(x, 2) for x in fused_relevance(m @ q.T, None, fade=0).tolist()]  # the latest turn lifts row 3
    [0.27, 0.58, 0.55]
    >>> [round(x, 2) for x in fused_relevance(m @ q.T, None).tolist()]  # heard with the turn before it fading
    [0.22, 0.64, 0.54]
    >>> [round(x, 2) for x in fused_relevance(m @ q.T, np.array([1.0, 0, 0]), 1.0, 3.0).tolist()]  # BM25 for row 1
    [0.58, 0.43, 0.38]
    """
    if not len(sims):
        return np.zeros(0, dtype=np.float32)
    dtype = sims.dtype
    # the three columns in float64, not the whole (rows x turns) matrix: a 100k-node space copied it for nothing
    whole = sims[:, 0].astype(np.float64)
    dense = [whole, sims[:, 1:].max(axis=1).astype(np.float64), latest_similarity(sims, fade)]
    total = w_dense * sum(_standard(c) for c in dense)
    weight = w_dense * len(dense)
    if lexical is not None and w_lexical and np.any(lexical):
        total = total + w_lexical * _standard(np.asarray(lexical, dtype=np.float64))
        weight += w_lexical
    fused = total / weight if weight else np.zeros(len(whole))
    return (whole.mean() + whole.std() * fused).astype(dtype, copy=False)
