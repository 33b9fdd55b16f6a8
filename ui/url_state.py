"""Keep what a reload must restore in the URL: space, language and the selected node (the page is the path).

``restore()`` runs once per browser session, before any widget: a reload (F5) or a deep link
(``/graph?space=北京&lang=zh&node=n_ab12``) lands where it was. ``publish()`` runs after every
page run and writes the current state back, so the address bar is always a working deep link.
"""

from __future__ import annotations

import streamlit as st

from weaver import WeaverError

from .i18n import LANGS, lang, set_lang
from .state import current_space, selection_key

__all__ = ["restore", "publish", "SELECTION_PAGES"]

_DONE = "_cw_url_restored"
SELECTION_PAGES = ("chat", "graph")  # pages whose node selection lives in the URL


def restore() -> None:
    if st.session_state.get(_DONE):
        return
    st.session_state[_DONE] = True
    qp = st.query_params
    if qp.get("lang") in LANGS:
        set_lang(qp["lang"])
    space = (qp.get("space") or "").strip()
    if space:
        from weaver.store import space_slug

        try:
            space_slug(space)  # a hand-edited bad name falls back to the default space, never a traceback
            st.session_state["space"] = space
        except WeaverError:
            pass
    node = qp.get("node")
    if node:
        for page in SELECTION_PAGES:
            st.session_state[selection_key(page, current_space())] = node


def publish(page: str) -> None:
    """Write space, language and (on chat / graph) the selection into the address bar."""
    want = {"space": current_space(), "lang": lang()}
    if page in SELECTION_PAGES:
        node = st.session_state.get(selection_key(page, current_space()))
        if node:
            want["node"] = str(node)
    qp = st.query_params
    if {k: qp.get(k) for k in ("space", "lang", "node")} != {k: want.get(k) for k in ("space", "lang", "node")}:
        qp.from_dict(want)
