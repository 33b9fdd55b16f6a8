"""Scoring every node for a query on one scale: own relevance, what neighbours lend, centrality, boosts.

``score_nodes`` is the ranking's arithmetic (``retrieve`` orders, expands and packs
by it; the debugger and the benchmarks call it directly), with its pieces: the
lexical weight for a query, the masks of shown and cold nodes, and ``Boost``.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx
import numpy as np

from .asking import question_offset
from .dated import date_lift
from .lexical import LexicalIndex, lexical_tokens
from .updated import carry_forward
from .neighbourhood import EdgeIndex, NodeFacts, context_lift, edge_lift, speaker_offset
from .query_turns import dense_similarity, fused_relevance, heard_similarity, turn_similarities
from .settings import WeaverConfig
from .siblings import sibling_lift
from .slots import asks_history

__all__ = ["NodeScores", "Boost", "score_nodes", "shown_mask", "cold_mask", "lexical_weight", "FOCUSED_QUERY_TERMS"]


FOCUSED_QUERY_TERMS = 10


def lexical_weight(query: str, cfg: WeaverConfig) -> float:
    """BM25's weight for this query: ``0.5 * w_lexical``, shrinking with the square root of the
    query's length past 10 distinct terms.

    BM25 is scaled to [0, 1] by the best hit, so a perfect lexical hit weighs like a strong
    (0.5) cosine; that scaling assumes a focused question. A long query (a whole dialogue
    history) matches many memories on a few common words each, and its "best hit" is noise:
    on MADial (dialogue histories) full weight cost 5.7 points of R@5 (docs/benchmarks).

    >>> cfg = WeaverConfig()
    >>> lexical_weight("What did Caroline paint?", cfg), round(lexical_weight("word " * 64, cfg), 2)
    (0.5, 0.5)
    >>> round(lexical_weight(" ".join(f"w{i}" for i in range(40)), cfg), 2)
    0.25
    """
    n = len(set(lexical_tokens(query)))  # distinct terms: repeating a word does not widen a query
    return cfg.w_lexical * 0.5 * min(1.0, (FOCUSED_QUERY_TERMS / max(n, 1)) ** 0.5)


@dataclass
class NodeScores:
    """Every node's scores for one query, aligned with the ids they were computed for."""

    dense: np.ndarray
    lexical: np.ndarray  # BM25 scaled to [0, 1] by the best hit
    own: np.ndarray  # fused similarity plus the speaker offset; -inf where inactive
    ranking: np.ndarray  # own plus what episode and dependency neighbours lend: what retrieval ranks by
    offset: np.ndarray | None  # the speaker offset, when the query names some speakers


def shown_mask(g: nx.DiGraph, ids: list[str], query: str) -> np.ndarray:
    """Which nodes may answer: the active ones; superseded ones too for a question about history
    ("what was my budget before?"). A scan of every node: the weaver passes its mirror's mask instead."""
    shown = ("active", "superseded") if asks_history(query) else ("active",)
    return np.array([g.nodes[i].get("status", "active") in shown for i in ids], dtype=bool)


def cold_mask(g: nx.DiGraph, ids: list[str]) -> np.ndarray:
    """The cold tier: archived memories that were not merged into another (a scan; the weaver keeps a mask).

    >>> g = nx.DiGraph()
    >>> g.add_node("a", status="archived"); g.add_node("b", status="archived", meta={"merged_into": "c"})
    >>> g.add_node("c", status="active")
    >>> cold_mask(g, ["a", "b", "c"]).tolist()
    [True, False, False]
    """
    return np.array(
        [g.nodes[i].get("status") == "archived" and not (g.nodes[i].get("meta") or {}).get("merged_into") for i in ids],
        dtype=bool,
    )


class Boost(dict):
    """A per-node lift (node id -> lift) that keeps what it computes over a node order: its vector, and its
    largest lift. The weaver keeps one until its graph changes (:func:`weaver.decision_context.constraint_boost`),
    so a query does not loop over every boosted statement (a user's every constraint statement) again. Not to be
    changed once used.

    >>> b = Boost.fromkeys(["a", "c"], 0.5)
    >>> b.vector({"a": 0, "b": 1, "c": 2}, 3, np.float32).tolist(), b.largest()
    ([0.5, 0.0, 0.5], 0.5)
    """

    def vector(self, position: dict[str, int], n: int, dtype) -> np.ndarray:
        key = (id(position), n, np.dtype(dtype))
        got = getattr(self, "kept", None)
        if got is None or got[0] != key:
            lift = np.zeros(n, dtype=dtype)
            for nid, b in self.items():
                r = position.get(nid)
                if r is not None and r < n:
                    lift[r] += b
            got = self.kept = (key, lift)
        return got[1]

    def largest(self) -> float:
        got = getattr(self, "top", None)
        if got is None:
            got = self.top = max(self.values(), default=0.0)
        return got


def score_nodes(
    g: nx.DiGraph,
    ids: list[str],
    matrix: np.ndarray,
    lexical: LexicalIndex | None,
    query: str,
    query_vec: np.ndarray,
    cfg: WeaverConfig,
    facts: NodeFacts | None = None,
    edges: EdgeIndex | None = None,
    shown: np.ndarray | None = None,
    boost: dict[str, float] | None = None,
    position: dict[str, int] | None = None,
    cold: np.ndarray | None = None,
) -> NodeScores:
    """Score the nodes ``ids`` (rows of ``matrix``) for a query, as retrieval and the debugger both do.

    ``shown``: which nodes may answer (:func:`shown_mask`; computed here when not given);
    ``boost``: a caller's per-node lift (personalised weighting of constraint memories), placed by
    ``position`` (id -> row) when given; ``cold``: the cold tier (:func:`cold_mask`; computed here when not
    given and ``cfg.search_archived``): ranked as before they were archived, lending and borrowing relevance in
    their episode (:func:`context_lift`) and over their edges (:func:`edge_lift`); :func:`retrieve` takes them
    alone (no expansion, adjacent turns or centrality).
    """
    active = shown_mask(g, ids, query) if shown is None else shown
    if not cfg.search_archived:
        cold = None
    elif cold is None:
        cold = cold_mask(g, ids)
    many = query_vec.ndim == 2 and len(ids) > 0  # a many-turn query: the whole, then each turn
    sims = turn_similarities(matrix, query_vec) if many else None  # one product: the shown similarity and the rank
    if sims is not None:
        dense = heard_similarity(sims)
    else:
        dense = dense_similarity(matrix, query_vec) if len(ids) else np.zeros(0, dtype=np.float32)
    lex = np.zeros(len(ids), dtype=np.float32)
    if lexical is not None and len(lexical) and cfg.w_lexical:
        s = lexical.scores(query)
        if lexical.ids is ids or lexical.ids == ids:  # the usual case: both follow the weaver's node order
            lex = s.astype(np.float32)
        else:
            pos = {x: i for i, x in enumerate(lexical.ids)}
            lex = np.array([s[pos[x]] if x in pos else 0.0 for x in ids], dtype=np.float32)
    if sims is not None and cfg.w_similarity:  # a many-turn query: the channels' equal say (weaver/query_turns.py)
        own = cfg.w_similarity * fused_relevance(sims, lex, 1.0, cfg.w_lexical / cfg.w_similarity)
    else:
        own = cfg.w_similarity * dense + lexical_weight(query, cfg) * lex
    offset = speaker_offset(facts, query, cfg.w_speaker)
    if offset is not None:
        own = own + offset
    if boost:  # a caller's per-node lift (personalised weighting of constraint memories)
        pos = position if position is not None else {x: i for i, x in enumerate(ids)}
        if isinstance(boost, Boost) and position is not None:  # kept across queries: its vector too
            lift = boost.vector(position, len(ids), own.dtype)
        else:
            lift = np.zeros(len(ids), dtype=own.dtype)
            for nid, b in boost.items():
                if nid in pos:
                    lift[pos[nid]] += b
        own = own + lift
    # the cold tier ranks as before it was archived (lending and borrowing); retrieval only takes them alone
    own = np.where(active | cold if cold is not None else active, own, -np.inf)
    # a memory is as relevant as its own words, plus a share of its neighbours' (an edge in the episode context's
    # window lends only what exceeds the context's share). The speaker offset says whose memory holds the answer,
    # not who leads to it: neighbours lend without it (the other's "What were they stoked about?" to its answer)
    lend = own if offset is None else own - offset
    lifted = (
        context_lift(lend, facts, cfg.context_decay, cfg.context_window)
        + edge_lift(lend, edges, cfg.edge_lift, facts, cfg.context_decay, cfg.context_window)
        + (0.0 if offset is None else offset)
    )
    if edges is not None:  # with graph expansion: the best hits' siblings in the speaker's other sessions
        lifted = lifted + sibling_lift(own, matrix, facts, cfg.sibling_lift)
    lifted = lifted + question_offset(facts, cfg.w_question)  # a question lent in full (above), ranks lower itself
    # a question naming a date: the memories of the sittings held then rank higher (they share it: nothing to lend)
    lifted = lifted + date_lift(g, ids, facts, query, cfg.w_date)
    if edges is not None:  # with graph expansion: a fact said anew answers what the old statement answered
        lifted = carry_forward(g, ids, lifted.astype(own.dtype, copy=False), position)
    return NodeScores(dense, lex, own, lifted.astype(own.dtype, copy=False), offset)
