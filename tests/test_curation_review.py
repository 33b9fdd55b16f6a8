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
    assert (
        w.graph.edges[ids["budget"], new]["relation"] != "supersedes" if w.graph.has_edge(ids["budget"], new) else True
    )
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


def _kept(w, text):
    """Ingest a thought; a near-duplicate the filter rejects is promoted (a curator weaves it in)."""
    res = w.ingest(text, "agent_thought")
    return res if res.kept else w.promote(res.decision.message_id)


# a restatement of the plan (the same pair, other words) and an unrelated plan after the same constraints
SAME_PLAN = {
    "en": "I should recommend restaurants that fit the budget and avoid seafood, because of the allergy.",
    "zh": "因为预算和海鲜过敏，要选不超过预算、没有海鲜的餐厅。",
}
OTHER_PLAN = {
    "en": "Next I will check which metro line reaches the Summer Palace.",
    "zh": "接下来查一下去颐和园坐哪条地铁线。",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_correction_reaches_similar_pairs_only(runtime, lang):
    plain = runtime.open(f"plain-{lang}")
    ids = weave(plain, lang)
    res = _kept(plain, SAME_PLAN[lang])
    control = {plain.nodes[e.source].id: e.relation for e in res.edges}
    assert ids["allergy"] in control, control  # the plan depends on the allergy stated before it
    want = "temporal" if control[ids["allergy"]] != "temporal" else "elaborates"

    w = runtime.open(f"learn-{lang}")
    ids = weave(w, lang)
    # the curator relabels the allergy -> plan edge
    w.curation.set_edge(ids["allergy"], ids["plan"], want, "a curator's reading")
    assert len(w.corrections) == 1 and w.corrections[0].relation == want
    fresh = runtime.open(w.space.name)  # corrections are loaded from the space on open
    assert len(fresh.corrections) == 1
    res = _kept(fresh, SAME_PLAN[lang])
    learned = {e.source: e for e in res.edges}
    assert learned[ids["allergy"]].relation == want and "curator" in learned[ids["allergy"]].rationale
    # bounded reach: an unrelated plan after the same constraints is judged as without the correction
    other = fresh.ingest(OTHER_PLAN[lang], "agent_thought")
    assert not any("curator" in e.rationale for e in other.edges)
    twin = plain.ingest(OTHER_PLAN[lang], "agent_thought")
    assert sorted((plain.nodes[e.source].content, e.relation) for e in twin.edges) == sorted(
        (fresh.nodes[e.source].content, e.relation) for e in other.edges
    )


def test_review_pass_relabels_older_edges_of_a_corrected_pair(runtime):
    w = runtime.open("relearn")
    ids = weave(w, "en")
    old_plan = _kept(w, SAME_PLAN["en"]).node.id  # built before any correction
    was = w.graph.edges[ids["allergy"], old_plan]["relation"]
    want = "temporal" if was != "temporal" else "elaborates"
    unrelated = _kept(w, OTHER_PLAN["en"]).node.id
    w.curation.set_edge(ids["allergy"], ids["plan"], want)
    w.curation.review(apply=False)
    relabels = {(i.source, i.target): i for i in w.curation.items() if i.kind == "relabel"}
    assert (ids["allergy"], old_plan) in relabels
    item = relabels[ids["allergy"], old_plan]
    assert item.relation == want and "curators corrected a similar pair" in item.rationale
    assert not any(t == unrelated for _, t in relabels)


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


def test_a_reject_is_audited_undone_and_redone_across_processes(runtime):
    w = runtime.open("reject-undo")
    w.config = w.config.with_(supersede_on_arrival=False)  # the pass proposes the changed budget
    ids = weave(w, "en")
    w.ingest(CHANGED["en"], "user_input")
    w.curation.review(apply=False)
    item = next(i for i in w.curation.items() if i.kind == "supersede")

    w.curation.reject(item.id[:12])  # by prefix, as the CLI allows
    entry = w.curation.log.entries[-1]
    assert (entry.actor, entry.action, entry.key, entry.ref) == ("human", "item.reject", item.id, item.id)
    assert (entry.before, entry.after) == ({"review_item": "pending"}, {"review_item": "rejected"})
    assert w.curation.queue[item.id].status == "rejected" and w.curation.queue[item.id].audit_id == entry.id
    assert w.curation.log.undo_target().id == entry.id  # Undo reaches it (it used to skip it)
    row = next(r for r in w.curation.log.to_rows() if r["id"] == entry.id)
    assert (row["before"], row["after"], row["undone"]) == ("pending", "rejected", False)
    w.curation.review(apply=False)  # rejected stays rejected: not proposed again
    assert not [i for i in w.curation.items() if i.kind == "supersede"]

    again = runtime.open(w.space.name)  # another weaver reads the log and the queue back from the space
    undo = again.curation.undo()
    assert undo.action == "undo" and undo.ref == entry.id and undo.key == item.id
    assert again.curation.queue[item.id].status == "pending" and again.curation.queue[item.id].resolved_by == ""
    assert item.id in {i.id for i in again.curation.items()}
    assert again.nodes[ids["budget"]].status == "active"  # the graph never changed
    assert again.curation.verify() == []

    third = runtime.open(w.space.name)
    assert third.curation.queue[item.id].status == "pending" and third.curation.log.undone(entry.id)
    assert third.curation.log.redo_target().id == entry.id
    third.curation.redo()
    assert third.curation.queue[item.id].status == "rejected"
    fourth = runtime.open(w.space.name)
    assert fourth.curation.queue[item.id].status == "rejected" and not fourth.curation.log.undone(entry.id)
    assert [e.action for e in fourth.curation.log.entries if e.actor == "human"] == ["item.reject", "undo", "redo"]
    assert fourth.curation.verify() == [] and fourth.curation.repaired == []
    with pytest.raises(WeaverError, match="already rejected"):
        fourth.curation.reject(item.id)


def test_undoing_a_dismissed_flag_needs_its_cause_still_fallen(runtime):
    w = runtime.open("reject-flag")
    ids = weave(w, "en")
    cur = w.curation
    cur.set_edge(ids["budget"], ids["plan"], "causal", actor="review")  # a dependency, so retracting flags

    def fall() -> str:  # by the pass, not a human: a human's status would end the redo chain
        cur.set_status(ids["budget"], "retracted", "withdrawn", actor="review")
        return next(i.id for i in cur.items() if i.kind == "needs_review" and i.target == ids["plan"])

    def restore() -> None:
        cur.set_status(ids["budget"], "active", "restored", actor="review")

    first = fall()
    cur.reject(first)
    cur.undo()
    assert cur.queue[first].status == "pending"
    restore()  # withdraws the pending flag
    assert cur.queue[first].status == "withdrawn"
    with pytest.raises(WeaverError, match="is withdrawn now"):
        cur.redo()

    second = fall()
    cur.reject(second)
    restore()
    with pytest.raises(WeaverError, match="active again"):
        cur.undo()  # back in the queue it would flag a cause that no longer fell
    third = fall()
    with pytest.raises(WeaverError, match=f"{third} already asks the same"):
        cur.undo()
    assert [cur.queue[i].status for i in (first, second, third)] == ["withdrawn", "rejected", "pending"]
    cur.reject(third)
    cur.undo()
    assert cur.queue[third].status == "pending" and cur.verify() == []
