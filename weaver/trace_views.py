"""Reading a retrieval trace: how each candidate was reached, in words and as graph styles.

Pure functions over a :class:`~weaver.retrieval.RetrievalResult`'s trace (every candidate with its score
components, hop, seed, ``via`` node, edge and cut reason) and the memory graph. Shared by the debugger
(:mod:`weaver.debugger`), the why-not explanations (:mod:`weaver.why_not`) and the studio's graph
drawing; nothing here changes how retrieval ranks.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import networkx as nx

from .models import WeaverError
from .retrieval import RankedNode, RetrievalResult
from .settings import WeaverConfig

__all__ = [
    "config_of",
    "expansion_path",
    "expansion_steps",
    "explain_included",
    "graph_styles",
    "node_roles",
    "short_label",
]


def config_of(base: WeaverConfig, res: RetrievalResult) -> WeaverConfig:
    """The config a result was retrieved with (its trace records the retrieval knobs)."""
    names = {f.name for f in fields(WeaverConfig)}
    return base.with_(**{k: v for k, v in res.config.items() if k in names})


def short_label(g: nx.DiGraph, nid: str | None, n: int = 28) -> str:
    """A node named by its id and the start of its text (empty for no node)."""
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
            f"expanded at hop {n.hops} as the {side} seed {short_label(g, n.seed)} in the same sitting (adjacent, "
            f"no graph edge); relevance {n.relevance:.3f}, {n.propagated:.3f} of it lent by neighbours; {tail}"
        )
    walked = "a cause (walked back)" if n.direction == "cause" else "an effect (walked forward)"
    edge = f"{n.edge[0]}->{n.edge[1]}" if n.edge else "?"
    return (
        f"expanded at hop {n.hops} from seed {short_label(g, n.seed)} via {short_label(g, n.via)} over edge {edge} "
        f"[{n.relation}], {walked}; relevance {n.relevance:.3f}, {n.propagated:.3f} of it lent by neighbours; {tail}"
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
