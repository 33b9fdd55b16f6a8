"""Review page: the review queue with evidence, bulk edge edits, node status, the audit log with undo/redo.

A thin view over ``weaver.curation``: every change goes through ``w.curation``
(which audits it) under the space's write lock; this file only lays out widgets.
"""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from ui.shell import require_shell

require_shell("review")  # a deep link on a fresh server must not bypass app.py

from ui import graph_render
from ui.i18n import lang
from ui.render import md_escape
from ui.review_words import (
    ACTIONS,
    ACTORS,
    ORIGINS,
    entry_words,
    item_words,
    key_words,
    memory_label,
    pair_of,
    proposal_groups,
    quoted,
    quoted_pair,
    state_words,
    t,
)
from ui.state import current_space, get_weaver, space_lock
from weaver.curation import ReviewSummary, apply_edge_table_edits, edge_table_rows
from weaver.lifecycle.passes import last_pass, pass_rows, pass_text, undo_pass
from weaver.models import EDGE_STATUSES, NODE_STATUSES, RELATIONS, WeaverError
from weaver.rationale_words import rationale_in_words


def _act(fn, *args, done: str = "", **kwargs) -> None:
    """Run one library change under the space's write lock; the outcome (said in words) shows on the next run."""
    space = current_space()
    try:
        with space_lock(space):
            out = fn(*args, **kwargs)
        st.session_state["review_msg"] = ("ok", out if isinstance(out, str) else (done or "✓"))
    except WeaverError as exc:
        st.session_state["review_msg"] = ("error", str(exc))


def _pair(row, *buttons) -> None:
    """Buttons side by side in ``row`` (a horizontal container), each as wide as its words (in columns at 900 px
    "Accept" / "Reject" were cut to "A." / "R."), each ``(label key, widget key, (library call, args...), outcome
    in words)``."""
    for label, key, call, done in buttons:
        row.button(t(label), key=key, on_click=_act, args=call, kwargs={"done": done})


w = get_weaver()
cur = w.curation
NAMES = {n: memory_label(w, n) for n in w.node_ids}  # made in this run's language (widgets format options later)
st.markdown(f"### {t('title')}")
st.caption(t("intro"))

msg = st.session_state.pop("review_msg", None)
if msg:
    # the outcome can hold an endpoint's error body or a model's rationale: shown as text, never as Markdown
    (st.success if msg[0] == "ok" else st.error)(md_escape(msg[1]))

if not w.nodes:
    st.info(t("empty"))
    st.stop()

# the button as wide as its words beside the last pass's line, which wraps below it in a narrow window (a quarter
# of the page cut the button to "Run revie…" at 900 px)
bar = st.container(horizontal=True, vertical_alignment="center", gap="medium")
if bar.button(t("run"), type="primary", key="review_run"):
    _act(lambda: cur.review().text(lang()))
    st.rerun()
runs = cur.state.get("runs") or []


last = t("last", line=ReviewSummary(**runs[-1]).text(lang())) + " · " if runs else ""
# the summary quotes endpoint errors
bar.caption(md_escape(last + t("pending", n=cur.pending_review())), width="stretch")

# a key and fixed labels: an action on the log tab reruns the page without jumping back to the queue
q_tab, e_tab, n_tab, l_tab = st.tabs(
    [t("queue"), t("edges"), t("nodes"), t("log")], key="review_tab", on_change="rerun"
)

# ------------------------------------------------------------------ queue
with q_tab:
    items = cur.items()
    flag_groups = cur.flag_groups()
    if not items:
        st.info(t("queue_empty"))
    else:  # the decisions the page asks for: one per change that flagged memories, one per contested edge or node
        st.caption(t("n_pending", n=len(proposal_groups(items)) + len(flag_groups)))
    L = graph_render.labels(lang())
    groups = proposal_groups(items[:50])  # proposals about one edge are judged together, side by side

    # a changed fact flags every memory that used its old value: one line per change, its memories one click away
    for g in flag_groups:
        with st.container(border=True):
            old, new = quoted_pair(w, g.source, g.by) if g.by else (quoted(w, g.source), "")
            by = t("flag_by", new=new) if g.by else ""
            head = t("flag_group", old=old, by=by, n=len(g.targets))
            st.markdown(f"**{md_escape(head)}**")
            if g.source in w.nodes:  # the old value's own words: the evidence the whole group rests on
                st.text(w.nodes[g.source].content[:300])
            with st.expander(t("flag_list")):
                for item_id in g.item_ids:  # each still judged on its own when the curator wants to
                    item = cur.queue[item_id]
                    what = item_words(w, item)
                    row = st.container(horizontal=True, vertical_alignment="center")
                    row.markdown(md_escape(what), width="stretch")
                    _pair(
                        row,
                        ("accept", f"acc_{item.id}", (cur.accept, item.id), t("ok_accept", what=what)),
                        ("reject", f"rej_{item.id}", (cur.reject, item.id), t("ok_reject", what=what)),
                    )
            done = t("ok_group", n=len(g.targets), what=quoted(w, g.source))
            _pair(
                st.container(horizontal=True),
                ("dismiss_all", f"flags_keep_{g.source}", (cur.resolve_flags, g.source, False), done),
                ("accept_all", f"flags_out_{g.source}", (cur.resolve_flags, g.source, True), done),
            )

    def _evidence(item) -> None:
        for role in ("source", "target"):
            ev = item.evidence.get(role)
            if ev:
                kind = L["kinds"].get(ev["kind"], ev["kind"])
                st.caption(
                    md_escape(
                        t(f"{role}_ev")
                        + " · "
                        + t("ev_line", kind=kind, turn=ev["turn"], status=L["statuses"].get(ev["status"], ev["status"]))
                    )
                )
                st.text(ev["text"][:300])

    for key, group in groups.items():
        with st.container(border=True):
            if len(group) > 1:
                st.warning(t("conflict"), icon=":material/call_split:")
            cols = st.columns(len(group))
            for col, item in zip(cols, group):
                with col:
                    what = item_words(w, item)
                    st.markdown(f"**{md_escape(what)}**")
                    st.caption(md_escape(t("conf", c=item.confidence, o=pair_of(ORIGINS, item.origin))))
                    # a model's words: an image in it must not be fetched; the rules' words in the reader's language
                    st.caption(md_escape(rationale_in_words(item.rationale, lang())))
                    if col is cols[0] or len(group) == 1:
                        _evidence(item)
                    rel = None
                    if item.kind in ("relabel", "add"):  # a prune deletes: no relation to choose
                        default = item.relation or item.current or RELATIONS[0]
                        rel = st.selectbox(
                            t("relation"),
                            RELATIONS,
                            index=RELATIONS.index(default),
                            format_func=lambda r: L["relations"].get(r, r),
                            key=f"rel_{item.id}",
                        )
                    row = st.container(horizontal=True)  # as wide as their words, in a conflict's narrow column
                    row.button(
                        t("accept"),
                        key=f"acc_{item.id}",
                        type="primary",
                        on_click=_act,
                        args=(cur.accept, item.id),
                        kwargs={"relation": rel, "done": t("ok_accept", what=what)},
                    )
                    row.button(
                        t("reject"),
                        key=f"rej_{item.id}",
                        on_click=_act,
                        args=(cur.reject, item.id),
                        kwargs={"done": t("ok_reject", what=what)},
                    )

# ------------------------------------------------------------------ edges
with e_tab:
    names = graph_render.labels(lang())
    version = f"{current_space()}:{len(cur.log.entries)}:{w.graph.number_of_edges()}:{lang()}"
    held = st.session_state.get("review_edges")
    if not held or held["version"] != version:  # a stable frame: rebuilt only when the graph changed
        rows = edge_table_rows(w)
        frame = pd.DataFrame(rows)
        # the read-only origin in words; the editable columns keep the library's values (format_func names them)
        if rows:
            frame["origin"] = frame["origin"].map(lambda o: names["origins"].get(o, o))
        held = {"version": version, "rows": rows, "df": frame}
        st.session_state["review_edges"] = held
    editor_key = f"edge_editor_{abs(hash(version))}"

    def _apply_table(key=editor_key, rows=held["rows"]):
        edited = st.session_state.get(key, {}).get("edited_rows", {})
        with space_lock(current_space()):
            done, errors = apply_edge_table_edits(cur, rows, edited)
        if errors:
            st.session_state["review_msg"] = ("error", "; ".join(errors))
        elif done:  # said with the memories' words and the relations' names, not "n_ab->n_cd: causal -> temporal"
            st.session_state["review_msg"] = ("ok", "; ".join(_table_edit_words(rows, edited)))

    def _table_edit_words(rows, edited) -> list[str]:
        out = []
        for idx, change in sorted((int(k), v) for k, v in edited.items()):
            row = rows[idx]
            what = f"{quoted(w, row['source'])} → {quoted(w, row['target'])}"
            if change.get("delete"):
                out.append(t("ok_del", what=what))
            elif change.get("relation") and change["relation"] != row["relation"]:
                rel = names["relations"]
                out.append(t("ok_relabel", what=what, a=rel.get(row["relation"]), b=rel.get(change["relation"])))
            elif change.get("status") == "confirmed" and row["status"] != "confirmed":
                out.append(t("ok_confirm", what=what))
        return out

    st.caption(t("table_help"))
    if held["rows"]:
        st.data_editor(
            held["df"],
            key=editor_key,
            on_change=_apply_table,
            hide_index=True,
            num_rows="fixed",
            column_order=["relation", "delete", "from", "to", "origin", "confidence", "status", "source", "target"],
            width="stretch",
            disabled=["source", "target", "from", "to", "origin", "confidence"],
            column_config={
                "relation": st.column_config.SelectboxColumn(
                    t("relation"),
                    options=list(RELATIONS),
                    required=True,
                    format_func=lambda r: names["relations"].get(r, r),
                ),
                "status": st.column_config.SelectboxColumn(
                    t("status"), options=list(EDGE_STATUSES), format_func=lambda s: names["edge_statuses"].get(s, s)
                ),
                "delete": st.column_config.CheckboxColumn(t("col_delete")),
                "from": st.column_config.TextColumn(t("col_from"), width="medium"),
                "to": st.column_config.TextColumn(t("col_to"), width="medium"),
                "origin": st.column_config.TextColumn(t("col_origin")),
                "confidence": st.column_config.NumberColumn(t("col_conf")),
                "source": st.column_config.TextColumn(t("col_src"), width="small"),
                "target": st.column_config.TextColumn(t("col_tgt"), width="small"),
            },
        )
    with st.expander(t("add_edge")):
        ids = w.node_ids
        c1, c2 = st.columns(2)
        src = c1.selectbox(t("source"), ids, format_func=NAMES.get, key="add_src")
        dst = c2.selectbox(t("target"), ids, index=len(ids) - 1, format_func=NAMES.get, key="add_dst")
        rel = st.selectbox(
            t("relation"), RELATIONS, key="add_rel", format_func=graph_render.labels(lang())["relations"].get
        )
        why = st.text_input(t("why"), key="add_why")
        st.button(
            t("add"),
            key="add_btn",
            on_click=_act,
            args=(cur.set_edge, src, dst, rel, why or "added by hand"),
            kwargs={"done": t("ok_add", what=f"{quoted(w, src)} → {quoted(w, dst)}")},
        )

# ------------------------------------------------------------------ nodes
with n_tab:
    ids = w.node_ids
    nid = st.selectbox(t("node"), ids, index=len(ids) - 1, format_func=NAMES.get, key="status_node")
    node = w.nodes[nid]
    st.text(node.content[:800])
    c1, c2 = st.columns(2)
    status = c1.radio(
        t("status"),
        NODE_STATUSES,
        index=NODE_STATUSES.index(node.status),
        horizontal=True,
        format_func=graph_render.labels(lang())["statuses"].get,
        key=f"status_{nid}",
    )
    by = ""
    if status == "superseded":
        later = [n for n in ids if n != nid]
        by = c2.selectbox(t("by"), [""] + later, format_func=lambda n: NAMES.get(n, "—"), key="status_by")
    st.button(
        t("apply"),
        key="status_apply",
        disabled=status == node.status,
        on_click=_act,
        args=(cur.set_status, nid, status, "set on the Review page"),
        kwargs={
            "by": by,
            "done": t("ok_status", what=f"{quoted(w, nid)}: {graph_render.labels(lang())['statuses'].get(status)}"),
        },
    )
    flagged = sorted(cur.flagged())
    if flagged:
        st.markdown(f"**{t('flags')}**")
        for f in flagged:
            st.text(memory_label(w, f))

# ------------------------------------------------------------------ audit log
with l_tab:
    c1, c2, c3 = st.columns([1, 1, 3])
    undo_to, redo_to = cur.log.undo_target(), cur.log.redo_target()
    c1.button(
        t("undo"),
        key="undo_btn",
        disabled=undo_to is None,
        on_click=_act,
        args=(cur.undo,),
        kwargs={"done": t("ok_undo", what=entry_words(w, undo_to))},
        help=md_escape(entry_words(w, undo_to)) if undo_to else None,
    )
    c2.button(
        t("redo"),
        key="redo_btn",
        disabled=redo_to is None,
        on_click=_act,
        args=(cur.redo,),
        kwargs={"done": t("ok_redo", what=entry_words(w, redo_to))},
        help=md_escape(entry_words(w, redo_to)) if redo_to else None,
    )
    show_builder = c3.toggle(t("builder"), key="log_builder")
    rows = [r for r in cur.log.to_rows() if show_builder or r["action"] != "build"]
    if rows:
        frame = pd.DataFrame(rows)
        frame["at"] = pd.to_datetime(frame["at"], unit="s").dt.strftime("%Y-%m-%d %H:%M:%S")
        frame["what"] = [key_words(w, k) for k in frame["key"]]  # the memories' words, not only their ids
        frame["why"] = [rationale_in_words(str(x or ""), lang()) for x in frame["why"]]  # the studio's own words
        entries = {e.id: e for e in cur.log.entries}  # before / after in the reader's words, not the library's
        for col in ("before", "after"):
            frame[col] = [
                state_words(getattr(entries[i], col, None), lang()) if i in entries else "" for i in frame["id"]
            ]
        frame["actor"] = [pair_of(ACTORS, a) for a in frame["actor"]]
        frame["action"] = [pair_of(ACTIONS, a) for a in frame["action"]]
        cols = ["at", "actor", "action", "what", "before", "after", "why", "undone", "id"]
        st.dataframe(
            frame[cols].rename(
                columns={c: t("col_" + ("id" if c == "id" else c)) if c != "what" else t("what") for c in cols}
            ),
            hide_index=True,
            width="stretch",
        )
    # the last lifecycle pass (weaver.lifecycle): what it archived / merged / summarised, undoable as a whole
    st.markdown(f"**{t('lc')}**")
    report = last_pass(w)
    if report is None:
        st.caption(t("lc_none"))
    else:
        st.caption(md_escape(pass_text(report)))
        if pass_rows(report):
            st.dataframe(pd.DataFrame(pass_rows(report)), hide_index=True, width="stretch")
        st.button(
            t("lc_undo"),
            key="lc_undo_btn",
            on_click=_act,
            args=(lambda: t("lc_undone", n=len(undo_pass(w, report["id"]))),),
        )
    st.download_button(
        t("export"),
        json.dumps([e.to_dict() for e in cur.log.entries], ensure_ascii=False, indent=1),
        file_name=f"audit-{current_space()}.json",
        mime="application/json",
        key="log_export",
    )
