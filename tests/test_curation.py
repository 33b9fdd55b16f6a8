"""Curation in the library: edge edits, audit log, undo/redo, cascade flags, crash agreement, persistence."""

from __future__ import annotations

import pytest

from weaver import WeaverError
from weaver.curation import apply_edge_table_edits, edge_table_rows, replay

TRIPS = {
    "en": [
        ("I'm planning to visit Beijing from May 1st to May 3rd.", "user_input", "dates"),
        ("My total budget is 5000 yuan.", "user_input", "budget"),
        ("I need to search for hotels in Beijing for the night of May 1.", "agent_thought", "thought"),
        (
            "Found hotels near Wangfujing available on May 1, about 400 yuan per night, within budget.",
            "tool_result",
            "result",
        ),
        ("Oh, and I'm allergic to seafood, please keep that in mind when booking meals.", "user_input", "allergy"),
        (
            "I should recommend restaurants that fit the budget and avoid seafood because of the allergy.",
            "agent_thought",
            "plan",
        ),
    ],
    "zh": [
        ("五一假期我准备去北京玩三天，5月1日出发，5月3日回来。", "user_input", "dates"),
        ("整个行程花费最多不能超过5000块。", "user_input", "budget"),
        ("先找一下5月1日晚上能住的北京酒店。", "agent_thought", "thought"),
        ("搜索结果：王府井一带有3家酒店有空房，每晚400元左右，在预算以内。", "tool_result", "result"),
        ("还有，我吃海鲜会过敏，吃饭的时候千万别点海鲜。", "user_input", "allergy"),
        ("因为预算和海鲜过敏，要挑选不超过预算、没有海鲜的餐厅。", "agent_thought", "plan"),
    ],
}


def weave(w, lang: str) -> dict[str, str]:
    ids = {}
    for content, kind, tag in TRIPS[lang]:
        res = w.ingest(content, kind, {"tool": "hotel_search"} if kind == "tool_result" else {})
        assert res.kept, content
        ids[tag] = res.node.id
    return ids


@pytest.fixture(params=["en", "zh"])
def trip(request, runtime):
    w = runtime.open(f"curate-{request.param}")
    ids = weave(w, request.param)
    return w, ids


def human_entries(w):
    return [e for e in w.curation.log.entries if e.actor == "human"]


def test_relabel_delete_add_are_audited_and_persist(trip, runtime):
    w, ids = trip
    cur = w.curation
    u, v = next(iter(w.graph.in_edges(ids["plan"])))
    was = w.graph.edges[u, v]["relation"]
    new = "elaborates" if was != "elaborates" else "causal"

    cur.set_edge(u, v, new, "the plan only adds detail")
    assert w.graph.edges[u, v]["relation"] == new
    assert w.graph.edges[u, v]["origin"] == "human" and w.graph.edges[u, v]["status"] == "confirmed"

    gone = next(iter(w.graph.in_edges(ids["result"])))
    cur.remove_edge(*gone, "not a real dependency")
    assert not w.graph.has_edge(*gone)

    assert not w.graph.has_edge(ids["dates"], ids["allergy"])
    cur.set_edge(ids["dates"], ids["allergy"], "temporal", "said on the same trip")
    assert w.graph.edges[ids["dates"], ids["allergy"]]["relation"] == "temporal"

    entries = human_entries(w)
    assert [e.action for e in entries] == ["edge.update", "edge.remove", "edge.add"]
    assert entries[0].before["relation"] == was and entries[0].after["relation"] == new
    assert entries[1].before is not None and entries[1].after is None
    assert entries[2].before is None and entries[2].why == "said on the same trip"
    assert all(e.at > 0 for e in entries)
    assert cur.verify() == []

    again = runtime.open(w.space.name)  # a fresh weaver reads everything back from the space
    assert again.graph.edges[u, v]["relation"] == new and again.graph.edges[u, v]["origin"] == "human"
    assert not again.graph.has_edge(*gone)
    assert again.graph.has_edge(ids["dates"], ids["allergy"])
    assert [e.id for e in human_entries(again)] == [e.id for e in entries]
    assert again.curation.verify() == []
    # the builder's work is in the log too: one entry per kept message, with its edges
    builds = [e for e in again.curation.log.entries if e.action == "build"]
    assert {e.key for e in builds} == set(ids.values())


def test_cycles_and_bad_edits_are_refused_without_a_trace(trip):
    w, ids = trip
    cur = w.curation
    before = (len(cur.log.entries), sorted(w.graph.edges(data="relation")))
    # the plan depends (transitively) on the budget: budget <- plan would close a loop
    with pytest.raises(WeaverError, match="cycle"):
        cur.set_edge(ids["plan"], ids["budget"], "causal")
    with pytest.raises(WeaverError, match="cycle"):
        cur.set_edge(ids["budget"], ids["budget"], "causal")
    with pytest.raises(WeaverError, match="unknown relation"):
        cur.set_edge(ids["dates"], ids["plan"], "because")
    with pytest.raises(WeaverError, match="no node"):
        cur.set_edge("n_missing", ids["plan"], "causal")
    with pytest.raises(WeaverError, match="no edge"):
        cur.remove_edge(ids["plan"], ids["dates"])
    with pytest.raises(WeaverError, match="unknown status"):
        cur.set_status(ids["plan"], "deleted")
    assert (len(cur.log.entries), sorted(w.graph.edges(data="relation"))) == before


def test_undo_redo_of_human_edits_across_processes(trip, runtime):
    w, ids = trip
    cur = w.curation
    u, v = next(iter(w.graph.in_edges(ids["plan"])))
    was = w.graph.edges[u, v]["relation"]
    new = "temporal" if was != "temporal" else "elaborates"
    cur.set_edge(u, v, new)
    cur.remove_edge(u, v)
    assert not w.graph.has_edge(u, v)

    undo1 = cur.undo()  # reverts the delete
    assert undo1.action == "undo" and w.graph.edges[u, v]["relation"] == new
    w2 = runtime.open(w.space.name)  # the undo stack survives a reopen
    w2.curation.undo()  # reverts the relabel: back to the builder's edge
    assert w2.graph.edges[u, v]["relation"] == was and w2.graph.edges[u, v]["origin"] in ("rules", "llm")
    with pytest.raises(WeaverError, match="nothing to undo"):
        w2.curation.undo()

    w2.curation.redo()
    assert w2.graph.edges[u, v]["relation"] == new
    w2.curation.redo()
    assert not w2.graph.has_edge(u, v)
    with pytest.raises(WeaverError, match="nothing to redo"):
        w2.curation.redo()

    w2.curation.undo()
    w2.curation.set_edge(ids["dates"], ids["allergy"], "temporal")  # a fresh edit ends the redo chain
    with pytest.raises(WeaverError, match="nothing to redo"):
        w2.curation.redo()
    assert w2.curation.verify() == []
    undone = [e for e in w2.curation.log.entries if w2.curation.log.undone(e.id)]
    assert [e.action for e in undone] == ["edge.remove"]  # both were redone, then the delete undone again
    assert [e.action for e in w2.curation.log.entries if e.action in ("undo", "redo")] == [
        "undo",
        "undo",
        "redo",
        "redo",
        "undo",
    ]


def test_retract_and_supersede_cascade_flags_without_deleting(trip, runtime):
    w, ids = trip
    cur = w.curation
    n_nodes, n_edges = len(w.nodes), w.graph.number_of_edges()
    # a tiny dependency chain of our own, so the expectation does not hang on the builder's choices
    for u, v in list(w.graph.out_edges(ids["budget"])):
        cur.remove_edge(u, v)
    cur.set_edge(ids["budget"], ids["result"], "conditional")
    cur.set_edge(ids["result"], ids["plan"], "causal")
    cur.set_edge(ids["budget"], ids["allergy"], "temporal")  # temporal: not a dependency
    for u, v in list(w.graph.in_edges(ids["plan"])):
        if u != ids["result"]:
            cur.remove_edge(u, v)

    entry = cur.set_status(ids["budget"], "retracted", "the user withdrew the budget")
    flagged = {i.target: i for i in cur.items() if i.kind == "needs_review"}
    assert set(flagged) == {ids["result"], ids["plan"]}
    assert ids["allergy"] not in flagged
    assert all(i.cause_entry == entry.id and i.evidence["source"]["id"] == ids["budget"] for i in flagged.values())
    assert "->" in flagged[ids["plan"]].rationale  # the dependency path is the evidence
    assert w.nodes[ids["budget"]].status == "retracted"
    assert all(w.nodes[n].status == "active" for n in flagged)  # flagged, not changed
    assert len(w.nodes) == n_nodes
    assert cur.flagged() == set(flagged)

    again = runtime.open(w.space.name)
    assert again.nodes[ids["budget"]].status == "retracted"
    assert again.curation.flagged() == set(flagged)
    ctx = again.query("what is the budget?").context
    assert "5000" not in ctx  # a retracted memory is not retrieved

    again.curation.undo()  # the cause is restored: its flags are withdrawn
    assert again.nodes[ids["budget"]].status == "active" and again.curation.flagged() == set()

    again.curation.set_status(ids["budget"], "superseded", "replaced")
    items = {i.target: i for i in again.curation.items() if i.kind == "needs_review"}
    again.curation.accept(items[ids["result"]].id)  # the flag is right: the result falls with its cause
    assert again.nodes[ids["result"]].status == "superseded"
    again.curation.reject(items[ids["plan"]].id)  # the curator decided the plan still holds
    assert again.nodes[ids["plan"]].status == "active"
    assert n_edges - w.graph.number_of_edges() < n_edges  # edges were edited, nothing was wiped
    assert again.curation.verify() == []


def test_audit_log_agrees_with_graph_after_a_crash(runtime):
    w = runtime.open("crashy")
    weave(w, "en")
    real = w.space.put_decisions

    def crash(*a, **k):
        raise KeyboardInterrupt("power cut")  # the process dies after node and edges, before the decision

    w.space.put_decisions = crash
    with pytest.raises(KeyboardInterrupt):
        w.ingest("Since the budget is fixed, I will pick the cheaper hotel.", "agent_thought")
    w.space.put_decisions = real
    again = runtime.open("crashy")
    assert any("uncommitted" in r for r in again.repaired)  # the store removed the node
    # the builder's entry rode on the decision that never landed: the log holds nothing of that message
    assert not [e for e in again.curation.log.entries if "cheaper hotel" in str(e.after)]
    assert again.curation.verify() == []
    edges, nodes = replay(again.curation.log.entries)
    assert set(nodes) == set(again.nodes)

    # an edit whose graph write never landed is rolled forward from its (write-ahead) audit entry
    u, v = next(iter(again.graph.edges))
    cur = again.curation
    cur._write_edge = lambda *a: (_ for _ in ()).throw(KeyboardInterrupt("power cut"))
    with pytest.raises(KeyboardInterrupt):
        cur.remove_edge(u, v)
    third = runtime.open("crashy")
    assert not third.graph.has_edge(u, v)
    assert any("rolled forward" in r for r in third.curation.repaired)
    assert third.curation.verify() == []


def test_edge_table_edits_go_through_the_library(trip):
    w, ids = trip
    rows = edge_table_rows(w)
    assert len(rows) == w.graph.number_of_edges()
    assert {"source", "target", "from", "to", "relation", "origin", "delete"} <= set(rows[0])
    i_rel = next(i for i, r in enumerate(rows) if r["relation"] != "causal")
    i_del = next(i for i, r in enumerate(rows) if i != i_rel)
    done, errors = apply_edge_table_edits(
        w.curation, rows, {str(i_rel): {"relation": "causal"}, i_del: {"delete": True}, 999: {"relation": "causal"}}
    )
    assert len(done) == 2 and len(errors) == 1 and "999" in errors[0]
    assert w.graph.edges[rows[i_rel]["source"], rows[i_rel]["target"]]["relation"] == "causal"
    assert not w.graph.has_edge(rows[i_del]["source"], rows[i_del]["target"])
    assert sorted(e.action for e in human_entries(w)) == ["edge.remove", "edge.update"]


def test_a_reject_whose_queue_write_never_landed_rolls_forward(runtime):
    w = runtime.open("crashy-reject")
    ids = weave(w, "en")
    w.curation.set_edge(ids["budget"], ids["plan"], "causal")
    w.curation.set_status(ids["budget"], "retracted", "withdrawn")
    flag = next(i for i in w.curation.items() if i.kind == "needs_review")
    cur = w.curation
    cur.save_items = lambda *a: (_ for _ in ()).throw(KeyboardInterrupt("power cut"))
    with pytest.raises(KeyboardInterrupt):
        cur.reject(flag.id)  # the audit entry landed, the item's new status did not
    again = runtime.open("crashy-reject")
    assert again.curation.queue[flag.id].status == "rejected"
    assert any("rolled forward item.reject" in r for r in again.curation.repaired), again.curation.repaired
    again.curation.undo()  # and the repaired reject undoes like any other
    assert again.curation.queue[flag.id].status == "pending"
    assert runtime.open("crashy-reject").curation.repaired == []  # nothing left to repair
