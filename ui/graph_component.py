"""Click-to-select graph: an ``st.components.v2`` component drawing ``ui.graph_render.vis_payload``.

vis-network is the copy pyvis ships, injected inline once per page (no CDN, no request leaves
the machine). A click on a node sends its id back as the ``selected`` trigger; callers pass a
callback that stores it in ``st.session_state``. The container exposes ``data-nodes`` /
``data-edges`` and ``window.__cwGraphs[key]`` (the vis Network) so browser tests can count nodes
and click one. Where the view looks (whole nodes only, the newest turn in view) is ``ui/graph_frame.js``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import streamlit as st

from . import graph_render

__all__ = ["graph_view"]

_CSS = """
.cw-graph { box-sizing: border-box; width: 100%; border: 1px solid #e2e8f0; border-radius: 6px; background: #ffffff; position: relative; }
.cw-note { font-size: 12px; color: #475569; padding: 2px 4px; }
.vis-tooltip { position: absolute; visibility: hidden; white-space: pre-wrap; max-width: 420px; padding: 6px 8px;
  background: #fffbea; border: 1px solid #d4d4d8; border-radius: 4px; font-size: 13px; color: #111827;
  font-family: 'Noto Sans CJK SC', 'WenQuanYi Micro Hei', sans-serif; pointer-events: none; z-index: 5; }
.vis-network:focus { outline: none; }
/* the edge's hover tooltip (shown a moment after the click too) lay under the open menu, two texts in one place */
.cw-graph:has(.cw-menu) .vis-tooltip { visibility: hidden !important; }
.cw-menu, .cw-undo { position: absolute; z-index: 6; background: #ffffff; border: 1px solid #cbd5e1; border-radius: 8px;
  box-shadow: 0 4px 14px rgba(15,23,42,0.18); padding: 6px; font: 14px 'Noto Sans CJK SC', 'WenQuanYi Micro Hei', sans-serif; }
.cw-menu .cw-head { font-size: 12px; color: #475569; padding: 2px 4px 6px; max-width: 320px; }
.cw-menu button, .cw-undo button { margin: 2px; padding: 4px 10px; border-radius: 6px; border: 1px solid #cbd5e1;
  background: #f8fafc; cursor: pointer; font: inherit; }
.cw-menu button:hover, .cw-undo button:hover { background: #e2e8f0; }
.cw-menu button.cw-current { border-color: #1d4ed8; background: #dbeafe; font-weight: 600; cursor: default; }
.cw-menu button.cw-del { color: #b91c1c; border-color: #fecaca; }
.cw-undo { top: 8px; right: 8px; display: flex; align-items: center; gap: 8px; background: #fefce8; border-color: #facc15; }
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

function edgeMenu(parent, root, id, at, edit, send) {
  // the edge's fix, right where it was clicked: one click on a relation (or Delete) applies it
  const e = root.__edges.get(id);
  if (!e) return;
  const m = document.createElement("div");
  m.className = "cw-menu";
  m.dataset.edge = id;
  const head = document.createElement("div");
  head.className = "cw-head";
  head.textContent = edit.title + " · " + (e.label || "");
  m.appendChild(head);
  for (const [rel, label] of edit.relations) {
    const b = document.createElement("button");
    b.textContent = label;
    b.dataset.relation = rel;
    if (rel === e.relation) { b.className = "cw-current"; b.disabled = true; }
    b.onclick = () => { m.remove(); send("edge_action", { action: "set", edge: id, relation: rel, nonce: Date.now() }); };
    m.appendChild(b);
  }
  const del = document.createElement("button");
  del.className = "cw-del";
  del.textContent = edit.delete;
  del.dataset.relation = "";
  del.onclick = () => { m.remove(); send("edge_action", { action: "delete", edge: id, nonce: Date.now() }); };
  m.appendChild(del);
  // inside the graph box (position: relative), at the click; kept within the box
  m.style.left = Math.max(4, Math.min(at.x + 8, root.clientWidth - 340)) + "px";
  m.style.top = Math.max(4, Math.min(at.y + 8, root.clientHeight - 120)) + "px";
  root.appendChild(m);
}

function drawUndo(root, undo, send) {
  let bar = root.querySelector(".cw-undo");
  if (!undo) { if (bar) bar.remove(); return; }
  if (!bar) { bar = document.createElement("div"); bar.className = "cw-undo"; root.appendChild(bar); }
  bar.replaceChildren();
  const text = document.createElement("span");
  text.textContent = undo.text;
  const b = document.createElement("button");
  b.textContent = undo.label;
  b.onclick = () => { bar.remove(); send("edge_action", { action: "undo", entry: undo.entry, nonce: Date.now() }); };
  bar.append(text, b);
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
  // a tooltip or a menu open before this rerun must not stick over the new drawing
  parentElement.querySelectorAll(".vis-tooltip").forEach((el) => { el.style.visibility = "hidden"; });
  const closeMenu = () => { const m = parentElement.querySelector(".cw-menu"); if (m) m.remove(); };
  closeMenu();
  if (!root.__net) {
    root.__nodes = new vis.DataSet(data.nodes);
    root.__edges = new vis.DataSet(data.edges);
    root.__net = new vis.Network(root, { nodes: root.__nodes, edges: root.__edges }, data.options);
    root.__net.on("click", (p) => {
      if (p.nodes && p.nodes.length) { root.__closeMenu(); root.__onPick(String(p.nodes[0])); return; }
      root.__closeMenu();
      if (p.edges && p.edges.length && root.__edgeMenu) root.__edgeMenu(String(p.edges[0]), p.pointer.DOM);
    });
    // the user's own pan or zoom: the view is theirs until the next turn's drawing (no re-framing on a resize)
    root.__net.on("dragStart", () => { root.__closeMenu(); root.__net.__cwMoved = true; });
    root.__net.on("zoom", () => { root.__closeMenu(); root.__net.__cwMoved = true; });
    root.__net.once("afterDrawing", () => frame(root.__net, root.__data, () => { root.dataset.ready = "1"; }));
    // the canvas's size changes after the first drawing (a scroll bar appears, the sidebar opens or closes, the
    // columns stack): framed anew for the new size, or the newest turn slid off the side it was framed against
    let size = [root.clientWidth, root.clientHeight];
    root.__resized = new ResizeObserver(() => {
      const now = [root.clientWidth, root.clientHeight];
      if (now[0] === size[0] && now[1] === size[1]) return;
      size = now;
      const net = root.__net;
      if (net && !net.__cwMoved && root.dataset.ready === "1") requestAnimationFrame(() => frame(net, root.__data));
    });
    root.__resized.observe(root);
  } else if (root.__sig !== sig) {
    // same component, new data: keep the view unless the node set changed a lot
    root.__nodes.clear(); root.__edges.clear();
    root.__nodes.add(data.nodes); root.__edges.add(data.edges);
    root.__net.setOptions(data.options);
    // framed once the new nodes are drawn: their label boxes are measured in that drawing
    if (data.fit) { const net = root.__net; net.once("afterDrawing", () => frame(net, data)); net.redraw(); }
  }
  root.__data = data;
  root.__sig = sig;
  drawUndo(root, data.undo, setTriggerValue);
  root.__onPick = (id) => setTriggerValue("selected", id);
  root.__closeMenu = closeMenu;
  root.__edgeMenu = data.edit ? (id, at) => edgeMenu(parentElement, root, id, at, data.edit, setTriggerValue) : null;
  if (data.selected && root.__nodes.get(data.selected)) root.__net.selectNodes([data.selected]);
  window.__cwGraphs = window.__cwGraphs || {};
  window.__cwGraphs[data.key] = root.__net;
  return () => {
    if (root.__resized) { root.__resized.disconnect(); root.__resized = null; }
    if (root.__net) { root.__net.destroy(); root.__net = null; }
    delete window.__cwGraphs[data.key];
  };
}
"""


@lru_cache(maxsize=1)
def _js() -> str:
    import pyvis

    src = (Path(pyvis.__file__).parent / "templates" / "lib" / "vis-9.1.2" / "vis-network.min.js").read_text("utf-8")
    # keep the newlines: a one-line string would be taken for a file path
    frame = (Path(__file__).parent / "graph_frame.js").read_text("utf-8")
    return "const VIS_SRC = " + json.dumps(src) + ";\n" + frame + "\n" + _JS_BODY


@lru_cache(maxsize=1)
def _component():
    return st.components.v2.component("weaver_graph", js=_js(), css=_CSS, isolate_styles=True)


def _focus_ids(g, payload: dict, selected, focus, node_styles) -> list[str]:
    """What the view centres on when the whole graph would be too small to read: selection, focus, new, latest."""
    drawn = {n["id"] for n in payload["nodes"]}
    if isinstance(focus, (str, int)):
        focus = [focus]
    for ids in (
        [selected] if selected else [],
        list(focus or []),
        [n for n, s in (node_styles or {}).items() if s == "new" or (isinstance(s, list) and "new" in s)],
    ):
        ids = [str(i) for i in ids if str(i) in drawn]
        if ids:
            return ids
    last = max((n.get("turn", 0) or 0 for n in payload["nodes"]), default=0)
    return [n["id"] for n in payload["nodes"] if (n.get("turn", 0) or 0) == last]


def _trigger(key: str, name: str):
    state = st.session_state.get(key)
    return state.get(name) if hasattr(state, "get") else getattr(state, name, None)


def fitted_height(nodes: list[dict], most: int, least: int = 320, width: float = 620.0) -> int:
    """A canvas height that holds the drawn graph without empty bands: the layout's extent scaled to the
    canvas width (as the view's fit scales it), between ``least`` and ``most`` pixels.

    >>> two_turns = [{"x": 0.0, "y": 0.0}, {"x": 690.0, "y": 0.0}, {"x": 0.0, "y": 135.0}, {"x": 690.0, "y": 135.0}]
    >>> fitted_height(two_turns, 640)
    320
    >>> fitted_height([{"x": 0.0, "y": float(y)} for y in range(0, 2000, 135)], 640)
    640
    """
    if not nodes:
        return most
    xs = [float(n.get("x", 0.0)) for n in nodes]
    ys = [float(n.get("y", 0.0)) for n in nodes]
    w, h = max(xs) - min(xs) + 230.0, max(ys) - min(ys) + 95.0  # plus one node's footprint with its label
    scale = min(1.0, width / w)
    return int(min(most, max(least, h * scale + 80.0)))


def graph_view(
    g,
    *,
    key: str,
    height: int = 520,
    on_select=None,
    selected: str | None = None,
    node_styles=None,
    edge_styles=None,
    max_nodes: int = 300,
    focus=None,
    lang: str = "en",
    layout: str = "auto",
    edit: dict | None = None,
    on_edge=None,
    undo: dict | None = None,
    refit: bool = False,
    shrink: bool = False,
) -> dict:
    """Draw ``g`` with click-to-select; ``on_select(node_id)`` runs when a node is clicked.

    With ``edit`` ({"title", "relations": [(relation, label)], "delete"}) a click on an edge opens a
    small menu on the canvas; choosing a relation or Delete calls ``on_edge(action)`` with
    ``{"action": "set" | "delete", "edge": "u->v", "relation": ...}``. ``undo`` ({"text", "label",
    "entry"}) shows an Undo bar on the canvas whose click calls ``on_edge({"action": "undo", ...})``.
    ``refit`` re-fits the view (e.g. to bring a just-promoted node on screen). ``shrink``: ``height`` is
    the most; a small graph gets a lower canvas (:func:`fitted_height`).

    Returns the payload drawn (``shown``/``total``/``note``), for captions and tests.
    """
    payload = graph_render.vis_payload(
        g,
        node_styles=node_styles,
        edge_styles=edge_styles,
        selected=selected,
        max_nodes=max_nodes,
        focus=focus,
        lang=lang,
        layout=layout,
    )
    if shrink:
        height = fitted_height(payload["nodes"], int(height))
    sig = str(hash(json.dumps([payload["nodes"], payload["edges"], bool(refit)], sort_keys=True, default=str)))
    data = dict(
        payload,
        key=key,
        height=int(height),
        selected=selected,
        sig=sig,
        fit=True,
        edit=edit,
        undo=undo,
        focus_ids=_focus_ids(g, payload, selected, focus, node_styles),
    )

    def _picked():
        value = _trigger(key, "selected")
        if value and on_select:
            on_select(str(value))

    def _edge():
        value = _trigger(key, "edge_action")
        if isinstance(value, dict) and on_edge:
            on_edge(value)

    _component()(key=key, data=data, height=int(height) + 24, on_selected_change=_picked, on_edge_action_change=_edge)
    return payload
