"""The graph as a standalone offline HTML page (pyvis): the graph page's "HTML" export.

pyvis is imported lazily inside ``render_graph_html`` so pages that only need the payload, the legend or
the labels never load it; ``weaver/`` never imports it at all.

Why the choices:
- ``cdn_resources="in_line"`` and the Bootstrap CDN tags stripped: the page opens with no network access.
- The template is rendered here rather than by pyvis's ``generate_html()``, which switches tooltips to
  innerHTML when any title contains "href" (user text could trigger it); the node/edge JSON goes through
  Jinja's ``tojson`` (``<``, ``>``, ``&`` and quotes escaped) and the heading and note are HTML-escaped.
"""

from __future__ import annotations

import html
import re
from typing import Mapping

import networkx as nx

from .graph_payload import vis_payload

__all__ = ["render_graph_html"]

_CDN_TAG = re.compile(
    r"<link[^>]*https?://[^>]*>|<script[^>]*\bsrc=\"https?://[^\"]*\"[^>]*>\s*</script>", re.IGNORECASE | re.DOTALL
)


def render_graph_html(
    g: nx.DiGraph,
    *,
    node_styles: Mapping | None = None,
    edge_styles: Mapping | None = None,
    selected: str | None = None,
    height: int = 600,
    max_nodes: int = 300,
    focus=None,
    lang: str = "en",
    layout: str = "auto",
    title: str | None = None,
) -> str:
    """A self-contained HTML page drawing ``g`` (no network access needed to view it)."""
    from pyvis.network import Network  # imported here: pages that only need the payload or labels skip it

    p = vis_payload(
        g,
        node_styles=node_styles,
        edge_styles=edge_styles,
        selected=selected,
        max_nodes=max_nodes,
        focus=focus,
        lang=lang,
        layout=layout,
    )
    net = Network(height=f"{int(height)}px", width="100%", directed=True, cdn_resources="in_line")
    for n in p["nodes"]:
        net.add_node(n["id"], **{k: v for k, v in n.items() if k != "id"})
    for e in p["edges"]:
        net.add_edge(e["from"], e["to"], **{k: v for k, v in e.items() if k not in ("from", "to")})
    net.options = p["options"]
    nodes, edges, _, h, w, options = net.get_network_data()
    # rendered here rather than by generate_html(): it switches tooltips to innerHTML when any
    # title contains "href", which user text could trigger
    page = net.templateEnv.get_template(net.path).render(
        height=h,
        width=w,
        nodes=nodes,
        edges=edges,
        heading="",
        options=options,
        physics_enabled=False,
        use_DOT=False,
        dot_lang="",
        widget=False,
        bgcolor="#ffffff",
        conf=False,
        tooltip_link=False,
        neighborhood_highlight=False,
        select_menu=False,
        filter_menu=False,
        notebook=False,
        cdn_resources="in_line",
    )
    page = _CDN_TAG.sub("", page)
    page = re.sub(r"<center>\s*<h1>\s*</h1>\s*</center>", "", page)
    extra = (
        "<style>body{margin:0;font-family:'Noto Sans CJK SC','WenQuanYi Micro Hei',sans-serif}"
        "#mynetwork{border:none !important;float:none !important}"
        ".vis-tooltip{position:absolute;white-space:pre-wrap;max-width:420px;padding:6px 8px;"
        "background:#fffbea;border:1px solid #d4d4d8;border-radius:4px;font-size:13px}"
        ".cw-note{font-size:12px;color:#475569;padding:2px 6px}</style>"
    )
    banner = ""
    if title:
        banner += f"<div class='cw-note'><b>{html.escape(str(title))}</b></div>"
    if p["note"]:
        banner += f"<div class='cw-note'>{html.escape(p['note'])}</div>"
    page = page.replace("</head>", extra + "</head>", 1)
    page = page.replace("<body>", "<body>" + banner, 1)
    return page
