"""The Retrieval page's "vs vector top-k" tab: the graph's context beside plain vector search's at one budget.

What both keep, what the graph adds and what it leaves out that vector search keeps, with why in words
(``weaver.debugger_words``); the two contexts as text one click away.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from weaver.debugger import why_not
from weaver.debugger_words import quote, why_in_words

from .debug_trace import clip
from .render import md_escape

__all__ = ["render_vector_compare"]

_ROLE_ZH = {"seed": "种子", "expanded": "扩展", "cut": "裁掉", "unrelated": "无关"}


def render_vector_compare(w, res, vec, cmp, roles: dict, lang: str) -> None:
    """``res``/``vec``: the graph's and the vector search's results, ``cmp`` their comparison, ``roles`` the
    memories' roles in the graph's retrieval."""
    ZH = lang == "zh"
    LG = lang

    def T(en: str, zh: str) -> str:
        return zh if ZH else en

    contents = {n.id: n.content for n in res.ranked} | {n.id: n.content for n in vec.ranked}
    st.markdown(
        T(
            f"At the same budget ({res.budget} tokens) both keep **{len(cmp.shared)}** of the same memories; "
            f"the graph brings in **{len(cmp.added)}** that plain vector search misses (+ added) and leaves out "
            f"**{len(cmp.displaced)}** that it keeps (- displaced).",
            f"相同预算（{res.budget} token）下：两者有 **{len(cmp.shared)}** 条相同的记忆；图检索另外找回 "
            f"**{len(cmp.added)}** 条纯向量检索漏掉的（+ 新增），同时没有选入纯向量检索选中的 "
            f"**{len(cmp.displaced)}** 条（- 被挤掉）。",
        )
    )
    left, right = st.columns(2)
    tok = "token" if ZH else "tokens"
    left.markdown("**" + T("Graph retrieval", "图检索") + f"** ({res.tokens} {tok})")
    added, shared, displaced = T("+ added", "+ 新增"), T("shared", "共有"), T("- displaced", "- 被挤掉")
    # the text gets the width (a long role label took it and left the content one clipped line) and every
    # similarity shows three decimals (0.53 beside 0.238 read as different precisions)
    columns = {
        T("mark", "标记"): st.column_config.TextColumn(width="small"),
        T("role", "角色"): st.column_config.TextColumn(width="small"),
        T("content", "内容"): st.column_config.TextColumn(width="large"),
        T("similarity", "相似度"): st.column_config.NumberColumn(format="%.3f", width="small"),
    }
    left.dataframe(
        pd.DataFrame(
            [
                {
                    T("mark", "标记"): added if i in cmp.added else shared,
                    # the short column before the text: in half a page a long text pushed it out of sight
                    # the Graph tab's words (种子 · 扩展 · 裁掉 · 无关): "被查询直接找到" was cut to "被查询直接"
                    T("role", "角色"): _ROLE_ZH.get(roles.get(i, ""), "") if ZH else roles.get(i, ""),
                    T("content", "内容"): clip(contents[i], 60),
                }
                for i in cmp.graph
            ]
        ),
        hide_index=True,
        column_config=columns,
        key="rd_cmp_graph",
    )
    right.markdown("**" + T("Plain vector top-k", "纯向量检索前 k 名") + f"** ({vec.tokens} {tok})")
    right.dataframe(
        pd.DataFrame(
            [
                {
                    T("mark", "标记"): displaced if i in cmp.displaced else shared,
                    T("similarity", "相似度"): round(next(n.similarity for n in vec.ranked if n.id == i), 3),
                    T("content", "内容"): clip(contents[i], 60),
                }
                for i in cmp.vector
            ]
        ),
        hide_index=True,
        column_config=columns,
        key="rd_cmp_vec",
    )
    if cmp.displaced:
        st.markdown(
            "**" + T("Why the graph left out what vector top-k kept", "图检索为何没有选入向量检索选中的记忆") + "**"
        )
        for i in cmp.displaced:
            st.markdown(
                f"- {md_escape(quote(w.graph, i, 50, contents.get(i)))}: "
                f"{md_escape(why_in_words(w.graph, why_not(w, res, i), LG))}"
            )
    with st.expander(T("Both contexts as text", "两份上下文原文")):
        a, b = st.columns(2)
        a.code(res.context or T("(empty)", "（空）"), language=None, wrap_lines=True)
        b.code(vec.context or T("(empty)", "（空）"), language=None, wrap_lines=True)
