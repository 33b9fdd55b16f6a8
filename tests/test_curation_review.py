"""The review pass (offline heuristics), the queue, human authority, the periodic trigger and learning."""

from __future__ import annotations

import pytest
from test_curation import TRIPS, weave

from weaver import WeaverError
from weaver.backends.rules import _pattern_key
from weaver.cues import features

CHANGED = {
    "en": "Actually, I changed my mind: my budget is now 8000 yuan.",
    "zh": "其实我改主意了，预算提高到8000元。",
}
# a new instance of the plan's pattern (agent thought with cause + constraint cues after user constraints)
NEW_PLAN = {
    "en": "Because of the budget and the seafood allergy, I should avoid expensive seafood restaurants.",
    "zh": "由于预算有限又对海鲜过敏，没有海鲜且不超过预算的饭店才合适。",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_changed_value_is_proposed_superseded_with_evidence(runtime, lang):
    w = runtime.open(f"supersede-{lang}")
    w.config = w.config.with_(supersede_on_arrival=False)  # a space woven before supersede on arrival
    ids = weave(w, lang)
    new = w.ingest(CHANGED[lang], "user_input").node.id
    summary = w.curation.review(apply=False)
    assert summary.mode == "rules" and summary.applied == []
    sup = [i for i in w.curation.items() if i.kind == "supersede"]
    assert [(i.target, i.source) for i in sup] == [(ids["budget"], new)]
    item = sup[0]
    assert "5000" in item.evidence["target"]["text"] and "8000" in item.evidence["source"]["text"]
    assert item.evidence["target"]["message_id"] == w.nodes[ids["budget"]].message_id
    assert "5000" in item.rationale and "8000" in item.rationale and 0.5 < item.confidence <= 1.0
    assert w.nodes[ids["budget"]].status == "active"  # only queued

    w.curation.accept(item.id)
    again = runtime.open(w.space.name)
    old = again.nodes[ids["budget"]]
    assert old.status == "superseded" and old.meta["superseded_by"] == new  # superseded, not deleted
    ctx = again.query("what is my budget?" if lang == "en" else "我的预算是多少？").context
    assert "8000" in ctx and "5000" not in ctx
    # the same proposal is not made twice
    again.curation.review(apply=False)
    assert not [i for i in again.curation.items() if i.kind == "supersede"]


def test_auto_apply_above_threshold_is_recorded_and_undoable(runtime):
    w = runtime.open("auto")
    w.config = w.config.with_(supersede_on_arrival=False)
    ids = weave(w, "en")
    w.ingest(CHANGED["en"], "user_input")
    w.config = w.config.with_(review_auto_apply=0.8)
    summary = w.curation.review()
    assert len(summary.applied) == 1 and "1 auto-applied" in summary.text()
    entry = w.curation.log.by_id(summary.applied[0])
    assert entry.actor == "review" and entry.action == "node.status" and entry.key == ids["budget"]
    assert w.nodes[ids["budget"]].status == "superseded"
    applied = [i for i in w.curation.items(None) if i.status == "applied"]
    assert applied and applied[0].audit_id == entry.id

    w.curation.undo(entry.id)
    assert w.nodes[ids["budget"]].status == "active"
    assert w.curation.verify() == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_review_does_not_repeat_what_arrival_did(runtime, lang):
    w = runtime.open(f"arrived-{lang}")
    ids = weave(w, lang)
    new = w.ingest(CHANGED[lang], "user_input").node.id
    assert w.nodes[ids["budget"]].status == "superseded" and w.nodes[ids["budget"]].meta["superseded_by"] == new
    w.curation.review(apply=True)
    assert not [i for i in w.curation.items(None) if i.kind == "supersede"]
    # undone by a curator, it is not proposed again by the pass either (the same reader, the same decision)
    entry = next(e for e in w.curation.log.entries if e.action == "node.status" and e.key == ids["budget"])
    w.curation.undo(entry.id)
    assert w.nodes[ids["budget"]].status == "active"
    assert w.graph.edges[ids["budget"], new]["relation"] != "supersedes" if w.graph.has_edge(ids["budget"], new) \
        else True
    w.curation.review(apply=False)
    assert not [i for i in w.curation.items(None) if i.kind == "supersede"]


def test_human_decisions_are_never_overridden(runtime):
    w = runtime.open("authority")
    ids = weave(w, "en")
    w.ingest(CHANGED["en"], "user_input")
    cur = w.curation
    cur.set_status(ids["budget"], "active", "both budgets matter: one is for hotels")  # a human decided
    u, v = next(iter(w.graph.in_edges(ids["plan"])))
    cur.set_edge(u, v, "elaborates", "curator's call")
    removed = next((e for e in w.graph.in_edges(ids["result"]) if e != (u, v)))
    cur.remove_edge(*removed)

    summary = cur.review(apply=True)  # apply everything the pass proposes
    assert w.nodes[ids["budget"]].status == "active"
    assert w.graph.edges[u, v]["relation"] == "elaborates" and w.graph.edges[u, v]["origin"] == "human"
    assert not w.graph.has_edge(*removed)
    assert summary.skipped_human >= 1
    with pytest.raises(WeaverError, match="human"):
        cur.set_edge(u, v, "causal", actor="review")
    with pytest.raises(WeaverError, match="human"):
        cur.set_status(ids["budget"], "superseded", actor="review")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_builder_learns_corrections_on_a_pattern(runtime, lang):
    plan_text = TRIPS[lang][-1][0]
    assert _pattern_key("user_input", "agent_thought", features(plan_text)) == \
        _pattern_key("user_input", "agent_thought", features(NEW_PLAN[lang]))

    # control: without corrections the builder does not say "conditional" for this pattern
    plain = runtime.open(f"plain-{lang}")
    weave(plain, lang)
    res = plain.ingest(NEW_PLAN[lang], "agent_thought")
    control = {e.relation for e in res.edges if plain.nodes[e.source].kind == "user_input"}
    assert control and "conditional" not in control

    w = runtime.open(f"learn-{lang}")
    ids = weave(w, lang)
    # the curator: a plan holds *under* the user's constraints (conditional), it is not caused by them
    for tag in ("budget", "allergy"):
        w.curation.set_edge(ids[tag], ids["plan"], "conditional", "plans hold under constraints")
    assert len(w.corrections) == 2 and {c.relation for c in w.corrections} == {"conditional"}

    fresh = runtime.open(w.space.name)  # corrections are loaded from the space on open
    assert len(fresh.corrections) == 2
    res = fresh.ingest(NEW_PLAN[lang], "agent_thought")
    learned = [e for e in res.edges if fresh.nodes[e.source].kind == "user_input"]
    assert learned and all(e.relation == "conditional" for e in learned)
    assert all("learned" in e.rationale for e in learned)

    # the corrections stay in this space: another space on the same runtime is not affected
    other = runtime.open(f"other-{lang}")
    weave(other, lang)
    res = other.ingest(NEW_PLAN[lang], "agent_thought")
    assert {e.relation for e in res.edges if other.nodes[e.source].kind == "user_input"} == control


def test_review_pass_relabels_older_edges_of_a_corrected_pattern(runtime):
    w = runtime.open("relearn")
    ids = weave(w, "en")
    old_plan = w.ingest(NEW_PLAN["en"], "agent_thought").node.id  # built before any correction
    before = {u: d["relation"] for u, _, d in w.graph.in_edges(old_plan, data=True)
              if w.nodes[u].kind == "user_input"}
    assert before and "conditional" not in before.values()
    for tag in ("budget", "allergy"):
        w.curation.set_edge(ids[tag], ids["plan"], "conditional")
    w.curation.review(apply=False)
    relabels = {i.source: i for i in w.curation.items() if i.kind == "relabel" and i.target == old_plan}
    assert set(relabels) == set(before)
    assert all(i.relation == "conditional" and "curators corrected" in i.rationale for i in relabels.values())


def test_periodic_review_every_n_kept_nodes(runtime):
    w = runtime.open("periodic")
    w.config = w.config.with_(review_every=3)
    kept = 0
    for content, kind, _ in TRIPS["en"][:5]:
        kept += w.ingest(content, kind).kept
        runs = len(w.curation.state.get("runs", []))
        assert runs == kept // 3, (kept, runs)
    assert w.curation.pending_review() == 2
    again = runtime.open("periodic")  # the count survives a reopen
    again.config = again.config.with_(review_every=3)
    assert again.curation.pending_review() == 2
    again.ingest(TRIPS["en"][5][0], "agent_thought")
    assert len(again.curation.state["runs"]) == 2 and again.curation.pending_review() == 0

    off = runtime.open("no-periodic")
    off.config = off.config.with_(review_every=0)
    weave(off, "en")
    assert off.curation.state.get("runs") is None
