"""Studio glue shared by app.py and pages/: cached runtime, the current space, the knobs.

UI state only; every memory semantic lives in ``weaver``. One Runtime (Chroma
client, embedder) per process; one ContextWeaver per space per process, shared
by browser sessions on that space and guarded by a lock for writes.
"""

from __future__ import annotations

import threading

import streamlit as st

from weaver import ContextWeaver, Runtime, Settings, WeaverConfig, WeaverError, viz
from weaver.warming import warm_in_background

__all__ = [
    "get_runtime",
    "current_space",
    "get_weaver",
    "space_lock",
    "current_config",
    "DEFAULT_SPACE",
    "forget_weaver",
    "list_spaces",
    "switch_space",
    "delete_space",
    "selection_key",
    "running_turns",
    "turn_replay",
    "open_current_space",
    "reembed_and_open",
    "SPACE_ERROR",
    "REEMBEDDED",
]

DEFAULT_SPACE = "demo"
SPACE_ERROR = "_cw_space_error"  # (why, which space) a space could not be opened (shown once by app.py)
REEMBEDDED = "_cw_reembedded"  # records a re-embed just converted (app.py says so once)


@st.cache_resource(show_spinner=False)  # app.py shows a translated spinner around the first call
def get_runtime() -> Runtime:
    settings = Settings.from_env()
    runtime = Runtime.from_settings(settings)
    runtime.warm()  # the model loads under app.py's spinner, not in the first space switch or query
    return runtime


@st.cache_resource
def _weavers() -> dict[str, ContextWeaver]:
    return {}


@st.cache_resource
def _locks() -> dict[str, threading.RLock]:
    return {}


def space_lock(space: str) -> threading.RLock:
    """The write lock of a space in this process (one writer at a time)."""
    locks = _locks()
    return locks.setdefault(space, threading.RLock())


def selection_key(page: str, space: str) -> str:
    """Where a page keeps its selected node (per space: a selection never carries over to another space)."""
    return f"space_ui:{page}_selected:{space}"


@st.cache_resource
def _running() -> dict[str, set[str]]:
    return {}


def running_turns(space: str) -> set[str]:
    """Message ids whose agent turn is running right now in this process (any browser tab).

    A turn with no reply that is not in here was cut off (e.g. F5 mid-turn): the chat offers to resume it.
    """
    return _running().setdefault(space, set())


def current_space() -> str:
    return st.session_state.setdefault("space", DEFAULT_SPACE)


def current_config() -> WeaverConfig:
    """The knobs as the sidebar set them (defaults from the settings)."""
    cfg = st.session_state.get("weaver_config")
    return cfg if isinstance(cfg, WeaverConfig) else get_runtime().settings.config


@st.cache_resource
def _replays() -> dict[str, viz.TurnReplay]:
    return {}


def turn_replay(space: str) -> viz.TurnReplay:
    """The space's remembered replays (the Graph page's scrubber): a rerun at the same turn replays nothing."""
    return _replays().setdefault(space, viz.TurnReplay())


def get_weaver(space: str | None = None) -> ContextWeaver:
    space = space or current_space()
    cache = _weavers()
    with space_lock(space):
        if space not in cache:
            cache[space] = get_runtime().open(space)
            # the loads a process makes once per space (store indexes, supersede index) behind the page being
            # drawn, not in the first chat turn: ~1 s at 100k nodes (weaver.warming)
            warm_in_background(cache[space])
        weaver = cache[space]
        # another process (a CLI ingest, another studio) may have written since this weaver was read:
        # every page run catches up, so no page draws a stale graph
        weaver.refresh()
    weaver.config = current_config()
    return weaver


def forget_weaver(space: str) -> None:
    """Drop the cached weaver (after deleting or re-creating a space)."""
    _weavers().pop(space, None)
    _replays().pop(space, None)


def list_spaces() -> list[str]:
    """Every space in the store, plus the current one even before its first message."""
    names = set(get_runtime().store.list_spaces())
    names.add(current_space())
    return sorted(names)


def switch_space(name: str) -> None:
    """Open (creating if needed) and select a space; raises WeaverError on a bad name."""
    from weaver.store import space_slug

    name = (name or "").strip()
    space_slug(name)  # validates: clear WeaverError for empty / too long names
    get_weaver(name)
    st.session_state["space"] = name
    for key in [k for k in st.session_state if str(k).startswith("space_ui:")]:
        del st.session_state[key]  # per-space UI state (selection, highlights) does not carry over


def delete_space(name: str) -> None:
    """Delete a space's collections and forget its cached weaver; the default space becomes current."""
    with space_lock(name):
        get_runtime().store.delete_space(name)
        forget_weaver(name)
    if current_space() == name:
        st.session_state["space"] = DEFAULT_SPACE


def open_current_space() -> None:
    """Open the current space, or fall back to the default one with the reason kept for app.py to show.

    A space woven with another embedder is refused by the library with a pointer to ``reembed``; a deep
    link to it must land on a page that works and say so in one line, not draw a traceback.
    """
    space = current_space()
    try:
        get_weaver(space)
    except WeaverError as exc:
        if space == DEFAULT_SPACE:
            raise
        st.session_state[SPACE_ERROR] = (str(exc), space)
        st.session_state["space"] = DEFAULT_SPACE
        get_weaver(DEFAULT_SPACE)


def reembed_and_open(name: str) -> None:
    """Re-embed a space with this studio's embedder (the library's ``reembed``: new vectors beside the old,
    one atomic switch), then open it. A failure is kept for app.py to show in one line."""
    from weaver.maintenance import reembed_space

    try:
        with space_lock(name):
            forget_weaver(name)
            n = reembed_space(get_runtime(), name)
        switch_space(name)
        st.session_state[REEMBEDDED] = n
    except WeaverError as exc:
        st.session_state[SPACE_ERROR] = (str(exc), name)
