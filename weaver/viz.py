"""Graph views without drawing: what is shown and where (pure functions over ``networkx.DiGraph``, no streamlit).

A non-studio user (a notebook, another UI, an export script) gets the same views the studio draws::

    from weaver import viz
    g = viz.filter_graph(w.graph, kinds=["user_input"], hide_guessed=True)
    shown = viz.select_subgraph(g, max_nodes=300, focus=node_id)   # the ego graph, or the most recent nodes
    pos = viz.layout_positions(g.subgraph(shown))                  # {node: (x, y)}, seeded and stable
    viz.path_between(g, a, b), viz.search_nodes(g, "北京"), viz.neighbourhood(g, node_id, hops=1)
    past = viz.graph_at_turn(w.graph, w.curation.log.entries, 3)   # the graph as it was after turn 3

The drawing itself — colours and shapes, vis-network data, the standalone offline HTML page (pyvis),
the legend and their escaping — lives with the studio in ``ui/graph_render.py``; ``weaver/`` never
imports pyvis (``tests/test_private_names.py`` checks it).
"""

from __future__ import annotations

from .viz_history import TurnReplay, graph_at_turn, replay_turns
from .viz_layout import (
    LAYOUTS,
    filter_graph,
    is_guessed,
    layout_positions,
    neighbourhood,
    order_key,
    path_between,
    path_steps,
    search_nodes,
    select_subgraph,
)

__all__ = [
    "LAYOUTS",
    "layout_positions",
    "order_key",
    "select_subgraph",
    "filter_graph",
    "search_nodes",
    "path_between",
    "path_steps",
    "is_guessed",
    "neighbourhood",
    "TurnReplay",
    "graph_at_turn",
    "replay_turns",
]
