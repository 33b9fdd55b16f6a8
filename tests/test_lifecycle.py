"""Memory lifecycle on a real space (real Chroma, real embedder): forgetting, merge, undo, promotion, reflection,
delete_node, tiers in retrieval, and the CLI faces."""

from __future__ import annotations

import itertools
import json

import pytest

from weaver import WeaverConfig, WeaverError
from weaver.cli import main
from weaver.lifecycle import (
    LifecycleConfig,
    last_pass,
    passes,
    plan_pass,
    run_pass,
    sources_of,
    tier_counts,
    undo_pass,
)
from weaver.models import Message

PEOPLE = ["Ann", "Bob", "Carla", "Dev", "Emil", "Fang", "Gus", "Hana"]
THINGS = [
    "a pottery class",
    "a rainy hike",
    "the jazz festival",
    "a new sourdough recipe",
    "the chess club",
    "a broken bicycle",
    "the science museum",
    "a kayak trip",
    "the book fair",
    "a garden of tomatoes",
    "the night market",
    "a violin lesson",
    "the football final",
    "a camping weekend",
    "the art gallery",
]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def chatter(i: int, session: int, turn: int | None = None) -> Message:
    """A varied, unimportant line of small talk (no constraint, no number the filter weighs)."""
    who, what, day = PEOPLE[i % 8], THINGS[(i * 7) % 15], DAYS[(i * 3) % 7]
    meta = {"session": session, "speaker": "user"} | ({"turn": turn} if turn is not None else {})
    return Message(f"{who} told me about {what} on {day}.", meta=meta)


LONG = LifecycleConfig(working_turns=40, region_min=5)


def test_constraint_from_turn_2_survives_every_pass_to_turn_500(runtime):
    w = runtime.open("long-run")
    w.ingest("Hi, I'm planning a week of trips.", meta={"session": 1, "speaker": "user"})
    c = w.ingest(
        "My budget is at most 800 yuan per night, and I'm allergic to peanuts.", meta={"session": 1, "speaker": "user"}
    )
    assert c.kept and w.turn == 2
    passes = []
    # small talk at every third turn from turn 3 to 498 (the caller numbers the turns), a pass every 50 turns
    for start in range(3, 500, 51):
        w.ingest_many([chatter(i, 2 + i // 25, turn=i) for i in range(start, min(start + 51, 500), 3)])
        passes.append(run_pass(w, LONG))
        assert w.nodes[c.node.id].status == "active", f"pass at turn {w.turn} dropped the constraint"
    assert w.turn == 498
    # the constraint is used at turn 500: the agent's plan depends on it
    plan = w.ingest(
        "I should pick hotels under 800 yuan per night and avoid peanuts.",
        "agent_thought",
        meta={"session": 22, "turn": 500},
        depends_on=[(c.node.id, "conditional")],
    )
    passes.append(run_pass(w, LONG))
    archived = sum(len(p.archived) + len(p.merged) for p in passes)
    active = sum(1 for n in w.nodes.values() if n.status == "active")
    assert archived >= 30 and active <= len(w.nodes) * 0.4  # the passes did forget a lot...
    assert w.nodes[c.node.id].status == "active"  # ...but never the constraint, nor what depends on it
    assert w.nodes[plan.node.id].status == "active"
    res = w.query("What is my budget per night?", budget=256)
    assert c.node.id in res.node_ids
    assert w.curation.verify() == []


def _weave(w, lines, kind="user_input", session=1, **meta):
    out = []
    for text in lines:
        r = w.ingest(text, kind, meta={"session": session, **meta})
        assert r.kept, text
        out.append(r.node.id)
    return out


def test_merged_duplicate_keeps_both_sources_and_all_edges(runtime):
    w = runtime.open("merge")
    b, a = _weave(w, ["We live near the river in Hangzhou.", "I adopted a grey cat called Miso last spring."])
    r = w.ingest("I adopted a grey cat called Miso last spring!", meta={"session": 1})
    assert not r.kept  # the filter finds it not new; a curator weaves it in anyway: a duplicate in the graph
    dup = w.promote(r.decision.message_id).node.id
    (after,) = _weave(w, ["Miso the cat loves sleeping on my keyboard."])
    cur = w.curation
    cur.set_edge(b, dup, "causal", "an edge into the duplicate", actor="review")
    cur.set_edge(dup, after, "elaborates", "an edge out of the duplicate", actor="review")
    edges_before = {(u, v) for u, v in w.graph.edges() if dup in (u, v)}
    kept_edges = {(u, v) for u, v in w.graph.edges() if a in (u, v)}
    w.turn = 200  # everything is old now
    plan = run_pass(w, LifecycleConfig(working_turns=10, archive_below=0.0, region_min=99))
    assert [(m["kept"], m["duplicate"]) for m in plan.merged] == [(a, dup)]
    assert w.nodes[dup].status == "archived" and w.nodes[dup].meta["merged_into"] == a
    kept_msgs = sources_of(w.graph, a)
    assert kept_msgs == [w.nodes[a].message_id, w.nodes[dup].message_id]  # both sources
    assert edges_before <= {(u, v) for u, v in w.graph.edges()}  # the duplicate keeps every edge it had...
    assert w.graph.has_edge(b, a) and w.graph.has_edge(a, after)  # ...and the kept memory took them over
    undo_pass(w, plan.id)
    assert w.nodes[dup].status == "active" and "merged_into" not in w.nodes[dup].meta
    assert {(u, v) for u, v in w.graph.edges() if a in (u, v)} == kept_edges
    assert w.curation.verify() == []


def test_undo_restores_an_archived_node_with_its_edges(runtime):
    w = runtime.open("undo")
    ids = _weave(w, [f"{p} told me about {t}." for p, t in zip(PEOPLE, THINGS)], session=1)
    edges = {e.id: e.relation for e in w.edges()}
    w.turn = 500
    plan = run_pass(w, LifecycleConfig(working_turns=10, region_min=99))
    gone = [a["id"] for a in plan.archived]
    assert gone and all(w.nodes[i].status == "archived" for i in gone)
    assert {e.id: e.relation for e in w.edges()} == edges  # archived nodes keep their edges
    res = w.query(w.nodes[gone[0]].content, budget=512)
    found = {n.id: n for n in res.nodes}[gone[0]]  # the cold tier: still found by its words, but alone
    assert (found.role, found.tier) == ("seed", "archived")
    assert not [e for e in res.edges if gone[0] in (e["source"], e["target"])]
    w2 = runtime.open("undo")  # persisted
    assert w2.nodes[gone[0]].status == "archived" and last_pass(w2)["id"] == plan.id
    undone = undo_pass(w2)
    assert len(undone) == len(plan.entries)
    assert all(w2.nodes[i].status == "active" for i in ids)
    assert {e.id: e.relation for e in w2.edges()} == edges
    assert w2.curation.verify() == []
    with pytest.raises(WeaverError, match="already undone"):
        w2.curation.undo(plan.entries[0])


def test_promotion_after_repeated_references(runtime):
    w = runtime.open("promote")
    ids = _weave(
        w,
        [
            "My sister Lena is getting married in Lisbon in October.",
            "I started learning the cello at the community music school.",
            "Our team moved to a new office in Shenzhen last month.",
            "My grandfather taught me to play Go when I was seven.",
            "I have been training for the Hangzhou marathon since June.",
        ],
    )
    lena = ids[0]
    assert tier_counts(w)["working"] == 5
    for _ in range(3):
        res = w.query("When is Lena's wedding?", budget=64, record_access=True)
        assert lena in res.node_ids
    plan = run_pass(w, LifecycleConfig(promote_accesses=3))
    promoted = {p["id"] for p in plan.promoted}
    assert lena in promoted and promoted == {i for i in ids if w.nodes[i].access_count >= 3} != set(ids)
    assert w.nodes[lena].meta["tier"] == "long-term" and w.nodes[lena].meta["core"].startswith("My sister Lena")
    res = w.query("When is Lena's wedding?", budget=64)
    tiers = {n.id: n.tier for n in res.nodes}
    assert tiers[lena] == "long-term" and res.to_dict()["nodes"][0]["tier"] in ("long-term", "working")
    assert all(tiers[i] == ("long-term" if i in promoted else "working") for i in tiers)
    w.turn = 1000  # promoted memories are protected however old and unused they get
    plan = run_pass(w, LifecycleConfig(working_turns=5, archive_below=1.0, region_min=99))
    assert lena not in {a["id"] for a in plan.archived} and w.nodes[lena].status == "active"


REGION = {
    "en": [
        "We started planning the hotel booking for the Beijing trip.",
        "My budget is at most 600 yuan per night for the hotel.",
        "I found three hotels near Wangfujing with free rooms.",
        "The Lotus Inn has good reviews and is close to the metro.",
        "I booked the Lotus Inn for two nights from May 1.",
    ],
    "zh": [
        "我们开始安排北京之行的酒店预订。",
        "酒店预算每晚最多六百元。",
        "王府井附近找到三家有空房的酒店。",
        "莲花客栈评价很好，离地铁很近。",
        "已经为五月一日起的两晚预订了莲花客栈。",
    ],
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_reflection_summary_in_the_members_language(runtime, lang):
    w = runtime.open(f"reflect-{lang}")
    early = _weave(
        w,
        ["Before anything else: I travel with my daughter." if lang == "en" else "先说一句：我带女儿一起旅行。"],
        session=0,
    )
    members = _weave(w, REGION[lang], session=1)
    w.curation.set_edge(early[0], members[0], "causal", "an external dependency", actor="review")
    w.turn = 300
    plan = run_pass(w, LifecycleConfig(working_turns=10, archive_below=0.0))
    s = next(x for x in plan.summaries if x["region"] == "session:1")
    node = w.nodes[s["id"]]
    assert node.language == lang and node.meta["lifecycle"] == "summary" and node.meta["members"] == members
    mark = "[summary]" if lang == "en" else "[摘要]"
    assert node.content.startswith(mark)
    assert ("600" in node.content) if lang == "en" else ("六百" in node.content)  # the stated slot value
    for m in members:
        assert w.graph.edges[m, node.id]["relation"] == "elaborates"
    assert w.graph.edges[early[0], node.id]["relation"] == "causal"  # the external dependency is carried
    res = w.query("酒店预算" if lang == "zh" else "hotel budget per night", budget=1024)
    assert any(n.tier == "summary" for n in res.ranked if n.id == node.id)
    assert w.curation.verify() == []
    undo_pass(w)
    assert node.id not in w.nodes and not any(node.id in k for k in (e.id for e in w.edges()))
    assert w.curation.verify() == []


def test_delete_node_is_audited_and_undo_restores_it_with_its_edges(runtime):
    w = runtime.open("delete")
    ids = _weave(
        w,
        [
            "I want to visit Kyoto in April.",
            "Cherry blossoms peak in early April there.",
            "So I will book the flight for April 2.",
        ],
    )
    w.curation.set_edge(ids[0], ids[2], "causal", "test")
    edges = {e.id for e in w.edges()}
    mid = ids[1]
    touching = {e for e in edges if mid in e}
    entry = w.curation.delete_node(mid, "wrong memory")
    assert entry.action == "node.delete" and entry.before["node"]["id"] == mid
    assert mid not in w.nodes and mid not in w.graph and {e.id for e in w.edges()} == edges - touching
    assert w.curation.verify() == []
    w2 = runtime.open("delete")
    assert mid not in w2.nodes
    w2.curation.undo(entry.id)
    assert w2.nodes[mid].content == "Cherry blossoms peak in early April there."
    assert {e.id for e in w2.edges()} == edges and w2.curation.verify() == []
    assert mid in w2.query("when do cherry blossoms peak?", budget=128).node_ids
    with pytest.raises(WeaverError, match="no node"):
        w2.curation.delete_node("n_nope")


def test_pinned_and_dry_run(runtime):
    w = runtime.open("pin")
    ids = _weave(w, [f"{p} told me about {t}." for p, t in zip(PEOPLE, THINGS)], session=1)
    w.curation.pin(ids[0])
    w.turn = 900
    cfg = LifecycleConfig(working_turns=5, archive_below=1.0, region_min=99)
    before = (len(w.curation.log.entries), {n: w.nodes[n].status for n in ids})
    plan = plan_pass(w, cfg)
    dry = run_pass(w, cfg, dry_run=True)
    assert dry.dry_run and dry.entries == [] and len(dry.archived) == len(plan.archived) > 0
    assert before == (len(w.curation.log.entries), {n: w.nodes[n].status for n in ids})  # nothing written
    done = run_pass(w, cfg)
    assert ids[0] not in {a["id"] for a in done.archived} and w.nodes[ids[0]].status == "active"


def test_periodic_pass_from_config(runtime):
    w = runtime.open("periodic")
    w.config = WeaverConfig(lifecycle_every=20)
    w.ingest_many([chatter(i, 1 + i // 10) for i in range(60)])
    turns = [p["turn"] for p in passes(w)]
    assert len(turns) >= 2 and turns == sorted(turns) and turns[0] >= 20 and turns[1] - turns[0] >= 20


def test_cli_forget_summaries_tiers(runtime, settings, capsys, monkeypatch):
    monkeypatch.setenv("WEAVER_DATA_DIR", str(settings.data_dir))
    w = runtime.open("cli")
    _weave(w, REGION["en"], session=1)
    w.ingest_many([chatter(i, 2 + i // 10) for i in range(60)])
    args = ["--space", "cli", "--data-dir", str(settings.data_dir)]
    assert main(args + ["forget", "--dry-run", "--json", "--working-turns", "10"]) == 0
    dry = json.loads(capsys.readouterr().out)
    assert dry["dry_run"] and dry["archived"] and all("why" in a and "score" in a for a in dry["archived"])
    assert main(args + ["tiers", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["counts"]["archived"] == 0  # the dry run wrote nothing
    assert main(args + ["forget", "--json", "--working-turns", "10"]) == 0
    done = json.loads(capsys.readouterr().out)
    assert main(args + ["summaries", "--json"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert {r["id"] for r in rows} == {s["id"] for s in done["summaries"]} and rows
    assert main(args + ["tiers", "--json", "--working-turns", "10"]) == 0
    counts = json.loads(capsys.readouterr().out)["counts"]
    assert counts["archived"] == len(done["archived"]) + len(done["merged"]) and counts["summary"] == len(rows)
    assert main(args + ["tiers", "--nodes", "--working-turns", "10"]) == 0  # --nodes without --json lists them too
    listed = [line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("n_")]
    assert {row[0] for row in listed} == set(w.node_ids) | {r["id"] for r in rows}  # (w: before the pass)
    assert {row[0] for row in listed if row[1] == "summary"} == {r["id"] for r in rows}
    assert main(args + ["forget", "--undo"]) == 0
    capsys.readouterr()
    assert main(args + ["delete-node", "n_nope"]) == 2
    assert "no node" in capsys.readouterr().err


def test_bench_stream_interleaves_locomo_sessions_and_crosswoz_dialogues():
    from conftest import SHARED_DATA

    from weaver.bench.lifecycle import lifecycle_stream

    locomo, cw = SHARED_DATA / "locomo" / "locomo7.json", SHARED_DATA / "crosswoz" / "val.json.zip"
    if not locomo.is_file() or not cw.is_file():
        pytest.skip("shared data not present")
    stream, qs = lifecycle_stream(locomo, cw, 3000)
    assert len(stream) == 3000 and len({t.key for t in stream}) == 3000
    sources = [t.key.startswith("conv-") for t in stream]
    switches = sum(a != b for a, b in itertools.pairwise(sources))
    assert switches > 20  # interleaved, not one dataset after the other
    keys = {t.key for t in stream}
    assert qs and all(q["evidence"] <= keys for q in qs) and {q["dataset"] for q in qs} == {"locomo", "crosswoz"}


def test_a_pass_embeds_its_summaries_in_one_batch(runtime):
    w = runtime.open("batched-summaries")
    for session in (1, 2, 3):
        w.ingest_many([chatter(i, session) for i in range(session * 10, session * 10 + 6)])
    w.turn = 300
    calls: list[list[str]] = []
    embed = w.embedder.embed

    def spy(texts):
        calls.append(list(texts))
        return embed(texts)

    w.embedder.embed = spy
    try:
        plan = run_pass(w, LifecycleConfig(working_turns=10, archive_below=0.0))
    finally:
        w.embedder.embed = embed
    assert len(plan.summaries) == 3
    with_summaries = [c for c in calls if any(t.startswith("[summary]") for t in c)]
    assert len(with_summaries) == 1 and len(with_summaries[0]) == 3  # one call for all three, not one each
    for s in plan.summaries:  # each summary's stored vector is its own text's, in the batch's order
        expected = embed([w.nodes[s["id"]].content])[0]
        assert float(w.vector_of(s["id"]) @ expected) > 0.999
    undo_pass(w)
    assert not any(s["id"] in w.nodes for s in plan.summaries) and w.curation.verify() == []


def test_add_node_refuses_edges_that_close_a_cycle_through_it(runtime):
    from weaver.models import Edge, MemoryNode

    w = runtime.open("add-node-cycle")
    a, b = _weave(w, ["I booked the train to Xi'an.", "So I need a hotel near Xi'an station."])
    if not w.graph.has_edge(a, b):
        w.curation.set_edge(a, b, "causal", "the hotel follows the train", actor="review")

    def node(nid):
        return MemoryNode(nid, f"[summary] {nid}", "agent_thought", 1, f"lc_{nid}", meta={"lifecycle": "summary"})

    def edge(s, t):
        return Edge(s, t, "elaborates", 1.0, "rules")

    with pytest.raises(WeaverError, match="cycle"):  # x -> a -> b -> x
        w.curation.add_node(node("n_x"), [edge("n_x", a), edge(b, "n_x")], "test")
    assert "n_x" not in w.nodes
    w.curation.add_node(node("n_y"), [edge(a, "n_y"), edge(b, "n_y")], "test")  # only into it: no cycle
    assert w.graph.has_edge(a, "n_y") and w.graph.has_edge(b, "n_y")
    assert w.curation.verify() == []


def _pid_and(x):
    import os

    if x < 0:
        raise ValueError(f"bad job {x}")
    return os.getpid(), x * 2


def test_bench_grows_the_two_spaces_in_separate_processes():
    import os

    from weaver.bench.lifecycle import side_by_side

    got = side_by_side({"without": (1,), "with": (2,)}, _pid_and)
    assert {k: v[1] for k, v in got.items()} == {"without": 2, "with": 4}
    pids = {v[0] for v in got.values()}
    assert len(pids) == 2 and os.getpid() not in pids
    with pytest.raises(RuntimeError, match="bad job -1"):  # a failing job's traceback reaches the caller
        side_by_side({"without": (1,), "with": (-1,)}, _pid_and)


def test_revision_count_follows_edge_edits_that_keep_the_edge_count(runtime):
    from weaver.decision_context import revision_count

    w = runtime.open("revisions")
    a = w.ingest("My hotel budget is at most 500 yuan per night.", meta={"session": 1, "speaker": "user"})
    b = w.ingest("Actually, make the hotel budget at most 800 yuan per night.", meta={"session": 1, "speaker": "user"})
    assert w.graph.edges[a.node.id, b.node.id]["relation"] == "supersedes"
    assert revision_count(w) == 1
    edges = w.graph.number_of_edges()
    w.curation.set_edge(a.node.id, b.node.id, "causal", "not a revision")  # a human edit: same edge count
    assert w.graph.number_of_edges() == edges and revision_count(w) == 0
    w.curation.undo()
    assert revision_count(w) == 1
    w.query("Which hotel should we book?", budget=256)  # the cached list survives a query unchanged
    assert revision_count(w) == 1


def test_constraint_records_follow_a_status_edit(runtime):
    # the records are kept between queries (decision_context.remembered): a retraction must show at once
    w = runtime.open("records")
    w.ingest("My hotel budget is at most 500 yuan per night.", meta={"session": 1, "speaker": "user"})
    b = w.ingest("Actually, make the hotel budget at most 800 yuan per night.", meta={"session": 1, "speaker": "user"})

    def night():
        return [r.value for r in w.constraints() if r.key == "budget/night" and r.status == "current"]

    assert night() == [800.0]
    w.query("Which hotel should we book?", budget=256)
    w.curation.set_status(b.node.id, "retracted", "the user took it back")
    assert night() == [500.0]
    w.curation.undo()
    assert night() == [800.0]


def test_only_constraints_in_force_are_protected(runtime):
    """A value the user replaced later, and a soft cue the slot readers record nothing from, constrain nothing any
    more: a pass may archive them once they are old and weak; the current value and a hard limit stay."""
    w = runtime.open("in-force")
    old, soft, hard = _weave(
        w,
        [
            "My budget is at most 500 yuan per night.",
            "I don't want to go there, I need to think about it.",
            "I'm allergic to peanuts.",
        ],
        session=1,
        speaker="user",
    )
    new = _weave(w, ["Actually, make the budget at most 800 yuan per night."], session=2, speaker="user")[0]
    assert [r.node_id for r in w.constraints() if r.key == "budget/night"] == [new]
    w.turn = 900
    plan = plan_pass(w, LifecycleConfig(working_turns=5, archive_below=1.0, region_min=99))
    gone = {a["id"] for a in plan.archived}
    assert {old, soft} <= gone and not {new, hard} & gone
