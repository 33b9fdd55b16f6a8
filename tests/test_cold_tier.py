"""The cold tier on a real space (real Chroma, real embedder): archived memories are searched by their words and
vector, are ranked as before they were archived (episode context and edge lift) but come back alone (no expansion
and no edges in the context; only their active turn before or after), and a pass restores one wanted again."""

from __future__ import annotations

import pytest

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


def test_an_archived_memory_is_ranked_as_before_but_comes_back_alone(runtime):
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
    # nothing was reached over its edges (no expansion), no edge of it in the result or the narrative; only its
    # turn before or after in the same sitting may come with it (a reply brings the request it answers)
    reached = [n for n in cold.ranked if n.seed == flight and n.id != flight]
    assert all(n.relation == "adjacent" and n.hops == 1 for n in reached)
    assert all(
        w.nodes[n.id].status == "active" and abs(w.position_of(n.id) - w.position_of(flight)) == 1 for n in reached
    )
    assert not [e for e in cold.edges if flight in (e["source"], e["target"])]
    # but it is ranked as before it was archived: it lends and borrows relevance in its episode and over its edge
    after = {n.id: n for n in cold.ranked}
    for nid in (flight, hotel):
        assert after[nid].relevance == pytest.approx(before[nid].relevance) and after[nid].context > 0.0
    hidden = w.query(query, budget=512, config=w.config.with_(search_archived=False))
    assert flight not in hidden.node_ids  # the switch: archived memories invisible, as before the cold tier


SESSION = [  # the answer never repeats the question's words: its episode finds it
    ("Mia", "I adopted a puppy from the shelter in Stamford last week!"),
    ("Sam", "No way, congratulations! What did you name the puppy?"),
    ("Mia", "Biscuit. He sleeps on my feet all evening."),
]


def test_a_cold_episode_lends_and_borrows_within_itself(runtime):
    w = runtime.open("cold-episode")
    ids = []
    for who, text in SESSION:
        r = w.ingest(f"{who}: {text}", meta={"session": 7, "speaker": who})
        assert r.kept, text
        ids.append(r.node.id)
    for i in range(4):  # another sitting: no context to lend
        w.ingest(f"Lee: the train to the coast was {10 + i} minutes late", meta={"session": 8, "speaker": "Lee"})
    for nid in ids:
        w.curation.set_status(nid, "archived", "set aside for the test", actor="lifecycle")
    query = "What did Mia name her new puppy?"
    s = w.score_nodes(query)
    answer = w.node_ids.index(ids[2])
    # the reply borrows from the archived question before it: more than its own words
    assert s.ranking[answer] > s.own[answer] + 0.1
    off = w.score_nodes(query, config=w.config.with_(search_archived=False))
    assert not [n for n in ids if off.ranking[w.node_ids.index(n)] > float("-inf")]  # the switch: none searched
    assert ids[2] in w.query(query, budget=256).node_ids


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


def test_a_summary_borrows_nothing_from_the_episode_it_digests(runtime):
    w = runtime.open("cold-summary")
    lines = [
        "We start planning the hotel bookings for the Beijing trip.",
        "I found three hotels near Wangfujing with free rooms.",
        "The Lotus Inn has good reviews and is close to the metro.",
        "The Lotus Inn also serves breakfast until ten.",
        "I booked the Lotus Inn for two nights from May 1.",
    ]
    members = [w.ingest(t, meta={"session": 1, "speaker": "user"}).node.id for t in lines]
    w.turn = 300
    plan = run_pass(w, LifecycleConfig(working_turns=10, archive_below=1.0, promote_accesses=99))
    summary = next(x["id"] for x in plan.summaries if x["region"] == "session:1")
    assert {a["id"] for a in plan.archived} & set(members)  # members in the cold tier, still in its episode
    i = w.node_ids.index(summary)
    assert w.node_ids[i - 1] in members  # next to its episode in node order, where it could borrow
    assert all(w.graph.edges[m, summary]["relation"] == "elaborates" for m in members)
    s = w.score_nodes("Which hotel did we book near Wangfujing?")
    # a digest already quotes its episode: neither its episode nor its elaborates links lift it (or it them)
    assert s.ranking[i] == s.own[i]
    src, dst, _ = w.mirror.usable_edges().arrays()
    assert i not in set(dst.tolist()) | set(src.tolist())  # no relevance flows over its elaborates links
    assert max(s.ranking[w.node_ids.index(m)] - s.own[w.node_ids.index(m)] for m in members) > 0.0  # theirs does


def test_an_archived_statement_keeps_the_revision_boost_it_had(runtime):
    # a user who revised gets their constraint statements lifted (decision_context.constraint_boost): an archived
    # statement is ranked as before, so it keeps that lift (a merged duplicate, hidden, does not)
    from weaver.decision_context import constraint_boost

    w = runtime.open("cold-boost")
    flight, hotel, diet, palace = _setup(w)
    _weave(w, ["Our hotel budget is at most 500 yuan per night.", "Make that at most 800 yuan per night instead."])
    assert diet in (constraint_boost(w, w.config) or {})
    query = "Which restaurants suit Mia's diet?"
    before = {n.id: n for n in w.query(query, budget=512).ranked}
    w.curation.set_status(diet, "archived", "set aside for the test", actor="lifecycle")
    assert diet in (constraint_boost(w, w.config) or {})
    after = {n.id: n for n in w.query(query, budget=512).ranked}
    assert after[diet].relevance == pytest.approx(before[diet].relevance)
    w.curation.set_status(diet, "archived", "a twin of the flight", actor="lifecycle", marks={"merged_into": flight})
    assert diet not in (constraint_boost(w, w.config) or {})


def test_an_archived_reply_brings_the_active_request_it_answers(runtime):
    # without the lifecycle an active reply seeds and brings the request before it (its adjacent turn); archived,
    # the reply is a cold seed, and it must still bring that request (bench lifecycle: 4 CrossWOZ evidence turns
    # at 1,024 tokens were lost this way); an archived request comes too (as before it was archived, alone), a
    # merged duplicate never
    w = runtime.open("cold-adjacent")
    ask, reply = _weave(
        w,
        [
            "I would like a restaurant for about 100 yuan a head, rated 4.5 or more, with wild vegetable salad.",
            "I recommend Jinshui Bay Resort: wild vegetable salad, 115 yuan a head, rated 3.5.",
        ],
    )
    query = "Which place did you recommend with the wild vegetable salad?"
    w.curation.set_status(reply, "archived", "set aside for the test", actor="lifecycle")
    res = w.query(query, budget=512, config=w.config.with_(seeds=1, adaptive_seeds=0.0))
    assert [n.id for n in res.ranked if n.role == "seed"][:1] == [reply]
    got = {n.id: n for n in res.ranked}
    assert ask in got and got[ask].seed == reply and got[ask].relation == "adjacent"
    w.curation.set_status(ask, "archived", "set aside too", actor="lifecycle")
    res = w.query(query, budget=512, config=w.config.with_(seeds=1, adaptive_seeds=0.0))
    got = {n.id: n for n in res.ranked}
    assert got[ask].seed == reply and got[ask].relation == "adjacent" and got[ask].tier == "archived"
    assert not [e for e in res.edges if ask in (e["source"], e["target"])]  # a cold memory comes without its edges
    res = w.query(query, budget=512, config=w.config.with_(seeds=1, adaptive_seeds=0.0, search_archived=False))
    assert ask not in {n.id for n in res.ranked}  # without the cold tier, an archived turn never comes
    w.curation.set_status(ask, "archived", "a twin", actor="lifecycle", marks={"merged_into": reply})
    res = w.query(query, budget=512, config=w.config.with_(seeds=1, adaptive_seeds=0.0))
    assert not [n for n in res.ranked if n.seed == reply and n.id != reply]  # a merged duplicate is not brought
