"""The Retrieval page's "Saved probes" tab: save a query with the memories it should surface, see what changed.

A probe re-runs after every review pass (``weaver.probes``); the table says, in the memories' words, what each
last run gained and lost against the one before.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from weaver.debugger_words import quote
from weaver.models import WeaverError
from weaver.probes import delete_probe, diff_snapshots, list_probes, run_probes, save_probe

from .debug_trace import clip
from .render import md_escape
from .state import space_lock

__all__ = ["render_probes", "run_label"]

_MANUAL = "manual re-run"  # the label this tab stores; the review pass's is weaver.probes' "after review pass: …"
_AFTER_REVIEW = "after review pass"


def run_label(label: str, lang: str) -> str:
    """A probe run's stored label (English, as the CLI shows it) in the reader's language.

    >>> run_label("manual re-run", "zh"), run_label("after review pass: review (rules): 3 nodes", "zh")
    ('手动重跑', '审阅后')
    >>> run_label("manual re-run", "en")
    'manual re-run'
    """
    if lang != "zh":
        return label
    if label == _MANUAL:
        return "手动重跑"
    # the pass's own line is the library's English summary; the Review page says it in Chinese
    return "审阅后" if label.startswith(_AFTER_REVIEW) else label


def render_probes(w, space: str, query: str, budget: int, lang: str) -> None:
    """The tab for ``query`` at ``budget`` in ``space`` (saving and re-running take its write lock)."""
    ZH = lang == "zh"

    def T(en: str, zh: str) -> str:
        return zh if ZH else en

    st.caption(
        T(
            "A probe is a query plus the memories it should surface. Probes re-run after every review "
            "pass; here you see what each pass (or your edits) changed.",
            "探针 = 一个查询 + 它应当检索到的记忆。每次审阅后探针会自动重跑，这里显示每次审阅（或你的编辑）带来的变化。",
        )
    )
    expect = st.multiselect(
        T("Should surface", "应当检索到"),
        list(w.node_ids),
        default=None,
        placeholder=T("Choose the memories it should find…", "选择它应当找到的记忆…"),
        format_func=lambda i: clip(w.nodes[i].content, 60),
        key="space_ui:rd_expect",
    )
    # side by side, each as wide as its words (two half-page columns set them far apart)
    row = st.container(horizontal=True, gap="small")
    if row.button(T("Save this query as a probe", "将此查询保存为探针"), key="rd_save_probe"):
        try:
            with space_lock(space):
                p = save_probe(w, query, expect, budget=int(budget))
            st.success(md_escape(T(f"Saved probe {p.id}.", f"已保存探针 {p.id}。")))
        except WeaverError as exc:
            st.error(md_escape(str(exc)))
    rerun = row.button(T("Re-run all probes now", "立即重跑所有探针"), key="rd_run_probes")
    if rerun:
        with space_lock(space):
            run_probes(w, label=_MANUAL)
    probes = list_probes(w)
    if not probes:
        st.info(  # what a probe is for is above; this says how to make one
            T(
                "No probes yet: pick the memories this query should find above, then «Save this query as a probe».",
                "还没有探针：在上方选出这个查询应当检索到的记忆，再点「将此查询保存为探针」。",
            )
        )
    rows = []
    for p in probes:
        before = p.history[-2] if len(p.history) > 1 else None
        d = diff_snapshots(p, before, p.history[-1])

        def _names(ids):  # memories by their words, not their ids
            return ", ".join(quote(w.graph, i, 24) for i in ids)

        rows.append(
            {
                "query": clip(p.query, 50),
                "last run": run_label(d.after.get("label", ""), lang),
                "hits": f"{len(d.hits_before) if before else '–'} → {len(d.hits_after)} / {len(p.expect)}",
                "gained": _names(d.gained) if before else "",
                "lost": _names(d.lost),
                "expected lost": _names(d.expected_lost),
                "rank moves": len(d.moved),
                "changed": d.changed if before else False,
                "probe": p.id,
            }
        )
    if rows:
        names = {
            "query": "查询",
            "last run": "最近一次运行",
            "hits": "命中",
            "gained": "新增",
            "lost": "丢失",
            "expected lost": "丢失的预期记忆",
            "rank moves": "排名变化",
            "changed": "有变化",
            "probe": "编号",
        }
        frame = pd.DataFrame(rows)
        st.dataframe(frame.rename(columns=names) if ZH else frame, hide_index=True, key="rd_probe_table")
        gone = st.selectbox(
            T("Delete a probe", "删除探针"),
            [p.id for p in probes],
            index=None,
            placeholder=T("Choose a probe…", "选择一个探针…"),
            format_func=lambda i: clip(next(p.query for p in probes if p.id == i), 50),
            key="rd_probe_del",
        )
        if gone and st.button(T("Delete", "删除"), key="rd_probe_del_btn"):
            with space_lock(space):
                delete_probe(w, gone)
            st.rerun()
