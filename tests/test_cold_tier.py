"""The cold tier on a real space (real Chroma, real embedder): archived memories are searched by their words and
vector, come back alone (no edges, neighbours or adjacent turns), and a pass restores one wanted again."""

from __future__ import annotations

from weaver import WeaverConfig
from weaver.lifecycle import LifecycleConfig, run_pass, undo_pass

LINES = [
    "My flight from Oslo lands at Beijing Capital airport at 11 pm on May 3.",
    "Because the flight lands so late, I want a hotel next to the airport that night.",
    "My daughter Mia is vegetarian, so every restaurant must have vegetarian dishes.",
    "We would like to see the Summer Palace on the morning of May 5.",
]


def _weave(w, lines):
    out = []
    for text in lines:
        r = w.ingest(text, meta={"session": 1, "speaker": "user"})
        assert r.kept, text
        out.append(r.node.id)
    return out


def _setup(w):
    flight, hotel, diet, palace = _weave(w, LINES)
    if not w.graph.has_edge(flight, hotel):  # the dependency the test walks: the late flight causes the hotel
        w.curation.set_edge(flight, hotel, "causal", "the late landing is why an airport hotel is wanted")
    return flight, hotel, diet, palace


def test_an_archived_memory_is_found_alone_without_its_edges(runtime):
    w = runtime.open("cold")
    flight, hotel, _, _ = _setup(w)
    query = "When does the flight from Oslo land?"
    warm = w.query(query, budget=512)
    before = {n.id: n for n in warm.ranked}
    assert any((e["source"], e["target"]) == (flight, hotel) for e in warm.edges)  # warm: linked in the context

    w.curation.set_status(flight, "archived", "set aside for the test", actor="lifecycle")
    assert w.mirror.cold().tolist() == [n == flight for n in w.node_ids]
    cold = w.query(query, budget=512)
    got = {n.id: n for n in cold.nodes}
    assert (got[flight].role, got[flight].tier, got[flight].hops) == ("seed", "archived", 0)
    # nothing was reached from it: no expansion, no adjacent turn, no edge in the result or the narrative
    assert not [n for n in cold.ranked if n.seed == flight and n.id != flight]
    assert not [e for e in cold.edges if flight in (e["source"], e["target"])]
    # it lends its neighbours no relevance either (the hotel line borrowed from the flight while both were warm)
    after = {n.id: n for n in cold.ranked}
    assert after[hotel].context < before[hotel].context and after[flight].context == 0.0
    hidden = w.query(query, budget=512, config=w.config.with_(search_archived=False))
    assert flight not in hidden.node_ids  # the switch: archived memories invisible, as before the cold tier


def test_a_merged_duplicate_is_never_a_cold_seed(runtime):
    w = runtime.open("cold-merged")
    flight, hotel, _, _ = _setup(w)
    w.curation.set_status(flight, "archived", "merged for the test", actor="lifecycle", marks={"merged_into": hotel})
    assert not w.mirror.cold().any()
    assert flight not in w.query("When does the flight from Oslo land?", budget=512).node_ids


def test_a_cold_memory_wanted_again_is_restored_to_long_term_and_undo_archives_it_again(runtime):
    w = runtime.open("cold-promote")
    flight, *_ = _setup(w)
    w.curation.set_status(flight, "archived", "set aside for the test", actor="lifecycle")
    cfg = LifecycleConfig(promote_accesses=3, working_turns=100, region_min=99, archive_below=0.0)
    for i in range(3):
        assert not [p for p in run_pass(w, cfg, dry_run=True).promoted if p["id"] == flight], i
        res = w.query("When does the flight from Oslo land?", budget=512, record_access=True)
        assert flight in res.node_ids
    plan = run_pass(w, cfg)
    assert [p["why"] for p in plan.promoted if p["id"] == flight] == ["retrieved 3 times since it was archived"]
    node = w.nodes[flight]
    assert node.status == "active" and node.meta["tier"] == "long-term" and "archived_access" not in node.meta
    undo_pass(w, plan.id)
    assert w.nodes[flight].status == "archived" and w.mirror.cold().sum() == 1


def test_a_pass_records_how_often_an_archived_memory_was_retrieved(runtime):
    w = runtime.open("cold-count")
    ids = _weave(w, LINES)
    for _ in range(2):
        w.query(LINES[3], budget=64, record_access=True)
    hits = {i: w.nodes[i].access_count for i in ids}
    w.turn = 5000
    plan = run_pass(w, LifecycleConfig(working_turns=1, region_min=99, archive_below=1.0, promote_accesses=99))
    archived = {a["id"] for a in plan.archived}
    assert archived, "a pass at turn 5000 with archive_below=1.0 archives every unprotected memory"
    for i in archived:
        assert int(w.nodes[i].meta.get("archived_access") or 0) == hits[i]
    assert WeaverConfig().search_archived  # the cold tier is on by default
