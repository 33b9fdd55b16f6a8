"""Drawing the memory graph for the studio: colours, vis-network data, the offline HTML page, the legend.

The library (``weaver.viz``) decides *what* is drawn and *where* (focused subgraph, seeded layout,
filters, search, paths, the graph as it was after a turn); the studio turns that into pictures.
This module is the one import path for all of it (pages, ``ui/`` and tests use ``graph_render.X``);
the code lives in modules by concern:

- ``ui/graph_labels.py``: display names (en/zh) and canvas labels (``labels``, ``short_label``, ``canvas_label``);
- ``ui/graph_styles.py``: kind/relation colours and shapes, highlight styles (``KIND_COLORS``, ``NODE_STYLES``...);
- ``ui/graph_payload.py``: the vis-network data (``vis_payload``, ``payload_json``);
- ``ui/graph_html.py``: the standalone offline page (``render_graph_html``; pyvis, imported lazily);
- ``ui/graph_legend.py``: the HTML legend (``legend_html``).

None of them needs streamlit, so they stay unit-testable; pyvis is imported only by ``graph_html``
(lazily) and ``ui/graph_component.py``, never by ``weaver/``.

Public API (keyword style, stable — the retrieval debugger and the graph page build on it)::

    render_graph_html(g, *, node_styles=None, edge_styles=None, selected=None, height=600,
                      max_nodes=300, focus=None, lang="en", layout="auto", title=None) -> str
        A standalone, offline HTML page (pyvis, ``cdn_resources="in_line"``, Bootstrap CDN tags
        stripped): the graph page's "HTML" export.
    vis_payload(g, *, node_styles=None, edge_styles=None, selected=None, max_nodes=300, focus=None,
                lang="en", layout="auto") -> dict
        The same drawing as data ({"nodes", "edges", "options", "shown", "total", "note"}) for the
        click-to-select component in ``ui/graph_component.py``.
    legend_html(lang="en", styles=None) -> str
        Static HTML legend of node kinds (colour + shape), relations (edge colour) and, when
        ``styles`` names some highlight styles, what those mean. No user text in it.

``g`` is a ``networkx.DiGraph`` of memories as ``ContextWeaver.graph`` holds it (node attrs
``content, kind, turn, timestamp, status``; edge attrs ``relation, confidence, origin, status``).

Highlight styles (``node_styles={node_id: "seed" | ["seed", "selected"] | {vis options}}``):
``new`` (just added), ``seed``, ``expanded``, ``cut`` (a candidate left out), ``match`` (search hit),
``path``, ``selected``, ``dim``. Edge styles (``edge_styles={(u, v): "path" | "expanded" | "dim" | {...}}``).
``weaver.debugger.graph_styles`` names these styles for a retrieval result.

Why the choices (in detail in each module): positions are precomputed and seeded with physics off,
so nothing jumps on a rerun; text is never interpreted as HTML (canvas labels, ``innerText`` tooltips,
JSON escaped with Jinja's ``tojson`` or ``payload_json``, an escaped heading, pyvis's innerHTML popup
mode never enabled); beyond ``max_nodes`` only a focused subgraph is drawn, with a note saying so.
"""

from __future__ import annotations

from .graph_html import render_graph_html
from .graph_labels import canvas_label, labels, short_label
from .graph_legend import legend_html
from .graph_payload import payload_json, vis_payload
from .graph_styles import EDGE_STYLES, KIND_COLORS, KIND_SHAPES, NODE_STYLES, RELATION_COLORS

__all__ = [
    "KIND_COLORS",
    "KIND_SHAPES",
    "RELATION_COLORS",
    "NODE_STYLES",
    "EDGE_STYLES",
    "vis_payload",
    "render_graph_html",
    "legend_html",
    "payload_json",
    "short_label",
    "canvas_label",
    "labels",
]
