"""Why a memory is not in a context (or how it got in): one reason class, a sentence, the numbers behind it.

The debugger's "why not X?" (:func:`why_not`), used by the Retrieval page, the CLI's ``why`` and the MCP
service. The reasons are checked in a fixed order, and a node that never became a candidate is explained by
recomputing, from the inputs retrieval used, what it would have needed: its relevance rank against the seeds
taken, and its distance from the expanded seeds in the usable graph.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import numpy as np

from .graph import expand
from .models import WeaverError
from .retrieval import RetrievalResult
from .settings import WeaverConfig
from .trace_views import config_of, explain_included, short_label

__all__ = ["WHY_NOT_REASONS", "Why", "why_not"]

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
    if not isinstance(ident, str):
        raise WeaverError(f"a node or message id is a string, not {type(ident).__name__}")
    if not ident.strip():  # a rejected message's decision names node "": a blank id would "find" the first of them
        raise WeaverError("an empty id names no node or message")
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
        summary = f"{status}: {rule}" + (f" (superseded by {short_label(g, by)})" if by else "")
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
            f"reachable at hop {st.hop} from seed {short_label(g, st.seed)} (via {short_label(g, st.via)}, "
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
