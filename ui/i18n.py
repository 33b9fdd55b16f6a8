"""UI strings in English and Chinese (the studio's chrome; memory text is shown as written)."""

from __future__ import annotations

import streamlit as st

__all__ = ["t", "lang", "pick", "LANGS"]

LANGS = {"en": "English", "zh": "中文"}

from .strings import S as _S  # noqa: E402


def lang() -> str:
    return st.session_state.get("ui_lang", "en")


def t(key: str, **kw) -> str:
    en, zh = _S[key]
    s = zh if lang() == "zh" else en
    return s.format(**kw) if kw else s


def pick(pair: tuple[str, str]) -> str:
    """The current language's half of an (English, Chinese) pair kept next to the code that uses it."""
    return pair[1] if lang() == "zh" else pair[0]
