"""Review page: the review queue with evidence, bulk edge edits, node status, the audit log with undo/redo.

A thin view over ``weaver.curation``: every change goes through ``w.curation``
(which audits it) under the space's write lock; this file only lays out widgets.
"""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from ui.shell import require_shell

require_shell('review')  # a deep link on a fresh server must not bypass app.py

from ui.i18n import lang
from ui.render import md_escape
from ui.state import current_space, get_weaver, space_lock
from weaver.curation import ReviewSummary, apply_edge_table_edits, edge_table_rows
from weaver.lifecycle.passes import last_pass, pass_rows, pass_text, undo_pass
from weaver.models import EDGE_STATUSES, NODE_STATUSES, RELATIONS, WeaverError

_T = {
    "title": ("Review", "审阅"),
    "intro": ("Fix the memory graph: proposals from the review pass and flags from retracted causes wait in the "
              "queue; every change is audited and can be undone.",
              "修正记忆图：审阅产生的建议和因上游撤回而需复查的标记在队列中等待处理；每次修改都有审计记录，可撤销。"),
    "empty": ("The graph is empty: chat or run a demo first, then review its edges here.",
              "图是空的：请先对话或运行演示，再来这里审阅边。"),
    "run": ("Run review now", "立即审阅"),
    "queue": ("Queue", "队列"), "edges": ("Edges", "边"), "nodes": ("Nodes", "节点"), "log": ("Audit log", "审计日志"),
    "queue_empty": ("The queue is empty. Run a review pass to look for problems.", "队列为空。运行一次审阅以查找问题。"),
    "accept": ("Accept", "接受"), "reject": ("Reject", "拒绝"), "relation": ("Relation", "关系"),
    "status": ("Status", "状态"), "apply": ("Apply", "应用"), "undo": ("Undo", "撤销"), "redo": ("Redo", "重做"),
    "add_edge": ("Add an edge", "添加边"), "source": ("From (earlier)", "起点（较早）"), "target": ("To (later)", "终点（较晚）"),
    "why": ("Why (for the audit log)", "原因（写入审计日志）"), "add": ("Add edge", "添加"),
    "table_help": ("Change a relation or tick delete: the change is applied at once and audited.",
                   "修改关系或勾选删除：立即生效并记入审计。"),
    "node": ("Node", "节点"), "by": ("Superseded by", "被取代于"), "flags": ("Needs review", "需复查"),
    "builder": ("Show the builder's entries", "显示构建器条目"), "export": ("Export JSON", "导出 JSON"),
    "last": ("Last review", "上次审阅"), "pending": ("kept nodes since the last review", "个新节点未审阅"),
    "lc": ("Last lifecycle pass", "上次记忆整理"), "lc_undo": ("Undo this pass", "撤销本次整理"),
    "lc_none": ("No lifecycle pass yet (`python -m weaver forget`).", "尚未整理过记忆（`python -m weaver forget`）。"),
}


def t(key: str) -> str:
    en, zh = _T[key]
    return zh if lang() == "zh" else en


def _snip(text: str, n: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _label(w, nid: str) -> str:
    node = w.nodes[nid]
    return f"{nid[-6:]} · {node.kind} · {_snip(node.content, 50)}"


def _act(fn, *args, **kwargs) -> None:
    """Run one library change under the space's write lock; the outcome is shown on the next run."""
    space = current_space()
    try:
        with space_lock(space):
            out = fn(*args, **kwargs)
        st.session_state["review_msg"] = ("ok", out if isinstance(out, str) else "done")
    except WeaverError as exc:
        st.session_state["review_msg"] = ("error", str(exc))


w = get_weaver()
cur = w.curation
st.markdown(f"### {t('title')}")
st.caption(t("intro"))

msg = st.session_state.pop("review_msg", None)
if msg:
    # the outcome can hold an endpoint's error body or a model's rationale: shown as text, never as Markdown
    (st.success if msg[0] == "ok" else st.error)(md_escape(msg[1]))

if not w.nodes:
    st.info(t("empty"))
    st.stop()

left, right = st.columns([1, 3])
if left.button(t("run"), type="primary", key="review_run"):
    _act(lambda: cur.review().text())
    st.rerun()
runs = cur.state.get("runs") or []
last = f"{t('last')}: {ReviewSummary(**runs[-1]).text()} · " if runs else ""
right.caption(md_escape(f"{last}{cur.pending_review()} {t('pending')}"))  # the summary quotes endpoint errors

q_tab, e_tab, n_tab, l_tab = st.tabs([f"{t('queue')} ({len(cur.items())})", t("edges"), t("nodes"), t("log")])

# ------------------------------------------------------------------ queue
with q_tab:
    items = cur.items()
    if not items:
        st.info(t("queue_empty"))
    for item in items[:50]:
        with st.container(border=True):
            st.markdown(f"**{md_escape(item.kind)}** · {item.confidence:.2f} · {md_escape(item.origin)}")
            st.text(item.summary())
            st.caption(md_escape(item.rationale))  # a model's words: an image in it must not be fetched
            for role in ("source", "target"):
                ev = item.evidence.get(role)
                if ev:
                    st.text(f"{role}: [{ev['kind']}, turn {ev['turn']}, {ev['status']}, msg {ev['message_id']}]\n"
                            f"{ev['text'][:400]}")
            cols = st.columns([2, 1, 1])
            rel = None
            if item.kind in ("relabel", "add", "prune"):
                default = item.relation or item.current or RELATIONS[0]
                rel = cols[0].selectbox(t("relation"), RELATIONS, index=RELATIONS.index(default),
                                        key=f"rel_{item.id}", label_visibility="collapsed")
                if item.kind == "prune" and rel == item.current:
                    rel = None  # unchanged: accepting a prune deletes the edge
            cols[1].button(t("accept"), key=f"acc_{item.id}",
                           on_click=_act, args=(cur.accept, item.id), kwargs={"relation": rel})
            cols[2].button(t("reject"), key=f"rej_{item.id}", on_click=_act, args=(cur.reject, item.id))

# ------------------------------------------------------------------ edges
with e_tab:
    version = f"{current_space()}:{len(cur.log.entries)}:{w.graph.number_of_edges()}"
    held = st.session_state.get("review_edges")
    if not held or held["version"] != version:  # a stable frame: rebuilt only when the graph changed
        rows = edge_table_rows(w)
        held = {"version": version, "rows": rows, "df": pd.DataFrame(rows)}
        st.session_state["review_edges"] = held
    editor_key = f"edge_editor_{abs(hash(version))}"

    def _apply_table(key=editor_key, rows=held["rows"]):
        edited = st.session_state.get(key, {}).get("edited_rows", {})
        with space_lock(current_space()):
            done, errors = apply_edge_table_edits(cur, rows, edited)
        st.session_state["review_msg"] = ("error", "; ".join(errors)) if errors else ("ok", "; ".join(done))

    st.caption(t("table_help"))
    if held["rows"]:
        st.data_editor(
            held["df"], key=editor_key, on_change=_apply_table, hide_index=True, num_rows="fixed",
            column_order=["relation", "delete", "from", "to", "origin", "confidence", "status", "source", "target"],
            width="stretch",
            disabled=["source", "target", "from", "to", "origin", "confidence"],
            column_config={
                "relation": st.column_config.SelectboxColumn(t("relation"), options=list(RELATIONS), required=True),
                "status": st.column_config.SelectboxColumn(t("status"), options=list(EDGE_STATUSES)),
                "delete": st.column_config.CheckboxColumn("delete"),
                "source": st.column_config.TextColumn("source", width="small"),
                "target": st.column_config.TextColumn("target", width="small"),
            },
        )
    with st.expander(t("add_edge")):
        ids = w.node_ids
        c1, c2 = st.columns(2)
        src = c1.selectbox(t("source"), ids, format_func=lambda n: _label(w, n), key="add_src")
        dst = c2.selectbox(t("target"), ids, index=len(ids) - 1, format_func=lambda n: _label(w, n), key="add_dst")
        rel = st.selectbox(t("relation"), RELATIONS, key="add_rel")
        why = st.text_input(t("why"), key="add_why")
        st.button(t("add"), key="add_btn", on_click=_act, args=(cur.set_edge, src, dst, rel, why or "added by hand"))

# ------------------------------------------------------------------ nodes
with n_tab:
    ids = w.node_ids
    nid = st.selectbox(t("node"), ids, index=len(ids) - 1, format_func=lambda n: _label(w, n), key="status_node")
    node = w.nodes[nid]
    st.text(node.content[:800])
    c1, c2 = st.columns(2)
    status = c1.radio(t("status"), NODE_STATUSES, index=NODE_STATUSES.index(node.status), horizontal=True,
                      key=f"status_{nid}")
    by = ""
    if status == "superseded":
        later = [n for n in ids if n != nid]
        by = c2.selectbox(t("by"), [""] + later, format_func=lambda n: _label(w, n) if n else "—", key="status_by")
    st.button(t("apply"), key="status_apply", disabled=status == node.status,
              on_click=_act, args=(cur.set_status, nid, status, "set on the Review page"), kwargs={"by": by})
    flagged = sorted(cur.flagged())
    if flagged:
        st.markdown(f"**{t('flags')}**")
        for f in flagged:
            st.text(_label(w, f))

# ------------------------------------------------------------------ audit log
with l_tab:
    c1, c2, c3 = st.columns([1, 1, 3])
    undo_to, redo_to = cur.log.undo_target(), cur.log.redo_target()
    c1.button(t("undo"), key="undo_btn", disabled=undo_to is None, on_click=_act, args=(cur.undo,),
              help=md_escape(f"{undo_to.action} {undo_to.key}") if undo_to else None)
    c2.button(t("redo"), key="redo_btn", disabled=redo_to is None, on_click=_act, args=(cur.redo,),
              help=md_escape(f"{redo_to.action} {redo_to.key}") if redo_to else None)
    show_builder = c3.toggle(t("builder"), key="log_builder")
    rows = [r for r in cur.log.to_rows() if show_builder or r["action"] != "build"]
    if rows:
        frame = pd.DataFrame(rows)
        frame["at"] = pd.to_datetime(frame["at"], unit="s").dt.strftime("%Y-%m-%d %H:%M:%S")
        st.dataframe(frame[["at", "actor", "action", "key", "before", "after", "why", "undone", "id"]],
                     hide_index=True, width="stretch")
    # the last lifecycle pass (weaver.lifecycle): what it archived / merged / summarised, undoable as a whole
    st.markdown(f"**{t('lc')}**")
    report = last_pass(w)
    if report is None:
        st.caption(t("lc_none"))
    else:
        st.caption(md_escape(pass_text(report)))
        if pass_rows(report):
            st.dataframe(pd.DataFrame(pass_rows(report)), hide_index=True, width="stretch")
        st.button(t("lc_undo"), key="lc_undo_btn", on_click=_act,
                  args=(lambda: f"{len(undo_pass(w, report['id']))} changes undone",))
    st.download_button(t("export"), json.dumps([e.to_dict() for e in cur.log.entries], ensure_ascii=False, indent=1),
                       file_name=f"audit-{current_space()}.json", mime="application/json", key="log_export")
