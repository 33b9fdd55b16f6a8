"""The nearest-memory checks through the store's HNSW index (weaver.nearest): in a large space the filter's nearest
memory and the review pass's nearest earlier nodes come from Chroma's index of the nodes plus the rows it does not
hold yet, scored exactly. Here the size line is lowered so a small real space takes that path, and what it gives
is compared with the exact product's."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from weaver import Runtime, nearest
from weaver import ingest as ingest_mod
from weaver.bench.scale import synthetic_texts
from weaver.curation import review_window
from weaver.curation.review_window import ReviewWindow

TEXTS = synthetic_texts(40, seed=7) + [
    "I am allergic to peanuts.",
    "我想住在故宫附近的安静酒店。",
    "I am allergic to peanuts!",  # a near repeat of a memory still in the write-behind log
]


def _decisions(w) -> list[tuple]:
    return [(d.content, d.kept, d.novelty, d.total, d.reason) for d in w.mirror.decisions.values()]


def _ingest(settings, embedder, name: str, line: int, monkeypatch, calls: list) -> object:
    monkeypatch.setattr(nearest, "INDEX_MIN_ROWS", line)
    monkeypatch.setattr(ingest_mod, "INDEX_MIN_ROWS", line)
    w = Runtime.from_settings(replace(settings, write_behind=8), embedder=embedder).open(name)
    search = w.space.similar_ids

    def counted(vecs, k):
        calls.append(len(vecs))
        return search(vecs, k)

    monkeypatch.setattr(w.space, "similar_ids", counted)
    for t in TEXTS:
        w.ingest(t)
    return w


def test_the_filter_through_the_index_decides_as_the_exact_product(settings, embedder, monkeypatch):
    exact_calls: list = []
    exact = _ingest(settings, embedder, "exact", 10**9, monkeypatch, exact_calls)
    indexed_calls: list = []
    indexed = _ingest(settings, embedder, "indexed", 5, monkeypatch, indexed_calls)
    assert not exact_calls and indexed_calls  # only the lowered line asks the index
    assert _decisions(indexed) == _decisions(exact)
    last = list(indexed.mirror.decisions.values())[-1]
    assert not last.kept and "near-duplicate" in last.reason  # its twin was found though Chroma did not hold it


def test_rows_the_index_does_not_hold_yet_are_scored(settings, embedder, monkeypatch):
    w = _ingest(settings, embedder, "pending", 5, monkeypatch, [])
    assert not w.space.all_applied()  # the last sections are still in the write-behind log
    vec = w.matrix[-1].copy()
    sim, row = nearest.nearest_indexed(w, vec)
    assert row == len(w.mirror) - 1 and sim == pytest.approx(1.0, abs=1e-5)
    # the same answer as the exact product for every stored vector
    for i in range(0, len(w.mirror), 7):
        v = w.matrix[i]
        got = nearest.nearest_indexed(w, v)
        assert got is not None and got[1] == int(np.argmax(w.matrix @ v))


def test_small_spaces_never_ask_the_index(settings, embedder, monkeypatch):
    calls: list = []
    w = _ingest(settings, embedder, "small", nearest.INDEX_MIN_ROWS, monkeypatch, calls)
    assert len(w.mirror) < nearest.INDEX_MIN_ROWS and not calls
    assert nearest.indexed_candidates(w, w.matrix[:1], 4) is None


def test_review_window_nearest_earlier_through_the_index(settings, embedder, monkeypatch):
    w = _ingest(settings, embedder, "review", 10**9, monkeypatch, [])
    exact = ReviewWindow(w.curation, 30)
    want = {v: exact.nearest_earlier(v, 5) for v in exact.ids}
    monkeypatch.setattr(nearest, "INDEX_MIN_ROWS", 5)
    w.flush()  # everything in Chroma: the index holds every row
    review_window._NEAR.pop(w.mirror, None)  # forget the exact run's answers (they are kept per mirror)
    win = ReviewWindow(w.curation, 30)
    for v in win.ids:
        got = win.nearest_earlier(v, 5, win.ids)
        assert [u for _, u in got] == [u for _, u in want[v]]
        assert [s for s, _ in got] == pytest.approx([s for s, _ in want[v]], abs=1e-6)
