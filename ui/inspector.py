"""Node inspector: content, filter scores, parents and children with relations, provenance."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import streamlit as st

from weaver import WeaverError
from weaver.filter_words import filter_reason_in_words
from weaver.models import RELATIONS
from weaver.rationale_words import rationale_in_words

from . import edge_fix, graph_render
from .i18n import lang, t
from .render import md_escape, show_text
from .state import space_lock

__all__ = ["render_inspector", "node_option_label"]


def node_option_label(g, n: str) -> str:
    a = g.nodes[n]
    kind = graph_render.labels(lang())["kinds"].get(a.get("kind"), a.get("kind", "?"))
    return f"[{a.get('turn', '?')}] {kind} · {graph_render.short_label(a.get('content', ''), 40)}"


def _neighbours(w, n: str, parents: bool) -> pd.DataFrame:
    g = w.graph
    pairs = [(p, n) for p in g.predecessors(n)] if parents else [(n, c) for c in g.successors(n)]
    rows = []
    L = graph_render.labels(lang())
    for u, v in pairs:
        d = g.edges[u, v]
        other = u if parents else v
        # content first; the node id stays available on hover in the graph and in the provenance
        rows.append(
            {
                # the relation before the text: in the inspector's narrow column the text pushed it out of sight
                t("col_relation"): L["relations"].get(d.get("relation"), d.get("relation")),
                t("col_node"): graph_render.short_label(g.nodes[other].get("content", ""), 60),
                t("col_confidence"): round(float(d.get("confidence", 0)), 2),
                t("col_origin"): L["origins"].get(d.get("origin"), d.get("origin")),
                t("col_status"): L["edge_statuses"].get(d.get("status"), d.get("status")),
                t("col_kind"): L["kinds"].get(g.nodes[other].get("kind"), g.nodes[other].get("kind")),
                t("col_turn"): g.nodes[other].get("turn"),
                t("col_rationale"): rationale_in_words(d.get("rationale", ""), lang()),
            }
        )
    return pd.DataFrame(rows)


def _language(code: str) -> str:
    """A memory's language by name in the reader's language ("中文", not the code "zh")."""
    return t("mem_lang_" + code) if code in ("en", "zh") else code


def render_inspector(w, node_id: str | None, key: str, editable: bool = True) -> None:
    """Draw the inspector for ``node_id`` of weaver ``w`` (an empty state when None/unknown)."""
    st.markdown(f"**{t('inspector')}**")
    if not node_id or node_id not in w.graph:
        st.info(t("inspector_empty"))
        return
    node = w.nodes.get(node_id)
    a = w.graph.nodes[node_id]
    L = graph_render.labels(lang())
    status = a.get("status", "active")
    st.caption(
        md_escape(
            f"{L['kinds'].get(a.get('kind'), a.get('kind'))} · {t('turn_n', n=a.get('turn'))} · "
            f"{L['statuses'].get(status, status)} · {_language(a.get('language', ''))}"
        ),
        help=md_escape(node_id),
    )
    with st.container(border=True, key=f"{key}_content"):
        show_text(a.get("content", ""))
    dec = w.decisions.get(a.get("message_id")) if a.get("message_id") else None
    if dec is not None:
        cols = st.columns(4)
        for c, (name, val) in zip(
            cols,
            [
                (t("m_relevance"), dec.relevance),
                (t("m_novelty"), dec.novelty),
                (t("m_importance"), dec.importance),
                (t("m_total"), dec.total),
            ],
        ):
            c.metric(name, f"{val:.2f}")
        if dec.reason:
            st.caption(md_escape(filter_reason_in_words(dec.reason[:300], lang())))
    for label, parents in ((t("parents"), True), (t("children"), False)):
        df = _neighbours(w, node_id, parents)
        st.markdown(f"**{label}** ({len(df)})")
        if len(df):
            st.dataframe(df, hide_index=True, width="stretch", key=f"{key}_{'p' if parents else 'c'}")
    if editable:
        _edge_editor(w, node_id, key)
    with st.expander(t("provenance")):
        prov = {
            "node_id": node_id,
            "message_id": a.get("message_id"),
            "timestamp": dt.datetime.fromtimestamp(float(a.get("timestamp", 0) or 0)).isoformat(timespec="seconds"),
            "importance": a.get("importance"),
            "meta": a.get("meta") or {},
        }
        if node is not None:
            prov.update(access_count=node.access_count)
        if dec is not None:
            prov["filter"] = {
                "backend": dec.backend,
                "latency_ms": dec.latency_ms,
                "llm_calls": dec.llm_calls,
                "fallback": dec.fallback,
                "promoted": dec.promoted,
                "thresholds": [dec.coarse_threshold, dec.keep_threshold],
            }
        st.json(prov, expanded=1)


def _edge_editor(w, node_id: str, key: str) -> None:
    """Relabel, confirm, delete or add this node's edges: human edits through the curation library."""
    g = w.graph
    L = graph_render.labels(lang())
    version = len(w.curation.log.entries)  # widgets keyed by the log's length: an edit never leaves a stale label
    # a stable key: adding a parent draws a table above it, and an unkeyed expander closed after every add
    with st.expander(t("edit_edges"), key=f"{key}_edit_edges"):
        last = edge_fix.undo_spec()
        if last:
            st.button(
                t("undo_last", what=md_escape(last["text"])),
                key=f"{key}_undo_{version}",
                icon=":material/undo:",
                on_click=edge_fix.edge_handler(w, w.space.name),
                args=({"action": "undo"},),
            )
        edges = [(p, node_id) for p in g.predecessors(node_id)] + [(node_id, c) for c in g.successors(node_id)]
        if edges:

            def label(e):
                u, v = e
                rel = L["relations"].get(g.edges[u, v].get("relation"), g.edges[u, v].get("relation"))
                other = v if u == node_id else u
                arrow = "→" if u == node_id else "←"
                return f"{arrow} [{rel}] {node_option_label(g, other)}"

            def said(e, action: str) -> str:
                """An edit in words, the action first: the undo button cuts the long end, never the verb."""
                other = e[1] if e[0] == node_id else e[0]
                arrow = "→" if e[0] == node_id else "←"
                return f"{action} · {arrow} {graph_render.short_label(g.nodes[other].get('content', other), 40)}"

            # labels made now, not when the widget formats them later: the language is the one of this run
            names = {e: label(e) for e in edges}
            edge = st.selectbox(
                t("edge_pick"),
                edges,
                format_func=lambda e, n=names: n.get(tuple(e), str(e)),
                key=f"{key}_edge_{version}",
            )
            rel = st.selectbox(
                t("relation"),
                RELATIONS,
                index=RELATIONS.index(g.edges[edge].get("relation")),
                format_func=lambda r: L["relations"].get(r, r),
                key=f"{key}_edge_rel_{edge[0]}_{edge[1]}_{version}",
            )
            c1, c2, c3 = st.columns(3)
            _action(
                w,
                c1.button(t("set_relation"), key=f"{key}_set"),
                lambda: w.curation.set_edge(*edge, rel),
                said(edge, f"{L['relations'].get(g.edges[edge].get('relation'), '')} → {L['relations'].get(rel, rel)}"),
            )
            _action(
                w,
                c2.button(t("confirm_edge"), key=f"{key}_confirm"),
                lambda: w.curation.confirm_edge(*edge),
                said(edge, f"{L['relations'].get(g.edges[edge].get('relation'), '')} ✓"),
            )
            _action(
                w,
                c3.button(t("delete_edge"), key=f"{key}_del"),
                lambda: w.curation.remove_edge(*edge),
                said(edge, f"{L['relations'].get(g.edges[edge].get('relation'), '')} {t('edge_deleted')}"),
            )
        st.markdown(f"**{t('add_edge')}**")
        others = [n for n in w.node_ids if n != node_id and not g.has_edge(node_id, n) and not g.has_edge(n, node_id)]
        if others:
            labels = {n: node_option_label(g, n) for n in others}
            other = st.selectbox(
                t("other_node"), others, format_func=lambda n, m=labels: m.get(n, str(n)), key=f"{key}_other"
            )
            direction = st.radio(
                t("direction"),
                ["out", "in"],
                key=f"{key}_dir",
                horizontal=True,
                format_func={"out": t("this_to_other"), "in": t("other_to_this")}.get,
            )
            new_rel = st.selectbox(
                t("relation"), RELATIONS, key=f"{key}_new_rel", format_func=lambda r: L["relations"].get(r, r)
            )
            src, dst = (node_id, other) if direction == "out" else (other, node_id)
            _action(
                w,
                st.button(t("add_edge"), key=f"{key}_add"),
                lambda: w.curation.set_edge(src, dst, new_rel),
                f"+ {node_option_label(g, other)} [{L['relations'].get(new_rel, new_rel)}]",
            )


def _action(w, clicked: bool, edit, text: str) -> None:
    if not clicked:
        return
    try:
        with space_lock(w.space.name):
            entry = edit()
    except WeaverError as exc:  # e.g. a cycle: refused with the library's message
        st.error(md_escape(str(exc)))
        return
    st.session_state[edge_fix.LAST_EDIT] = {"entry": entry.id, "text": graph_render.short_label(text, 80)}
    st.toast(md_escape(t("edge_done")))
    st.rerun()
