"""The studio's sidebar: language, space picker, active backends, task focus, the weaver's knobs."""

from __future__ import annotations

from dataclasses import fields

import streamlit as st

from weaver import WeaverConfig, WeaverError

from .i18n import LANGS, lang, pick, set_lang, t
from .render import md_escape
from .state import SPACE_ERROR, current_space, delete_space, get_runtime, get_weaver, list_spaces, switch_space

__all__ = ["render_sidebar", "KNOBS"]

# (field, group, kind, min, max, step, (label en, zh), (help en, zh)) — the knobs a curator actually tunes
KNOBS = [
    (
        "coarse_threshold",
        "filter",
        "float",
        0.0,
        1.0,
        0.01,
        ("coarse threshold", "粗筛阈值"),
        ("coarse pre-filter: below this, no detailed scoring", "粗筛：低于此值不再细评"),
    ),
    (
        "keep_threshold",
        "filter",
        "float",
        0.0,
        10.0,
        0.1,
        ("keep threshold", "保留阈值"),
        ("a message is kept when its total reaches this", "总分达到此值的消息被保留"),
    ),
    (
        "w_relevance",
        "filter",
        "float",
        0.0,
        1.0,
        0.05,
        ("relevance weight", "相关性权重"),
        ("weight of relevance to the task focus", "与任务焦点相关性的权重"),
    ),
    (
        "w_novelty",
        "filter",
        "float",
        0.0,
        1.0,
        0.05,
        ("novelty weight", "新颖性权重"),
        ("weight of novelty against memory", "相对已有记忆的新颖性权重"),
    ),
    (
        "w_importance",
        "filter",
        "float",
        0.0,
        1.0,
        0.05,
        ("importance weight", "重要性权重"),
        ("weight of importance (constraints, decisions)", "重要性（约束、决定）的权重"),
    ),
    (
        "top_k_parents",
        "builder",
        "int",
        1,
        10,
        1,
        ("parents per node", "每个节点的候选父节点数"),
        ("candidate parents per new node", "每个新节点考虑的父节点个数"),
    ),
    (
        "min_parent_similarity",
        "builder",
        "float",
        0.0,
        1.0,
        0.05,
        ("minimum parent similarity", "父节点最低相似度"),
        ("weakest similarity a parent may have", "父节点允许的最低相似度"),
    ),
    (
        "seeds",
        "retrieval",
        "int",
        1,
        30,
        1,
        ("seeds (top-K)", "种子数（前 K 个）"),
        ("top-K seeds found by similarity + BM25", "按相似度 + BM25 找到的前 K 个种子"),
    ),
    (
        "hops",
        "retrieval",
        "int",
        0,
        5,
        1,
        ("hops", "扩展跳数"),
        ("how far expansion walks the graph from the seeds", "从种子沿图扩展的最远步数"),
    ),
    (
        "budget",
        "retrieval",
        "int",
        64,
        8192,
        64,
        ("token budget", "token 预算"),
        ("token budget of the assembled context", "组装出的上下文的 token 上限"),
    ),
    (
        "w_similarity",
        "retrieval",
        "float",
        0.0,
        3.0,
        0.05,
        ("similarity weight", "向量相似度权重"),
        ("weight of dense similarity", "稠密向量相似度的权重"),
    ),
    (
        "w_lexical",
        "retrieval",
        "float",
        0.0,
        3.0,
        0.05,
        ("keyword (BM25) weight", "关键词（BM25）权重"),
        ("weight of BM25", "BM25 的权重"),
    ),
    (
        "w_centrality",
        "retrieval",
        "float",
        0.0,
        1.0,
        0.05,
        ("centrality weight", "中心度权重"),
        ("weight of graph centrality", "图中心度的权重"),
    ),
    (
        "edge_lift",
        "retrieval",
        "float",
        0.0,
        1.0,
        0.05,
        ("dependency share", "依赖关系份额"),
        (
            "share of a dependency neighbour's relevance a memory gains (times the edge's confidence)",
            "记忆从依赖关系相邻记忆获得的相关度份额（乘以该关系的置信度）",
        ),
    ),
    (
        "context_decay",
        "retrieval",
        "float",
        0.0,
        1.0,
        0.05,
        ("episode context share", "同情节上下文份额"),
        (
            "share of a same-episode neighbour's relevance a memory gains (decay**distance)",
            "记忆从同一情节相邻记忆获得的相关度份额（按距离衰减）",
        ),
    ),
    (
        "w_speaker",
        "retrieval",
        "float",
        0.0,
        1.0,
        0.05,
        ("other-speaker penalty", "其他说话人惩罚"),
        (
            "relevance a memory loses when the query names other speakers than its own",
            "查询点名其他说话人时，该记忆扣除的相关度",
        ),
    ),
    (
        "w_revision",
        "retrieval",
        "float",
        0.0,
        0.2,
        0.01,
        ("revision weight", "修改次数权重"),
        (
            "relevance a constraint statement gains per revision the user made (up to 5): who revises, weighs constraints",
            "用户每修改一次约束（最多 5 次），约束陈述获得的相关度：常改的人，约束更重",
        ),
    ),
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
            for name, g, kind, lo, hi, step, label, helptext in KNOBS:
                if g != group:
                    continue
                label, helptext = pick(label), pick(helptext)
                key = f"knob:{name}"
                default = getattr(base, name)
                if kind == "int":
                    values[name] = st.number_input(
                        label, min_value=lo, max_value=hi, step=step, value=int(default), key=key, help=helptext
                    )
                else:
                    values[name] = st.slider(
                        label,
                        min_value=float(lo),
                        max_value=float(hi),
                        step=float(step),
                        value=float(default),
                        key=key,
                        help=helptext,
                    )
        st.button(t("reset"), on_click=_reset_knobs, key="knobs_reset")
    known = {f.name for f in fields(WeaverConfig)}
    st.session_state["weaver_config"] = base.with_(**{k: v for k, v in values.items() if k in known})


def _pick_space(key: str, cur: str) -> None:
    """The picker's callback: open the chosen space, or stay and say why (e.g. another embedder's space)."""
    try:
        switch_space(st.session_state[key])
    except WeaverError as exc:
        st.session_state[SPACE_ERROR] = (str(exc), st.session_state[key])
        st.session_state[key] = cur  # the picker shows the space that is open, not the one that failed


def _space_picker() -> None:
    spaces = list_spaces()
    cur = current_space()
    key = f"space_pick:{cur}"
    st.selectbox(t("space"), spaces, index=spaces.index(cur), key=key, on_change=_pick_space, args=(key, cur))
    # an expander, not a popover: a popover stays open over the task focus after the space is created
    with st.expander("＋ " + t("create"), expanded=False):
        with st.form("new_space", clear_on_submit=True, border=False):
            name = st.text_input(t("new_space"), max_chars=200, key="new_space_name")
            submitted = st.form_submit_button(t("create"), key="new_space_btn")
            if submitted and not name.strip():  # the common slip, in the reader's language (the library's: English)
                st.error(t("space_name_empty"))
            elif submitted:
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
    rows = {t("be_embedder"): view["embedder"], t("be_reasoning"): view["backend"]}
    if view.get("model"):
        rows[t("be_model")] = view["model"]
    if view.get("endpoint"):
        rows[t("be_endpoint")] = view["endpoint"]
    rows[t("be_store")] = view["store"]
    with st.expander(t("backends"), expanded=False):
        st.text("\n".join(f"{k}: {v}" for k, v in rows.items()))


def _task() -> None:
    w = get_weaver()
    current = w.meta.get("task") or ""
    with st.form(f"task_form:{current_space()}", border=False):
        text = st.text_area(t("task"), value=current, height=120, help=t("task_help"), max_chars=2000)
        if st.form_submit_button(t("set_task")) and text.strip() and text.strip() != current:
            try:
                w.set_task(text)
                st.toast(t("set_task") + " ✓")
            except WeaverError as e:
                st.error(md_escape(str(e)))


def render_sidebar() -> None:
    with st.sidebar:
        st.session_state["ui_lang"] = lang()  # the radio mirrors the owner (see ui.i18n.lang)
        st.radio(
            t("ui_lang"),
            list(LANGS),
            format_func=LANGS.get,
            key="ui_lang",
            horizontal=True,
            on_change=lambda: set_lang(st.session_state["ui_lang"]),
        )
        _space_picker()
        _task()
        _knobs()
        _backends()
