"""Retrieval debugger: what memory the agent got, why, what plain vector top-k would have given, and why not X.

A thin view over ``weaver.debugger`` / ``weaver.probes``: the page reads widgets, calls the
library, builds DataFrames and draws. Knobs here are local to the page (they do not change
the space's settings) and every change re-runs the trace at once.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ui.shell import require_shell

require_shell("retrieval")  # a deep link on a fresh server must not bypass app.py

from ui import graph_render
from ui.debug_trace import clip, render_trace
from ui.graph_component import graph_view
from ui.i18n import lang
from ui.render import md_escape
from ui.state import current_config, current_space, get_weaver, space_lock
from weaver.debugger import (
    WHY_NOT_REASONS,
    debug_query,
    expansion_path,
    graph_styles,
    node_roles,
    why_not,
)
from weaver.debugger_words import quote, reason_label, role_label, why_in_words
from weaver.models import WeaverError
from weaver.probes import delete_probe, diff_snapshots, list_probes, run_probes, save_probe
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
        format_func=lambda i: turns[i].label,
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
            "例如：晚饭选哪家餐厅？（也可粘贴一段对话，每轮一行）",
        ),
    )

with st.expander(T("Knobs (local to this page; re-run instantly)", "参数（仅本页有效，修改即重算）"), expanded=False):
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
    w_cent = c[2].slider(T("centrality weight", "中心度权重"), 0.0, 1.0, float(base.w_centrality), 0.05, key="rd_wcent")
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

m = st.columns([3, 2, 2, 2, 2])  # "1002 / 1024" needs the room: a fifth of the page cut it to "1002 / 1…"
m[0].metric(T("context tokens", "上下文 token"), f"{res.tokens} / {res.budget}")
m[1].metric(T("memories in context", "上下文中的记忆"), len(res.nodes))
# the seeds in the context, of all the query found: the Graph tab's "seeds" counts the same ones
m[2].metric(
    T("seeds used / found", "种子（用上 / 找到）"),
    f"{sum(1 for n in res.nodes if n.hops == 0)} / {len(res.seeds)}",
    help=T(
        "memories found by the query itself that made it into the context / all it found",
        "被查询直接找到并放进上下文的记忆 / 查询找到的全部",
    ),
)
m[3].metric(T("expanded", "扩展得到"), sum(1 for n in res.nodes if n.hops > 0))
m[4].metric(T("cut by budget", "被预算裁掉"), len(res.cut))
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
    left.dataframe(
        pd.DataFrame(
            [
                {
                    T("mark", "标记"): added if i in cmp.added else shared,
                    # the short column before the text: in half a page a long text pushed it out of sight
                    T("role", "角色"): role_label(roles.get(i, ""), LG) if ZH else roles.get(i, ""),
                    T("content", "内容"): clip(contents[i], 60),
                }
                for i in cmp.graph
            ]
        ),
        hide_index=True,
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
    st.caption(
        T(
            "A probe is a query plus the memories it should surface. Probes re-run after every review "
            "pass; here you see what each pass (or your edits) changed.",
            "探针 = 一个查询 + 它应当检索到的记忆。每次审阅后探针会自动重跑，这里显示每次审阅（或你的编辑）带来的变化。",
        )
    )
    expect = st.multiselect(
        T("Should surface", "应当检索到"),
        list(w.node_ids),
        default=None,
        placeholder=T("Choose the memories it should find…", "选择它应当找到的记忆…"),
        format_func=lambda i: clip(w.nodes[i].content, 60),
        key="space_ui:rd_expect",
    )
    c1, c2 = st.columns(2)
    if c1.button(T("Save this query as a probe", "将此查询保存为探针"), key="rd_save_probe"):
        try:
            with space_lock(space):
                p = save_probe(w, query, expect, budget=int(budget))
            st.success(md_escape(T(f"Saved probe {p.id}.", f"已保存探针 {p.id}。")))
        except WeaverError as exc:
            st.error(md_escape(str(exc)))
    rerun = c2.button(T("Re-run all probes now", "立即重跑所有探针"), key="rd_run_probes")
    if rerun:
        with space_lock(space):
            run_probes(w, label="manual re-run")
    probes = list_probes(w)
    if not probes:
        st.info(T("No probes yet.", "还没有探针。"))
    rows = []
    for p in probes:
        before = p.history[-2] if len(p.history) > 1 else None
        d = diff_snapshots(p, before, p.history[-1])

        def _names(ids):  # memories by their words, not their ids
            return ", ".join(quote(w.graph, i, 24) for i in ids)

        rows.append(
            {
                "query": clip(p.query, 50),
                "last run": d.after.get("label", ""),
                "hits": f"{len(d.hits_before) if before else '–'} → {len(d.hits_after)} / {len(p.expect)}",
                "gained": _names(d.gained) if before else "",
                "lost": _names(d.lost),
                "expected lost": _names(d.expected_lost),
                "rank moves": len(d.moved),
                "changed": d.changed if before else False,
                "probe": p.id,
            }
        )
    if rows:
        names = {
            "query": "查询",
            "last run": "最近一次运行",
            "hits": "命中",
            "gained": "新增",
            "lost": "丢失",
            "expected lost": "丢失的预期记忆",
            "rank moves": "排名变化",
            "changed": "有变化",
            "probe": "编号",
        }
        frame = pd.DataFrame(rows)
        st.dataframe(frame.rename(columns=names) if ZH else frame, hide_index=True, key="rd_probe_table")
        gone = st.selectbox(
            T("Delete a probe", "删除探针"),
            [p.id for p in probes],
            index=None,
            placeholder=T("Choose a probe…", "选择一个探针…"),
            format_func=lambda i: clip(next(p.query for p in probes if p.id == i), 50),
            key="rd_probe_del",
        )
        if gone and st.button(T("Delete", "删除"), key="rd_probe_del_btn"):
            with space_lock(space):
                delete_probe(w, gone)
            st.rerun()
