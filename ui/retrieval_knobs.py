"""The Retrieval page's knobs: the retrieval settings a query is traced with, local to the page.

Every knob starts at the space's setting (a replayed turn's budget at the budget it had) and changes only
this page's trace, never the space's settings; a change re-runs the trace at once.
"""

from __future__ import annotations

import streamlit as st

__all__ = ["retrieval_knobs"]


def retrieval_knobs(base, turn, lang: str):
    """``(config, budget)``: ``base`` (a WeaverConfig) with the knobs' values; ``turn``: the replayed agent turn
    or None."""
    ZH = lang == "zh"

    def T(en: str, zh: str) -> str:
        return zh if ZH else en

    with st.expander(
        T("Knobs (local to this page; re-run instantly)", "参数（仅本页有效，修改即重算）"), expanded=False
    ):
        extra = {}
        c = st.columns(5)
        seeds = c[0].number_input(T("seeds", "种子数"), 1, 200, int(base.seeds), key="rd_seeds")
        if hasattr(base, "adaptive_seeds"):  # >0: at least this * budget / average line tokens seeds
            extra["adaptive_seeds"] = c[1].number_input(
                T("adaptive seeds", "自适应种子"), 0.0, 10.0, float(base.adaptive_seeds), 0.25, key="rd_adaptive"
            )
        hops = c[2].number_input(T("hops", "扩展跳数"), 0, 6, int(base.hops), key="rd_hops")
        limit = c[3].number_input(
            T("expansion limit per seed", "每个种子的扩展上限"), 1, 200, int(base.expand_limit), key="rd_limit"
        )
        default_budget = turn.budget if turn and turn.budget else int(base.budget)
        budget = c[4].number_input(T("token budget", "token 预算"), 32, 32768, default_budget, step=32, key="rd_budget")
        c = st.columns(5)
        w_sim = c[0].slider(
            T("similarity weight", "向量相似度权重"), 0.0, 2.0, float(base.w_similarity), 0.05, key="rd_wsim"
        )
        w_lex = c[1].slider(
            T("keyword (BM25) weight", "关键词（BM25）权重"), 0.0, 2.0, float(base.w_lexical), 0.05, key="rd_wlex"
        )
        w_cent = c[2].slider(
            T("centrality weight", "中心度权重"), 0.0, 1.0, float(base.w_centrality), 0.05, key="rd_wcent"
        )
        # what an edge lends: a share of the neighbour's relevance, times the edge's confidence
        extra["edge_lift"] = c[3].slider(
            T("dependency share", "依赖关系份额"), 0.0, 1.0, float(base.edge_lift), 0.05, key="rd_edge_lift"
        )
        extra["adjacent_turns"] = c[4].checkbox(
            T("neighbouring turns", "相邻轮次"), bool(base.adjacent_turns), key="rd_adjacent"
        )
        c = st.columns(5)
        extra["context_decay"] = c[0].slider(
            T("episode context share", "同情节上下文份额"),
            0.0,
            1.0,
            float(base.context_decay),
            0.05,
            key="rd_context",
            help=T(
                "a memory gains this share of its best same-episode neighbour's relevance",
                "记忆从同一情节中最相关的相邻记忆获得的相关度份额",
            ),
        )
        extra["w_speaker"] = c[1].slider(
            T("other-speaker penalty", "其他说话人惩罚"),
            0.0,
            1.0,
            float(base.w_speaker),
            0.05,
            key="rd_speaker",
            help=T("relevance lost when the query names other speakers", "查询点名其他说话人时，该记忆扣除的相关度"),
        )
    cfg = base.with_(
        seeds=int(seeds),
        hops=int(hops),
        expand_limit=int(limit),
        w_similarity=w_sim,
        w_lexical=w_lex,
        w_centrality=w_cent,
        **extra,
    )
    return cfg, budget
