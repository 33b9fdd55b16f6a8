"""Click-to-select graph: an ``st.components.v2`` component drawing ``weaver.viz.vis_payload``.

vis-network is the copy pyvis ships, injected inline once per page (no CDN, no request leaves
the machine). A click on a node sends its id back as the ``selected`` trigger; callers pass a
callback that stores it in ``st.session_state``. The container exposes ``data-nodes`` /
``data-edges`` and ``window.__cwGraphs[key]`` (the vis Network) so browser tests can count nodes
and click one.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import streamlit as st

from weaver import viz

__all__ = ["graph_view"]

_CSS = """
.cw-graph { box-sizing: border-box; width: 100%; border: 1px solid #e2e8f0; border-radius: 6px; background: #ffffff; position: relative; }
.cw-note { font-size: 12px; color: #475569; padding: 2px 4px; }
.vis-tooltip { position: absolute; visibility: hidden; white-space: pre-wrap; max-width: 420px; padding: 6px 8px;
  background: #fffbea; border: 1px solid #d4d4d8; border-radius: 4px; font-size: 13px; color: #111827;
  font-family: 'Noto Sans CJK SC', 'WenQuanYi Micro Hei', sans-serif; pointer-events: none; z-index: 5; }
.vis-network:focus { outline: none; }
"""

_JS_BODY = """
function ensureVis() {
  if (!(window.vis && window.vis.Network)) {
    const s = document.createElement("script");
    s.textContent = VIS_SRC;  // a classic script: defines window.vis (UMD)
    document.head.appendChild(s);
  }
  return window.vis;
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  const vis = ensureVis();
  let note = parentElement.querySelector(".cw-note");
  if (!note) { note = document.createElement("div"); note.className = "cw-note"; parentElement.appendChild(note); }
  note.textContent = data.note || "";
  let root = parentElement.querySelector(".cw-graph");
  if (!root) { root = document.createElement("div"); root.className = "cw-graph"; parentElement.appendChild(root); }
  root.style.height = data.height + "px";
  root.dataset.nodes = String(data.nodes.length);
  root.dataset.edges = String(data.edges.length);
  root.dataset.key = data.key;
  const sig = data.sig;
  if (!root.__net) {
    root.__nodes = new vis.DataSet(data.nodes);
    root.__edges = new vis.DataSet(data.edges);
    root.__net = new vis.Network(root, { nodes: root.__nodes, edges: root.__edges }, data.options);
    root.__net.on("click", (p) => { if (p.nodes && p.nodes.length) root.__onPick(String(p.nodes[0])); });
    root.__net.once("afterDrawing", () => { root.__net.fit({ animation: false }); root.dataset.ready = "1"; });
  } else if (root.__sig !== sig) {
    // same component, new data: keep the view unless the node set changed a lot
    root.__nodes.clear(); root.__edges.clear();
    root.__nodes.add(data.nodes); root.__edges.add(data.edges);
    root.__net.setOptions(data.options);
    if (data.fit) root.__net.fit({ animation: false });
  }
  root.__sig = sig;
  root.__onPick = (id) => setTriggerValue("selected", id);
  if (data.selected && root.__nodes.get(data.selected)) root.__net.selectNodes([data.selected]);
  window.__cwGraphs = window.__cwGraphs || {};
  window.__cwGraphs[data.key] = root.__net;
  return () => { if (root.__net) { root.__net.destroy(); root.__net = null; } delete window.__cwGraphs[data.key]; };
}
"""


@lru_cache(maxsize=1)
def _js() -> str:
    import pyvis

    src = (Path(pyvis.__file__).parent / "templates" / "lib" / "vis-9.1.2" / "vis-network.min.js").read_text("utf-8")
    # keep the newlines: a one-line string would be taken for a file path
    return "const VIS_SRC = " + json.dumps(src) + ";\n" + _JS_BODY


@lru_cache(maxsize=1)
def _component():
    return st.components.v2.component("weaver_graph", js=_js(), css=_CSS, isolate_styles=True)


def graph_view(g, *, key: str, height: int = 520, on_select=None, selected: str | None = None,
               node_styles=None, edge_styles=None, max_nodes: int = 300, focus=None, lang: str = "en",
               layout: str = "auto") -> dict:
    """Draw ``g`` with click-to-select; ``on_select(node_id)`` runs when a node is clicked.

    Returns the payload drawn (``shown``/``total``/``note``), for captions and tests.
    """
    payload = viz.vis_payload(g, node_styles=node_styles, edge_styles=edge_styles, selected=selected,
                              max_nodes=max_nodes, focus=focus, lang=lang, layout=layout)
    sig = str(hash(json.dumps([payload["nodes"], payload["edges"]], sort_keys=True, default=str)))
    data = dict(payload, key=key, height=int(height), selected=selected, sig=sig, fit=True)

    def _changed():
        state = st.session_state.get(key)
        value = state.get("selected") if hasattr(state, "get") else getattr(state, "selected", None)
        if value and on_select:
            on_select(str(value))

    _component()(key=key, data=data, height=int(height) + 24, on_selected_change=_changed)
    return payload
