"""The graph's legend: node kinds (colour and shape), relations (edge colour) and the highlights a page uses.

Static HTML built only from the style tables and the label texts (escaped), no user text, so it is safe
for ``st.html`` / ``st.markdown(unsafe_allow_html=True)``.
"""

from __future__ import annotations

import html
from typing import Iterable

from .graph_labels import labels
from .graph_styles import KIND_COLORS, KIND_SHAPES, NODE_STYLES, RELATION_COLORS

__all__ = ["legend_html"]

_SHAPE_GLYPH = {"dot": "●", "diamond": "◆", "square": "■", "triangle": "▲"}


def _shape_mark(shape: str, color: str) -> str:
    # a coloured glyph, not SVG: st.html sanitises SVG away
    return f"<span style='color:{color};font-size:15px;vertical-align:middle'>{_SHAPE_GLYPH.get(shape, '●')}</span>"


def legend_html(lang: str = "en", styles: Iterable[str] | None = None) -> str:
    """A compact HTML legend (static text only, safe for ``st.html``/``st.markdown(unsafe_allow_html)``)."""
    t = labels(lang)
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
