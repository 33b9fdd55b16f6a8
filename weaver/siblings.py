"""Siblings: what a speaker said about the same kind of thing in other sessions, lifted by the question's best hits.

A question that gathers ("What books has Tim read?", "What activities does Melanie do?") has its answer spread
over sessions, one piece in each, and most pieces share few words with the question ("The Hobbit is great").
The episode context lends relevance within a session and the stored revisit edges link a memory only to its one
most similar earlier memory (weaver/relations/revisits.py), so the second and third pieces sat below the budget's
edge. Once the question's best hits are known, their **siblings** can be: the memories of the same speaker in
**other** sessions that are like them. Each of the few strongest hits lends a sibling ``weight`` times its own
relevance, scaled by how far their similarity rises above ``floor`` (the best lender counts, once).

It is a link made at query time, not a stored edge: stored, every such pair of a speaker's memories would be an
edge (hundreds per memory). Like the revisits it needs a named speaker and a session: memories without a speaker
(an agent's steps, CrossWOZ, MADial) neither lend nor borrow. On LoCoMo at 1,024 tokens it found second pieces of
multi-hop answers (docs/benchmarks/README.md, "Siblings across sessions").
"""

from __future__ import annotations

import numpy as np

from .neighbourhood import NodeFacts

__all__ = ["sibling_lift", "SIBLING_SEEDS", "SIBLING_FLOOR", "SIBLING_POOL"]

SIBLING_SEEDS = 3  # the strongest hits that lend: a question's answer starts from its best few matches
SIBLING_FLOOR = 0.3  # cosine of two memories below which they are not alike (USE: unrelated turns sit at 0.1-0.3)
SIBLING_POOL = 1000  # only the memories this high by their own relevance lend or borrow: a query's cost stays bounded


def sibling_lift(own: np.ndarray, matrix: np.ndarray, facts: NodeFacts | None, weight: float) -> np.ndarray:
    """What each memory borrows from the query's strongest hits (:data:`SIBLING_SEEDS`) said by the same speaker in
    another episode: ``weight * own[hit] * (sim - floor) / (1 - floor)`` for the best such hit, 0 otherwise.

    ``own``: each memory's own relevance (``-inf`` where it may not answer: it neither lends nor borrows);
    ``matrix``: the memories' unit vectors, rows aligned with ``own`` and ``facts``.

    >>> f = NodeFacts.of([({"speaker": "Ann", "session": 1}, 1), ({"speaker": "Bo", "session": 1}, 2),
    ...                   ({"speaker": "Ann", "session": 2}, 3), ({"speaker": "Ann", "session": 1}, 4)])
    >>> M = np.array([[1, 0], [1, 0], [0.8, 0.6], [0.8, 0.6]], dtype=np.float32)
    >>> lift = sibling_lift(np.array([0.9, 0.2, 0.1, 0.1]), M, f, 0.5)  # hits: 0, 2, 3 (Ann); Bo borrows nothing
    >>> lift.round(3).tolist()  # 2 from 0: 0.5 * 0.9 * (0.8 - 0.3) / 0.7; 0 and 3 from 2 (0.1), alike 0.8 and 1
    [0.036, 0.0, 0.321, 0.05]
    >>> sibling_lift(np.array([0.9, 0.2, 0.1, -np.inf]), M, f, 0.5).round(3).tolist()[3]  # may not answer
    0.0
    >>> sibling_lift(np.array([0.9, 0.2, 0.1, 0.1]), M, None, 0.5).tolist()  # no speakers or sessions: nothing
    [0.0, 0.0, 0.0, 0.0]
    """
    n = len(own)
    out = np.zeros(n)
    if facts is None or not weight or len(facts) != n or n < 2 or not facts.speaker_codes:
        return out
    finite = np.isfinite(own)
    score = np.where(finite, own, -np.inf)
    # the memories that may borrow or lend: the highest by their own relevance (one partial sort at any size)
    pool = np.flatnonzero(finite)
    if len(pool) > SIBLING_POOL:
        pool = np.argpartition(-score, SIBLING_POOL - 1)[:SIBLING_POOL]
    if len(pool) < 2:
        return out
    k = min(SIBLING_SEEDS, len(pool))
    hits = pool[np.argpartition(-score[pool], k - 1)[:k]]
    speakers, episodes = facts.speakers, facts.episodes
    hits = hits[(speakers[hits] >= 0) & (score[hits] > 0)]
    if not len(hits):
        return out
    pool = pool[np.isin(speakers[pool], speakers[hits])]
    sims = matrix[pool] @ matrix[hits].T  # (pool, hits)
    alike = np.maximum(sims - SIBLING_FLOOR, 0.0) / (1.0 - SIBLING_FLOOR)
    other = (speakers[pool][:, None] == speakers[hits][None, :]) & (episodes[pool][:, None] != episodes[hits][None, :])
    lent = np.where(other, weight * alike * score[hits][None, :], 0.0)
    out[pool] = lent.max(axis=1)
    return out
