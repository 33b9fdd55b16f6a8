"""Retrieval debugger: what memory the agent got, why, what plain vector top-k would have given, and why not X.

A thin view over ``weaver.debugger`` / ``weaver.probes``: the page reads widgets, calls the
library, builds DataFrames and draws. Knobs here are local to the page (they do not change
the space's settings) and every change re-runs the trace at once. The knobs, the Trace, vs-vector and
Saved probes tabs are drawn by ``ui/`` (retrieval_knobs, debug_trace, vector_compare, probe_panel).
"""

from __future__ import annotations

import streamlit as st

from ui.shell import require_shell

require_shell("retrieval")  # a deep link on a fresh server must not bypass app.py

from ui import graph_render
from ui.debug_trace import clip, render_trace
from ui.graph_component import graph_view
from ui.i18n import lang
from ui.probe_panel import render_probes
from ui.render import md_escape, metric_row
from ui.retrieval_knobs import retrieval_knobs
from ui.state import current_config, current_space, get_weaver
from ui.vector_compare import render_vector_compare
from weaver.debugger import (
    debug_query,
    expansion_path,
    graph_styles,
    node_roles,
    why_not,
)
from weaver.debugger_words import reason_label, role_label, why_in_words
from weaver.models import WeaverError
from weaver.turn_replay import agent_turns, debug_replay

ZH = lang() == "zh"
LG = "zh" if ZH else "en"


def T(en: str, zh: str) -> str:
    return zh if ZH else en


st.markdown("### " + T("Retrieval debugger", "检索调试器"))
st.caption(
    T(
        "See exactly what memory a query gets, why, and what plain vector search would have given.",
        "查看一次检索拿到了哪些记忆、为什么，以及纯向量检索会给出什么。",
    )
)

w = get_weaver()
space = current_space()
if not w.node_ids:
    st.info(
        T(
            "This space has no memories yet. Chat with the agent (or run a demo) first, then come back to "
            "see how its memory is retrieved.",
            "这个空间还没有记忆。先去对话页和智能体聊几句（或运行演示），再回来查看检索过程。",
        )
    )
    st.stop()

# ------------------------------------------------------------------ input
base = current_config()
turns = agent_turns(w)
source = st.radio(
    T("Source", "来源"),
    ["query", "turn"],
    horizontal=True,
    key="rd_source",
    format_func=lambda s: (
        T("Type a query", "输入查询") if s == "query" else T("Replay a past agent turn", "回放过去的智能体轮次")
    ),
)
turn = None
if source == "turn":
    if not turns:
        st.info(
            T(
                "No agent turns recorded in this space yet: type a query instead.",
                "这个空间还没有记录智能体轮次：请直接输入查询。",
            )
        )
        st.stop()
    idx = st.selectbox(
        T("Agent turn", "智能体轮次"),
        list(range(len(turns))),
        index=len(turns) - 1,
        # the library's label says "turn 7: …" in English; the turn and its words, in the reader's language
        format_func=lambda i: T("turn {n}: {q}", "第 {n} 轮：{q}").format(
            n=turns[i].turn, q=clip(turns[i].said or turns[i].query, 60)
        ),
        key="space_ui:rd_turn",
    )
    turn = turns[idx]
    query = turn.query
else:
    # a text area: a query may be a conversation, one turn a line (weaver/query_turns.py hears each turn)
    query = st.text_area(
        T("Query", "查询"),
        key="rd_query",
        height=80,
        placeholder=T(
            "e.g. Which restaurant should we pick for dinner? (or paste a dialogue, one turn a line; Ctrl+Enter runs it)",
            "例如：晚饭选哪家餐厅？（也可粘贴一段对话，每轮一行；Ctrl+Enter 运行）",
        ),
    )

cfg, budget = retrieval_knobs(base, turn, LG)

if not (query or "").strip():
    st.info(
        T(
            "Type a query above (or pick a past agent turn) to see its retrieval trace.",
            "在上方输入查询（或选择一个过去的智能体轮次），查看检索轨迹。",
        )
    )
    st.stop()

try:
    trace = debug_replay(w, turn, int(budget), cfg) if turn else debug_query(w, query, int(budget), cfg)
except WeaverError as exc:
    st.error(md_escape(str(exc)))
    st.stop()
res, vec, cmp = trace.result, trace.vector, trace.comparison
roles = node_roles(w.graph, res)

metric_row(
    [
        (T("context tokens", "上下文 token"), f"{res.tokens} / {res.budget}"),
        (T("memories in context", "上下文中的记忆"), len(res.nodes)),
        # the seeds in the context, of all the query found: the Graph tab's "seeds" counts the same ones
        (
            T("seeds used / found", "种子（用上 / 找到）"),
            f"{sum(1 for n in res.nodes if n.hops == 0)} / {len(res.seeds)}",
            T(
                "memories found by the query itself that made it into the context / all it found",
                "被查询直接找到并放进上下文的记忆 / 查询找到的全部",
            ),
        ),
        (T("expanded", "扩展得到"), sum(1 for n in res.nodes if n.hops > 0)),
        (T("cut by budget", "被预算裁掉"), len(res.cut)),
    ]
)
if turn is not None:
    same = trace.result.node_ids == turn.node_ids
    st.caption(
        T(
            f"Replaying turn {turn.turn} over the memory as it stood then. The replay "
            f"{'matches' if same else 'differs from'} what the agent was given"
            f"{'' if same else ' (the graph or the knobs changed since)'}.",
            f"在当时的记忆上回放第 {turn.turn} 轮。回放结果与智能体当时拿到的"
            f"{'一致' if same else '不同（此后图或参数有变化）'}。",
        )
    )
    with st.expander(
        T(
            f"What the agent was given at turn {turn.turn} ({turn.tokens} tokens, as recorded)",
            f"第 {turn.turn} 轮智能体实际拿到的上下文（{turn.tokens} token，原样记录）",
        )
    ):
        st.code(turn.context or T("(empty)", "（空）"), language=None, wrap_lines=True)

tab_trace, tab_graph, tab_vec, tab_why, tab_probes = st.tabs(
    [
        T("Trace", "检索轨迹"),
        T("Graph", "图"),
        T("vs vector top-k", "对比纯向量检索"),
        T("Why not X?", "为什么没有 X？"),
        T("Saved probes", "保存的探针"),
    ]
)

# ------------------------------------------------------------------ trace
with tab_trace:
    render_trace(w, trace, LG)

# ------------------------------------------------------------------ graph
with tab_graph:
    pick = st.session_state.get("space_ui:rd_why")
    path = [p.id for p in expansion_path(res, pick)] if pick else None
    node_styles, edge_styles = graph_styles(w.graph, res, path)

    def _picked(node_id: str) -> None:
        st.session_state["space_ui:rd_why"] = node_id

    drawn = graph_view(
        w.graph,
        key="rd_graph",
        height=520,
        node_styles=node_styles,
        edge_styles=edge_styles,
        selected=pick,
        focus=res.node_ids or None,
        on_select=_picked,
        lang="zh" if ZH else "en",
    )
    st.html(graph_render.legend_html("zh" if ZH else "en", styles=["seed", "expanded", "cut", "dim", "path"]))
    counts = {r: sum(1 for x in roles.values() if x == r) for r in ("seed", "expanded", "cut", "unrelated")}
    st.caption(
        T(
            f"seeds {counts['seed']} · expanded {counts['expanded']} · cut {counts['cut']} · "
            f"unrelated {counts['unrelated']} (drawn {drawn['shown']} of {drawn['total']}). "
            "Thick blue edges: the expansion paths. Click a node to ask why (not).",
            f"种子 {counts['seed']} · 扩展 {counts['expanded']} · 裁掉 {counts['cut']} · 无关 {counts['unrelated']}"
            f"（显示 {drawn['shown']}/{drawn['total']}）。蓝色粗边为扩展路径。点击节点查看原因。",
        )
    )

# ------------------------------------------------------------ vs vector
with tab_vec:
    render_vector_compare(w, res, vec, cmp, roles, LG)
# ---------------------------------------------------------------- why not
with tab_why:
    options = list(w.node_ids) + [d.message_id for d in w.decisions.values() if not d.kept]

    kinds = graph_render.labels(LG)["kinds"]

    def _label(i: str) -> str:
        if i in w.nodes:
            n = w.nodes[i]
            role = role_label(roles.get(i, ""), LG)
            return (
                f"{clip(n.content, 60)} · {T('turn', '第')} {n.turn}{'' if not ZH else ' 轮'} · {kinds.get(n.kind, n.kind)}"
                + (f" · {role}" if role else "")
            )
        d = w.decisions[i]
        return f"{clip(d.content, 60)} · {T('turn', '第')} {d.turn}{'' if not ZH else ' 轮'} · {T('never stored', '从未存入')}"

    if st.session_state.get("space_ui:rd_why") not in options:
        st.session_state.pop("space_ui:rd_why", None)
    chosen = st.selectbox(
        T("Pick any memory (or click one on the graph)", "选择任意一条记忆（或在图上点击）"),
        options,
        index=None,
        format_func=_label,
        key="space_ui:rd_why",
        placeholder=T("Choose a memory…", "选择一条记忆…"),
    )
    if chosen:
        why = why_not(w, res, chosen)
        st.badge(md_escape(reason_label(why.reason, LG)), color="green" if why.reason == "included" else "orange")
        st.markdown(md_escape(why_in_words(w.graph, why, LG)))
        with st.expander(T("The exact numbers", "具体数字")):
            if not ZH:  # the library's precise sentence (ids, scores) is English: the numbers below say it all
                st.markdown(md_escape(why.summary))
            st.json(why.details, expanded=False)

# ----------------------------------------------------------------- probes
with tab_probes:
    render_probes(w, space, query, budget, LG)
