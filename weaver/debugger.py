"""The retrieval debugger: what the agent got, why, what plain vector search would have given, and why not X.

Past agent turns (found in the transcript, replayed over the memory as it stood
then) are :mod:`weaver.turn_replay`.

Pure library code over a :class:`~weaver.core.ContextWeaver` and the trace that
:func:`weaver.retrieval.retrieve` records (every candidate with its score
components and cut reason). Nothing here changes how retrieval ranks; when the
trace does not say something (a node that never became a candidate), it is
reconstructed from the same inputs retrieval used.

>>> t = debug_query(weaver, "why this restaurant?", budget=300)      # doctest: +SKIP
>>> t.explain(t.result.node_ids[0])                                # doctest: +SKIP
'seed #1 of 6: similarity 0.331, lexical 1.00 ...'
>>> why_not(weaver, t.result, "n_1234").reason                     # doctest: +SKIP
'budget_cut'
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

import networkx as nx
import numpy as np

from .graph import expand
from .models import WeaverError
from .retrieval import RankedNode, RetrievalResult
from .settings import WeaverConfig

__all__ = [
    "WHY_NOT_REASONS",
    "Why",
    "Comparison",
    "DebugTrace",
    "debug_query",
    "explain_included",
    "expansion_path",
    "expansion_steps",
    "why_not",
    "compare_with_vector",
    "node_roles",
    "graph_styles",
    "config_of",
]

# one reason class per case a node can be missing from (or present in) a context
WHY_NOT_REASONS = {
    "included": "in the context",
    "not_reached": "not similar enough to be a seed and not reachable from a seed within the hop limit",
    "expand_limit": "reachable from a seed within the hop limit, but pruned by the expansion limit",
    "budget_cut": "a candidate, cut by the token budget",
    "inactive": "superseded or retracted",
    "filtered_at_ingest": "rejected by the selective filter at ingest: never became a memory",
}


@dataclass
class Why:
    """Why a node is (not) in a context: one reason class, a sentence, and the numbers behind it."""

    node_id: str
    reason: str  # a key of WHY_NOT_REASONS
    summary: str
    content: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "node_id": self.node_id,
            "reason": self.reason,
            "summary": self.summary,
            "content": self.content,
            "details": self.details,
        }


@dataclass
class Comparison:
    """The graph context against plain vector top-k at the same budget (node ids, each in its context order)."""

    graph: list[str]
    vector: list[str]
    added: list[str]  # in the graph's context, not in vector top-k's
    displaced: list[str]  # in vector top-k's context, not in the graph's
    shared: list[str]

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def config_of(base: WeaverConfig, res: RetrievalResult) -> WeaverConfig:
    """The config a result was retrieved with (its trace records the retrieval knobs)."""
    names = {f.name for f in fields(WeaverConfig)}
    return base.with_(**{k: v for k, v in res.config.items() if k in names})


# ----------------------------------------------------------- the context
def _short(g: nx.DiGraph, nid: str | None, n: int = 28) -> str:
    if not nid:
        return ""
    text = " ".join(str(g.nodes[nid].get("content", "")).split()) if nid in g else ""
    return f"{nid} «{text[:n]}{'…' if len(text) > n else ''}»"


def expansion_path(res: RetrievalResult, node_id: str) -> list[RankedNode]:
    """The candidates from a seed to ``node_id`` along the expansion steps (seed first).

    Each candidate records the node it was reached ``via``; following those back
    ends at a seed. Empty when ``node_id`` was never a candidate.
    """
    by_id = {n.id: n for n in res.ranked}
    path: list[RankedNode] = []
    seen: set[str] = set()
    cur = by_id.get(node_id)
    while cur is not None and cur.id not in seen:
        seen.add(cur.id)
        path.append(cur)
        if cur.hops == 0 or not cur.via:
            break
        cur = by_id.get(cur.via)
    return path[::-1]


def expansion_steps(res: RetrievalResult) -> list[dict[str, Any]]:
    """Every expansion step of the trace: hop, from which node, over which edge, relation and direction."""
    out = []
    for n in sorted((n for n in res.ranked if n.hops > 0), key=lambda n: (n.hops, n.rank)):
        out.append(
            {
                "node": n.id,
                "hop": n.hops,
                "seed": n.seed,
                "via": n.via,
                "edge": f"{n.edge[0]}->{n.edge[1]}" if n.edge else "",
                "relation": n.relation,
                "direction": n.direction,
                "propagated": n.propagated,
                "included": n.included,
            }
        )
    return out


def explain_included(g: nx.DiGraph, res: RetrievalResult, node_id: str) -> str:
    """One sentence saying how a candidate got into the ranking (and where it landed)."""
    n = next((c for c in res.ranked if c.id == node_id), None)
    if n is None:
        raise WeaverError(f"{node_id!r} was not a candidate for this query")
    tail = f"score {n.score:.3f} at rank {n.rank}" + ("" if n.included else f"; cut: {n.cut_reason}")
    if n.hops == 0:
        k = res.seeds.index(n.id) + 1 if n.id in res.seeds else 0
        return (
            f"seed #{k} of {len(res.seeds)}: similarity {n.similarity:.3f}, lexical {n.lexical:.2f} "
            f"(relevance {n.relevance:.3f}, centrality {n.centrality:.2f}); {tail}"
        )
    if n.relation == "adjacent":  # retrieval's neighbouring-turn step: no graph edge behind it
        side = "turn before" if n.direction == "cause" else "turn after"
        return (
            f"expanded at hop {n.hops} as the {side} seed {_short(g, n.seed)} in the same sitting (adjacent, "
            f"no graph edge); relevance {n.relevance:.3f}, {n.propagated:.3f} of it lent by neighbours; {tail}"
        )
    walked = "a cause (walked back)" if n.direction == "cause" else "an effect (walked forward)"
    edge = f"{n.edge[0]}->{n.edge[1]}" if n.edge else "?"
    return (
        f"expanded at hop {n.hops} from seed {_short(g, n.seed)} via {_short(g, n.via)} over edge {edge} "
        f"[{n.relation}], {walked}; relevance {n.relevance:.3f}, {n.propagated:.3f} of it lent by neighbours; {tail}"
    )


@dataclass
class DebugTrace:
    """A query's graph retrieval and its vector top-k baseline, with every node and cut explained."""

    query: str
    result: RetrievalResult
    vector: RetrievalResult
    comparison: Comparison
    graph: nx.DiGraph = field(repr=False)

    def explain(self, node_id: str) -> str:
        return explain_included(self.graph, self.result, node_id)

    @property
    def explanations(self) -> dict[str, str]:
        """node id -> how it got in, for every node of the final context."""
        return {n.id: self.explain(n.id) for n in self.result.nodes}

    @property
    def cuts(self) -> dict[str, str]:
        """node id -> why it was cut, for every candidate left out."""
        return {n.id: n.cut_reason for n in self.result.cut}

    @property
    def steps(self) -> list[dict[str, Any]]:
        return expansion_steps(self.result)


def compare_with_vector(res: RetrievalResult, vector: RetrievalResult) -> Comparison:
    g_ids, v_ids = res.node_ids, vector.node_ids
    gs, vs = set(g_ids), set(v_ids)
    return Comparison(
        graph=g_ids,
        vector=v_ids,
        added=[n for n in g_ids if n not in vs],
        displaced=[n for n in v_ids if n not in gs],
        shared=[n for n in g_ids if n in vs],
    )


def debug_query(w, query: str, budget: int | None = None, config: WeaverConfig | None = None) -> DebugTrace:
    """Run the graph retrieval and plain vector top-k at the same budget, and pair them up."""
    cfg = config or w.config
    res = w.query(query, budget=budget, config=cfg)
    vec = w.vector_top_k(res.query, res.budget)
    return DebugTrace(res.query, res, vec, compare_with_vector(res, vec), w.graph)


# --------------------------------------------------------------- why not
def _relevance_all(w, query: str, cfg: WeaverConfig) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """Dense, lexical and ranking relevance of every node, computed exactly as retrieval computes them."""
    ids = w.node_ids
    if not ids:
        z = np.zeros(0, dtype=np.float32)
        return ids, z, z, z
    qvec = w.query_vector(query)  # the cached embedder: the query was embedded moments ago
    s = w.score_nodes(query, cfg, qvec)
    return ids, s.dense, s.lexical, s.ranking


def _usable_graph(g: nx.DiGraph) -> nx.Graph:
    """The undirected graph expansion can walk: active nodes, edges not rejected."""
    active = [n for n, a in g.nodes(data=True) if a.get("status", "active") == "active"]
    sub = nx.Graph()
    sub.add_nodes_from(active)
    sub.add_edges_from((u, v) for u, v, d in g.subgraph(active).edges(data=True) if d.get("status") != "rejected")
    return sub


def _resolve(w, ident: str) -> tuple[str | None, Any]:
    """A node id, or a message id (kept -> its node; rejected -> its decision)."""
    if ident in w.graph:
        return ident, None
    d = w.decisions.get(ident)
    if d is not None:
        return (d.node_id or None) if d.kept else None, d
    for d in w.decisions.values():  # a node id whose message is known but whose node is gone
        if d.node_id == ident:
            return None, d
    raise WeaverError(f"no node or message {ident!r} in space {w.space.name!r}")


def why_not(w, res: RetrievalResult, ident: str) -> Why:
    """Why the node (or message) ``ident`` is not in ``res``'s context — or how it got in.

    Reasons, checked in this order: ``filtered_at_ingest`` (the message never became
    a node), ``included``, ``inactive`` (superseded / retracted), ``budget_cut`` (a
    candidate, cut at rank R), ``expand_limit`` (reachable within the hop limit but
    pruned by ``expand_limit``), ``not_reached`` (below the seeds taken and farther
    than the hop limit from every seed).
    """
    nid, decision = _resolve(w, ident)
    if nid is None:
        d = decision
        details = {
            "message_id": d.message_id,
            "coarse": d.coarse,
            "relevance": d.relevance,
            "novelty": d.novelty,
            "importance": d.importance,
            "total": d.total,
            "coarse_threshold": d.coarse_threshold,
            "keep_threshold": d.keep_threshold,
            "backend": d.backend,
            "filter_reason": d.reason,
        }
        summary = (
            f"filtered out at ingest: relevance {d.relevance:g}, novelty {d.novelty:g}, importance "
            f"{d.importance:g}, total {d.total:.2f} (keep threshold {d.keep_threshold:g}; coarse "
            f"{d.coarse:.2f} vs {d.coarse_threshold:g}) — {d.reason}"
        )
        return Why(ident, "filtered_at_ingest", summary, d.content, details)

    g = w.graph
    attrs = g.nodes[nid]
    content = str(attrs.get("content", ""))
    cand = next((c for c in res.ranked if c.id == nid), None)
    if cand is not None and cand.included:
        return Why(
            nid,
            "included",
            "in the context: " + explain_included(g, res, nid),
            content,
            {"rank": cand.rank, "role": cand.role, "score": cand.score, "hops": cand.hops},
        )
    status = attrs.get("status", "active")
    if status != "active":
        meta = attrs.get("meta") or {}
        by = meta.get("superseded_by") or meta.get("replaced_by")
        rule = (
            "superseded memories are retrieved only for questions about history"
            if status == "superseded"
            else "inactive memories are never retrieved"
        )
        summary = f"{status}: {rule}" + (f" (superseded by {_short(g, by)})" if by else "")
        return Why(nid, "inactive", summary, content, {"status": status, "superseded_by": by})
    if cand is not None:
        summary = (
            f"cut by the budget at rank {cand.rank} (score {cand.score:.3f}, {cand.tokens} tokens; "
            f"context {res.tokens}/{res.budget}): {cand.cut_reason}. It got in as "
            + explain_included(g, res, nid).split(";")[0]
        )
        return Why(
            nid,
            "budget_cut",
            summary,
            content,
            {
                "rank": cand.rank,
                "score": cand.score,
                "tokens": cand.tokens,
                "cut_reason": cand.cut_reason,
                "budget": res.budget,
                "used": res.tokens,
                "role": cand.role,
            },
        )

    cfg = config_of(w.config, res)
    hops = int(res.config.get("hops", cfg.hops))
    # only the first seeds are expanded; later ones just fill leftover room
    unlimited = expand(g, res.expanded_seeds, hops, None) if hops and res.expanded_seeds else {}
    if nid in unlimited:
        st = unlimited[nid]
        summary = (
            f"reachable at hop {st.hop} from seed {_short(g, st.seed)} (via {_short(g, st.via)}, "
            f"[{st.relation}]), but pruned by the expansion limit: at most {cfg.expand_limit} nodes are "
            f"taken per seed, strongest edges first (edge confidence {st.confidence:.2f})"
        )
        return Why(
            nid,
            "expand_limit",
            summary,
            content,
            {
                "hop": st.hop,
                "seed": st.seed,
                "via": st.via,
                "relation": st.relation,
                "confidence": st.confidence,
                "expand_limit": cfg.expand_limit,
                "hops": hops,
            },
        )

    ids, dense, lex, rel = _relevance_all(w, res.query, cfg)
    active = np.array([g.nodes[i].get("status", "active") == "active" for i in ids], dtype=bool)
    rel = np.where(active, rel, -np.inf)
    pos = {x: k for k, x in enumerate(ids)}
    i = pos[nid]
    rank = int((rel > rel[i]).sum()) + 1
    seed_rel = [float(rel[pos[s]]) for s in res.seeds if s in pos]
    weakest = min(seed_rel) if seed_rel else float("nan")
    und = _usable_graph(g)
    lengths = nx.single_source_shortest_path_length(und, nid) if nid in und else {}
    dists = [lengths[s] for s in res.expanded_seeds if s in lengths]
    nearest = min(dists) if dists else None
    where = (
        f"the nearest expanded seed is {nearest} hops away (hop limit {hops})"
        if nearest is not None
        else "no dependency path links it to an expanded seed"
    )
    summary = (
        f"not similar enough: relevance {rel[i]:.3f} (similarity {dense[i]:.3f}, lexical {lex[i]:.2f}) ranks "
        f"{rank} of {int(active.sum())}; {len(res.seeds)} seeds were taken, the weakest at relevance "
        f"{weakest:.3f}; and not reachable within {hops} hops: {where}"
    )
    return Why(
        nid,
        "not_reached",
        summary,
        content,
        {
            "similarity": float(dense[i]),
            "lexical": float(lex[i]),
            "relevance": float(rel[i]),
            "relevance_rank": rank,
            "seeds_taken": len(res.seeds),
            "weakest_seed_relevance": weakest,
            "nearest_seed_hops": nearest,
            "hops": hops,
        },
    )


# ------------------------------------------------------------- the graph
def node_roles(g: nx.DiGraph, res: RetrievalResult) -> dict[str, str]:
    """Every node's part in a retrieval: ``seed`` / ``expanded`` (in the context), ``cut``, ``unrelated``."""
    roles = {n: "unrelated" for n in g}
    for c in res.ranked:
        if c.id in roles:
            roles[c.id] = c.role if c.included else "cut"
    return roles


def graph_styles(
    g: nx.DiGraph, res: RetrievalResult, selected_path: list[str] | None = None
) -> tuple[dict[str, Any], dict[tuple[str, str], str]]:
    """``node_styles`` / ``edge_styles`` for the studio's graph drawing (``ui/graph_render.py``).

    Seeds, expanded and cut nodes get their highlight style, unrelated nodes are
    dimmed; the edges expansion walked to reach a context node are ``expanded``,
    and the path to ``selected_path``'s nodes (if given) is ``path``.
    """
    node_styles: dict[str, Any] = {}
    for n, role in node_roles(g, res).items():
        node_styles[n] = "dim" if role == "unrelated" else role
    edge_styles: dict[tuple[str, str], str] = {}
    for c in res.nodes:
        for step in expansion_path(res, c.id):
            if step.edge and g.has_edge(*step.edge):  # adjacent-turn steps have no edge to draw
                source, target = step.edge  # a pair, also when a trace read back from JSON holds a list
                edge_styles[(source, target)] = "expanded"
    for a, b in zip(selected_path or [], (selected_path or [])[1:]):
        for e in ((a, b), (b, a)):
            if g.has_edge(*e):
                edge_styles[e] = "path"
    return node_styles, edge_styles
