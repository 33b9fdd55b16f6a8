"""The studio's sidebar: language, space picker, active backends, task focus, the weaver's knobs."""

from __future__ import annotations

from dataclasses import fields

import streamlit as st

from weaver import WeaverConfig, WeaverError

from .i18n import LANGS, t
from .render import md_escape
from .state import current_space, delete_space, get_runtime, get_weaver, list_spaces, switch_space

__all__ = ["render_sidebar", "KNOBS"]

# (field, group, kind, min, max, step, help) — the knobs a curator actually tunes
KNOBS = [
    ("coarse_threshold", "filter", "float", 0.0, 1.0, 0.01, "coarse pre-filter: below this, no detailed scoring"),
    ("keep_threshold", "filter", "float", 0.0, 10.0, 0.1, "a message is kept when its total reaches this"),
    ("w_relevance", "filter", "float", 0.0, 1.0, 0.05, "weight of relevance to the task focus"),
    ("w_novelty", "filter", "float", 0.0, 1.0, 0.05, "weight of novelty against memory"),
    ("w_importance", "filter", "float", 0.0, 1.0, 0.05, "weight of importance (constraints, decisions)"),
    ("top_k_parents", "builder", "int", 1, 10, 1, "candidate parents per new node"),
    ("min_parent_similarity", "builder", "float", 0.0, 1.0, 0.05, "weakest similarity a parent may have"),
    ("seeds", "retrieval", "int", 1, 30, 1, "top-K seeds found by similarity + BM25"),
    ("hops", "retrieval", "int", 0, 5, 1, "how far expansion walks the graph from the seeds"),
    ("budget", "retrieval", "int", 64, 8192, 64, "token budget of the assembled context"),
    ("w_similarity", "retrieval", "float", 0.0, 3.0, 0.05, "weight of dense similarity"),
    ("w_lexical", "retrieval", "float", 0.0, 3.0, 0.05, "weight of BM25"),
    ("w_centrality", "retrieval", "float", 0.0, 1.0, 0.05, "weight of graph centrality"),
    ("hop_decay", "retrieval", "float", 0.0, 1.0, 0.05, "score multiplier per hop away from a seed"),
    ("context_decay", "retrieval", "float", 0.0, 1.0, 0.05,
     "share of a same-episode neighbour's relevance a memory gains (decay**distance)"),
    ("w_speaker", "retrieval", "float", 0.0, 1.0, 0.05,
     "relevance a memory loses when the query names other speakers than its own"),
    ("w_revision", "retrieval", "float", 0.0, 0.2, 0.01,
     "relevance a constraint statement gains per revision the user made (up to 5): who revises, weighs constraints"),
]
_GROUPS = {"filter": "filter_knobs", "builder": "builder_knobs", "retrieval": "retrieval_knobs"}


def _defaults() -> WeaverConfig:
    return get_runtime().settings.config


def _reset_knobs() -> None:
    for name, *_ in KNOBS:
        st.session_state.pop(f"knob:{name}", None)
    st.session_state.pop("weaver_config", None)


def _knobs() -> None:
    base = _defaults()
    with st.expander(t("knobs"), expanded=False):
        values = {}
        for group, label in _GROUPS.items():
            st.caption(t(label))
            for name, g, kind, lo, hi, step, helptext in KNOBS:
                if g != group:
                    continue
                key = f"knob:{name}"
                default = getattr(base, name)
                if kind == "int":
                    values[name] = st.number_input(name, min_value=lo, max_value=hi, step=step,
                                                   value=int(default), key=key, help=helptext)
                else:
                    values[name] = st.slider(name, min_value=float(lo), max_value=float(hi), step=float(step),
                                             value=float(default), key=key, help=helptext)
        st.button(t("reset"), on_click=_reset_knobs, key="knobs_reset")
    known = {f.name for f in fields(WeaverConfig)}
    st.session_state["weaver_config"] = base.with_(**{k: v for k, v in values.items() if k in known})


def _space_picker() -> None:
    spaces = list_spaces()
    cur = current_space()
    choice = st.selectbox(t("space"), spaces, index=spaces.index(cur), key=f"space_pick:{cur}")
    if choice != cur:
        switch_space(choice)
        st.rerun()
    with st.popover("＋ " + t("create"), width="stretch"):
        with st.form("new_space", clear_on_submit=True, border=False):
            name = st.text_input(t("new_space"), max_chars=200, key="new_space_name")
            if st.form_submit_button(t("create"), key="new_space_btn"):
                try:
                    switch_space(name)
                    st.rerun()
                except WeaverError as e:
                    st.error(md_escape(str(e)))
    with st.expander(t("delete_space"), expanded=False):
        typed = st.text_input(t("delete_confirm"), key=f"del_confirm:{cur}")
        if st.button(t("delete_btn"), type="primary", disabled=typed.strip() != cur, key="del_btn"):
            try:
                delete_space(cur)
                st.toast(t("deleted", name=md_escape(cur)))
                st.rerun()
            except WeaverError as e:
                st.error(md_escape(str(e)))


def _backends() -> None:
    view = get_runtime().settings.public_view()  # never the key
    rows = {"embedder": view["embedder"], "reasoning": view["backend"]}
    if view.get("model"):
        rows["model"] = view["model"]
    if view.get("endpoint"):
        rows["endpoint"] = view["endpoint"]
    rows["store"] = view["store"]
    with st.expander(t("backends"), expanded=False):
        st.text("\n".join(f"{k}: {v}" for k, v in rows.items()))


def _task() -> None:
    w = get_weaver()
    current = w.meta.get("task") or ""
    with st.form(f"task_form:{current_space()}", border=False):
        text = st.text_area(t("task"), value=current, height=68, help=t("task_help"), max_chars=2000)
        if st.form_submit_button(t("set_task")) and text.strip() and text.strip() != current:
            try:
                w.set_task(text)
                st.toast(t("set_task") + " ✓")
            except WeaverError as e:
                st.error(md_escape(str(e)))


def render_sidebar() -> None:
    with st.sidebar:
        st.radio(t("ui_lang"), list(LANGS), format_func=LANGS.get, key="ui_lang", horizontal=True)
        _space_picker()
        _task()
        _knobs()
        _backends()
