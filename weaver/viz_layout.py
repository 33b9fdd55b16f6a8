"""Where nodes go and which ones are drawn: layouts, focused subgraphs, filters, search, paths (no streamlit).

The default layout is *layered by turn*: each turn is a horizontal band, bands stacked top to
bottom in turn order, and inside a band a node sits in its kind's column (user, thought, tool
results, reply) or further right when a same-turn cause sits there. So causes are always left
of / above their effects, and because a band's place depends only on earlier turns, a new turn
never moves an older node (positions are stable across reruns and as the conversation grows).
"""

from __future__ import annotations

from typing import Iterable

import networkx as nx

__all__ = [
    "order_key",
    "layout_positions",
    "select_subgraph",
    "filter_graph",
    "search_nodes",
    "path_between",
    "path_steps",
    "is_guessed",
    "neighbourhood",
    "LAYOUTS",
]

LAYOUTS = ("auto", "layered", "spring")
_KIND_LANE = {"user_input": 0, "agent_thought": 1, "tool_result": 2, "agent_response": 3}
_DEPTHS = 4  # columns inside a turn band: user -> thought -> tool results -> reply
COL_W = (
    190.0  # a two-line label (150 px) and a gap: a turn's four columns fit the chat's canvas at 0.6 (1400 px window)
)
BAND_GAP = 40.0
NODE_H = 125.0  # a node stacked under another in its column (ringed when new) clears its two-line label
GUESS_BELOW = 0.5  # an automatic edge under this confidence is a guess


def order_key(g: nx.DiGraph, n) -> tuple:
    a = g.nodes[n]
    return (a.get("turn", 0) or 0, a.get("timestamp", 0.0) or 0.0, str(n))


def _turn(g, n) -> int:
    return int(g.nodes[n].get("turn", 0) or 0)


def _depths(g: nx.DiGraph, members: list) -> dict:
    """Column of each node inside its turn: its kind's column, or further right when a same-turn cause sits there."""
    same = set(members)
    depth: dict = {}
    for n in members:  # members are in time order; the graph is acyclic, parents come first
        parents = [p for p in g.predecessors(n) if p in same and p in depth]
        floor = _KIND_LANE.get(g.nodes[n].get("kind"), 1)  # the usual column of its kind, pushed right by causes
        depth[n] = min(max([floor] + [depth[p] + 1 for p in parents]), _DEPTHS - 1)
    return depth


def _layered(g: nx.DiGraph) -> dict:
    turns = sorted({_turn(g, n) for n in g})
    by_turn: dict[int, list] = {t: [] for t in turns}
    for n in sorted(g, key=lambda n: order_key(g, n)):
        by_turn[_turn(g, n)].append(n)
    out, y = {}, 0.0
    for t in turns:  # one band per turn, top to bottom: a band's place depends only on earlier turns
        members = by_turn[t]
        depth = _depths(g, members)
        stack: dict[int, int] = {}
        for n in members:
            k = stack.get(depth[n], 0)
            stack[depth[n]] = k + 1
            # a small stagger inside a column keeps vertical edges from running through labels
            out[n] = (round(depth[n] * COL_W + (k % 2) * 24.0, 1), round(y + k * NODE_H, 1))
        y += max(stack.values()) * NODE_H + BAND_GAP
    return out


def layout_positions(g: nx.DiGraph, layout: str = "auto", seed: int = 7) -> dict:
    """Deterministic node positions (canvas pixels).

    ``layered`` (also ``timeline``, ``auto``): bands per turn, causes left of effects (module doc).
    ``spring``: networkx's force layout, seeded.

    >>> g = nx.DiGraph(); g.add_node("a", turn=1, kind="user_input"); g.add_node("b", turn=2, kind="agent_response")
    >>> layout_positions(g) == layout_positions(g.copy())
    True
    >>> layout_positions(g)["a"][0] < layout_positions(g)["b"][0]
    True
    """
    if g.number_of_nodes() == 0:
        return {}
    if layout in ("auto", "layered", "timeline"):
        return _layered(g)
    if layout == "spring":
        pos = nx.spring_layout(g.to_undirected(as_view=True), seed=seed, iterations=60)
        scale = 110.0 * max(g.number_of_nodes(), 4) ** 0.5
        return {n: (round(float(x) * scale, 1), round(float(y) * scale, 1)) for n, (x, y) in pos.items()}
    raise ValueError(f"unknown layout {layout!r}: expected one of {', '.join(LAYOUTS)}")


def select_subgraph(g: nx.DiGraph, max_nodes: int = 300, focus: Iterable[str] | str | None = None) -> list:
    """The nodes to draw: all of them, or at most ``max_nodes`` around ``focus`` (else the latest).

    Around a focus the ego graph grows hop by hop (both directions) while it fits; the last hop
    that does not fit entirely is filled by the nodes closest in time to the focus.

    >>> g = nx.path_graph(10, create_using=nx.DiGraph)
    >>> sorted(select_subgraph(g, 3, focus=5))
    [4, 5, 6]
    >>> len(select_subgraph(g, 100))
    10
    """
    if g.number_of_nodes() <= max_nodes:
        return list(g)
    if isinstance(focus, (str, int)):
        focus = [focus]
    focus = [f for f in (focus or []) if f in g]
    if not focus:
        return sorted(g, key=lambda n: order_key(g, n))[-max_nodes:]
    und = g.to_undirected(as_view=True)
    dist: dict = {}
    for f in focus:
        for n, d in nx.single_source_shortest_path_length(und, f).items():
            dist[n] = min(d, dist.get(n, d))
    ranked = sorted(dist, key=lambda n: (dist[n], str(n)))
    chosen = ranked[:max_nodes]
    if len(chosen) < max_nodes:  # a small component: pad with the latest other nodes
        rest = [n for n in sorted(g, key=lambda n: order_key(g, n), reverse=True) if n not in dist]
        chosen += rest[: max_nodes - len(chosen)]
    return chosen


def is_guessed(d: dict) -> bool:
    """An edge the builder guessed with low confidence (never a human's, an agent's or a review's).

    >>> is_guessed({"origin": "rules", "confidence": 0.3}), is_guessed({"origin": "human", "confidence": 0.3})
    (True, False)
    """
    return (
        d.get("origin") in ("rules", "llm")
        and d.get("status") != "confirmed"
        and float(d.get("confidence", 1.0) or 0.0) < GUESS_BELOW
    )


def filter_graph(
    g: nx.DiGraph,
    *,
    relations: Iterable[str] | None = None,
    kinds: Iterable[str] | None = None,
    statuses: Iterable[str] | None = None,
    upto_turn: int | None = None,
    hide_guessed: bool = False,
) -> nx.DiGraph:
    """A copy of ``g`` with only the given node kinds/statuses, edge relations and turns (None = all).

    >>> g = nx.DiGraph(); g.add_node("a", kind="user_input", turn=1); g.add_node("b", kind="tool_result", turn=2)
    >>> g.add_edge("a", "b", relation="causal")
    >>> sorted(filter_graph(g, kinds=["user_input"]).nodes), filter_graph(g, relations=["temporal"]).number_of_edges()
    (['a'], 0)
    """
    kinds = set(kinds) if kinds is not None else None
    statuses = set(statuses) if statuses is not None else None
    relations = set(relations) if relations is not None else None
    keep = [
        n
        for n, a in g.nodes(data=True)
        if (kinds is None or a.get("kind") in kinds)
        and (statuses is None or a.get("status", "active") in statuses)
        and (upto_turn is None or (a.get("turn", 0) or 0) <= upto_turn)
    ]
    sub = g.subgraph(keep).copy()
    sub.remove_edges_from(
        [
            (u, v)
            for u, v, d in sub.edges(data=True)
            if (relations is not None and d.get("relation") not in relations) or (hide_guessed and is_guessed(d))
        ]
    )
    return sub


def neighbourhood(g: nx.DiGraph, n, hops: int = 1) -> set:
    """``n`` and the nodes within ``hops`` edges of it, either direction (empty when unknown)."""
    if n not in g:
        return set()
    return set(nx.single_source_shortest_path_length(g.to_undirected(as_view=True), n, cutoff=hops))


def search_nodes(g: nx.DiGraph, text: str) -> list:
    """Nodes whose content contains every whitespace-separated term of ``text`` (case-insensitive).

    >>> g = nx.DiGraph(); g.add_node("a", content="Beijing budget 5000"); g.add_node("b", content="北京 海鲜过敏")
    >>> search_nodes(g, "budget beijing"), search_nodes(g, "海鲜"), search_nodes(g, "  ")
    (['a'], ['b'], [])
    """
    terms = [t.casefold() for t in str(text or "").split()]
    if not terms:
        return []
    return [n for n, a in g.nodes(data=True) if all(t in str(a.get("content", "")).casefold() for t in terms)]


def path_between(g: nx.DiGraph, a, b) -> list:
    """A shortest path from ``a`` to ``b``: along edge directions if one exists, else ignoring them.

    Empty when the two are not connected (or unknown).

    >>> g = nx.DiGraph([("x", "y"), ("z", "y")])
    >>> path_between(g, "x", "y"), path_between(g, "x", "z"), path_between(g, "x", "q")
    (['x', 'y'], ['x', 'y', 'z'], [])
    """
    if a not in g or b not in g:
        return []
    for graph in (g, g.to_undirected(as_view=True)):
        try:
            return list(nx.shortest_path(graph, a, b))
        except nx.NetworkXNoPath:
            continue
    return []


def path_steps(g: nx.DiGraph, path: list) -> list[tuple]:
    """Each step of a path as ``(u, v, forward)``: ``forward`` is False where it runs against an arrow.

    >>> path_steps(nx.DiGraph([("x", "y"), ("z", "y")]), ["x", "y", "z"])
    [('x', 'y', True), ('y', 'z', False)]
    """
    return [(u, v, g.has_edge(u, v)) for u, v in zip(path, path[1:])]
