"""Pure graph functions over a ``networkx.DiGraph`` of memories.

Edges run parent -> child (cause -> effect, condition -> consequence, earlier ->
later); node attributes used here: ``turn`` and ``timestamp`` (for ties),
``status`` (only ``active`` nodes are walked); edge attributes: ``relation``,
``confidence``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import networkx as nx

__all__ = [
    "Step",
    "Neighbours",
    "expand",
    "causal_order",
    "would_create_cycle",
    "degree_centrality",
    "transitive_redundant",
]


@dataclass(frozen=True)
class Step:
    """How expansion reached a node: from ``via`` over the edge ``edge`` in ``direction``."""

    node: str
    hop: int
    seed: str
    via: str | None
    edge: tuple[str, str] | None
    relation: str | None
    direction: str | None  # "cause" (walked to a predecessor) or "effect" (to a successor)
    confidence: float = 1.0


def _active(g: nx.DiGraph, n: str) -> bool:
    return g.nodes[n].get("status", "active") == "active"


class Neighbours:
    """Each node's edges as :func:`expand` weighs them, read from the graph once per node and kept.

    A query expands from a hundred seeds and more when memories are short; reading every neighbour's edge
    and node attributes through networkx's views again per query was most of the expansion's time. Keep an
    instance only while the graph's edges do not change (the weaver keeps one per state of its mirror):
    the attribute dicts are the graph's own, so a status changed in place is seen.

    >>> g = nx.DiGraph([("a", "b", {"confidence": 0.5})])
    >>> [(conf, v, direction) for conf, v, _, _, _, direction, _ in Neighbours(g)("b")]
    [(0.5, 'a', 'cause')]
    """

    def __init__(self, g: nx.DiGraph) -> None:
        self.g = g
        self._got: dict[str, list] = {}
        self._degree = g.degree  # a live view: made once, not per node

    def degree(self, u: str) -> int:
        """``g.degree(u)`` (edges in and out), from the kept edges when ``u``'s were read already.

        >>> Neighbours(nx.DiGraph([("a", "b"), ("c", "b")])).degree("b")
        2
        """
        got = self._got.get(u)
        return len(got) if got is not None else self._degree[u]

    def __call__(self, u: str) -> list[tuple]:
        """``(confidence, neighbour, u, edge, edge attributes, direction, neighbour's attributes)``: its causes
        (predecessors) first, then its effects, in the graph's order."""
        got = self._got.get(u)
        if got is None:
            g, nodes = self.g, self.g.nodes
            got = [(d.get("confidence", 1.0), p, u, (p, u), d, "cause", nodes[p]) for p, d in g.pred[u].items()]
            got += [(d.get("confidence", 1.0), c, u, (u, c), d, "effect", nodes[c]) for c, d in g.succ[u].items()]
            self._got[u] = got
        return got


def expand(
    g: nx.DiGraph,
    seeds: Iterable[str],
    hops: int = 2,
    limit: int | None = None,
    neighbours: Neighbours | None = None,
) -> dict[str, Step]:
    """Breadth-first walk from the seeds along edges in both directions, up to ``hops``.

    Predecessors are causes and conditions, successors are effects. Each node is
    reported once, with its shortest hop (seeds first). ``limit`` caps the nodes
    reached from any one seed (strongest edges first). ``neighbours``: a kept
    :class:`Neighbours` of ``g`` (one is made for the call otherwise).

    >>> g = nx.DiGraph()
    >>> g.add_edge("budget", "thought", relation="conditional", confidence=0.9)
    >>> g.add_edge("thought", "result", relation="temporal", confidence=0.95)
    >>> g.add_edge("result", "reply", relation="causal", confidence=0.8)
    >>> steps = expand(g, ["thought"], hops=1)
    >>> sorted((s.node, s.hop, s.direction) for s in steps.values())
    [('budget', 1, 'cause'), ('result', 1, 'effect'), ('thought', 0, None)]
    """
    steps: dict[str, Step] = {}
    seeds = [s for s in seeds if s in g and _active(g, s)]
    for s in seeds:
        steps[s] = Step(s, 0, s, None, None, None, None)
    edges_of = neighbours if neighbours is not None else Neighbours(g)
    for seed in seeds:
        frontier = [seed]
        reached = 0
        for hop in range(1, hops + 1):
            nxt = []
            options = [o for u in frontier for o in edges_of(u)]
            options.sort(key=lambda o: -o[0])
            for conf, v, u, edge, d, direction, attrs in options:
                if attrs.get("status", "active") != "active" or d.get("status") == "rejected":
                    continue
                if v in steps and steps[v].hop <= hop:
                    continue
                if limit is not None and reached >= limit:
                    break
                steps[v] = Step(v, hop, seed, u, edge, d.get("relation"), direction, conf)
                nxt.append(v)
                reached += 1
            frontier = nxt
    return steps


def _within(succ, source: str, hops: int) -> set[str]:
    """The nodes reachable from ``source`` in at most ``hops`` steps (itself included): what
    ``nx.single_source_shortest_path_length(g, source, cutoff=hops)`` keys, without its dispatch per call.

    >>> sorted(_within(nx.DiGraph([("a", "b"), ("b", "c"), ("c", "d")]).succ, "a", 2))
    ['a', 'b', 'c']
    """
    seen = {source}
    frontier = [source]
    for _ in range(hops):
        nxt = [v for u in frontier for v in succ[u] if v not in seen]
        seen.update(nxt)
        frontier = nxt
        if not frontier:
            break
    return seen


def causal_order(g: nx.DiGraph, nodes: Iterable[str], alone: Iterable[str] = ()) -> list[str]:
    """Order nodes causes-before-effects (topological on the induced subgraph), ties by time.

    Dependencies through nodes left out still count (up to 3 hops): if
    a -> x -> b and x is not included, a still comes before b. ``alone``: nodes
    placed by time only, no dependency to or from them counts (the cold tier).

    >>> g = nx.DiGraph()
    >>> g.add_node("b", turn=1); g.add_node("a", turn=2); g.add_node("c", turn=3)
    >>> g.add_edge("a", "b")
    >>> causal_order(g, ["c", "b", "a"]), causal_order(g, ["c", "b", "a"], alone={"a"})
    (['a', 'b', 'c'], ['b', 'a', 'c'])
    """
    nodes = [n for n in dict.fromkeys(nodes) if n in g]
    alone = set(alone)
    keep = set(nodes) - alone
    sub = nx.DiGraph()
    sub.add_nodes_from(nodes)
    for n in nodes:
        if n in alone:
            continue
        for d in keep.intersection(_within(g.succ, n, 3)):
            if d != n:
                sub.add_edge(n, d)

    def key(n):
        a = g.nodes[n]
        return (a.get("turn", 0), a.get("timestamp", 0.0), n)

    return list(nx.lexicographical_topological_sort(sub, key=key))


def would_create_cycle(g: nx.DiGraph, source: str, target: str) -> bool:
    """True when adding ``source -> target`` would close a cycle.

    >>> g = nx.DiGraph([("a", "b"), ("b", "c")])
    >>> would_create_cycle(g, "c", "a"), would_create_cycle(g, "a", "c")
    (True, False)
    """
    if source == target:
        return True
    return source in g and target in g and nx.has_path(g, target, source)


def degree_centrality(g: nx.DiGraph) -> dict[str, float]:
    """Degree centrality in [0, 1] (cheap and stable as the graph grows).

    >>> degree_centrality(nx.DiGraph([("a", "b"), ("a", "c")]))["a"]
    1.0
    """
    if g.number_of_nodes() <= 1:
        return {n: 0.0 for n in g}
    return nx.degree_centrality(g)


def transitive_redundant(g: nx.DiGraph) -> list[tuple[str, str]]:
    """Edges implied by a longer path between the same endpoints (review candidates).

    >>> transitive_redundant(nx.DiGraph([("a", "b"), ("b", "c"), ("a", "c")]))
    [('a', 'c')]
    """
    out = []
    for u, v in g.edges:
        h = g.copy()
        h.remove_edge(u, v)
        if nx.has_path(h, u, v):
            out.append((u, v))
    return out
