"""Graph explorer: the space's dependency graph with filters, true replay, search, paths, canvas edits, export."""

from __future__ import annotations

import json
import re

import streamlit as st

from ui.shell import require_shell

require_shell("graph")  # a deep link on a fresh server must not bypass app.py

from ui import edge_fix, graph_render
from ui.graph_component import graph_view
from ui.css import stack_when_narrow_css
from ui.i18n import lang, t
from ui.inspector import node_option_label, render_inspector
from ui.render import md_escape
from ui.state import current_space, get_weaver, selection_key, turn_replay
from weaver import viz
from weaver.models import NODE_KINDS, NODE_STATUSES, RELATIONS

space = current_space()
w = get_weaver(space)
g_all = w.graph
SEL = selection_key("graph", space)
L = graph_render.labels(lang())
# the space's own name (Chinese kept), only characters no file system accepts replaced
STATUS_DEFAULT = ["active", "superseded"]
FILE = re.sub(r'[\\/:*?"<>|\s]+', "_", space).strip("._") or "space"

st.markdown(f"### {t('graph')} · " + md_escape(graph_render.short_label(space, 40)))
edge_fix.show_outcome()
if g_all.number_of_nodes() == 0:
    st.info(t("graph_empty"))
    st.html(graph_render.legend_html(lang()))
    st.stop()


def _select(n: str) -> None:
    st.session_state[SEL] = n


turns = viz.replay_turns(g_all)
if st.session_state.get("gf_turn") not in turns:
    st.session_state["gf_turn"] = turns[-1]


def _step(delta: int) -> None:
    i = turns.index(st.session_state.get("gf_turn", turns[-1])) + delta
    st.session_state["gf_turn"] = turns[max(0, min(i, len(turns) - 1))]


# One toolbar row above the canvas (the filters in a popover, search, the replay): at 1400x1000 the three
# rows of controls pushed the canvas ~490 px down, the newest turn below the fold until one scrolled.
with st.container(horizontal=True, vertical_alignment="bottom", gap="small", key="gf_bar"):
    # (label, options, default, key, display names) of the three filters
    filters = [
        ("relations", RELATIONS, list(RELATIONS), "gf_rel", L["relations"]),
        ("kinds", NODE_KINDS, list(NODE_KINDS), "gf_kind", L["kinds"]),
        ("status", NODE_STATUSES, STATUS_DEFAULT, "gf_status", L["statuses"]),
    ]
    # what the filters hide, said on the closed popover (the status filter hides retracted nodes from the start)
    n_hidden = sum(len(opts) - len(st.session_state.get(key, default)) for _, opts, default, key, _ in filters)
    with st.popover(
        t("filters_some", n=n_hidden) if n_hidden else t("filters"), icon=":material/filter_list:", key="gf_filters"
    ):
        rels, kinds, stats = (
            st.multiselect(
                t(label), opts, default=default, key=key, format_func=lambda x, n=names: n.get(x, x), placeholder="—"
            )
            for label, opts, default, key, names in filters
        )
        layout = st.selectbox(
            t("layout"),
            ["auto", "spring"],
            key="gf_layout",
            format_func={"auto": t("layout_auto"), "spring": t("layout_spring")}.get,
        )
        hide_guessed = st.toggle(t("hide_guessed"), key="gf_guess", help=t("hide_guessed_help"))
    query = st.text_input(t("search"), key="gf_search", placeholder=t("search_ph"), width=220)
    if len(turns) > 1:
        upto = st.select_slider(
            t("scrubber"),
            options=turns,
            key="gf_turn",
            format_func=lambda x, now=t("replay_now"): f"{x} ({now})" if x == turns[-1] else str(x),
        )
        # each control as wide as its words, wrapping in a narrow window: equal columns cut them to "◀ …"
        st.button(t("replay_back"), key="gf_back", on_click=_step, args=(-1,))
        st.button(t("replay_fwd"), key="gf_fwd", on_click=_step, args=(1,))
        playing = st.toggle(t("replay_play"), key="gf_play")
    else:
        upto, playing = turns[-1], False

if playing:

    @st.fragment(run_every=1.5)
    def _play() -> None:
        """Advance the replay one turn per tick; stops at "now"."""
        cur = st.session_state.get("gf_turn", turns[-1])
        if cur == turns[-1]:
            st.session_state["gf_play"] = False
            st.session_state["gf_turn"] = turns[0]
        else:
            _step(1)
        st.rerun(scope="app")

    _play()

past = upto != turns[-1]
# remembered per space: reruns at the same turn (a click elsewhere on the page) do not replay the log again
base = (
    turn_replay(space).graph_at_turn(g_all, w.curation.log.entries, upto, version=w.space.revision()) if past else g_all
)
g = viz.filter_graph(base, relations=rels, kinds=kinds, statuses=stats, hide_guessed=hide_guessed)
if past:
    st.info(t("replay_past", turn=upto, last=turns[-1]))
node_styles: dict = {}
edge_styles: dict = {}
if past or len(turns) == 1:
    for n, a in g.nodes(data=True):
        if int(a.get("turn", 0) or 0) == upto:
            node_styles[n] = ["new"]
matches = viz.search_nodes(g, query)
for n in matches:
    node_styles[n] = node_styles.get(n, []) + ["match"]

sel = st.session_state.get(SEL)
sel = sel if sel in g else None


def node_label(n) -> str:  # the node pickers' option text ("—": none picked)
    return "—" if n is None else labels[n]


labels = {n: node_option_label(g, n) for n in sorted(g, key=lambda n: (g.nodes[n].get("turn", 0), str(n)))}
# the canvas and, beside it, what is about nodes (pick, neighbourhood, path, inspector); in a narrow pane (900 px
# with the sidebar open) the two stack instead: side by side the canvas was a sliver
st.html(stack_when_narrow_css("gf_cols", 760))
with st.container(key="gf_cols"):
    left, right = st.columns([7, 4], gap="medium")
with right:
    pick = st.selectbox(
        t("pick_node"),
        [None, *labels],
        index=([None, *labels].index(sel) if sel else 0),
        format_func=node_label,
        key=f"gp_pick:{sel}",
    )
    if pick != sel:
        st.session_state[SEL] = pick
        st.rerun()
    focus_nb = st.toggle(t("focus_nb"), key="gf_nb", disabled=sel is None)
    with st.expander(t("path"), expanded=False):
        # one above the other: side by side in this column each was cut to "[1] agent thou"
        a = st.selectbox(t("from"), [None, *labels], format_func=node_label, key="gp_a")
        b = st.selectbox(t("to"), [None, *labels], format_func=node_label, key="gp_b")
        path = viz.path_between(g, a, b) if a and b else []
        if a and b and not path:
            st.warning(t("no_path"))
        steps = viz.path_steps(g, path)
        for u, v, forward in steps:
            edge_styles[(u, v) if forward else (v, u)] = "path"
        for n in path:
            node_styles[n] = node_styles.get(n, []) + ["path"]
        if path:  # each step says which way its arrow points: a path found ignoring direction is not drawn "->"
            text = graph_render.short_label(g.nodes[path[0]].get("content", ""), 24)
            for u, v, forward in steps:
                text += (" → " if forward else " ← ") + graph_render.short_label(g.nodes[v].get("content", ""), 24)
            st.text(text + ("" if all(f for *_, f in steps) else "  " + t("path_none_dir")))

    render_inspector(w, sel, key="gi", editable=not past)
if focus_nb and sel:  # the rest stays where it is, faded: positions never jump
    near = viz.neighbourhood(g, sel, hops=1)
    for n in g:
        if n not in near:
            node_styles[n] = node_styles.get(n, []) + ["dim"]
    for u, v in g.edges:
        if u not in near or v not in near:
            edge_styles.setdefault((u, v), "dim")
with left:
    cap = t("nodes_edges", n=g.number_of_nodes(), e=g.number_of_edges())
    if query.strip():
        cap += " · " + t("matches", n=len(matches))
    st.caption(cap + ("" if past else " · " + t("edge_hint")))
    if g.number_of_nodes() == 0:
        st.info(t("graph_empty"))
    else:
        graph_view(
            g,
            key=f"graph_page_{space}",
            height=640,
            shrink=True,
            selected=sel,
            node_styles=node_styles,
            edge_styles=edge_styles,
            max_nodes=300,
            focus=sel or (matches[:1] or None),
            lang=lang(),
            layout=layout,
            on_select=_select,
            edit=None if past else edge_fix.edit_spec(),
            on_edge=edge_fix.edge_handler(w, space),
            undo=None if past else edge_fix.undo_spec(),
        )
    st.html(graph_render.legend_html(lang(), styles=["new", "match", "path", "selected"]))

with st.expander(t("export"), expanded=False):
    e1, e2, e3 = st.columns(3)
    e1.download_button(
        t("export_json"),
        lambda: json.dumps(w.export_node_link(), ensure_ascii=False, indent=1),
        file_name=f"{FILE}-graph.json",
        mime="application/json",
        key="ex_json",
        on_click="ignore",
    )
    e2.download_button(
        "GraphML",
        lambda: w.export_graphml(),
        file_name=f"{FILE}.graphml",
        mime="application/xml",
        key="ex_graphml",
        on_click="ignore",
    )
    e3.download_button(
        t("export_html"),
        lambda: graph_render.render_graph_html(
            g,
            node_styles=node_styles,
            edge_styles=edge_styles,
            selected=sel,
            height=800,
            lang=lang(),
            layout=layout,
            title=f"ContextWeaver · {space}",
        ),
        file_name=f"{FILE}-graph.html",
        mime="text/html",
        key="ex_html",
        on_click="ignore",
    )
