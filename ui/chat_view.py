"""Drawing the agent's events: chat bubbles with filter badges, steps, memories used."""

from __future__ import annotations

import json
from itertools import groupby

import streamlit as st

from weaver import viz

from .i18n import t
from .render import badge, md_escape, show_text

__all__ = ["render_history", "render_step", "new_node_ids", "event_ingests"]

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


def _decision(w, ingest: dict | None) -> None:
    if not ingest:
        return
    d = w.decisions.get(ingest.get("message_id"))
    with st.expander(t("decision"), expanded=False):
        st.json(d.to_record() if d is not None else ingest, expanded=1)


def _memories(w, ids: list[str]) -> None:
    ids = [i for i in ids or [] if i]
    with st.expander(f"{t('used_memories')} ({len(ids)})", expanded=False):
        for i in ids:
            a = w.graph.nodes[i] if i in w.graph else {}
            st.markdown(md_escape(f"[{a.get('turn', '?')}] {a.get('kind', '?')}: "
                                  f"{viz.short_label(a.get('content', i), 120)}"))


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
        c.markdown(md_escape(f"{icon} {len(ids)} memories · {data.get('tokens', 0)} tokens"))
    elif kind == "error":
        c.warning(md_escape(text), icon="⚠️")
    else:
        c.markdown(f"{icon} " + md_escape(text))
        if kind == "tool_result" and data.get("count") is not None:
            c.caption(md_escape(f"{data.get('count')} rows"))
    for ing in event_ingests(ev):
        badge(ing, c)


def _turn(w, events: list) -> None:
    user = [e for e in events if _get(e, "type") == "user"]
    steps = [e for e in events if _get(e, "type") in _STEP_ICON]
    replies = [e for e in events if _get(e, "type") == "reply"]
    for ev in user:
        with st.chat_message("user"):
            show_text(_get(ev, "text"))
            ing = (event_ingests(ev) or [None])[0]
            badge(ing)
            _decision(w, ing)
    if not (steps or replies):
        return
    with st.chat_message("assistant"):
        if steps:
            with st.expander(f"{t('thinking')} ({len(steps)})", expanded=False):
                for ev in steps:
                    render_step(w, ev)
        for ev in replies:
            show_text(_get(ev, "text"))
            ing = (event_ingests(ev) or [None])[0]
            badge(ing)
            _memories(w, (_get(ev, "data") or {}).get("memory_ids", []))
            _decision(w, ing)


def render_history(w, events: list) -> None:
    """Every past turn, in order."""
    for _, group in groupby(events, key=lambda e: _get(e, "turn", 0)):
        _turn(w, list(group))
