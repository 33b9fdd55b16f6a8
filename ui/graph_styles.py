"""How the graph looks: kind colours and shapes, relation colours, and the highlight styles a page can ask for.

One table for the canvas, the HTML export and the legend, so the legend always matches what is drawn.
Highlight styles (``node_styles={node_id: "seed" | ["seed", "selected"] | {vis options}}``):
``new`` (just added), ``seed``, ``expanded``, ``cut`` (a candidate left out), ``match`` (search hit),
``path``, ``selected``, ``dim``. Edge styles (``edge_styles={(u, v): "path" | "expanded" | "dim" | {...}}``).
``weaver.debugger.graph_styles`` names these styles for a retrieval result.
"""

from __future__ import annotations

from typing import Any, Mapping

__all__ = [
    "KIND_COLORS",
    "KIND_SHAPES",
    "RELATION_COLORS",
    "OTHER_COLOR",
    "NODE_STYLES",
    "EDGE_STYLES",
    "apply_style",
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
OTHER_COLOR = "#94a3b8"  # a kind or relation the tables do not name

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


def _merge(base: dict, extra: Mapping) -> dict:
    out = dict(base)
    for k, v in extra.items():
        out[k] = _merge(out[k], v) if isinstance(v, Mapping) and isinstance(out.get(k), dict) else v
    return out


def apply_style(base: dict, spec, table: Mapping[str, dict]) -> dict:
    """``base`` vis options with ``spec`` merged in: a style name from ``table``, a dict of options, or a list of
    either (applied in order, nested dicts merged rather than replaced, so a highlight keeps the kind colour)."""
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
