"""What a query keeps between calls (each node's line tokens, each node's edges, the statements' slot values)
changes no result: on a real space (real Chroma, real embedder) every query ranks, packs and renders exactly as a
retrieval that keeps nothing, before and after the writes that could leave a kept fact stale (a new message, a
status change, an edge drawn or removed by curation, an archived memory). The walks that replaced networkx's
generic calls are checked against those calls on the same graph."""

from __future__ import annotations

import networkx as nx

from weaver.decision_context import apply_block, constraint_boost, decision_for
from weaver.graph import Neighbours, Step, causal_order, expand
from weaver.lifecycle.tiers import mark_tiers
from weaver.neighbourhood import EdgeIndex, NodeFacts
from weaver.retrieval import retrieve
from weaver.slots import asks_history

TURNS = [
    (1, "我们五月一号出发去北京，两个人，总预算五千元"),
    (1, "住宿每晚别超过六百块，最好安静一点"),
    (1, "我对海鲜过敏，吃饭要避开海鲜"),
    (1, "第一天想去故宫参观，门票多少钱？"),
    (1, "故宫的门票60元，评分4.8分"),
    (1, "那就订故宫附近的酒店吧"),
    (1, "预算改成八千吧，想住好一点"),
    (2, "晚饭想在王府井附近吃，人均一百左右"),
    (2, "I also want a hotel near Sanlitun with a gym"),
    (2, "My daughter Mia is vegetarian, so the restaurant needs vegetarian dishes"),
    (2, "The flight lands at 11 pm, so the first night should be near the airport"),
    (3, "第二天去颐和园，上午出发"),
    (3, "颐和园门票30元，评分4.7分"),
    (3, "每晚房价改成不超过八百块"),
    (3, "What did we decide about dinner on the first day?"),
]
QUERIES = [
    "晚饭去哪家餐厅？",
    "Which hotel should we book?",
    "故宫门票多少钱",
    "What is the budget now?",
    "之前的预算是多少？",  # a question about history: superseded memories may answer
    "Where does Mia want to eat?",
]


def _reference(w, query: str):
    """The query as a retrieval that keeps nothing: statuses scanned from the graph, positions, line costs,
    edges and slot values all derived again for this call."""
    cfg, g, ids = w.config, w.graph, list(w.node_ids)
    budget = cfg.budget
    block = decision_for(w, query, cfg, budget) if cfg.decision_context else None
    res = retrieve(
        g,
        ids,
        w.matrix.copy(),
        w.lexical,
        query,
        w.embed([query])[0],
        cfg,
        budget - block.tokens if block else budget,
        facts=NodeFacts.of([(w.nodes[i].meta, w.nodes[i].turn) for i in ids]),
        edges=EdgeIndex.of(g, ids),
        boost=constraint_boost(w, cfg),
    )
    if block is not None:
        res = apply_block(g, res, block, budget)
    mark_tiers(w, res)
    return res


def _same(w, query: str) -> None:
    fast, ref = w.query(query), _reference(w, query)
    a, b = fast.to_dict(), ref.to_dict()
    a.pop("timings_ms"), b.pop("timings_ms")
    a["config"].pop("revisions"), b["config"].pop("revisions", None)
    assert a == b, query
    assert [n.cut_reason for n in fast.ranked] == [n.cut_reason for n in ref.ranked]


def _weave(w):
    ids = []
    for session, text in TURNS:
        r = w.ingest(text, meta={"session": session, "speaker": "user"})
        if r.kept:
            ids.append(r.node.id)
    return ids


def test_kept_query_facts_change_no_result_across_writes(runtime):
    w = runtime.open("caches")
    ids = _weave(w)
    assert len(ids) >= 10
    for q in QUERIES:
        _same(w, q)
    assert asks_history(QUERIES[4])
    assert w.query(QUERIES[0]).config["boosted"] > 0  # the user revised: constraint statements weigh more
    # a status change (the line of a superseded memory says so), an edge drawn and one removed, an archived memory
    w.curation.set_status(ids[1], "superseded", "restated later", by=ids[-2])
    w.curation.set_edge(ids[0], ids[5], "causal", "the trip frame is why this hotel")
    drawn = next(iter(w.graph.out_edges(ids[2])), None) or next(iter(w.graph.in_edges(ids[2])))
    w.curation.remove_edge(*drawn, "not a dependency")
    w.curation.set_status(ids[3], "archived", "set aside for the test", actor="lifecycle")
    for q in QUERIES:
        _same(w, q)
    # new messages after the caches were filled
    w.ingest("晚饭改成在三里屯吃，人均两百以内", meta={"session": 4, "speaker": "user"})
    w.ingest("The hotel near Sanlitun has a gym and costs 750 a night", meta={"session": 4, "speaker": "user"})
    for q in QUERIES:
        _same(w, q)


def _expand_as_networkx(g: nx.DiGraph, seeds, hops: int, limit: int | None) -> dict[str, Step]:
    """:func:`weaver.graph.expand` as it was written over networkx's predecessors / successors / edges views."""

    def active(n):
        return g.nodes[n].get("status", "active") == "active"

    steps: dict[str, Step] = {}
    seeds = [s for s in seeds if s in g and active(s)]
    for s in seeds:
        steps[s] = Step(s, 0, s, None, None, None, None)
    for seed in seeds:
        frontier, reached = [seed], 0
        for hop in range(1, hops + 1):
            nxt, options = [], []
            for u in frontier:
                for p in g.predecessors(u):
                    d = g.edges[p, u]
                    options.append((d.get("confidence", 1.0), p, u, (p, u), d.get("relation"), "cause"))
                for c in g.successors(u):
                    d = g.edges[u, c]
                    options.append((d.get("confidence", 1.0), c, u, (u, c), d.get("relation"), "effect"))
            options.sort(key=lambda o: -o[0])
            for conf, v, u, edge, rel, direction in options:
                if not active(v) or g.edges[edge].get("status") == "rejected":
                    continue
                if v in steps and steps[v].hop <= hop:
                    continue
                if limit is not None and reached >= limit:
                    break
                steps[v] = Step(v, hop, seed, u, edge, rel, direction, conf)
                nxt.append(v)
                reached += 1
            frontier = nxt
    return steps


def test_walks_match_networkx_on_a_real_space(runtime):
    w = runtime.open("walks")
    ids = _weave(w)
    w.curation.set_status(ids[4], "superseded", "for the test", by=ids[-1])
    g = w.graph
    kept = Neighbours(g)
    for limit in (None, 2, 8):
        for hops in (1, 2, 3):
            for i in range(len(ids)):
                seeds = ids[i : i + 3]
                got = expand(g, seeds, hops, limit, kept)
                assert list(got.items()) == list(_expand_as_networkx(g, seeds, hops, limit).items())
    assert all(len(kept(n)) == g.degree(n) == kept.degree(n) == Neighbours(g).degree(n) for n in g)
    for i in range(len(ids)):
        nodes = ids[i:] + ids[:i]
        # the order as computed over networkx's shortest-path lengths (dependencies up to three hops)
        sub = nx.DiGraph()
        sub.add_nodes_from(nodes)
        for n in nodes:
            for d in set(nodes).intersection(nx.single_source_shortest_path_length(g, n, cutoff=3)):
                if d != n:
                    sub.add_edge(n, d)

        def key(n):
            return (g.nodes[n].get("turn", 0), g.nodes[n].get("timestamp", 0.0), n)

        assert causal_order(g, nodes) == list(nx.lexicographical_topological_sort(sub, key=key))


def test_revision_boost_reads_the_kept_statement_values(runtime, monkeypatch):
    """The revision boost takes each statement's slot values from what the weaver keeps (read once per node,
    as the constraint records read them), not from the slot readers again: at 100k nodes reading every active
    statement anew was the first query's 25-40 s. The statements it boosts are the ones the readers give."""
    import weaver.constraints as constraints
    from weaver.decision_context import _ranked_as_active

    w = runtime.open("boost-kept")
    _weave(w)
    w.curation.set_status(w.node_ids[2], "archived", "set aside for the test", actor="lifecycle")
    expected = {
        nid
        for nid in w.node_ids
        if w.nodes[nid].kind == "user_input"
        and _ranked_as_active(w.nodes[nid])
        and any(v.known for v in constraints.statement_values(w.nodes[nid].content))
    }
    assert w.nodes[w.node_ids[2]].kind == "user_input" and w.node_ids[2] in expected  # an archived one counts
    # a query that decides nothing reads no constraint records: the boost alone fills the kept values
    assert decision_for(w, "Tell me a joke", w.config, 512) is None
    first = constraint_boost(w, w.config)
    assert set(first) == expected and all(first[n] > 0 for n in expected)
    constraints._statement_values.cache_clear()

    def no_reader(_text):
        raise AssertionError("a slot reader ran for a statement the weaver keeps")

    monkeypatch.setattr(constraints, "read_slots", no_reader)
    monkeypatch.setattr(constraints, "read_prefs", no_reader)
    w.graph.graph.pop("_boosted"), w.graph.graph.pop("_boosts")  # computed again, from the kept values
    assert dict(constraint_boost(w, w.config)) == dict(first)
