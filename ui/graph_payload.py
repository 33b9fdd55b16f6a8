"""The graph as vis-network data: nodes with fixed positions, edges, options, and a note on what was left out.

``vis_payload`` is the one drawing both the click-to-select component (``ui/graph_component.py``) and the
offline HTML export (``ui/graph_html.py``) show; ``weaver.viz`` decides what is shown and where.

Why the choices:
- Positions come from ``weaver.viz.layout_positions`` (seeded, deterministic) and vis-network's
  physics is off: the layout is "stabilised" once in Python, so a rerun never makes nodes jump.
  The default timeline layout also keeps old nodes where they were when new ones arrive.
- Text is never interpreted as HTML: labels are drawn on the canvas and tooltips are plain strings
  that vis-network 9 sets with ``innerText``; ``payload_json`` escapes ``<``, ``>`` and ``&`` for embedding.
- Beyond ``max_nodes`` only a focused subgraph is drawn (``weaver.viz.select_subgraph``: the ego
  graph of the focus/selection, or the most recent nodes), with a note saying so.
"""

from __future__ import annotations

import json
from typing import Mapping

import networkx as nx
import numpy as np

from weaver.rationale_words import rationale_in_words
from weaver.viz import is_guessed, layout_positions, order_key, select_subgraph

from .graph_labels import canvas_label, labels
from .graph_styles import EDGE_STYLES, KIND_COLORS, KIND_SHAPES, NODE_STYLES, OTHER_COLOR, RELATION_COLORS, apply_style

__all__ = ["vis_payload", "payload_json"]


def _node_title(n, a: Mapping, lang: str) -> str:
    t = labels(lang)
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
        color = KIND_COLORS.get(kind, OTHER_COLOR)
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
        nodes.append(apply_style(base, spec, NODE_STYLES))
    edges = []
    centres = {n: pos.get(n, (0.0, 0.0)) for n in sub}
    for u, v, d in sub.edges(data=True):
        rel = d.get("relation", "")
        color = RELATION_COLORS.get(rel, OTHER_COLOR)
        conf = float(d.get("confidence", 1.0) or 0.0)
        t = labels(lang)
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
                + f"\n{rationale_in_words(str(d.get('rationale', '') or ''), lang)}"  # the library's English, read
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
        bend = _bend_around(pos, u, v, centres)
        if bend is not None:  # the default curve ran through a node between its ends
            base["smooth"] = {"enabled": True, "type": bend[0], "roundness": bend[1]}
        edges.append(apply_style(base, edge_styles.get((u, v)), EDGE_STYLES))
    note = ""
    if len(shown) < total:
        t = labels(lang)
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


# the curve every edge gets (vis-network's "curvedCW", roundness 0.15), then bends further either way, in order
_BENDS = [("curvedCW", 0.15), ("curvedCCW", 0.15)] + [
    (t, r) for r in (0.3, 0.45, 0.6, 0.8) for t in ("curvedCW", "curvedCCW")
]
_CLEAR = 34.0  # canvas px from a node's centre: its shape (16-24 px, ringed when new) and a little air


def _curve(a: tuple, b: tuple, kind: str, roundness: float) -> np.ndarray:
    """Points along the quadratic curve vis-network draws for a "curvedCW" / "curvedCCW" edge from ``a`` to ``b``
    (its ``_getViaCoordinates``: the control point turned (0.5 r + 0.5) pi off the edge's angle).

    >>> pts = _curve((0.0, 0.0), (100.0, 0.0), "curvedCW", 0.15)
    >>> bool(pts[:, 1].min() < -5 and pts[:, 1].max() <= 0)  # a slight bow upward (canvas y grows down)
    True
    """
    dx, dy = b[0] - a[0], a[1] - b[1]
    length = float(np.hypot(dx, dy))
    k = 0.5 * roundness + 0.5
    turn = (0.5 * (roundness if kind == "curvedCW" else -roundness) + 0.5) * np.pi
    angle = (np.arctan2(dy, dx) + turn) % (2 * np.pi)
    via = (a[0] + k * length * np.sin(angle), a[1] + k * length * np.cos(angle))
    t = np.linspace(0.06, 0.94, 23)[:, None]
    return (1 - t) ** 2 * np.array(a) + 2 * (1 - t) * t * np.array(via) + t**2 * np.array(b)


def _bend_around(pos: Mapping, u, v, centres: Mapping) -> tuple[str, float] | None:
    """The curve an edge needs so it passes no node between its ends (None: the default one does).

    A supersedes edge from turn 1's message to turn 3's runs down the message column: drawn with the default
    slight bow it went straight through turn 2's message. Each bend, stronger and to either side, is tried in
    turn; the first that clears every other node by ``_CLEAR`` wins, else the one that keeps furthest away.

    >>> pos = {"a": (0.0, 0.0), "b": (0.0, 165.0), "c": (0.0, 330.0)}
    >>> _bend_around(pos, "a", "c", pos)[1] > 0.15
    True
    >>> _bend_around(pos, "a", "b", pos) is None
    True
    """
    a, b = pos.get(u), pos.get(v)
    others = np.array([p for n, p in centres.items() if n not in (u, v)], dtype=float).reshape(-1, 2)
    if a is None or b is None or not len(others):
        return None
    lo, hi = np.minimum(a, b) - 400.0, np.maximum(a, b) + 400.0  # only nodes near the edge can be in its way
    others = others[np.all((others >= lo) & (others <= hi), axis=1)]
    if not len(others):
        return None
    best, best_gap = None, -1.0
    for kind, roundness in _BENDS:
        pts = _curve(a, b, kind, roundness)
        gap = float(np.sqrt(((pts[:, None, :] - others[None, :, :]) ** 2).sum(-1)).min())
        if gap >= _CLEAR:
            return None if (kind, roundness) == _BENDS[0] else (kind, roundness)
        if gap > best_gap:
            best, best_gap = (kind, roundness), gap
    return None if best == _BENDS[0] else best


def payload_json(payload: Mapping) -> str:
    """JSON for embedding in a page (``<`` ``>`` ``&`` escaped, so ``</script>`` in text is inert)."""
    s = json.dumps(payload, ensure_ascii=False)
    return s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
