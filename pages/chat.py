"""Chat with the travel agent beside the live memory graph and the per-message filter scores."""

from __future__ import annotations

import uuid

import streamlit as st

from ui.shell import require_shell

require_shell("chat")  # a deep link on a fresh server must not bypass app.py

from ui import agent_bridge, edge_fix, graph_render
from ui.css import stack_when_narrow_css
from ui.chat_view import new_node_ids, render_history, render_step
from ui.graph_component import graph_view
from ui.i18n import lang, t
from ui.inspector import node_option_label
from ui.render import badge, decisions_frame, md_escape, show_text
from ui.state import selection_key, current_space, get_weaver, running_turns, space_lock
from weaver.agent.events import AgentEvent, save_events
from weaver import WeaverError
from weaver.filter_words import filter_reason_in_words

space = current_space()
w = get_weaver(space)
SEL = selection_key("chat", space)


def _run(text: str, live: bool = True, message_id: str | None = None) -> list:
    """One user message through the agent, drawing each step as it happens; returns its events."""
    mid = message_id or f"ui_{uuid.uuid4().hex[:12]}"
    running = running_turns(space)
    running.add(mid)  # other tabs (and this one after a reload) see the turn is alive, not cut off
    try:
        return _run_locked(text, live, mid)
    finally:
        running.discard(mid)


def _run_locked(text: str, live: bool, mid: str) -> list:
    with space_lock(space):
        if not live:
            return list(agent_bridge.run_turn(w, text, message_id=mid))
        seen = []
        with st.chat_message("user"):
            show_text(text)
            user_box = st.empty()
        with st.chat_message("assistant"):
            status = st.status(t("thinking") + "…", expanded=True)
            reply_box = st.container()
            for ev in agent_bridge.run_turn(w, text, message_id=mid):
                seen.append(ev)
                if ev.type == "user":
                    with user_box.container():
                        badge((ev.data or {}).get("ingest"))
                elif ev.type == "reply":
                    with reply_box:
                        show_text(ev.text)
                        badge((ev.data or {}).get("ingest"))
                else:
                    render_step(w, ev, status)
            status.update(label=t("thinking"), state="complete", expanded=False)
        return seen


_DEMO_POP = "demo_popover"


def _start_demo() -> None:
    """The Run button: close the popover (it stayed open over the outcome) and run the demo in the page."""
    st.session_state[_DEMO_POP] = False
    st.session_state["space_ui:demo_go"] = st.session_state.get("demo_pick")


def _demos() -> None:
    scripts = agent_bridge.demo_scripts()
    with st.popover("▶ " + t("demos"), key=_DEMO_POP, on_change="rerun"):
        if not scripts:
            st.info(t("no_demos"))
            return
        titles = {name: agent_bridge.load_demo(str(path))[0] for name, path in scripts.items()}
        names = list(scripts)
        own = f"trip_{lang()}"  # the Beijing trip in the interface's language, not the first name in the folder
        # a title is a sentence (up to ~130 characters): the box cut it mid-character at the popover's edge, so
        # the box shows its start with an ellipsis and the picked script's whole title is written under it
        picked = st.selectbox(
            t("demos"),
            names,
            index=names.index(own) if own in names else 0,
            key="demo_pick",
            format_func=lambda n: graph_render.canvas_label(f"{n} — {titles[n]}", 46),  # width-aware cut
            width=400,
        )
        with st.container(width=400):  # wrapped at the box's width: one long line widened the popover to the window
            st.caption(md_escape(titles.get(picked, "")))
        st.button(t("run_demo"), type="primary", key="demo_run", on_click=_start_demo)
    name = st.session_state.pop("space_ui:demo_go", None)
    if name not in scripts:
        return
    _, turns = agent_bridge.load_demo(str(scripts[name]))
    bar = st.progress(0.0, text=f"{name}: 0/{len(turns)}")
    failures = []
    for i, (msg, expect) in enumerate(turns, 1):
        turn = t("turn_n", n=i)
        try:
            # stable ids, as `python -m weaver demo` uses: replaying into the same space adds nothing
            events = _run(msg, live=False, message_id=f"demo-{name}-{i:03d}")
            failures += [f"{turn}: {f}" for f in agent_bridge.check_demo_turn(w, events, expect)]
        except WeaverError as e:
            failures.append(f"{turn}: {e}")
        bar.progress(i / max(len(turns), 1), text=f"{name}: {i}/{len(turns)}")
    st.session_state["space_ui:demo_result"] = (name, len(turns), failures)
    st.rerun()


def _demo_result() -> None:
    res = st.session_state.get("space_ui:demo_result")
    if not res:
        return
    name, n, failures = res
    if failures:
        st.warning(md_escape(t("demo_failed", name=name, n=len(failures)) + " — " + "; ".join(failures[:5])))
    else:
        st.success(md_escape(t("demo_ok", name=name, n=n)))


@st.fragment
def _scores() -> None:
    df = decisions_frame(w.decisions.values())
    if df.empty:
        st.caption(t("scores_empty"))
        return
    # the verdict and the total before the message, the message before the rest: in the chat page's narrow
    # column a wide message column pushed every score out of sight. The CSV keeps the library's names.
    shown = df.drop(columns=["timestamp"])[
        [
            "turn",
            "kept",
            "total",
            "content",
            "kind",
            "promoted",
            "relevance",
            "novelty",
            "importance",
            "coarse",
            "new_topic",
            "keep_threshold",
            "reason",
            "backend",
            "fallback",
            "message_id",
            "node_id",
        ]
    ]
    view = shown
    if lang() == "zh":
        kinds = graph_render.labels("zh")["kinds"]
        view = shown.assign(
            kind=shown["kind"].map(lambda k: kinds.get(k, k)),
            reason=shown["reason"].map(lambda r: filter_reason_in_words(str(r), "zh")),
        ).rename(
            columns={
                "turn": "轮次",
                "content": "内容",
                "kind": "类型",
                "kept": "保留",
                "promoted": "已提升",
                "total": "总分",
                "relevance": "相关性",
                "novelty": "新颖性",
                "importance": "重要性",
                "coarse": "粗筛分",
                "new_topic": "新话题",
                "keep_threshold": "保留阈值",
                "reason": "原因",
                "backend": "后端",
                "fallback": "降级",
                "message_id": "消息编号",
                "node_id": "节点编号",
            }
        )
    shown_as = dict(zip(shown.columns, view.columns))  # the library's names -> the headers in this language
    # the scores as the badges say them (Σ 4.55), not 4.545 beside 3.65; the CSV keeps every digit
    scores = {
        shown_as[c]: st.column_config.NumberColumn(format="%.2f")
        for c in ("total", "relevance", "novelty", "importance")
    }
    st.dataframe(
        view,
        hide_index=True,
        width="stretch",
        height=300,
        column_config={shown_as["content"]: st.column_config.TextColumn(width="medium"), **scores},
    )
    st.download_button(
        t("download_csv"),
        shown.to_csv(index=False).encode("utf-8"),
        file_name=f"filter-scores-{space}.csv",
        mime="text/csv",
        key="scores_csv",
    )
    rejected = df[~df["kept"]]
    if rejected.empty:
        st.caption(t("no_rejected"))
        return
    kinds = graph_render.labels(lang())["kinds"]
    labels = {
        r.message_id: f"{graph_render.short_label(r.content, 50)} · [{r.turn}] {kinds.get(r.kind, r.kind)} · Σ{r.total:.2f}"
        for r in rejected.itertuples()
    }
    c1, c2 = st.columns([4, 1], vertical_alignment="bottom")
    mid = c1.selectbox(t("promote_pick"), list(labels), format_func=labels.get, key="promote_pick")
    if c2.button(t("promote"), key="promote_btn"):
        with space_lock(space):
            res = w.promote(mid)
        st.session_state[SEL] = res.node.id if res.node else None
        st.session_state["space_ui:promoted"] = True  # the graph re-fits so the promoted node is on screen
        st.toast(t("promoted"))
        st.rerun()


def _resume(text: str, mid: str) -> None:
    st.session_state["space_ui:resume"] = (text, mid)


def _close(ev) -> None:
    """Close a cut-off turn for every session: an audited-in-the-transcript 'interrupted' event."""
    with space_lock(space):
        seq = 1 + max((e.seq for e in agent_bridge.transcript(w) if e.message_id == ev.message_id), default=0)
        save_events(
            w,
            [
                AgentEvent(
                    "error",
                    t("turn_closed"),
                    {"interrupted": True},
                    turn=ev.turn,
                    message_id=ev.message_id,
                    seq=seq,
                    started=ev.started,
                )
            ],
        )


events = agent_bridge.transcript(w)
st.markdown(f"### {t('chat_title')}")
edge_fix.show_outcome()

# side by side in a wide pane; stacked (the live graph under the chat, full width) in a narrow one: at 900 px with
# the sidebar open the graph beside the chat was one node wide
st.html(stack_when_narrow_css("chat_cols", 760))
with st.container(key="chat_cols"):
    left, right = st.columns([5, 6], gap="medium")
with left:
    _demos()
    _demo_result()
    # a scrolling box once there is a conversation; none before, where it left a 640 px blank band between the
    # "no messages yet" hint and the message box it points to
    history = st.container(height=640 if events else "content", border=False)
    with history:
        if not events:
            st.info(t("chat_empty"))
        render_history(w, events, running_turns(space), on_resume=_resume, on_close=_close)
    # disabled while a turn runs: a message sent mid-turn would stop that turn and, before its ingest, be lost
    prompt = st.chat_input(t("chat_input"), max_chars=20000, submit_mode="disable")
    resume = st.session_state.pop("space_ui:resume", None)
    if resume:  # the same message id: the saved user message is not ingested twice
        with history:
            try:
                _run(resume[0], message_id=resume[1])
            except WeaverError as e:
                st.error(md_escape(str(e)))
        st.rerun()
    if prompt:
        with history:
            try:
                _run(prompt)
            except WeaverError as e:
                st.error(md_escape(str(e)))
        st.rerun()

with right:
    last_turn = max((getattr(e, "turn", 0) for e in events), default=None)
    fresh = new_node_ids([e for e in events if getattr(e, "turn", 0) == last_turn]) if events else set()
    tab_graph, tab_scores = st.tabs([t("live_graph"), t("scores")])
    with tab_graph:
        g = w.graph
        if g.number_of_nodes() == 0:
            st.info(t("graph_empty_chat"))
        else:
            st.caption(
                t("nodes_edges", n=g.number_of_nodes(), e=g.number_of_edges())
                + (f" · {len(fresh)} {t('new_nodes')}" if fresh else "")
            )
            sel = st.session_state.get(SEL)
            promoted = st.session_state.pop("space_ui:promoted", None)
            graph_view(
                g,
                key=f"chat_graph_{space}",
                height=460,
                selected=sel if sel in g else None,
                node_styles={n: "new" for n in fresh if n in g},
                lang=lang(),
                max_nodes=150,
                focus=(sel if sel in g else None) or sorted(n for n in fresh if n in g) or None,
                on_select=lambda n: st.session_state.__setitem__(SEL, n),
                edit=edge_fix.edit_spec(),
                on_edge=edge_fix.edge_handler(w, space),
                undo=edge_fix.undo_spec(),
                refit=bool(promoted),
            )
            st.html(graph_render.legend_html(lang(), styles=["new", "selected"]))
            sel = st.session_state.get(SEL)
            if sel in g:
                with st.container(border=True):
                    st.caption(md_escape(node_option_label(g, sel)))
                    show_text(g.nodes[sel].get("content", ""))
    with tab_scores:
        _scores()


@st.fragment(run_every=3)
def _follow_other_tabs() -> None:
    """Another tab (or a CLI) wrote to this space: rerun so its turn shows here without waiting for a click."""
    rev = w.space.revision()  # a file read, no lock
    seen = st.session_state.setdefault("space_ui:chat_rev", rev)
    if rev != seen:
        st.session_state["space_ui:chat_rev"] = rev
        if not running_turns(space):  # a turn in progress redraws itself when it ends
            st.rerun(scope="app")


st.session_state["space_ui:chat_rev"] = w.space.revision()  # what this run has drawn
_follow_other_tabs()
# The turn's writes are durable in the space's write-behind log; applying them to Chroma here, once the page is
# drawn and while the user reads, spares the next turn (its first write would apply them: the log's 5 s age
# bound) ~0.35 s, measured with `bench turns --pause 6`. A no-op (a file stat) when the log is empty.
if not running_turns(space):
    with space_lock(space):
        w.flush()
