"""Nearest memories in a large space through the store's own vector index instead of a product with every vector.

Two checks look for the memories most similar to a vector across the whole space: the filter's nearest memory (its
novelty and the near-duplicate test, :mod:`weaver.filtering`) and the review pass's nearest earlier nodes (its
missing-edge rule, :mod:`weaver.curation.review_window`). Exact, each is a product with every stored vector: at
100k nodes 100k x 512 float32, 205 MB read per message (15-50 ms on the 2-core box, memory-bound), which alone held
ingest into a 100k space under 50 turns/s. No exact shortcut exists for vectors with no structure (the bench's 100k
space holds random ones: a bound that prunes rows needs clusters), so in a space of at least
:data:`INDEX_MIN_ROWS` nodes the candidates come from Chroma's HNSW index of the nodes (kept for every node
already, never searched by the weaver before), and are scored exactly from the mirror's vectors.

**This is approximate**: HNSW may miss the true nearest memory. Measured on 18.5k real USE embeddings (CrossWOZ
and LoCoMo turns, 1,000 held out as queries, Chroma's settings for the nodes): the index found the exact nearest
for 993 of 1,000, all 210 whose nearest was a near-duplicate (cosine >= 0.9). Spaces under the line (every
benchmark's but the bench's own 100k one) and an LLM scorer (it reads the nearest memory's text, so it gets the
exact product) never use the index.

Rows the index may not answer for, those written since the mirror first found nothing pending (still buffered,
in the write-behind log, or just applied), are scored exactly beside the index's candidates; see ``_INDEXED``.
"""

from __future__ import annotations

import weakref

import numpy as np

__all__ = ["INDEX_MIN_ROWS", "indexed_candidates", "nearest_indexed", "warm_index"]

# below this many nodes the exact product is as cheap as an index query (~3 ms at 20k rows, one BLAS thread,
# against 2-5 ms for a Chroma HNSW query at k <= 50, measured on the 2-core box) and stays the only path
INDEX_MIN_ROWS = 20_000
# rows not yet in the index scored beside its candidates at most (the write-behind log is applied by ~1,000
# messages, so a writer stays well under this; more, a bulk write still buffered, and the exact product answers)
PENDING_ROWS = 4096
# mirror -> the rows the index answers for: every row, the first time nothing was pending. Rows written after
# that are scored exactly for the mirror's life, even once in the index: HNSW inserts a vector among the space's
# older ones, and a graph built around those may not lead a search to it (on the bench's 100k space of random
# vectors, trusting the index for rows just applied missed a nearer memory in 5 of 50 messages)
_INDEXED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def indexed_candidates(w, vecs: np.ndarray, k: int) -> list[np.ndarray] | None:
    """For each of ``vecs``, the positions worth scoring exactly: the store index's ``k`` nearest nodes plus every
    row the index may not hold yet. None when the space is small, the store has no index, or too many rows are
    pending for the index to help: the caller then runs the exact product."""
    mirror = w.mirror
    n = len(mirror)
    space = w.space
    search = getattr(space, "similar_ids", None)
    if n < INDEX_MIN_ROWS or search is None:
        return None
    if mirror not in _INDEXED and space.all_applied():  # nothing buffered or logged: the index holds every row
        _INDEXED[mirror] = n
    upto = _INDEXED.get(mirror, 0)
    if n - upto > PENDING_ROWS:  # a long stretch not yet in the index: the exact product is as cheap
        return None
    found = search(np.asarray(vecs, dtype=np.float32), k)
    if found is None:
        return None
    pos = mirror.position
    tail = np.arange(upto, n, dtype=np.int64)
    out = []
    for ids in found:
        rows = np.fromiter((pos[i] for i in ids if i in pos), dtype=np.int64)
        out.append(np.union1d(rows, tail))
    return out


def nearest_indexed(w, vec: np.ndarray, k: int = 16) -> tuple[float, int] | None:
    """The nearest row to ``vec`` among the index's ``k`` candidates and the rows it may not hold yet, as
    (similarity, position), scored exactly; None when the exact product must answer (no index, a small space)."""
    cands = indexed_candidates(w, vec[None, :], k)
    if cands is None or not len(cands[0]):
        return None
    rows = cands[0]
    sims = w.mirror.matrix[rows] @ vec
    i = int(np.argmax(sims))  # ties: the earliest row, as the exact product's argmax
    return float(sims[i]), int(rows[i])


def warm_index(w) -> bool:
    """Load the store's vector index that :func:`indexed_candidates` searches, when the space is large enough to
    search it (Chroma reads it from disk on its first query: 0.25-0.6 s at 100k nodes, paid otherwise by the first
    message after an open). Whether it was loaded."""
    mirror = w.mirror
    search = getattr(w.space, "similar_ids", None)
    if len(mirror) < INDEX_MIN_ROWS or search is None:
        return False
    return search(np.asarray(mirror.matrix[-1:], dtype=np.float32), 1) is not None
