"""Cascade: which memories depend on a node through causal or conditional edges.

When a cause is retracted (or a constraint superseded), every effect and every
consequence derived under it becomes suspect. Nothing is deleted: the
dependents are flagged "needs review" in the queue.
"""

from __future__ import annotations

import networkx as nx

__all__ = ["DEPENDENCY_RELATIONS", "dependents"]

DEPENDENCY_RELATIONS = ("causal", "conditional")


def dependents(g: nx.DiGraph, node: str, relations: tuple[str, ...] = DEPENDENCY_RELATIONS) -> dict[str, list[str]]:
    """Every node reachable from ``node`` over edges of the given relations, with the path that reaches it.

    Temporal and elaborating edges do not carry the dependency (a later step is
    not wrong because an earlier one was). Rejected edges are ignored.

    >>> g = nx.DiGraph()
    >>> g.add_edge("budget", "plan", relation="conditional")
    >>> g.add_edge("plan", "booking", relation="causal")
    >>> g.add_edge("booking", "chat", relation="temporal")
    >>> dependents(g, "budget")
    {'plan': ['budget', 'plan'], 'booking': ['budget', 'plan', 'booking']}
    """
    if node not in g:
        return {}
    out: dict[str, list[str]] = {}
    frontier = [[node]]
    while frontier:
        nxt = []
        for path in frontier:
            for child in g.successors(path[-1]):
                d = g.edges[path[-1], child]
                if d.get("relation") not in relations or d.get("status") == "rejected":
                    continue
                if child in out or child == node:
                    continue
                out[child] = path + [child]
                nxt.append(path + [child])
        frontier = nxt
    return out
