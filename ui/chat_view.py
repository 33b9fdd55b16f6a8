"""Drawing the agent's events: chat bubbles with filter badges, steps, memories used."""

from __future__ import annotations

import json
from itertools import groupby

import streamlit as st

from weaver.filter_words import filter_reason_in_words

from . import graph_render
from .i18n import lang, t
from .render import badge, md_escape, show_text

__all__ = ["render_history", "render_step", "new_node_ids", "event_ingests", "interrupted"]

_STEP_ICON = {"thought": "💭", "tool_call": "🛠️", "tool_result": "📋", "memory": "🧠", "error": "⚠️"}


def _get(ev, name, default=None):
    return ev.get(name, default) if isinstance(ev, dict) else getattr(ev, name, default)


def event_ingests(ev) -> list[dict]:
    """The ingest results an event carries (a tool result may carry one or several)."""
    data = _get(ev, "data") or {}
    out = []
    if isinstance(data.get("ingest"), dict):
        out.append(data["ingest"])
    out += [x for x in data.get("ingests", []) or [] if isinstance(x, dict)]
    return out


def new_node_ids(events) -> set[str]:
    """Node ids woven by these events (the chat highlights the latest turn's)."""
    return {i["node_id"] for ev in events for i in event_ingests(ev) if i.get("node_id")}


def _live(w, ingest: dict | None) -> dict | None:
    """The ingest as it stands now: a message promoted since then shows as kept and promoted."""
    if not ingest:
        return ingest
    d = w.decisions.get(ingest.get("message_id"))
    if d is not None and d.promoted and not ingest.get("kept"):
        return dict(ingest, kept=True, promoted=True)
    return ingest


def _decision(w, ingest: dict | None) -> None:
    if not ingest:
        return
    d = w.decisions.get(ingest.get("message_id"))
    with st.expander(t("decision"), expanded=False):
        reason = d.reason if d is not None else ingest.get("reason", "")
        if reason:  # in the reader's language; the record below keeps the filter's own words
            st.caption(md_escape(filter_reason_in_words(str(reason), lang())))
        st.json(d.to_record() if d is not None else ingest, expanded=1)


def _memories(w, ids: list[str]) -> None:
    ids = [i for i in ids or [] if i]
    with st.expander(f"{t('used_memories')} ({len(ids)})", expanded=False):
        for i in ids:
            a = w.graph.nodes[i] if i in w.graph else {}
            kind = graph_render.labels(lang())["kinds"].get(a.get("kind"), a.get("kind", "?"))
            st.markdown(
                md_escape(f"[{a.get('turn', '?')}] {kind}: {graph_render.short_label(a.get('content', i), 120)}")
            )


def render_step(w, ev, container=None) -> None:
    """One intermediate step (thought, tool call, tool result, memory, error)."""
    c = container or st
    kind = _get(ev, "type")
    data = _get(ev, "data") or {}
    text = _get(ev, "text") or ""
    icon = _STEP_ICON.get(kind, "•")
    if kind == "tool_call":
        c.markdown(f"{icon} **{md_escape(data.get('tool', 'tool'))}**")
        c.code(json.dumps(data.get("arguments", {}), ensure_ascii=False, indent=1), language="json")
    elif kind == "memory":
        ids = data.get("node_ids", [])
        c.markdown(md_escape(f"{icon} " + t("step_memories", n=len(ids), tokens=data.get("tokens", 0))))
    elif kind == "error":
        c.warning(md_escape(text), icon="⚠️")
    else:
        c.markdown(f"{icon} " + md_escape(text))
        if kind == "tool_result" and data.get("count") is not None:
            c.caption(md_escape(t("step_rows", n=data.get("count"))))
    for ing in event_ingests(ev):
        badge(_live(w, ing), c)


def interrupted(events: list) -> bool:
    """A turn cut off mid-way (a reload while the agent ran): a user message, no reply, not closed."""
    types = [_get(e, "type") for e in events]
    closed = any((_get(e, "data") or {}).get("interrupted") for e in events)
    return "user" in types and "reply" not in types and not closed


def _cut_off(ev, running: set, on_resume, on_close) -> None:
    mid = _get(ev, "message_id")
    if mid in running:  # another tab (or this one, before the reload landed) is still answering
        st.info(t("turn_running"), icon=":material/hourglass_top:")
        return
    st.warning(t("turn_cut"), icon=":material/warning:")
    c1, c2 = st.columns(2)
    c1.button(t("turn_resume"), key=f"resume_{mid}", type="primary", on_click=on_resume, args=(_get(ev, "text"), mid))
    c2.button(t("turn_close"), key=f"close_{mid}", on_click=on_close, args=(ev,))


def _turn(w, events: list, running: set = frozenset(), on_resume=None, on_close=None) -> None:
    user = [e for e in events if _get(e, "type") == "user"]
    closed = [e for e in events if (_get(e, "data") or {}).get("interrupted")]
    steps = [e for e in events if _get(e, "type") in _STEP_ICON and e not in closed]
    replies = [e for e in events if _get(e, "type") == "reply"]
    cut = interrupted(events) and on_resume is not None
    for ev in user:
        with st.chat_message("user"):
            show_text(_get(ev, "text"))
            ing = (event_ingests(ev) or [None])[0]
            badge(_live(w, ing))
            _decision(w, ing)
    if not (steps or replies or cut or closed):
        return
    with st.chat_message("assistant"):
        if steps:
            with st.expander(f"{t('thinking')} ({len(steps)})", expanded=False):
                for ev in steps:
                    render_step(w, ev)
        for ev in replies:
            show_text(_get(ev, "text"))
            ing = (event_ingests(ev) or [None])[0]
            badge(_live(w, ing))
            _memories(w, (_get(ev, "data") or {}).get("memory_ids", []))
            _decision(w, ing)
        for ev in closed:
            st.caption(t("turn_closed"))
        if cut and user:
            _cut_off(user[0], running, on_resume, on_close)


def render_history(w, events: list, running: set = frozenset(), on_resume=None, on_close=None) -> None:
    """Every past turn, in order; a cut-off turn offers Resume / Close (callbacks get the text and id)."""
    for _, group in groupby(events, key=lambda e: (_get(e, "turn", 0), _get(e, "message_id"))):
        _turn(w, list(group), running, on_resume, on_close)
