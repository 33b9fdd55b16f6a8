"""Page-wide CSS the studio adds to Streamlit's: translated input hints, columns that stack in a narrow pane.

Pure functions returning a ``<style>`` block, so tests can read what the page is given without a browser.
"""

from __future__ import annotations

import re

__all__ = ["input_hint_css", "page_css", "stack_when_narrow_css"]

# Streamlit's own hint under a focused, edited input ("Press Enter to apply", "Press Ctrl+Enter to submit form")
# is English in every language. Its first <span> is that hint whenever the widget accepts Enter (the counter of
# ``max_chars``, when there is one, follows as a second span with a "•" before it); the chat input has no hint,
# only its counter, so it is left alone.
_HINT = '[data-testid="{w}"] [data-testid="InputInstructions"]'
_WIDGETS = {"stTextInput": "enter", "stNumberInput": "enter", "stTextArea": "ctrl"}


def _css_string(text: str) -> str:
    """``text`` as a CSS string literal (quotes, backslashes and line breaks escaped; no markup can close the tag)."""
    return '"' + re.sub(r'[\\"\n<>]', lambda m: f"\\{ord(m.group()):x} ", text) + '"'


def page_css() -> str:
    """The studio's page frame: margins and fonts.

    A tighter top margin than Streamlit's default, except on a narrow (phone) window, where the header bar with
    the sidebar button covers the page's first 3.75rem and hid half the title. Streamlit's 5rem side margins
    below 1100 px: at 900 px with the sidebar open they left the page 440 px of its 600, and the chat page's
    stacked live graph too narrow to show the newest turn's four columns (its reply was off the canvas).
    CJK-capable fonts first.

    >>> "@media (max-width:1100px)" in page_css() and "padding-left:1.5rem" in page_css()
    True
    """
    main = "[data-testid='stMainBlockContainer']"
    return (
        f"<style>{main}{{padding-top:2.2rem}}"
        f"@media (max-width:1100px){{{main}{{padding-left:1.5rem;padding-right:1.5rem}}}}"
        f"@media (max-width:736px){{{main}{{padding-top:4.5rem}}}}"
        # a row of figures (ui.render.metric_row) that wrapped: its "large" gap (4 rem) is for between the
        # figures, and between the two rows it left an empty band as tall as a figure
        "[data-testid='stHorizontalBlock']:has(>[data-testid='stElementContainer']>[data-testid='stMetric'])"
        "{row-gap:1rem}"
        # the element holding ui/chrome_zh.py's script: empty, but a flex item, so it took a gap at the top
        "[data-testid='stElementContainer']:has(>[data-testid='stHtml']>script.cw-chrome){display:none}"
        "body,[data-testid='stAppViewContainer']{font-family:'Source Sans Pro','Noto Sans CJK SC',"
        "'WenQuanYi Micro Hei',sans-serif}</style>"
    )


def input_hint_css(hints: dict[str, str]) -> str:
    """Hide Streamlit's English input hints and show ``hints`` in their place, at the same moment.

    ``hints`` has the keys ``enter``, ``enter_form``, ``ctrl``, ``ctrl_form`` (a text input / number input /
    text area, outside or inside a form).

    >>> css = input_hint_css({"enter": "按回车键应用", "enter_form": "按回车键提交", "ctrl": "c", "ctrl_form": "cf"})
    >>> 'content:"按回车键应用"' in css and '[data-testid="stForm"]' in css
    True
    """
    rules = []
    for widget, keys in _WIDGETS.items():
        plain = _HINT.format(w=widget)
        rules.append(f"{plain}>span:first-child{{display:none}}")
        rules.append(f"{plain}>span+span::before{{content:none}}")  # the "•" that joined the two
        rules.append(f"{plain}::before{{content:{_css_string(hints[keys])};margin-right:.4em}}")
        rules.append(f'[data-testid="stForm"] {plain}::before{{content:{_css_string(hints[keys + "_form"])}}}')
    return "<style>" + "".join(rules) + "</style>"


def stack_when_narrow_css(key: str, below_px: int) -> str:
    """Make the columns directly inside ``st.container(key=key)`` stack, full width, when that container is
    narrower than ``below_px`` (a container query: the sidebar's width counts, the window's alone would not).

    >>> "@container (max-width:700px)" in stack_when_narrow_css("chat_cols", 700)
    True
    """
    if not re.fullmatch(r"[A-Za-z0-9_-]+", key):
        raise ValueError(f"not a CSS class name: {key!r}")
    box = f".st-key-{key}"
    # only the first row of columns in the container: nested columns (a picker beside its button) keep their row
    row = f'{box}>[data-testid="stLayoutWrapper"]>[data-testid="stHorizontalBlock"],{box}>[data-testid="stHorizontalBlock"]'
    cols = ",".join(f'{r.strip()}>[data-testid="stColumn"]' for r in row.split(","))
    return (
        f"<style>{box}{{container-type:inline-size}}"
        f"@container (max-width:{int(below_px)}px){{{row}{{flex-wrap:wrap;row-gap:1rem}}"
        f"{cols}{{width:100%!important;flex:1 1 100%!important;min-width:100%!important}}}}</style>"
    )
