"""UI strings in English and Chinese (the studio's chrome; memory text is shown as written)."""

from __future__ import annotations

import streamlit as st

__all__ = ["t", "lang", "pick", "set_lang", "LANGS", "LANG_KEY"]

LANGS = {"en": "English", "zh": "中文"}

from .strings import S as _S  # noqa: E402


LANG_KEY = "lang"  # the owner; the sidebar radio ("ui_lang") only mirrors it


def lang() -> str:
    # not the radio's own key: Streamlit drops a widget's state on a run that does not draw it
    return st.session_state.get(LANG_KEY, "en")


def set_lang(value: str) -> None:
    if value in LANGS:
        st.session_state[LANG_KEY] = value


def t(key: str, **kw) -> str:
    en, zh = _S[key]
    s = zh if lang() == "zh" else en
    return s.format(**kw) if kw else s


def pick(pair: tuple[str, str]) -> str:
    """The current language's half of an (English, Chinese) pair kept next to the code that uses it."""
    return pair[1] if lang() == "zh" else pair[0]
