"""A memory taken back (deleted or retracted) releases what it superseded: the older statement is active again
(or passes to what superseded the one taken back), so its status and the constraint records agree; undo and
redo move the whole group (real Chroma, rules, zh and en)."""

from __future__ import annotations

import json

import pytest

from cli_run import run_cli

CHATS = {
    "zh": ("我们的总预算是五千元。", "预算改成八千吧。", "预算再改成一万二吧。", "预算是多少？"),
    "en": (
        "Our total budget is 5000 yuan.",
        "Make the total budget 8000 yuan.",
        "Change the total budget to 12000 yuan.",
        "What is our budget?",
    ),
}


def _budget(w) -> tuple[float, str]:
    (rec,) = [r for r in w.constraints() if r.key == "budget/total"]
    return rec.value, rec.node_id


def _agree(w) -> None:
    """Every record in force is stated by an active memory, and the audit log replays to the graph."""
    for r in w.constraints():
        assert w.nodes[r.node_id].status == "active", (r.key, r.node_id, w.nodes[r.node_id].status)
    assert w.curation.verify() == []


def _said(runtime, space: str, lang: str, n: int = 2):
    """A space where the user said the first ``n`` budgets of ``CHATS[lang]``, and their node ids."""
    w = runtime.open(space)
    return w, [w.ingest(text, "user_input").node.id for text in CHATS[lang][:n]]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_deleting_the_superseding_statement_makes_the_older_one_active_and_undo_supersedes_it_again(runtime, lang):
    question = CHATS[lang][3]
    w, (a, b) = _said(runtime, f"del-{lang}", lang)
    assert w.nodes[a].status == "superseded" and _budget(w) == (8000.0, b)

    entry = w.curation.delete_node(b, "said by mistake")
    assert w.nodes[a].status == "active" and "superseded_by" not in w.nodes[a].meta
    assert _budget(w) == (5000.0, a)
    _agree(w)
    assert a in [n.id for n in w.query(question, budget=256).nodes]  # retrieval shows what the records hold
    released = [e for e in w.curation.log.entries if e.ref == entry.id and e.action == "node.status"]
    assert [(e.actor, e.key, e.after["status"]) for e in released] == [("builder", a, "active")]
    assert a not in w.curation.human_pairs()  # no human decision about the older statement was recorded

    again = runtime.open(f"del-{lang}")  # as read back from the store
    assert again.nodes[a].status == "active" and _budget(again) == (5000.0, a)

    w.curation.undo()  # one bare undo: the deletion and what it released
    assert b in w.nodes and w.nodes[a].status == "superseded" and w.nodes[a].meta["superseded_by"] == b
    assert _budget(w) == (8000.0, b)
    _agree(w)
    w.curation.redo()
    assert b not in w.nodes and w.nodes[a].status == "active" and _budget(w) == (5000.0, a)
    _agree(w)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_statement_released_passes_to_what_superseded_the_deleted_one(runtime, lang):
    """5000 -> 8000 -> 12000, the 8000 deleted: the 5000 is superseded by the 12000 (a supersedes edge of its
    own), not active beside it."""
    w, (a, b, c) = _said(runtime, f"chain-{lang}", lang, 3)
    assert w.nodes[b].meta.get("superseded_by") == c and w.nodes[a].meta.get("superseded_by") == b

    w.curation.delete_node(b)
    assert w.nodes[a].status == "superseded" and w.nodes[a].meta["superseded_by"] == c
    assert w.graph.edges[a, c]["relation"] == "supersedes"
    rec = next(r for r in w.constraints() if r.key == "budget/total")
    assert (rec.value, rec.node_id, [h["value"] for h in rec.history]) == (12000.0, c, [5000.0])
    _agree(w)
    w.curation.undo()
    assert not w.graph.has_edge(a, c) and w.nodes[a].meta["superseded_by"] == b
    _agree(w)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_retracting_the_superseding_statement_releases_the_older_one(runtime, lang):
    w, (a, b) = _said(runtime, f"ret-{lang}", lang)
    entry = w.curation.set_status(b, "retracted", "not what the user meant")
    assert w.nodes[a].status == "active" and _budget(w) == (5000.0, a)
    _agree(w)
    w.curation.undo(entry.id)
    assert w.nodes[b].status == "active" and w.nodes[a].status == "superseded" and _budget(w) == (8000.0, b)
    _agree(w)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_delete_node_and_undo_from_the_cli_keep_status_and_constraints_agreeing(runtime, tmp_path, lang):
    w, (a_id, b_id) = _said(runtime, "trip", lang)
    a, b = w.nodes[a_id], w.nodes[b_id]
    runtime.close()

    def cli(*args):
        out = run_cli("--data-dir", str(tmp_path / "data"), "--space", "trip", *args, cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        return out.stdout

    def state():
        budget = [c for c in json.loads(cli("constraints"))["constraints"] if c["key"] == "budget/total"]
        nodes = json.loads(cli("export", "--format", "json"))["nodes"]
        return [(c["value"], c["node_id"]) for c in budget], next(n["status"] for n in nodes if n["id"] == a.id)

    assert state() == ([(8000.0, b.id)], "superseded")
    cli("delete-node", b.message_id)
    assert state() == ([(5000.0, a.id)], "active")
    cli("undo")
    assert state() == ([(8000.0, b.id)], "superseded")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_retracted_statement_set_active_again_supersedes_what_it_released(runtime, lang):
    """Retracted, then set active by hand (the studio's status menu, not an undo): the 5,000 it had released
    stood active beside the 8,000 in force, two budgets told to a question about the budget."""
    w, (a, b) = _said(runtime, f"back-{lang}", lang)
    w.curation.set_status(b, "retracted", "not what the user meant")
    assert w.nodes[a].status == "active"
    entry = w.curation.set_status(b, "active", "it was what the user meant after all")
    assert (w.nodes[a].status, w.nodes[a].meta.get("superseded_by")) == ("superseded", b)
    assert _budget(w) == (8000.0, b)
    _agree(w)
    w.curation.undo(entry.id)  # the reactivation and what it took back, together
    assert (w.nodes[b].status, w.nodes[a].status) == ("retracted", "active") and _budget(w) == (5000.0, a)
    _agree(w)
    w.curation.redo()
    assert (w.nodes[b].status, w.nodes[a].status) == ("active", "superseded")
    _agree(w)
    # retracted and set active again, twice: one status change each time, never a second claim on the same memory
    w.curation.set_status(b, "retracted")
    w.curation.set_status(b, "active")
    assert w.nodes[a].status == "superseded" and _budget(w) == (8000.0, b)
    _agree(w)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_statement_released_again_goes_to_what_else_superseded_it(runtime, lang):
    """5000 -> 8000, the 8,000 deleted (5,000 active), 12000 said (it supersedes the 5,000), the deletion undone
    (the 5,000 is the 8,000's again), the 8,000 deleted again: the 5,000 stood active beside the 12,000 in force."""
    w, (a, b) = _said(runtime, f"again-{lang}", lang)
    w.curation.delete_node(b)
    c = w.ingest(CHATS[lang][2], "user_input").node.id
    assert w.nodes[a].meta.get("superseded_by") == c
    w.curation.undo()
    assert w.nodes[a].meta.get("superseded_by") == b and w.graph.edges[a, c]["relation"] == "supersedes"
    w.curation.delete_node(b)
    assert (w.nodes[a].status, w.nodes[a].meta.get("superseded_by")) == ("superseded", c)
    assert _budget(w) == (12000.0, c)
    _agree(w)
