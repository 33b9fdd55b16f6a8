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

This module owns ``retrieve`` (seeds, expansion, packing, the narrative); the result
types live in ``retrieval_result`` and the scoring in ``node_scoring`` (re-exported).
"""

from __future__ import annotations

import time

import networkx as nx
import numpy as np

from .graph import Neighbours, Step, causal_order, expand
from .lexical import LexicalIndex
from .neighbourhood import EdgeIndex, NodeFacts
from .narrative import CONNECTIVE_LEVELS, LineCosts, date_of, render
from .settings import WeaverConfig
from .text import count_tokens, detect_language
from .node_scoring import Boost, NodeScores, cold_mask, lexical_weight, score_nodes, shown_mask
from .retrieval_result import RankedNode, RetrievalResult


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
    "lexical_weight",
]

# the plain vector baseline the debugger compares against: dense similarity alone (with expand=False)
PLAIN_DENSE = dict(w_lexical=0.0, w_centrality=0.0, w_speaker=0.0, context_decay=0.0, edge_lift=0.0, sibling_lift=0.0)
PLAIN_DENSE["w_question"] = 0.0
PLAIN_DENSE["w_date"] = 0.0


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
            "w_date": cfg.w_date if facts is not None else 0.0,
            "boosted": len(boost or {}),
            "boost": boost.largest() if isinstance(boost, Boost) else max((boost or {}).values(), default=0.0),
        },
        timings_ms={
            "similarity": (t1 - t0) * 1e3,
            "expand_rank_pack": (t2 - t1) * 1e3,
            "order_render": (t3 - t2) * 1e3,
        },
    )
