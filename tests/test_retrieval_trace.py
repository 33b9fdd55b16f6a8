"""The trace's config says which signals were on: a reader of ``query --explain`` trusts it."""

from __future__ import annotations

import networkx as nx
import numpy as np

from weaver.neighbourhood import EdgeIndex
from weaver.retrieval import retrieve
from weaver.settings import WeaverConfig


def _space():
    g = nx.DiGraph()
    texts = ["预算五千元", "每晚不超过六百", "I am allergic to peanuts"]
    ids = [f"n{i}" for i in range(len(texts))]
    for i, (nid, text) in enumerate(zip(ids, texts)):
        g.add_node(nid, content=text, kind="user_input", turn=i)
    g.add_edge("n0", "n1", relation="conditional", confidence=0.9, origin="rules")
    matrix = np.eye(3, dtype=np.float32)
    return g, ids, matrix


def _run(edges, expand_graph=True):
    g, ids, matrix = _space()
    cfg = WeaverConfig()
    res = retrieve(g, ids, matrix, None, "预算", matrix[0], cfg, budget=256, expand_graph=expand_graph, edges=edges)
    return res, cfg


def test_edge_lift_is_reported_off_without_an_edge_index():
    res, _ = _run(edges=None)
    assert res.config["edge_lift"] == 0.0
    assert res.edges, "the included nodes' edges are still listed"


def test_edge_lift_is_reported_on_with_an_edge_index_and_expansion():
    g, ids, _ = _space()
    index = EdgeIndex()
    index.rebuild(g, {n: i for i, n in enumerate(ids)})
    res, cfg = _run(edges=index)
    assert res.config["edge_lift"] == cfg.edge_lift > 0
    res, _ = _run(edges=index, expand_graph=False)
    assert res.config["edge_lift"] == 0.0
