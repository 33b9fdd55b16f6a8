"""The scale benchmark's bulk-built spaces look like what real ingest of the same turns leaves behind.

Real parts: the real embedder, a real Chroma space, the real ingest path (filter, builder, supersede on
arrival, review passes) as the reference for the bulk builder's replay of the slot rules.
"""

from __future__ import annotations

from weaver.bench.scale import synthetic_texts
from weaver.bench.scale_space import bulk_space, restatements
from weaver.models import Message


def test_replayed_restatements_are_what_real_ingest_supersedes(weaver):
    texts = synthetic_texts(90, seed=5)
    weaver.ingest_many([Message(t) for t in texts])
    ids = weaver.node_ids
    kept = [weaver.nodes[i] for i in ids]
    edges, gone = restatements([n.content for n in kept])
    superseded = {i for i, n in enumerate(kept) if n.status == "superseded"}
    assert superseded, "the synthetic turns restate budgets and hotel areas"
    assert set(gone) == superseded
    real = {
        (weaver.position_of(e.source), weaver.position_of(e.target))
        for e in weaver.edges()
        if e.relation == "supersedes"
    }
    assert set(edges) == real


def test_bulk_space_writes_restatements_superseded_and_a_restatement_supersedes_one(runtime):
    w = runtime.open("bulk")
    texts = synthetic_texts(300, seed=300)
    n_edges = bulk_space(w, texts, w.embedder.dim, seed=300, chunk=128)
    w = runtime.open("bulk")  # a fresh weaver reads what the builder wrote
    assert w.node_count == 300 and len(w.edges()) == n_edges
    _, gone = restatements(texts)
    assert {i for i, nid in enumerate(w.node_ids) if w.nodes[nid].status == "superseded"} == set(gone)
    assert all(w.nodes[f"n-{i}"].meta["superseded_by"] == f"n-{j}" for i, j in gone.items())
    before = {nid for nid in w.node_ids if w.nodes[nid].status == "active"}
    res = w.ingest("My budget is 123456 dollars")
    assert res.node is not None
    now_superseded = {nid for nid in before if w.nodes[nid].status == "superseded"}
    # the one budget still in force is replaced, not the hundreds stated before it
    assert len(now_superseded) == 1
