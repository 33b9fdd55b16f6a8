"""Warming a space (weaver.warming, ContextWeaver.warm): the once-a-process loads done up front, safe in a thread
beside ingest, and changing no result."""

from __future__ import annotations

import threading
from dataclasses import replace

from weaver import Runtime, nearest
from weaver import ingest as ingest_mod
from weaver.bench.scale import synthetic_texts
from weaver.curation.arrival import slot_index

TEXTS = synthetic_texts(30, seed=5) + ["My total budget is 5000 yuan", "预算改成八千", "My total budget is 8000 yuan"]


def _graph(w) -> tuple:
    nodes = sorted((n.content, n.kind, n.status) for n in w.nodes.values())
    edges = sorted(
        (w.nodes[u].content, w.nodes[v].content, d["relation"], d["origin"]) for u, v, d in w.graph.edges(data=True)
    )
    return nodes, edges


def test_warm_loads_each_part_and_the_store_indexes(settings, embedder, monkeypatch):
    monkeypatch.setattr(nearest, "INDEX_MIN_ROWS", 5)  # a small real space searched through Chroma's index
    monkeypatch.setattr(ingest_mod, "INDEX_MIN_ROWS", 5)
    w = Runtime.from_settings(settings, embedder=embedder).open("warm-parts")
    for t in TEXTS[:12]:
        w.ingest(t)
    w.flush()
    took = w.warm()
    assert set(took) == {"text tools", "vector index", "supersede index", "store indexes", "proper nouns"}
    assert all(s >= 0 for s in took.values())
    assert nearest.warm_index(w) is True  # the space is over the (lowered) line: its index answered
    assert w.space.warm_indexes() == 2  # the edges' and the decisions' indexes, each holding records
    assert slot_index(w).upto == w.node_count  # the supersede index caught up with every node


def test_no_vector_index_below_the_line(settings, embedder):
    w = Runtime.from_settings(settings, embedder=embedder).open("warm-small")
    w.ingest("I need a hotel near Sanlitun under 800 yuan")
    assert nearest.warm_index(w) is False  # a small space never searches the index: nothing to load


def test_warm_in_a_thread_beside_ingest_changes_nothing(settings, embedder):
    rt = Runtime.from_settings(replace(settings, write_behind=8), embedder=embedder)
    plain = rt.open("warm-plain")
    for t in TEXTS:
        plain.ingest(t)
    warmed = rt.open("warm-thread")
    warmed.ingest(TEXTS[0])
    runs = []
    threads = [threading.Thread(target=lambda: runs.append(warmed.warm())) for _ in range(3)]
    for th in threads:
        th.start()
    for t in TEXTS[1:]:
        warmed.ingest(t)
    for th in threads:
        th.join()
    assert len(runs) == 3
    assert _graph(warmed) == _graph(plain)
    statuses = {n.content: n.status for n in warmed.nodes.values()}
    assert statuses["My total budget is 5000 yuan"] == "superseded"  # the supersede index served the arrival
    idx = slot_index(warmed)
    for positions in idx.by_key.values():  # updates beside the warm-up never indexed a position twice
        assert len(positions) == len(set(positions))


def test_warm_in_background_runs_and_a_failure_stays_quiet(settings, embedder):
    from weaver.warming import warm_in_background

    w = Runtime.from_settings(settings, embedder=embedder).open("warm-bg")
    for t in TEXTS[:5]:
        w.ingest(t)
    thread = warm_in_background(w)
    thread.join(timeout=60)
    assert not thread.is_alive() and slot_index(w).upto == w.node_count

    class Broken:  # a weaver whose store is gone: the thread ends without raising into anyone
        mirror = property(lambda self: (_ for _ in ()).throw(RuntimeError("store closed")))
        space = None

    errors: list = []
    threading.excepthook, old = (lambda args: errors.append(args)), threading.excepthook
    try:
        t = warm_in_background(Broken())
        t.join(timeout=60)
    finally:
        threading.excepthook = old
    assert not t.is_alive() and not errors
