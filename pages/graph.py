"""Graph explorer: the whole space's dependency graph with filters, replay, search, paths, inspector, export."""

from __future__ import annotations

import json

import streamlit as st

from ui.shell import require_shell

require_shell('graph')  # a deep link on a fresh server must not bypass app.py

from ui.graph_component import graph_view
from ui.i18n import lang, t
from ui.inspector import node_option_label, render_inspector
from ui.render import md_escape
from ui.state import current_space, get_weaver
from weaver import viz
from weaver.models import NODE_KINDS, NODE_STATUSES, RELATIONS
from weaver.store import space_slug

space = current_space()
w = get_weaver(space)
g_all = w.graph
SEL = f"space_ui:graph_selected:{space}"
SLUG = space_slug(space)
L = viz.labels(lang())

st.markdown(f"### {t('graph')} · " + md_escape(viz.short_label(space, 40)))
if g_all.number_of_nodes() == 0:
    st.info(t("graph_empty"))
    st.html(viz.legend_html(lang()))
    st.stop()


def _select(n: str) -> None:
    st.session_state[SEL] = n


turns = sorted({int(a.get("turn", 0) or 0) for _, a in g_all.nodes(data=True)})
with st.container(border=True):
    c1, c2, c3 = st.columns(3)
    rels = c1.multiselect(t("relations"), RELATIONS, default=list(RELATIONS), key="gf_rel",
                          format_func=lambda r: L["relations"].get(r, r))
    kinds = c2.multiselect(t("kinds"), NODE_KINDS, default=list(NODE_KINDS), key="gf_kind",
                           format_func=lambda k: L["kinds"].get(k, k))
    stats = c3.multiselect(t("status"), NODE_STATUSES, default=["active", "superseded"], key="gf_status")
    c4, c5, c6 = st.columns([3, 2, 1])
    if len(turns) > 1:
        upto = c4.select_slider(t("scrubber"), options=turns, value=turns[-1], key="gf_turn")
    else:
        upto = turns[-1]
    query = c5.text_input(t("search"), key="gf_search", placeholder="北京 / budget …")
    layout = c6.selectbox("layout", ["auto", "timeline", "spring"], key="gf_layout")

g = viz.filter_graph(g_all, relations=rels, kinds=kinds, statuses=stats, upto_turn=upto)
node_styles: dict = {}
edge_styles: dict = {}
if upto != turns[-1] or len(turns) == 1:
    for n, a in g.nodes(data=True):
        if int(a.get("turn", 0) or 0) == upto:
            node_styles[n] = ["new"]
matches = viz.search_nodes(g, query)
for n in matches:
    node_styles[n] = node_styles.get(n, []) + ["match"]

labels = {n: node_option_label(g, n) for n in sorted(g, key=lambda n: (g.nodes[n].get("turn", 0), str(n)))}
with st.expander(t("path"), expanded=False):
    p1, p2 = st.columns(2)
    a = p1.selectbox(t("from"), [None, *labels], format_func=lambda n: "—" if n is None else labels[n], key="gp_a")
    b = p2.selectbox(t("to"), [None, *labels], format_func=lambda n: "—" if n is None else labels[n], key="gp_b")
    path = viz.path_between(g, a, b) if a and b else []
    if a and b and not path:
        st.warning(t("no_path"))
    for u, v in zip(path, path[1:]):
        edge_styles[(u, v) if g.has_edge(u, v) else (v, u)] = "path"
    for n in path:
        node_styles[n] = node_styles.get(n, []) + ["path"]
    if path:
        st.text(" → ".join(viz.short_label(g.nodes[n].get("content", ""), 24) for n in path))

sel = st.session_state.get(SEL)
sel = sel if sel in g else None
left, right = st.columns([7, 4], gap="medium")
with left:
    cap = t("nodes_edges", n=g.number_of_nodes(), e=g.number_of_edges())
    if query.strip():
        cap += " · " + t("matches", n=len(matches))
    st.caption(cap)
    if g.number_of_nodes() == 0:
        st.info(t("graph_empty"))
    else:
        max_nodes = 300
        graph_view(g, key=f"graph_page_{space}", height=560, selected=sel, node_styles=node_styles,
                   edge_styles=edge_styles, max_nodes=max_nodes, focus=sel or (matches[:1] or None),
                   lang=lang(), layout=layout, on_select=_select)
    st.html(viz.legend_html(lang(), styles=["new", "match", "path", "selected"]))
with right:
    pick = st.selectbox(t("pick_node"), [None, *labels], index=([None, *labels].index(sel) if sel else 0),
                        format_func=lambda n: "—" if n is None else labels[n], key=f"gp_pick:{sel}")
    if pick != sel:
        st.session_state[SEL] = pick
        st.rerun()
    render_inspector(w, sel, key="gi")

with st.expander(t("export"), expanded=False):
    e1, e2, e3 = st.columns(3)
    e1.download_button("node-link JSON", lambda: json.dumps(w.export_node_link(), ensure_ascii=False, indent=1),
                       file_name=f"{SLUG}-graph.json", mime="application/json",
                       key="ex_json", on_click="ignore")
    e2.download_button("GraphML", lambda: w.export_graphml(), file_name=f"{SLUG}.graphml",
                       mime="application/xml", key="ex_graphml", on_click="ignore")
    e3.download_button("HTML (offline)", lambda: viz.render_graph_html(
        g, node_styles=node_styles, edge_styles=edge_styles, selected=sel, height=800, lang=lang(),
        layout=layout, title=f"ContextWeaver · {space}"), file_name=f"{SLUG}-graph.html",
        mime="text/html", key="ex_html", on_click="ignore")
