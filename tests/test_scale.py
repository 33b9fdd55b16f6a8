"""Scale machinery: the mirror's incremental state agrees with what a from-scratch computation gives.

Real parts throughout: bm25s itself as the reference for the incremental BM25,
a real Chroma space and the real embedder for the mirror and its cache.
"""

from __future__ import annotations

import json

import bm25s
import numpy as np
import pytest

from weaver.bench.scale import synthetic_texts
from weaver.lexical import LexicalIndex, lexical_tokens
from weaver.models import Message
from weaver.retrieval import _Ranking


def test_incremental_bm25_equals_a_fresh_bm25s_index():
    texts = synthetic_texts(600, seed=4) + ["", "the and of", "预算五千元，住王府井附近"]
    index = LexicalIndex()
    for i in range(0, len(texts), 7):  # arriving in small batches, as memories do
        index.add([f"n{j}" for j in range(i, min(i + 7, len(texts)))], texts[i : i + 7])
    ref = bm25s.BM25()
    ref.index([lexical_tokens(t) or ["<empty>"] for t in texts], show_progress=False)
    for q in ["hotel near Wangfujing hotel", "预算 王府井 餐馆", "allergic to peanuts on day 3", "no such word"]:
        tokens = lexical_tokens(q)
        expected = (
            np.asarray(ref.get_scores(tokens), dtype=np.float32)
            if ref.get_tokens_ids(tokens)
            else np.zeros(len(texts), dtype=np.float32)
        )
        np.testing.assert_allclose(index.raw_scores(tokens), expected, rtol=1e-5, atol=1e-6)
    assert index.scores("hotel Wangfujing").max() == pytest.approx(1.0)
    index.remove({"n0", "n5"})  # removal rebuilds the postings: the scores follow the remaining texts
    assert len(index) == len(texts) - 2 and "n0" not in index.ids


def test_lazy_ranking_is_the_full_sort():
    rng = np.random.default_rng(0)
    rel = rng.standard_normal(5000).astype(np.float32)
    rel[rng.integers(0, 5000, 300)] = -np.inf  # inactive rows never rank
    order = _Ranking(rel)
    full = [int(i) for i in np.argsort(-rel, kind="stable") if np.isfinite(rel[i])]
    assert order.head(40) == full[:40]
    assert list(order.after(40)) == full[40:]  # the tail is sorted only when the packing loop reaches it
    assert len(order) == len(full)


def test_mirror_vectors_status_mask_and_queries(weaver):
    res = weaver.ingest_many(
        [
            Message(t)
            for t in ["I'm allergic to peanuts", "我的预算是五千元", "Book a hotel near Sanlitun", "第二天去颐和园参观"]
        ]
    )
    kept = [r.node.id for r in res if r.node]
    assert len(kept) >= 3
    # the growable array holds exactly the stored vectors, in node order
    for nid in kept:
        np.testing.assert_array_equal(weaver.matrix[weaver.node_ids.index(nid)], weaver.vector_of(nid))
    assert not weaver.matrix.flags.writeable  # a view: callers cannot corrupt the mirror
    peanut = next(r.node.id for r in res if r.node and "peanuts" in r.node.content)
    assert peanut in weaver.query("what am I allergic to?").node_ids
    weaver.curation.set_status(peanut, "retracted", why="a mistake")
    assert weaver.graph.nodes[peanut]["status"] == "retracted"
    assert peanut not in weaver.query("what am I allergic to?").node_ids
    assert peanut not in weaver.query("what am I allergic to?", expand=False).node_ids
    weaver.curation.undo()
    assert peanut in weaver.query("what am I allergic to?").node_ids


def test_reopen_reads_the_derived_cache_and_answers_the_same(runtime):
    w = runtime.open("cache")
    w.ingest_many([Message(t) for t in synthetic_texts(40, seed=2)])
    cold = runtime.open("cache")  # derives every node's facts from the records, and caches them
    assert cold.mirror.derived_misses == len(cold.node_ids) > 0
    assert runtime.open("cache").mirror.derived_misses == 0  # the next open reads them (from the snapshot)
    files = list((runtime.settings.data_dir / "cache").glob("*.derived.json"))
    assert len(files) == 1
    # the derived cache serves a full load (when the snapshot is stale or gone): take the snapshot away
    snapshots = lambda: list((runtime.settings.data_dir / "cache").glob("*.snapshot.npz"))  # noqa: E731
    assert len(snapshots()) == 1
    snapshots()[0].unlink()
    assert runtime.open("cache").mirror.derived_misses == 0
    # a tampered entry (its text no longer matches) is recomputed, never trusted
    data = json.loads(files[0].read_text(encoding="utf-8"))
    victim = next(iter(data))
    data[victim] = [data[victim][0] ^ 1, ["bogus"], ["bogus"], [42.0]]
    files[0].write_text(json.dumps(data), encoding="utf-8")
    files[0].with_name("x").write_text("")  # unrelated files beside it are ignored
    for p in snapshots():
        p.unlink()
    warm = runtime.open("cache")
    assert warm.mirror.derived_misses == 1
    assert "bogus" not in warm.mirror.words and "bogus" not in warm.mirror.derived[victim][1]
    for q in ["hotel near Sanlitun", "预算多少", "what am I allergic to?"]:
        assert warm.query(q).context == w.query(q).context
    files[0].write_text("{not json", encoding="utf-8")  # a torn cache: rebuilt from the records
    for p in snapshots():
        p.unlink()
    torn = runtime.open("cache")
    assert torn.mirror.derived_misses == len(torn.node_ids)
    assert torn.query("hotel near Sanlitun").context == w.query("hotel near Sanlitun").context


def _edge_lift_reference(relevance, edges, weight, facts=None, decay=0.0, window=0):
    """edge_lift as it was written before its per-state plan: np.maximum.at over every edge, per query."""
    out = np.zeros(len(relevance))
    src, dst, conf = edges.arrays()
    ok = (src < len(relevance)) & (dst < len(relevance))
    src, dst, conf = src[ok], dst[ok], conf[ok]
    lend = np.where(np.isfinite(relevance), np.maximum(relevance, 0.0), 0.0)
    share = weight * conf
    if facts is not None and decay and window >= 1 and len(facts) == len(relevance):
        apart = np.abs(dst - src)
        ep = facts.episodes
        near = (ep[src] == ep[dst]) & (apart >= 1) & (apart <= window)
        share = np.where(near, np.maximum(0.0, share - decay ** np.clip(apart, 1, window).astype(np.float64)), share)
    np.maximum.at(out, dst, lend[src] * share)
    np.maximum.at(out, src, lend[dst] * share)
    return out


def test_edge_lift_plan_equals_the_per_query_scatter():
    from weaver.neighbourhood import EdgeIndex, NodeFacts, edge_lift

    rng = np.random.default_rng(5)
    n = 400
    facts = NodeFacts.of([({"session": int(i // 37)}, i) for i in range(n)])
    edges = EdgeIndex()
    for _ in range(900):
        a, b = sorted(rng.integers(0, n, 2).tolist())
        edges.add(a, b, float(rng.uniform(0.3, 1.0)))
    for trial in range(6):
        rel = rng.normal(size=n).astype(np.float32)
        rel[rng.integers(0, n, 30)] = -np.inf
        args = [(0.6, None, 0.0, 0), (0.6, facts, 0.5, 3)][trial % 2]
        assert np.array_equal(edge_lift(rel, edges, *args), _edge_lift_reference(rel, edges, *args))
        if trial == 3:  # a new edge: the plan follows the edges
            edges.add(1, n - 1, 0.9)
    assert np.array_equal(edge_lift(rel[:300], edges, 0.6), _edge_lift_reference(rel[:300], edges, 0.6))
