"""Safe display of untrusted text (user messages, LLM output, tool rows) and small shared widgets.

``st.markdown`` already refuses raw HTML, but Markdown itself is live: an image link in a tool
result would make the browser fetch it. Untrusted text therefore goes through :func:`md_escape`
(every Markdown punctuation backslash-escaped, autolinks broken) or ``st.text``/``st.code``/``st.json``.
Every page uses it for every ``st.markdown`` / ``caption`` / ``success`` / ``info`` / ``warning`` /
``error`` / ``toast`` / label / help text that holds user- or model-derived text.
"""

from __future__ import annotations

import re

import pandas as pd
import streamlit as st

from .i18n import t

__all__ = ["md_escape", "show_text", "badge", "decisions_frame", "metric_row"]

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&=\"'])")
# GFM's autolink literals are found in the parsed *text* (escapes already resolved), so backslashes
# cannot stop them: a WORD JOINER (U+2060, invisible) inside "://", "www." and after "@" does
_WJ = "\u2060"
_AUTOLINK = re.compile(r"(?i)(?<=:)(?=//)|(?<=www)(?=\.)|(?<=@)")


def md_escape(text: str) -> str:
    r"""Text that Markdown renders literally (line breaks kept).

    >>> md_escape("![x](http://a.b/c.png) <b>hi</b>")
    '\\!\\[x\\]\\(http\\:\u2060\\/\\/a\\.b\\/c\\.png\\) \\<b\\>hi\\<\\/b\\>'
    >>> md_escape("www.a.b me@a.b").replace(_WJ, "|")
    'www|\\.a\\.b me@|a\\.b'
    """
    s = _AUTOLINK.sub(_WJ, str(text or ""))
    s = _MD_SPECIAL.sub(r"\\\1", s).replace("/", "\\/")
    return s.replace("\r\n", "\n").replace("\n", "  \n")


def show_text(text: str, container=None) -> None:
    (container or st).markdown(md_escape(text))


def badge(ingest: dict | None, container=None) -> None:
    """The compact filter badge: kept/rejected, r/n/i and total (numbers only, no user text)."""
    if not ingest:
        return
    c = container or st
    s = ingest.get("scores", {})
    kept = ingest.get("kept")
    label = (
        f"{t('kept') if kept else t('rejected')} · r {s.get('relevance', 0):.1f} · n {s.get('novelty', 0):.1f}"
        f" · i {s.get('importance', 0):.1f} · Σ {s.get('total', 0):.2f}"
    )
    if ingest.get("promoted"):
        label += f" · {t('promoted_badge')}"
    if ingest.get("duplicate"):
        label += f" · {t('dup')}"
    c.badge(label, icon=":material/check:" if kept else ":material/block:", color="green" if kept else "gray")


def decisions_frame(decisions) -> pd.DataFrame:
    """One row per filter decision (kept or not), newest last — the chat's score table."""
    rows = [
        {
            "turn": d.turn,
            "kind": d.kind,
            "kept": bool(d.kept),
            "promoted": bool(d.promoted),
            "relevance": round(d.relevance, 2),
            "novelty": round(d.novelty, 2),
            "importance": round(d.importance, 2),
            "total": round(d.total, 3),
            "coarse": round(d.coarse, 3),
            "new_topic": bool(d.focus_shift_at),
            "keep_threshold": d.keep_threshold,
            "backend": d.backend,
            "fallback": d.fallback,
            "content": d.content,
            "reason": d.reason,
            "message_id": d.message_id,
            "node_id": d.node_id,
            "timestamp": d.timestamp,
        }
        for d in decisions
    ]
    cols = [
        "turn",
        "kind",
        "kept",
        "promoted",
        "relevance",
        "novelty",
        "importance",
        "total",
        "coarse",
        "new_topic",
        "keep_threshold",
        "backend",
        "fallback",
        "content",
        "reason",
        "message_id",
        "node_id",
        "timestamp",
    ]
    df = pd.DataFrame(rows, columns=cols)
    return df.sort_values(["timestamp"], kind="stable").reset_index(drop=True)


def metric_row(items: list[tuple]) -> None:
    """A row of ``st.metric`` s, each ``(label, value)`` or ``(label, value, help)``, as wide as its words, wrapping
    onto a second line in a narrow pane: in equal columns at 900 px with the sidebar open the values were cut
    to "974 ⋯" and the labels to "memorie…"."""
    with st.container(horizontal=True, gap="large"):
        for label, value, *help_ in items:
            st.metric(label, value, help=help_[0] if help_ else None, width="content")
