"""A superseded statement no longer constrains: its values leave the constraint records and the decision block,
undo brings them back, and what replaced it taken back (retracted) makes it hold again (real Chroma, rules)."""

from __future__ import annotations

import json

import pytest

from cli_run import run_cli

CHATS = {
    "en": (
        "I'm allergic to peanuts, so please keep them out of every dish.",
        "On the second day we want to visit the Summer Palace and the Forbidden City, with a guide.",
        "Which restaurant should we book for dinner?",
        "no peanut (allergy)",
    ),
    "zh": (
        "我对花生过敏，点菜时请注意。",
        "第二天我们想去颐和园和故宫，最好请个导游。",
        "晚饭订哪家餐厅？",
        "不吃花生（过敏）",
    ),
}


def _keys(w) -> list[str]:
    return [r.key for r in w.constraints()]


def _block(w, question: str) -> str:
    got = w.query(question, budget=512).decision
    return got.text if got is not None else ""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_allergy_superseded_by_an_unrelated_memory_leaves_the_records_and_undo_brings_it_back(runtime, lang):
    allergy, other, question, line = CHATS[lang]
    w = runtime.open(f"allergy-{lang}")
    a = w.ingest(allergy, "user_input").node.id
    b = w.ingest(other, "user_input").node.id
    assert _keys(w) == ["diet/peanut"] and line in _block(w, question)

    entry = w.curation.set_status(a, "superseded", "the user said it no longer applies", by=b)
    assert (entry.actor, entry.action, entry.after["status"]) == ("human", "node.status", "superseded")
    assert _keys(w) == [] and line not in _block(w, question)
    assert _keys(runtime.open(f"allergy-{lang}")) == []  # as read back from the store

    w.curation.undo()
    assert w.nodes[a].status == "active" and _keys(w) == ["diet/peanut"] and line in _block(w, question)
    w.curation.redo()
    assert _keys(w) == []
    # what replaced it taken back: the allergy holds again, active (as a retracted restatement gives the old value back)
    w.curation.set_status(b, "retracted", "said by mistake")
    assert w.nodes[a].status == "active" and _keys(w) == ["diet/peanut"]  # released, its status says so


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_status_superseded_from_the_cli_removes_the_allergy_from_constraints(runtime, tmp_path, lang):
    allergy, other, _question, _line = CHATS[lang]
    w = runtime.open("trip")
    a = w.ingest(allergy, "user_input").node
    b = w.ingest(other, "user_input").node

    def cli(*args):
        return run_cli("--data-dir", str(tmp_path / "data"), "--space", "trip", *args, cwd=tmp_path)

    def constraint_keys():
        out = cli("constraints")
        assert out.returncode == 0, out.stderr
        return [c["key"] for c in json.loads(out.stdout)["constraints"]]

    assert constraint_keys() == ["diet/peanut"]
    out = cli("status", a.message_id, "superseded", "--by", b.id[:8])  # by message id and by id prefix
    assert out.returncode == 0, out.stderr
    assert constraint_keys() == []
    log = [json.loads(x) for x in cli("log", "--json").stdout.splitlines()]
    assert (log[0]["actor"], log[0]["action"], log[0]["key"]) == ("human", "node.status", a.id)
    assert cli("undo").returncode == 0
    assert constraint_keys() == ["diet/peanut"]


@pytest.mark.parametrize(
    "lang, first, second, other",
    [
        ("zh", "预算五千，酒店要有健身房。", "预算改成八千吧。", "第二天我们想去颐和园和故宫，最好请个导游。"),
        (
            "en",
            "My total budget is 5000 yuan and the hotel must have a gym.",
            "Make the total budget 8000 yuan.",
            "On the second day we want to visit the Summer Palace and the Forbidden City, with a guide.",
        ),
    ],
)
def test_a_statement_superseded_by_a_restatement_keeps_what_nobody_restated(runtime, lang, first, second, other):
    """Superseded on arrival by a new budget, the statement gave up its budget, not its gym; superseded by an
    unrelated memory, it gives up everything it said."""
    w = runtime.open(f"gym-{lang}")
    a = w.ingest(first, "user_input").node.id
    b = w.ingest(second, "user_input").node.id
    c = w.ingest(other, "user_input").node.id
    assert w.nodes[a].status == "superseded" and w.graph.edges[a, b]["relation"] == "supersedes"
    recs = {r.key: r for r in w.constraints()}
    assert recs["amenity/gym"].node_id == a and recs["budget/total"].value == 8000.0
    assert [h["value"] for h in recs["budget/total"].history] == [5000.0]
    entry = next(e for e in w.curation.log.entries if e.actor == "builder" and e.action == "node.status")
    w.curation.undo(entry.id)  # the arrival undone: the statement is active, the later budget still holds
    w.curation.set_status(a, "superseded", "the user dropped the gym too", by=c)
    assert sorted(r.key for r in w.constraints()) == ["budget/total"]
