"""Graph rendering for the studio: pure functions, no streamlit (pages and ui/ call these).

Public API (keyword style, stable — the retrieval debugger and the graph page build on it)::

    render_graph_html(g, *, node_styles=None, edge_styles=None, selected=None, height=600,
                      max_nodes=300, focus=None, lang="en", layout="auto", title=None) -> str
        A standalone, offline HTML page (pyvis, ``cdn_resources="in_line"``, Bootstrap CDN tags
        stripped): show it with ``st.iframe(html, height=...)`` or save it as an export.
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

Why the choices:
- Positions are computed here, seeded and deterministic (``layout_positions``), and vis-network's
  physics is off: the layout is "stabilised" once in Python, so a rerun never makes nodes jump.
  The default timeline layout also keeps old nodes where they were when new ones arrive.
- Text is never interpreted as HTML: labels are drawn on the canvas, tooltips are plain strings
  that vis-network 9 sets with ``innerText``, the node/edge JSON is embedded with Jinja's
  ``tojson`` (which escapes ``<``, ``>``, ``&`` and quotes), and pyvis's "href in a title ->
  innerHTML popup" mode is never enabled. The heading is HTML-escaped.
- Beyond ``max_nodes`` only a focused subgraph is drawn (the ego graph of the focus/selection,
  or the most recent nodes), with a note saying so.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any, Iterable, Mapping

import networkx as nx

__all__ = [
    "KIND_COLORS",
    "KIND_SHAPES",
    "RELATION_COLORS",
    "NODE_STYLES",
    "EDGE_STYLES",
    "layout_positions",
    "select_subgraph",
    "filter_graph",
    "search_nodes",
    "path_between",
    "vis_payload",
    "render_graph_html",
    "legend_html",
    "short_label",
    "labels",
]

KIND_COLORS = {
    "user_input": "#2563eb",
    "agent_thought": "#9333ea",
    "tool_result": "#059669",
    "agent_response": "#ea580c",
}
KIND_SHAPES = {"user_input": "dot", "agent_thought": "diamond", "tool_result": "square", "agent_response": "triangle"}
RELATION_COLORS = {"causal": "#dc2626", "temporal": "#64748b", "conditional": "#d97706", "elaborates": "#0891b2",
                   "supersedes": "#7c3aed"}
_OTHER = "#94a3b8"
_KIND_LANE = {"user_input": 0, "agent_thought": 1, "tool_result": 2, "agent_response": 3}
_TURNS_PER_ROW = 8
_ROW_HEIGHT = 5 * 130.0 + 120.0

NODE_STYLES: dict[str, dict[str, Any]] = {
    "new": {"borderWidth": 5, "color": {"border": "#facc15"}, "size": 24},
    "seed": {"borderWidth": 5, "color": {"border": "#16a34a"}, "size": 24},
    "expanded": {"borderWidth": 4, "color": {"border": "#0ea5e9"}, "size": 20},
    "cut": {"opacity": 0.35, "borderWidth": 2, "shapeProperties": {"borderDashes": [4, 4]}},
    "match": {"borderWidth": 5, "color": {"border": "#e11d48"}, "size": 24},
    "path": {"borderWidth": 5, "color": {"border": "#111827"}, "size": 22},
    "selected": {"borderWidth": 6, "color": {"border": "#000000"}, "size": 26},
    "dim": {"opacity": 0.25},
}
EDGE_STYLES: dict[str, dict[str, Any]] = {
    "path": {"width": 5, "color": {"color": "#111827", "opacity": 1.0}},
    "expanded": {"width": 4, "color": {"color": "#0ea5e9", "opacity": 1.0}},
    "new": {"width": 3},
    "dim": {"color": {"opacity": 0.15}},
}

_LABELS = {
    "en": {
        "kinds": {"user_input": "user input", "agent_thought": "agent thought", "tool_result": "tool result",
                  "agent_response": "agent reply"},
        "relations": {"causal": "causal", "temporal": "temporal", "conditional": "conditional",
                      "elaborates": "elaborates", "supersedes": "supersedes"},
        "styles": {"new": "new", "seed": "seed", "expanded": "reached by expansion", "cut": "cut (not used)",
                   "match": "search hit", "path": "path", "selected": "selected", "dim": "other"},
        "node_kinds": "Node kinds", "relations_title": "Edge relations", "styles_title": "Highlights",
        "note": "Showing {shown} of {total} nodes ({why}).", "around": "around the focus",
        "recent": "the most recent", "turn": "turn",
    },
    "zh": {
        "kinds": {"user_input": "用户输入", "agent_thought": "智能体思考", "tool_result": "工具结果",
                  "agent_response": "智能体回复"},
        "relations": {"causal": "因果", "temporal": "时序", "conditional": "条件", "elaborates": "补充说明",
                      "supersedes": "更新取代"},
        "styles": {"new": "新增", "seed": "种子", "expanded": "扩展到达", "cut": "被裁剪（未使用）",
                   "match": "搜索命中", "path": "路径", "selected": "选中", "dim": "其他"},
        "node_kinds": "节点类型", "relations_title": "边的关系", "styles_title": "高亮",
        "note": "显示 {total} 个节点中的 {shown} 个（{why}）。", "around": "焦点周围", "recent": "最新的",
        "turn": "轮次",
    },
}


def labels(lang: str = "en") -> dict:
    """Display names of kinds, relations and styles in ``lang`` ("en" or "zh")."""
    return _LABELS["zh" if str(lang).lower().startswith("zh") else "en"]


_t = labels


def short_label(text: str, limit: int = 18) -> str:
    """A one-line canvas label: whitespace collapsed, cut with an ellipsis.

    >>> short_label("I am  allergic\\nto seafood, please remember", 12)
    'I am allerg…'
    """
    text = re.sub(r"\s+", " ", str(text or "")).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _order_key(g: nx.DiGraph, n) -> tuple:
    a = g.nodes[n]
    return (a.get("turn", 0) or 0, a.get("timestamp", 0.0) or 0.0, str(n))


def layout_positions(g: nx.DiGraph, layout: str = "auto", seed: int = 7) -> dict[str, tuple[float, float]]:
    """Deterministic node positions (canvas pixels).

    ``timeline``: one column per turn (in turn order, 8 turns per row, rows downwards), one lane
    per kind, so adding a node never moves the others. ``spring``: networkx's force layout, seeded. ``auto``: timeline up to 60
    turns, spring beyond (a very wide timeline is unreadable).

    >>> g = nx.DiGraph(); g.add_node("a", turn=1, kind="user_input"); g.add_node("b", turn=2, kind="agent_response")
    >>> layout_positions(g) == layout_positions(g.copy())
    True
    >>> layout_positions(g)["a"][0] < layout_positions(g)["b"][0]
    True
    """
    if g.number_of_nodes() == 0:
        return {}
    turns = sorted({g.nodes[n].get("turn", 0) or 0 for n in g})
    if layout == "auto":
        layout = "timeline" if len(turns) <= 60 else "spring"
    if layout == "spring":
        pos = nx.spring_layout(g.to_undirected(as_view=True), seed=seed, iterations=60)
        scale = 90.0 * max(g.number_of_nodes(), 4) ** 0.5
        return {n: (round(float(x) * scale, 1), round(float(y) * scale, 1)) for n, (x, y) in pos.items()}
    if layout != "timeline":
        raise ValueError(f"unknown layout {layout!r}: expected auto, timeline or spring")
    column = {t: i for i, t in enumerate(turns)}
    stacked: dict[tuple[int, int], int] = {}
    out = {}
    for n in sorted(g, key=lambda n: _order_key(g, n)):
        a = g.nodes[n]
        idx = column[a.get("turn", 0) or 0]
        # a fixed number of turns per row, rows stacked downwards: the drawing stays roughly
        # as wide as tall, and a new turn never changes where earlier turns sit
        row, col = divmod(idx, _TURNS_PER_ROW)
        lane = _KIND_LANE.get(a.get("kind"), 4)
        k = stacked.get((idx, lane), 0)
        stacked[(idx, lane)] = k + 1
        # several nodes of one kind in one turn fan out to the right and down a little
        out[n] = (col * 230.0 + k * 70.0, row * _ROW_HEIGHT + lane * 130.0 + k * 40.0 + (col % 2) * 22.0)
    return out


def select_subgraph(g: nx.DiGraph, max_nodes: int = 300, focus: Iterable[str] | str | None = None) -> list[str]:
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
        return sorted(g, key=lambda n: _order_key(g, n))[-max_nodes:]
    und = g.to_undirected(as_view=True)
    dist: dict = {}
    for f in focus:
        for n, d in nx.single_source_shortest_path_length(und, f).items():
            dist[n] = min(d, dist.get(n, d))
    ranked = sorted(dist, key=lambda n: (dist[n], str(n)))
    chosen = ranked[:max_nodes]
    if len(chosen) < max_nodes:  # a small component: pad with the latest other nodes
        rest = [n for n in sorted(g, key=lambda n: _order_key(g, n), reverse=True) if n not in dist]
        chosen += rest[: max_nodes - len(chosen)]
    return chosen


def filter_graph(g: nx.DiGraph, *, relations: Iterable[str] | None = None, kinds: Iterable[str] | None = None,
                 statuses: Iterable[str] | None = None, upto_turn: int | None = None) -> nx.DiGraph:
    """A copy of ``g`` with only the given node kinds/statuses, edge relations and turns (None = all).

    >>> g = nx.DiGraph(); g.add_node("a", kind="user_input", turn=1); g.add_node("b", kind="tool_result", turn=2)
    >>> g.add_edge("a", "b", relation="causal")
    >>> sorted(filter_graph(g, kinds=["user_input"]).nodes), filter_graph(g, relations=["temporal"]).number_of_edges()
    (['a'], 0)
    """
    kinds = set(kinds) if kinds is not None else None
    statuses = set(statuses) if statuses is not None else None
    relations = set(relations) if relations is not None else None
    keep = [n for n, a in g.nodes(data=True)
            if (kinds is None or a.get("kind") in kinds)
            and (statuses is None or a.get("status", "active") in statuses)
            and (upto_turn is None or (a.get("turn", 0) or 0) <= upto_turn)]
    sub = g.subgraph(keep).copy()
    if relations is not None:
        sub.remove_edges_from([(u, v) for u, v, d in sub.edges(data=True) if d.get("relation") not in relations])
    return sub


def search_nodes(g: nx.DiGraph, text: str) -> list[str]:
    """Nodes whose content contains every whitespace-separated term of ``text`` (case-insensitive).

    >>> g = nx.DiGraph(); g.add_node("a", content="Beijing budget 5000"); g.add_node("b", content="北京 海鲜过敏")
    >>> search_nodes(g, "budget beijing"), search_nodes(g, "海鲜"), search_nodes(g, "  ")
    (['a'], ['b'], [])
    """
    terms = [t.casefold() for t in str(text or "").split()]
    if not terms:
        return []
    return [n for n, a in g.nodes(data=True) if all(t in str(a.get("content", "")).casefold() for t in terms)]


def path_between(g: nx.DiGraph, a: str, b: str) -> list[str]:
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


def _merge(base: dict, extra: Mapping) -> dict:
    out = dict(base)
    for k, v in extra.items():
        out[k] = _merge(out[k], v) if isinstance(v, Mapping) and isinstance(out.get(k), dict) else v
    return out


def _styled(base: dict, spec, table: Mapping[str, dict]) -> dict:
    if spec is None:
        return base
    specs = [spec] if isinstance(spec, (str, Mapping)) else list(spec)
    for s in specs:
        if isinstance(s, Mapping):
            base = _merge(base, s)
        elif s in table:
            base = _merge(base, table[s])
        else:
            raise ValueError(f"unknown style {s!r}: expected one of {', '.join(table)}")
    return base


def _node_title(n, a: Mapping, lang: str) -> str:
    t = _t(lang)
    kind = t["kinds"].get(a.get("kind"), str(a.get("kind", "?")))
    content = str(a.get("content", ""))
    if len(content) > 600:
        content = content[:600] + "…"
    status = a.get("status", "active")
    head = f"{kind} · {t['turn']} {a.get('turn', '?')}" + ("" if status == "active" else f" · {status}")
    return f"{head}\n{content}\n[{n}]"  # plain text: vis-network shows it with innerText


def vis_payload(g: nx.DiGraph, *, node_styles: Mapping | None = None, edge_styles: Mapping | None = None,
                selected: str | None = None, max_nodes: int = 300, focus=None, lang: str = "en",
                layout: str = "auto", positions: Mapping | None = None) -> dict:
    """vis-network data for ``g``: nodes (with fixed x/y), edges, options, and what was left out."""
    node_styles = dict(node_styles or {})
    edge_styles = dict(edge_styles or {})
    total = g.number_of_nodes()
    shown = select_subgraph(g, max_nodes, focus if focus is not None else selected)
    sub = g.subgraph(shown)
    pos = dict(positions) if positions is not None else layout_positions(sub, layout)
    nodes = []
    for n in sorted(sub, key=lambda n: _order_key(sub, n)):
        a = sub.nodes[n]
        kind = a.get("kind")
        color = KIND_COLORS.get(kind, _OTHER)
        inactive = a.get("status", "active") != "active"
        if inactive:
            color = "#cbd5e1"
        x, y = pos.get(n, (0.0, 0.0))
        base = {
            "id": str(n), "label": short_label(a.get("content", "")), "title": _node_title(n, a, lang),
            "shape": KIND_SHAPES.get(kind, "dot"), "size": 16, "x": x, "y": y, "borderWidth": 2,
            "color": {"background": color, "border": color,
                      "highlight": {"background": color, "border": "#000000"}},
            "font": {"size": 13, "face": "Noto Sans CJK SC, WenQuanYi Micro Hei, Microsoft YaHei, sans-serif"},
            "kind": str(kind), "turn": a.get("turn", 0),
        }
        if inactive:
            base["shapeProperties"] = {"borderDashes": [5, 5]}
        spec = node_styles.get(n)
        if n == selected:
            spec = ([spec] if isinstance(spec, (str, Mapping)) else list(spec or [])) + ["selected"]
        nodes.append(_styled(base, spec, NODE_STYLES))
    edges = []
    for u, v, d in sub.edges(data=True):
        rel = d.get("relation", "")
        color = RELATION_COLORS.get(rel, _OTHER)
        conf = float(d.get("confidence", 1.0) or 0.0)
        t = _t(lang)
        base = {
            "id": f"{u}->{v}", "from": str(u), "to": str(v), "label": t["relations"].get(rel, str(rel)),
            "title": f"{t['relations'].get(rel, rel)} · {conf:.2f} · {d.get('origin', '')}\n{d.get('rationale', '')}",
            "arrows": "to", "width": 1 + 2 * max(0.0, min(conf, 1.0)),
            "color": {"color": color, "highlight": color, "opacity": 0.9},
            "font": {"size": 10, "color": color, "strokeWidth": 3, "align": "middle"},
            "relation": str(rel),
        }
        if d.get("status") == "rejected":
            base["dashes"] = True
            base["color"]["opacity"] = 0.3
        edges.append(_styled(base, edge_styles.get((u, v)), EDGE_STYLES))
    note = ""
    if len(shown) < total:
        t = _t(lang)
        why = t["around"] if (focus is not None or selected is not None) else t["recent"]
        note = t["note"].format(shown=len(shown), total=total, why=why)
    options = {
        "physics": {"enabled": False},  # positions are precomputed and seeded: nothing moves
        "interaction": {"hover": True, "tooltipDelay": 120, "navigationButtons": False, "multiselect": False},
        "edges": {"smooth": {"enabled": True, "type": "curvedCW", "roundness": 0.15}},
        "layout": {"randomSeed": 7, "improvedLayout": False},
    }
    return {"nodes": nodes, "edges": edges, "options": options, "shown": len(shown), "total": total, "note": note}


_CDN_TAG = re.compile(
    r"<link[^>]*https?://[^>]*>|<script[^>]*\bsrc=\"https?://[^\"]*\"[^>]*>\s*</script>", re.IGNORECASE | re.DOTALL)


def render_graph_html(g: nx.DiGraph, *, node_styles: Mapping | None = None, edge_styles: Mapping | None = None,
                      selected: str | None = None, height: int = 600, max_nodes: int = 300, focus=None,
                      lang: str = "en", layout: str = "auto", title: str | None = None) -> str:
    """A self-contained HTML page drawing ``g`` (no network access needed to view it)."""
    from pyvis.network import Network  # imported here: the library stays importable without pyvis

    p = vis_payload(g, node_styles=node_styles, edge_styles=edge_styles, selected=selected,
                    max_nodes=max_nodes, focus=focus, lang=lang, layout=layout)
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
        height=h, width=w, nodes=nodes, edges=edges, heading="", options=options, physics_enabled=False,
        use_DOT=False, dot_lang="", widget=False, bgcolor="#ffffff", conf=False, tooltip_link=False,
        neighborhood_highlight=False, select_menu=False, filter_menu=False, notebook=False,
        cdn_resources="in_line")
    page = _CDN_TAG.sub("", page)
    page = re.sub(r"<center>\s*<h1>\s*</h1>\s*</center>", "", page)
    extra = ("<style>body{margin:0;font-family:'Noto Sans CJK SC','WenQuanYi Micro Hei',sans-serif}"
             "#mynetwork{border:none !important;float:none !important}"
             ".vis-tooltip{position:absolute;white-space:pre-wrap;max-width:420px;padding:6px 8px;"
             "background:#fffbea;border:1px solid #d4d4d8;border-radius:4px;font-size:13px}"
             ".cw-note{font-size:12px;color:#475569;padding:2px 6px}</style>")
    banner = ""
    if title:
        banner += f"<div class='cw-note'><b>{html.escape(str(title))}</b></div>"
    if p["note"]:
        banner += f"<div class='cw-note'>{html.escape(p['note'])}</div>"
    page = page.replace("</head>", extra + "</head>", 1)
    page = page.replace("<body>", "<body>" + banner, 1)
    return page


_SHAPE_GLYPH = {"dot": "●", "diamond": "◆", "square": "■", "triangle": "▲"}


def _shape_mark(shape: str, color: str) -> str:
    # a coloured glyph, not SVG: st.html sanitises SVG away
    return f"<span style='color:{color};font-size:15px;vertical-align:middle'>{_SHAPE_GLYPH.get(shape, '●')}</span>"


def legend_html(lang: str = "en", styles: Iterable[str] | None = None) -> str:
    """A compact HTML legend (static text only, safe for ``st.html``/``st.markdown(unsafe_allow_html)``)."""
    t = _t(lang)
    item = "<span style='display:inline-block;margin:0 12px 4px 0;white-space:nowrap'>{}&nbsp;{}</span>"
    kinds = "".join(item.format(_shape_mark(KIND_SHAPES[k], c), html.escape(t["kinds"][k]))
                    for k, c in KIND_COLORS.items())
    rels = "".join(item.format(f"<span style='display:inline-block;width:22px;height:3px;background:{c};"
                               f"vertical-align:middle'></span>", html.escape(t["relations"][r]))
                   for r, c in RELATION_COLORS.items())
    out = (f"<div class='cw-legend' style='font-size:13px;line-height:1.6'>"
           f"<b>{t['node_kinds']}</b>: {kinds}<br><b>{t['relations_title']}</b>: {rels}")
    styles = [s for s in (styles or []) if s in NODE_STYLES]
    if styles:
        marks = "".join(item.format(
            f"<span style='display:inline-block;width:12px;height:12px;border-radius:7px;"
            f"border:3px solid {NODE_STYLES[s].get('color', {}).get('border', '#94a3b8')};"
            f"opacity:{NODE_STYLES[s].get('opacity', 1)};vertical-align:middle'></span>",
            html.escape(t["styles"][s])) for s in styles)
        out += f"<br><b>{t['styles_title']}</b>: {marks}"
    return out + "</div>"


def payload_json(payload: Mapping) -> str:
    """JSON for embedding in a page (``<`` ``>`` ``&`` escaped, so ``</script>`` in text is inert)."""
    s = json.dumps(payload, ensure_ascii=False)
    return s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
