"""The Retrieval page's Trace tab: why each memory is in the context, in words first; the numbers one click away.

A person preparing a demo reads "found by the query: shares its keywords…" next to each memory, in
the order the LLM sees them; the seed, expansion and ranking tables (every score component) sit in
an expander below. No memory semantics here: the words come from ``weaver.debugger_words``.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from weaver.debugger_words import candidate_in_words, cut_in_words, role_label

from . import graph_render
from .render import md_escape

__all__ = ["render_trace", "clip", "CUT_SHOWN"]

CUT_SHOWN = 8  # the budget's cuts said in words; the rest are in the ranking table


def clip(text: str, n: int = 70) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _pair(lang: str):
    zh = lang == "zh"
    return lambda en, z: z if zh else en


def _in_words(w, res, lang: str) -> None:
    """Every memory of the context, in the context's order, with how it got there (wrapped, never cut off)."""
    T = _pair(lang)
    st.markdown("**" + T("Why each memory is in the context", "每条记忆为什么在上下文中") + "**")
    if not res.nodes:
        st.caption(T("Nothing fit: the context is empty.", "什么都没放进去：上下文是空的。"))
    lines = []
    for k, n in enumerate(res.nodes, 1):  # the sentence says how (found by the query, or through which link)
        how = candidate_in_words(w.graph, n, lang)
        lines.append(f"{k}. {md_escape(clip(n.content, 90))}  \n   *{md_escape(how)}*")
    if lines:
        st.markdown("\n".join(lines))
    cut = res.cut
    st.markdown("**" + T("Left out by the budget", "因预算没选入") + "**")
    if not cut:
        st.caption(T("Nothing was cut: every candidate fit.", "没有裁剪：所有候选都放得下。"))
        return
    st.markdown(
        "\n".join(
            f"- {md_escape(clip(n.content, 70))} — {md_escape(cut_in_words(n.cut_reason, lang))}"
            for n in cut[:CUT_SHOWN]
        )
    )
    if len(cut) > CUT_SHOWN:
        st.caption(
            T(
                f"…and {len(cut) - CUT_SHOWN} more: every one is in the ranking table below.",
                f"……还有 {len(cut) - CUT_SHOWN} 条：都在下方的排序表中。",
            )
        )


def render_trace(w, trace, lang: str) -> None:
    """The Trace tab: words first, then the exact numbers, then the final context as the LLM sees it."""
    T = _pair(lang)
    zh = lang == "zh"
    res = trace.result
    _in_words(w, res, lang)
    by_id = {n.id: n for n in res.ranked}
    # English column names are the library's terms (tests and the CLI use them); Chinese ones are translations
    C = {
        k: T(k, z)
        for k, z in [
            ("content", "内容"),
            ("similarity", "相似度"),
            ("lexical", "关键词"),
            ("relevance", "相关度"),
            ("expanded from", "由此扩展"),
            ("in context", "在上下文中"),
            ("hop", "步数"),
            ("how", "怎么来的"),
            ("relation", "关系"),
            ("direction", "方向"),
            ("propagated", "传递得分"),
            ("rank", "排名"),
            ("role", "角色"),
            ("score", "得分"),
            ("episode context", "同情节"),
            ("centrality", "中心度"),
            ("hops", "跳数"),
            ("tokens", "token 数"),
            ("cut reason", "没选入的原因"),
            ("id", "编号"),
        ]
    }
    with st.expander(
        T(
            "The exact numbers: seeds, expansion steps, every candidate's scores",
            "具体数字：种子、扩展步骤、每个候选的得分",
        )
    ):
        st.markdown("**" + T("Seeds (most similar to the query)", "种子（与查询最相似）") + "**")
        st.dataframe(
            pd.DataFrame(
                [
                    {
                        "#": k,
                        C["content"]: clip(by_id[s].content),
                        C["similarity"]: round(by_id[s].similarity, 3),
                        C["lexical"]: round(by_id[s].lexical, 3),
                        C["relevance"]: round(by_id[s].relevance, 3),
                        C["expanded from"]: s in res.expanded_seeds,
                        C["in context"]: by_id[s].included,
                    }
                    for k, s in enumerate(res.seeds, 1)
                    if s in by_id
                ]
            ),
            hide_index=True,
            key="rd_seeds_table",
        )
        st.markdown("**" + T("Expansion steps", "扩展步骤") + "**")
        if trace.steps:
            rel_names = graph_render.labels(lang)["relations"]
            st.dataframe(
                pd.DataFrame(
                    [
                        {
                            C["content"]: clip(by_id[s["node"]].content),
                            C["hop"]: s["hop"],
                            C["how"]: candidate_in_words(w.graph, by_id[s["node"]], lang),
                            C["relation"]: rel_names.get(s["relation"], s["relation"]) if zh else s["relation"],
                            C["direction"]: (
                                {"cause": "原因", "effect": "结果"}.get(s["direction"], s["direction"])
                                if zh
                                else s["direction"]
                            ),
                            C["propagated"]: round(s["propagated"], 3),
                            C["in context"]: s["included"],
                        }
                        for s in trace.steps
                    ]
                ),
                hide_index=True,
                key="rd_steps_table",
            )
        else:
            st.caption(
                T(
                    "No expansion (hops 0, or the seeds have no usable edges).",
                    "没有扩展（跳数为 0，或种子没有可用的边）。",
                )
            )
        st.markdown("**" + T("Ranking (every candidate, every score component)", "排序（所有候选及各项得分）") + "**")
        st.dataframe(
            pd.DataFrame(
                [
                    {
                        C["rank"]: n.rank,
                        C["content"]: clip(n.content),
                        C["in context"]: n.included,
                        C["role"]: role_label(n.role, lang) if zh else n.role,
                        C["score"]: round(n.score, 4),
                        C["similarity"]: round(n.similarity, 4),
                        C["lexical"]: round(n.lexical, 4),
                        C["relevance"]: round(n.relevance, 4),
                        C["episode context"]: round(n.context, 4),
                        C["propagated"]: round(n.propagated, 4),
                        C["centrality"]: round(n.centrality, 4),
                        C["hops"]: n.hops,
                        C["tokens"]: n.tokens,
                        C["cut reason"]: cut_in_words(n.cut_reason, lang) if n.cut_reason else "",
                        C["id"]: n.id,
                    }
                    for n in res.ranked
                ]
            ),
            hide_index=True,
            key="rd_rank_table",
        )
    st.markdown(
        "**"
        + T(
            f"Final context, exactly as the LLM sees it ({res.tokens} tokens)",
            f"最终上下文，与 LLM 看到的完全一致（{res.tokens} token）",
        )
        + "**"
    )
    st.code(res.context or T("(empty)", "（空）"), language=None, wrap_lines=True)
