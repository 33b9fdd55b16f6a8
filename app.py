"""ContextWeaver studio: `streamlit run app.py`.

A thin shell: navigation and the sidebar; every page is a view over the `weaver` library.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

# `streamlit run app.py` puts this folder first on the import path, so `ui` (and `weaver`, installed or not) import
from ui.chrome_zh import chrome_script
from ui.css import input_hint_css, page_css
from ui.i18n import lang, t
from ui.shell import mark_shell
from ui.render import md_escape
from ui.sidebar import render_sidebar
from ui.state import REEMBEDDED, SPACE_ERROR, get_runtime, open_current_space, reembed_and_open
from ui.agent_bridge import warm_agent
from ui import url_state
from weaver import WeaverError

st.set_page_config(page_title="ContextWeaver studio", page_icon="🕸️", layout="wide")

PAGES = [
    ("pages/chat.py", "chat", ":material/chat:", True),
    ("pages/graph.py", "graph", ":material/hub:", False),
    ("pages/retrieval.py", "retrieval", ":material/manage_search:", False),
    ("pages/review.py", "review", ":material/rule:", False),
    ("pages/benchmarks.py", "benchmarks", ":material/speed:", False),
]
ROOT = Path(__file__).resolve().parent
url_state.restore()  # F5 / deep link: space, language and selection come back from the URL (before any widget)

pages = {
    # the default page is served at "/" and only reserves its url_path: "home", so that "chat" is free for the alias
    key: st.Page(str(ROOT / path), title=t(key), icon=icon, default=default, url_path="home" if default else key)
    for path, key, icon, default in PAGES
}


def _chat_alias() -> None:
    """`/chat?space=…` (typed, bookmarked, or the name the docs use) opens the chat, not a "Page not found" box."""
    st.switch_page(pages["chat"], query_params=st.query_params.to_dict())


nav = st.navigation(
    list(pages.values()) + [st.Page(_chat_alias, title=t("chat"), url_path="chat", visibility="hidden")]
)
mark_shell(pages)
st.html(page_css())
# Streamlit's "Press Enter to apply" under an edited input is English in every language: ours, translated
st.html(input_hint_css({k: t("hint_" + k) for k in ("enter", "enter_form", "ctrl", "ctrl_form")}))
# and its other words (toolbar buttons, "No results", aria-labels): swapped in the page by a script (ui/chrome_zh.py)
st.html(chrome_script(lang()), unsafe_allow_javascript=True)
with st.spinner(t("loading")):  # the first run of a process loads the embedder and opens the store
    get_runtime()
    warm_agent()
    open_current_space()  # a space that cannot be opened (another embedder's): the default one, and why
render_sidebar()
failed = st.session_state.pop(SPACE_ERROR, None)
if failed:  # one clear line above the page, never a traceback
    why, name = failed
    other = "reembed" in why  # the library's pointer: another embedder's space, which the studio can convert
    emb = get_runtime().embedder.name
    st.error(t("space_other_embedder", name=md_escape(name), emb=emb) if other else md_escape(why))
    if other:
        st.caption(md_escape(why))  # the library's exact words (embedder names and sizes, the CLI command)
        st.button(
            t("reembed_btn", name=md_escape(name), emb=emb),
            key="reembed_btn",
            on_click=reembed_and_open,
            args=(name,),
            icon=":material/autorenew:",
        )
if st.session_state.get(REEMBEDDED) is not None:
    st.success(t("reembedded", n=st.session_state.pop(REEMBEDDED)))
try:
    nav.run()
except WeaverError as exc:  # e.g. the Chroma server went away mid-turn: one clear line, never a traceback
    st.error(md_escape(str(exc)))
finally:  # also after st.stop() / st.rerun() in a page: the address bar is always a working deep link
    url_state.publish(nav.url_path or "chat")
