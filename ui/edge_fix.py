"""Fixing an edge where it is drawn: the canvas menu's actions and the in-place Undo (chat and graph pages).

Every change goes through ``w.curation`` (audited, human origin) under the space's write lock.
The last edit made here is kept in the session so the canvas can offer "Undo" right beside it;
the undo is the library's ``undo(entry_id)`` of exactly that entry, not "whatever came last".
"""

from __future__ import annotations

import streamlit as st

from weaver import WeaverError
from weaver.models import RELATIONS

from . import graph_render
from .i18n import lang, t
from .render import md_escape
from .state import space_lock

__all__ = ["edit_spec", "edge_handler", "undo_spec", "show_outcome", "LAST_EDIT"]

LAST_EDIT = "space_ui:last_edge_edit"
_OUTCOME = "space_ui:edge_outcome"


def edit_spec() -> dict:
    rel = graph_render.labels(lang())["relations"]
    return {"title": t("fix_edge"), "relations": [(r, rel.get(r, r)) for r in RELATIONS], "delete": t("delete_edge")}


def _describe(w, u: str, v: str, what: str) -> str:
    def name(n):
        if n not in w.graph:
            return n
        # "一共三个人。 → 人数改成四个人。：改为时序": a sentence's own full stop before the outcome's colon reads twice
        return graph_render.short_label(str(w.graph.nodes[n].get("content", n)).rstrip("。.!！?？ "), 18)

    return f"{name(u)} → {name(v)}{'：' if lang() == 'zh' else ': '}{what}"


def edge_handler(w, space: str):
    """The ``on_edge`` callback of ``graph_view``: applies set / delete / undo and remembers the undo."""
    rel_names = graph_render.labels(lang())["relations"]

    def handle(action: dict) -> None:
        kind = action.get("action")
        try:
            with space_lock(space):
                if kind == "undo":
                    last = st.session_state.pop(LAST_EDIT, None)
                    if last:
                        w.curation.undo(last["entry"])
                        st.session_state[_OUTCOME] = ("ok", t("edge_undone", what=last["text"]))
                    return
                u, v = str(action.get("edge", "")).split("->", 1)
                if kind == "set":
                    rel = action.get("relation")
                    if w.graph.has_edge(u, v) and w.graph.edges[u, v].get("relation") == rel:
                        return  # nothing changes: nothing is audited
                    entry = w.curation.set_edge(u, v, rel, "fixed on the canvas")
                    text = _describe(w, u, v, t("edge_now", rel=rel_names.get(rel, rel)))  # what it is now
                elif kind == "delete":
                    entry = w.curation.remove_edge(u, v, "deleted on the canvas")
                    text = _describe(w, u, v, t("edge_deleted"))
                else:
                    return
        except (WeaverError, ValueError) as exc:  # a cycle, a stale edge: the library's one-line reason
            st.session_state[_OUTCOME] = ("error", str(exc))
            return
        st.session_state[LAST_EDIT] = {"entry": entry.id, "text": text}
        st.session_state[_OUTCOME] = ("ok", text)

    return handle


def undo_spec() -> dict | None:
    last = st.session_state.get(LAST_EDIT)
    if not last:
        return None
    return {"text": last["text"], "label": t("undo"), "entry": last["entry"]}


def show_outcome() -> None:
    """The last edit's result as a toast (errors as one clear line)."""
    out = st.session_state.pop(_OUTCOME, None)
    if out:
        (st.toast if out[0] == "ok" else st.error)(md_escape(out[1]))
