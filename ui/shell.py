"""Keep every page inside the studio shell, even on a deep link to a fresh server.

Streamlit learns that app.py uses ``st.navigation`` only once app.py has run; until then a
browser that opens ``/graph`` directly is served ``pages/graph.py`` on its own (the legacy
``pages/`` mode: no sidebar, no layout). Such a run sends the session through app.py once,
which then opens the page that was asked for.
"""

from __future__ import annotations

import streamlit as st

__all__ = ["SHELL_FLAG", "require_shell", "mark_shell"]

SHELL_FLAG = "_cw_shell"
_INTENDED = "_cw_intended_page"
_PARAMS = "_cw_intended_params"


def require_shell(url_path: str) -> None:
    """Call first in every page: reroutes a run that did not come through app.py."""
    if not st.session_state.get(SHELL_FLAG):
        st.session_state[_INTENDED] = url_path
        # the deep link's space / language / selection survive the detour (switch_page clears them)
        st.session_state[_PARAMS] = st.query_params.to_dict()
        st.switch_page("app.py", query_params=st.session_state[_PARAMS])


def mark_shell(pages: dict) -> None:
    """Call in app.py after ``st.navigation``: marks the session and honours a rerouted deep link."""
    st.session_state[SHELL_FLAG] = True
    intended = st.session_state.pop(_INTENDED, None)
    params = st.session_state.pop(_PARAMS, None)
    if intended in pages:
        st.switch_page(pages[intended], query_params=params or None)
