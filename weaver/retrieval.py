"""Graph-expanded retrieval: seeds -> expansion -> rank -> pack -> causal order -> narrative.

Seeds are the nodes most similar to the query (dense cosine plus BM25, fused);
expansion walks dependency edges from each seed (causes backward, effects
forward) up to ``hops``, and takes each seed's neighbouring turns; every
candidate, seed or reached, is ranked on one scale: its own relevance plus what
its episode and dependency neighbours lend it (each neighbour counted once), and
its centrality. A seed's score is not handed down the walk: an expanded memory
takes a place only on evidence of its own and what its edges lend. Candidates
are packed into the token budget in rank order; when the budget still has room,
the next seeds are taken in. The result carries the full trace.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import networkx as nx
import numpy as np

from .asking import question_offset
from .graph import Neighbours, Step, causal_order, expand
from .lexical import LexicalIndex, lexical_tokens
from .neighbourhood import EdgeIndex, NodeFacts, context_lift, edge_lift, speaker_offset
from .query_turns import dense_similarity, fused_relevance, heard_similarity, turn_similarities
from .narrative import CONNECTIVE_LEVELS, LineCosts, date_of, render
from .settings import WeaverConfig
from .siblings import sibling_lift
from .slots import asks_history
from .text import count_tokens, detect_language

if TYPE_CHECKING:  # decision_context builds on retrieval results: typing only
    from .decision_context import DecisionBlock

__all__ = [
    "RankedNode",
    "RetrievalResult",
    "NodeScores",
    "Boost",
    "retrieve",
    "score_nodes",
    "shown_mask",
    "cold_mask",
    "PLAIN_DENSE",
]

# the plain vector baseline the debugger compares against: dense similarity alone (with expand=False)
PLAIN_DENSE = dict(w_lexical=0.0, w_centrality=0.0, w_speaker=0.0, context_decay=0.0, edge_lift=0.0, sibling_lift=0.0)
PLAIN_DENSE["w_question"] = 0.0


@dataclass
class RankedNode:
    id: str
    content: str
    kind: str
    turn: int
    role: str  # "seed" or "expanded"
    similarity: float
    lexical: float
    relevance: float  # fused similarity, speaker offset and episode context: what ranks it
    context: float  # the part of ``relevance`` its episode and dependency neighbours lent it
    centrality: float
    hops: int
    seed: str
    via: str | None
    edge: tuple[str, str] | None
    relation: str | None
    direction: str | None
    propagated: float  # what its episode and dependency neighbours lent (the score's share it did not earn alone)
    score: float
    rank: int = 0
    tokens: int = 0  # its line without connective or date
    date_tokens: int = 0  # what its date adds, paid by the first line of that date
    included: bool = False
    cut_reason: str = ""
    tier: str = ""  # working | long-term | summary (set by weaver.lifecycle.tiers.mark_tiers)

    def to_dict(self) -> dict:
        d = dict(self.__dict__)
        d["edge"] = list(self.edge) if self.edge else None
        return d


@dataclass
class RetrievalResult:
    query: str
    context: str
    tokens: int
    budget: int
    nodes: list[RankedNode]  # included, in narrative (causal) order
    ranked: list[RankedNode]  # every candidate considered, by rank
    edges: list[dict]  # edges among the included nodes
    seeds: list[str]
    config: dict = field(default_factory=dict)
    timings_ms: dict = field(default_factory=dict)
    # the seeds expansion walked from (later seeds only fill leftover room); the debugger's "why not"
    expanded_seeds: list[str] = field(default_factory=list)
    # the constraints in force put before the narrative (weaver.decision_context.DecisionBlock), when any
    decision: DecisionBlock | None = None

    @property
    def node_ids(self) -> list[str]:
        return [n.id for n in self.nodes]

    @property
    def cut(self) -> list[RankedNode]:
        return [n for n in self.ranked if not n.included]

    def to_dict(self) -> dict:
        return {
            "query": self.query,
            "context": self.context,
            "tokens": self.tokens,
            "budget": self.budget,
            "nodes": [
                {
                    "id": n.id,
                    "content": n.content,
                    "kind": n.kind,
                    "role": n.role,
                    "score": round(n.score, 4),
                    "hops": n.hops,
                    "turn": n.turn,
                    "tier": n.tier,
                }
                for n in self.nodes
            ],
            "edges": self.edges,
            "seeds": self.seeds,
            "trace": [n.to_dict() for n in self.ranked],
            "config": self.config,
            "timings_ms": self.timings_ms,
            "decision": self.decision.to_dict() if self.decision is not None else None,
        }


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


class _Ranking:
    """Rows by descending relevance (finite only), sorted lazily: argpartition for the head that retrieval
    reads, the rest sorted only if the packing loop reaches it (a full sort cost ~10 ms at 100k nodes)."""

    def __init__(self, relevance: np.ndarray) -> None:
        self._neg = -relevance
        self._finite = np.flatnonzero(np.isfinite(relevance))
        self._sorted = np.zeros(0, dtype=np.int64)

    def __len__(self) -> int:
        return len(self._finite)

    def _grow(self, k: int) -> None:
        n = len(self._finite)
        k = min(n, max(k, 2 * len(self._sorted), 256))
        vals = self._neg[self._finite]
        idx = np.argpartition(vals, k - 1)[:k] if k < n else np.arange(n)
        self._sorted = self._finite[idx[np.argsort(vals[idx], kind="stable")]]

    def head(self, k: int) -> list[int]:
        if k > len(self._sorted):
            self._grow(k)
        return self._sorted[:k].tolist()

    def after(self, start: int):
        i = start
        while i < len(self._finite):
            if i >= len(self._sorted):
                self._grow(i + 1)
            yield int(self._sorted[i])
            i += 1


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
    return NodeScores(dense, lex, own, lifted.astype(own.dtype, copy=False), offset)


def _lent(lifted: np.ndarray, own: np.ndarray, r: int) -> float:
    return float(lifted[r] - own[r]) if np.isfinite(own[r]) else 0.0


def _same_episode(a: dict, b: dict) -> bool:
    """Two memories of one sitting: the same session (or date) in their metadata."""
    ma, mb = a.get("meta") or {}, b.get("meta") or {}
    for key in ("session", "date"):
        if key in ma or key in mb:
            return ma.get(key) == mb.get(key)
    return abs(int(a.get("turn", 0)) - int(b.get("turn", 0))) <= 1


def _cold_test(g: nx.DiGraph):
    """Whether a memory is of the cold tier (archived, not merged): what retrieval seeds on alone."""

    def test(nid: str) -> bool:
        a = g.nodes[nid]
        return a.get("status") == "archived" and not (a.get("meta") or {}).get("merged_into")

    return test


def _add_adjacent(g: nx.DiGraph, ids: list[str], row: dict, seeds: list[str], steps: dict, cold=None) -> None:
    """The turn before and after each seed in the same sitting (a reply depends on what it answers).

    ``cold``: whether a memory is of the cold tier, when it is searched: such a turn comes too, as it did before
    it was archived (alone, like a cold seed; a merged duplicate never)."""
    for seed in seeds:
        r = row[seed]
        for j, direction in ((r - 1, "cause"), (r + 1, "effect")):
            if 0 <= j < len(ids) and ids[j] not in steps:
                nb = ids[j]
                usable = g.nodes[nb].get("status", "active") == "active" or (cold is not None and cold(nb))
                if usable and _same_episode(g.nodes[seed], g.nodes[nb]):
                    edge = (nb, seed) if direction == "cause" else (seed, nb)
                    steps[nb] = Step(nb, 1, seed, seed, edge, "adjacent", direction, 1.0)


def retrieve(
    g: nx.DiGraph,
    ids: list[str],
    matrix: np.ndarray,
    lexical: LexicalIndex | None,
    query: str,
    query_vec: np.ndarray,
    cfg: WeaverConfig,
    budget: int | None = None,
    expand_graph: bool = True,
    facts: NodeFacts | None = None,
    edges: EdgeIndex | None = None,
    shown: np.ndarray | None = None,
    position: dict[str, int] | None = None,
    boost: dict[str, float] | None = None,
    cold: np.ndarray | None = None,
    line_costs: LineCosts | None = None,
    neighbours: Neighbours | None = None,
) -> RetrievalResult:
    """Retrieve a context for ``query`` from the nodes ``ids`` (rows of ``matrix``).

    ``facts``: the nodes' speakers and episodes (aligned with ``ids``) for the
    speaker and episode-context signals; ``edges``: the usable dependency edges for
    the dependency-context signal (:mod:`weaver.neighbourhood`); None skips them.
    Without graph expansion the dependency context is off too: both use the graph.
    ``shown`` (which nodes may answer) and ``position`` (id -> row) are the
    weaver's incrementally kept ones; without them they are derived here. ``cold`` (the cold tier, archived
    memories) likewise: they come back as seeds alone, without neighbours, adjacent turns or edges.
    ``line_costs``: each node's line tokens, kept across queries (:class:`~weaver.narrative.LineCosts`);
    ``neighbours``: each node's edges, kept while the graph does not change (:class:`~weaver.graph.Neighbours`).
    """
    t0 = time.perf_counter()
    budget = cfg.budget if budget is None else budget
    s = score_nodes(
        g,
        ids,
        matrix,
        lexical,
        query,
        query_vec,
        cfg,
        facts,
        edges if expand_graph else None,
        shown,
        boost,
        position,
        cold,
    )
    dense, lex, own_relevance, relevance, offset = s.dense, s.lexical, s.own, s.ranking, s.offset
    order = _Ranking(relevance)
    row = position if position is not None else {x: i for i, x in enumerate(ids)}
    t1 = time.perf_counter()
    use_centrality = bool(cfg.w_centrality and expand_graph)
    scale = 1.0 / max(1, g.number_of_nodes() - 1)  # degree centrality, computed for candidates only
    costs = line_costs if line_costs is not None else LineCosts()
    attrs_of = g.nodes
    edges_of = neighbours if neighbours is not None else Neighbours(g)

    header = count_tokens("相关记忆（原因在前，结果在后）：") + 1
    used = header
    # seeds: enough top hits to fill the budget twice over (short memories need more of them)
    n_seeds = max(1, cfg.seeds)
    if cfg.adaptive_seeds and len(order):
        avg = float(np.mean([costs(ids[i], attrs_of[ids[i]])[0] for i in order.head(4 * n_seeds)]))
        n_seeds = max(n_seeds, int(cfg.adaptive_seeds * budget / max(avg, 1.0)))
    seeds = [ids[i] for i in order.head(n_seeds)]
    is_cold = _cold_test(g) if cold is None else (lambda nid: bool(cold[row[nid]]))
    steps: dict[str, Step] = (
        expand(g, seeds, cfg.hops, cfg.expand_limit, edges_of)
        if expand_graph
        else {s: Step(s, 0, s, None, None, None, None) for s in seeds}
    )
    for s_id in seeds:  # expansion walks active memories only: a superseded seed of a history query stays
        steps.setdefault(s_id, Step(s_id, 0, s_id, None, None, None, None))
    if expand_graph and cfg.adjacent_turns:
        # a cold seed too, and a turn of the cold tier comes as it did before it was archived (no edges): with both
        # a request and its reply archived, the reply seeded alone and the request came later, after the budget
        _add_adjacent(g, ids, row, seeds, steps, is_cold if cfg.search_archived else None)
    # every candidate competes on one scale, seed or reached: its own relevance with what its neighbours lent it
    # (score_nodes). The seed that reached it lends nothing more: a seed's decayed score let a question's
    # neighbours push true seeds out at the budget's edge, and expansion lost to no expansion.
    candidates: dict[str, RankedNode] = {}
    # the candidates' numbers are read from the arrays at once (not a numpy scalar per field and candidate)
    reached = [(nid, st, row[nid]) for nid, st in steps.items() if nid in row]
    at = np.fromiter((r for _, _, r in reached), dtype=np.int64, count=len(reached))
    rel_at, own_at = relevance[at], own_relevance[at]
    with np.errstate(invalid="ignore"):  # -inf - -inf where a memory may not answer: lent nothing
        lent_at = np.where(np.isfinite(own_at), rel_at - own_at, 0.0).tolist()
    own_l = np.where(np.isfinite(rel_at), rel_at, 0.0).tolist()
    dense_l, lex_l = dense[at].tolist(), lex[at].tolist()
    cold_l = cold[at].tolist() if cold is not None else [is_cold(nid) for nid, _, _ in reached]
    for k, (nid, st, r) in enumerate(reached):
        own = own_l[k]
        # degree centrality: a node's edges in and out (what g.degree counts)
        cent = edges_of.degree(nid) * scale if use_centrality and not cold_l[k] else 0.0
        score = own + cfg.w_centrality * cent
        attrs = attrs_of[nid]
        tokens, dtokens = costs(nid, attrs)
        candidates[nid] = RankedNode(
            id=nid,
            content=attrs.get("content", ""),
            kind=attrs.get("kind", ""),
            turn=attrs.get("turn", 0),
            role="seed" if st.hop == 0 else "expanded",
            similarity=dense_l[k],
            lexical=lex_l[k],
            relevance=own,
            context=lent_at[k],
            centrality=cent,
            hops=st.hop,
            seed=st.seed,
            via=st.via,
            edge=st.edge,
            relation=st.relation,
            direction=st.direction,
            propagated=lent_at[k],
            score=score,
            tokens=tokens,
            date_tokens=dtokens,
        )
    included: list[str] = []
    pool = sorted(candidates.values(), key=lambda c: -c.score)
    # when every candidate is packed and room is left, the next hits by own relevance follow
    rest = (ids[i] for i in order.after(n_seeds))
    idle_rounds = 0  # rounds in a row in which nothing fitted: after a few, the rest would not fit either
    dates: set = set()  # dates already shown: the next line of a date does not repeat it
    while pool and used < budget:
        before = used
        for cand in pool:
            date = date_of(attrs_of[cand.id])
            cost = cand.tokens + (cand.date_tokens if date not in dates else 0)
            if used + cost <= budget:
                cand.included = True
                included.append(cand.id)
                used += cost
                dates.add(date)
            else:
                cand.cut_reason = f"budget: needs {cost} tokens, {budget - used} left"
        pool = []
        idle_rounds = 0 if used > before else idle_rounds + 1
        # a full budget, or three rounds in which nothing fitted, takes no more seeds (none left uncut)
        for nid in rest if used < budget and idle_rounds < 3 else ():
            if nid in candidates:
                continue
            r = row[nid]
            attrs = attrs_of[nid]
            own = float(relevance[r])
            tokens, dtokens = costs(nid, attrs)
            cand = RankedNode(
                id=nid,
                content=attrs.get("content", ""),
                kind=attrs.get("kind", ""),
                turn=attrs.get("turn", 0),
                role="seed",
                similarity=float(dense[r]),
                lexical=float(lex[r]),
                relevance=own,
                context=_lent(relevance, own_relevance, r),
                centrality=0.0,
                hops=0,
                seed=nid,
                via=None,
                edge=None,
                relation=None,
                direction=None,
                propagated=_lent(relevance, own_relevance, r),
                score=own,
                tokens=tokens,
                date_tokens=dtokens,
            )
            candidates[nid] = cand
            seeds.append(nid)
            pool.append(cand)
            if len(pool) >= n_seeds:
                break
    t2 = time.perf_counter()

    ranked = sorted(candidates.values(), key=lambda c: -c.score)
    for i, c in enumerate(ranked, 1):
        c.rank = i
        if not c.included and c.cut_reason:
            c.cut_reason += f" (rank {i})"
    # a cold-tier memory comes without its edges: they neither order nor link it in the narrative
    cold_in = {n for n in included if is_cold(n)}
    view = nx.subgraph_view(g, filter_edge=lambda u, v: u not in cold_in and v not in cold_in) if cold_in else g
    ordered = causal_order(g, included, alone=cold_in)  # (not over the view: a filtered view is slow to walk)
    lang = detect_language(query) if query.strip() else None
    # memories were packed at their bare line cost; links are rendered as richly as the room left allows
    for level in CONNECTIVE_LEVELS:
        context = render(view, ordered, lang, level)
        tokens = count_tokens(context)
        if tokens <= budget:
            break
    while tokens > budget and ordered:  # only when even bare lines overrun the estimate
        worst = max(ordered, key=lambda n: candidates[n].rank)
        ordered.remove(worst)
        candidates[worst].included = False
        candidates[worst].cut_reason = f"budget: dropped at rank {candidates[worst].rank} after rendering"
        context = render(view, ordered, lang, level)
        tokens = count_tokens(context)
    keep = set(ordered)
    shown_edges = [
        {"source": u, "target": v, **{k: d.get(k) for k in ("relation", "confidence", "origin")}}
        for u, v, d in view.subgraph(keep).edges(data=True)
    ]
    t3 = time.perf_counter()
    return RetrievalResult(
        query=query,
        context=context,
        tokens=tokens,
        budget=budget,
        nodes=[candidates[n] for n in ordered],
        ranked=ranked,
        edges=shown_edges,
        seeds=seeds,
        expanded_seeds=seeds[:n_seeds] if expand_graph else [],
        config={
            "seeds": cfg.seeds,
            "hops": cfg.hops if expand_graph else 0,
            "budget": budget,
            "w_similarity": cfg.w_similarity,
            "w_lexical": cfg.w_lexical,
            "w_centrality": cfg.w_centrality,
            "adjacent_turns": cfg.adjacent_turns if expand_graph else False,
            "expand_limit": cfg.expand_limit,
            "connectives": level,
            "w_speaker": cfg.w_speaker if offset is not None else 0.0,
            "context_decay": cfg.context_decay if facts is not None else 0.0,
            "edge_lift": cfg.edge_lift if (edges is not None and expand_graph) else 0.0,
            "sibling_lift": cfg.sibling_lift if (edges is not None and expand_graph) else 0.0,
            "w_question": cfg.w_question if facts is not None else 0.0,
            "boosted": len(boost or {}),
            "boost": boost.largest() if isinstance(boost, Boost) else max((boost or {}).values(), default=0.0),
        },
        timings_ms={
            "similarity": (t1 - t0) * 1e3,
            "expand_rank_pack": (t2 - t1) * 1e3,
            "order_render": (t3 - t2) * 1e3,
        },
    )
