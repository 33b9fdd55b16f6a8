"""Drawing the memory graph for the studio: colours, vis-network data, the offline HTML page, the legend.

The library (``weaver.viz``) decides *what* is drawn and *where* (focused subgraph, seeded layout,
filters, search, paths, the graph as it was after a turn); this module turns that into pictures.
It needs no streamlit, so it stays unit-testable, but it is the studio's: pyvis is imported here
(lazily) and never by ``weaver/``.

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

Why the choices:
- Positions come from ``weaver.viz.layout_positions`` (seeded, deterministic) and vis-network's
  physics is off: the layout is "stabilised" once in Python, so a rerun never makes nodes jump.
  The default timeline layout also keeps old nodes where they were when new ones arrive.
- Text is never interpreted as HTML: labels are drawn on the canvas, tooltips are plain strings
  that vis-network 9 sets with ``innerText``, the node/edge JSON is embedded with Jinja's
  ``tojson`` (which escapes ``<``, ``>``, ``&`` and quotes), and pyvis's "href in a title ->
  innerHTML popup" mode is never enabled. The heading is HTML-escaped.
- Beyond ``max_nodes`` only a focused subgraph is drawn (``weaver.viz.select_subgraph``: the ego
  graph of the focus/selection, or the most recent nodes), with a note saying so.
"""

from __future__ import annotations

import html
import json
import re
import unicodedata
from typing import Any, Iterable, Mapping

import networkx as nx

from weaver.viz import is_guessed, layout_positions, order_key, select_subgraph

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

KIND_COLORS = {
    "user_input": "#2563eb",
    "agent_thought": "#9333ea",
    "tool_result": "#059669",
    "agent_response": "#ea580c",
}
KIND_SHAPES = {"user_input": "dot", "agent_thought": "diamond", "tool_result": "square", "agent_response": "triangle"}
RELATION_COLORS = {
    "causal": "#dc2626",
    "temporal": "#64748b",
    "conditional": "#d97706",
    "elaborates": "#0891b2",
    "supersedes": "#7c3aed",
}
_OTHER = "#94a3b8"

NODE_STYLES: dict[str, dict[str, Any]] = {
    "new": {"borderWidth": 5, "color": {"border": "#facc15"}, "size": 24},
    "seed": {"borderWidth": 5, "color": {"border": "#16a34a"}, "size": 24},
    "expanded": {"borderWidth": 4, "color": {"border": "#0ea5e9"}, "size": 20},
    "cut": {"opacity": 0.35, "borderWidth": 2, "shapeProperties": {"borderDashes": [4, 4]}},
    "match": {"borderWidth": 5, "color": {"border": "#e11d48"}, "size": 24},
    "path": {"borderWidth": 5, "color": {"border": "#111827"}, "size": 22},
    # a soft halo, not a heavy black shape: the node keeps its kind colour and stays readable
    "selected": {
        "borderWidth": 4,
        "color": {"border": "#1d4ed8"},
        "size": 24,
        "shadow": {"enabled": True, "color": "rgba(29,78,216,0.55)", "size": 16, "x": 0, "y": 0},
        "font": {"bold": True},
    },
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
        "kinds": {
            "user_input": "user input",
            "agent_thought": "agent thought",
            "tool_result": "tool result",
            "agent_response": "agent reply",
        },
        "relations": {
            "causal": "causal",
            "temporal": "temporal",
            "conditional": "conditional",
            "elaborates": "elaborates",
            "supersedes": "supersedes",
        },
        "styles": {
            "new": "new",
            "seed": "seed",
            "expanded": "reached by expansion",
            "cut": "cut (not used)",
            "match": "search hit",
            "path": "path",
            "selected": "selected",
            "dim": "other",
        },
        "node_kinds": "Node kinds",
        "relations_title": "Edge relations",
        "styles_title": "Highlights",
        "note": "Showing {shown} of {total} nodes ({why}).",
        "around": "around the focus",
        "recent": "the most recent",
        "turn": "turn",
        "confidence": "confidence",
        "guessed": "guessed",
        "statuses": {"active": "active", "superseded": "superseded", "retracted": "retracted", "archived": "archived"},
        "edge_statuses": {"proposed": "proposed", "confirmed": "confirmed", "rejected": "rejected"},
        "origins": {"rules": "rules", "llm": "model", "human": "human", "review": "review", "agent": "agent"},
    },
    "zh": {
        "kinds": {
            "user_input": "用户输入",
            "agent_thought": "智能体思考",
            "tool_result": "工具结果",
            "agent_response": "智能体回复",
        },
        "relations": {
            "causal": "因果",
            "temporal": "时序",
            "conditional": "条件",
            "elaborates": "补充说明",
            "supersedes": "更新取代",
        },
        "styles": {
            "new": "新增",
            "seed": "种子",
            "expanded": "扩展到达",
            "cut": "被裁剪（未使用）",
            "match": "搜索命中",
            "path": "路径",
            "selected": "选中",
            "dim": "其他",
        },
        "node_kinds": "节点类型",
        "relations_title": "边的关系",
        "styles_title": "高亮",
        "note": "显示 {total} 个节点中的 {shown} 个（{why}）。",
        "around": "焦点周围",
        "recent": "最新的",
        "turn": "轮次",
        "confidence": "置信度",
        "guessed": "推测",
        "statuses": {"active": "生效", "superseded": "已被取代", "retracted": "已撤回", "archived": "已归档"},
        "edge_statuses": {"proposed": "待确认", "confirmed": "已确认", "rejected": "已拒绝"},
        "origins": {"rules": "规则", "llm": "模型", "human": "人工", "review": "审阅", "agent": "智能体"},
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


def canvas_label(text: str, columns: int = 40) -> str:
    """A node's label on the canvas: at most ``columns`` widths of a Latin letter, a CJK character counting two,
    so a Chinese label wraps to the two lines an English one does (40 CJK characters wrapped to four lines in
    the label's 150 px and ran into the node below).

    >>> canvas_label("I am allergic to seafood", 40), canvas_label("我们一共4个人，两个大人两个小孩，还有一位老人", 20)
    ('I am allergic to seafood', '我们一共4个人，两…')
    """
    text = re.sub(r"\s+", " ", str(text or "")).strip()
    used = 0
    for i, ch in enumerate(text):
        used += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
        if used > columns:
            return text[: max(i - 1, 0)] + "…"  # the ellipsis takes the place of the last character kept
    return text


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
    head = f"{kind} · {t['turn']} {a.get('turn', '?')}" + (
        "" if status == "active" else f" · {t['statuses'].get(status, status)}"
    )
    return f"{head}\n{content}\n[{n}]"  # plain text: vis-network shows it with innerText


def vis_payload(
    g: nx.DiGraph,
    *,
    node_styles: Mapping | None = None,
    edge_styles: Mapping | None = None,
    selected: str | None = None,
    max_nodes: int = 300,
    focus=None,
    lang: str = "en",
    layout: str = "auto",
    positions: Mapping | None = None,
) -> dict:
    """vis-network data for ``g``: nodes (with fixed x/y), edges, options, and what was left out."""
    node_styles = dict(node_styles or {})
    edge_styles = dict(edge_styles or {})
    total = g.number_of_nodes()
    shown = select_subgraph(g, max_nodes, focus if focus is not None else selected)
    sub = g.subgraph(shown)
    pos = dict(positions) if positions is not None else layout_positions(sub, layout)
    nodes = []
    for n in sorted(sub, key=lambda n: order_key(sub, n)):
        a = sub.nodes[n]
        kind = a.get("kind")
        color = KIND_COLORS.get(kind, _OTHER)
        inactive = a.get("status", "active") != "active"
        if inactive:
            color = "#cbd5e1"
        x, y = pos.get(n, (0.0, 0.0))
        base = {
            # two wrapped lines of ~40 characters: legible at 1080p without covering the neighbours
            "id": str(n),
            "label": canvas_label(a.get("content", ""), 40),
            "title": _node_title(n, a, lang),
            "shape": KIND_SHAPES.get(kind, "dot"),
            "size": 16,
            "x": x,
            "y": y,
            "borderWidth": 2,
            "color": {
                "background": color,
                "border": color,
                "highlight": {"background": color, "border": "#1d4ed8"},
                "hover": {"background": color, "border": "#1d4ed8"},
            },
            "font": {
                "size": 15,
                "face": "Noto Sans CJK SC, WenQuanYi Micro Hei, Microsoft YaHei, sans-serif",
                "strokeWidth": 3,
                "strokeColor": "#ffffff",
            },
            "widthConstraint": {"maximum": 150},
            "kind": str(kind),
            "turn": a.get("turn", 0),
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
        conf = max(0.0, min(conf, 1.0))
        guessed = is_guessed(d)
        origin = t["origins"].get(d.get("origin", ""), d.get("origin", ""))
        base = {
            "id": f"{u}->{v}",
            "from": str(u),
            "to": str(v),
            "label": t["relations"].get(rel, str(rel)),
            "title": (
                f"{t['relations'].get(rel, rel)} · {t['confidence']} {conf:.2f} · {origin}"
                + (f" · {t['guessed']}" if guessed else "")
                + f"\n{d.get('rationale', '')}"
            ),
            # opacity and width say how sure the weaver is: a guess is faint, a human's edge solid
            "arrows": "to",
            "width": 1 + 2.5 * conf,
            "color": {"color": color, "highlight": color, "hover": color, "opacity": round(0.25 + 0.75 * conf, 2)},
            "font": {"size": 12, "color": color, "strokeWidth": 4, "align": "middle"},
            "relation": str(rel),
            "guessed": guessed,
            "confidence": round(conf, 2),
        }
        if guessed:
            base["dashes"] = [6, 6]
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
        "interaction": {
            "hover": True,
            "tooltipDelay": 150,
            "navigationButtons": False,
            "multiselect": False,
            "hoverConnectedEdges": True,
            "selectConnectedEdges": False,
        },
        "edges": {"smooth": {"enabled": True, "type": "curvedCW", "roundness": 0.15}},
        "layout": {"randomSeed": 7, "improvedLayout": False},
    }
    return {"nodes": nodes, "edges": edges, "options": options, "shown": len(shown), "total": total, "note": note}


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


_SHAPE_GLYPH = {"dot": "●", "diamond": "◆", "square": "■", "triangle": "▲"}


def _shape_mark(shape: str, color: str) -> str:
    # a coloured glyph, not SVG: st.html sanitises SVG away
    return f"<span style='color:{color};font-size:15px;vertical-align:middle'>{_SHAPE_GLYPH.get(shape, '●')}</span>"


def legend_html(lang: str = "en", styles: Iterable[str] | None = None) -> str:
    """A compact HTML legend (static text only, safe for ``st.html``/``st.markdown(unsafe_allow_html)``)."""
    t = _t(lang)
    item = "<span style='display:inline-block;margin:0 12px 4px 0;white-space:nowrap'>{}&nbsp;{}</span>"
    kinds = "".join(
        item.format(_shape_mark(KIND_SHAPES[k], c), html.escape(t["kinds"][k])) for k, c in KIND_COLORS.items()
    )
    rels = "".join(
        item.format(
            f"<span style='display:inline-block;width:22px;height:3px;background:{c};vertical-align:middle'></span>",
            html.escape(t["relations"][r]),
        )
        for r, c in RELATION_COLORS.items()
    )
    out = (
        f"<div class='cw-legend' style='font-size:13px;line-height:1.6'>"
        f"<b>{t['node_kinds']}</b>: {kinds}<br><b>{t['relations_title']}</b>: {rels}"
    )
    styles = [s for s in (styles or []) if s in NODE_STYLES]
    if styles:
        marks = "".join(
            item.format(
                f"<span style='display:inline-block;width:12px;height:12px;border-radius:7px;"
                f"border:3px solid {NODE_STYLES[s].get('color', {}).get('border', '#94a3b8')};"
                f"opacity:{NODE_STYLES[s].get('opacity', 1)};vertical-align:middle'></span>",
                html.escape(t["styles"][s]),
            )
            for s in styles
        )
        out += f"<br><b>{t['styles_title']}</b>: {marks}"
    return out + "</div>"


def payload_json(payload: Mapping) -> str:
    """JSON for embedding in a page (``<`` ``>`` ``&`` escaped, so ``</script>`` in text is inert)."""
    s = json.dumps(payload, ensure_ascii=False)
    return s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
