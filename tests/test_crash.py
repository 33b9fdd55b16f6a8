"""Crash safety: SIGKILL the ingesting process at random points, reopen, nothing acknowledged is lost.

The ingest campaign runs ``CW_CRASH_KILLS`` kills (2 by default) and the campaign
over every other writing command ``CW_CRASH_COMMANDS`` rounds (3 by default), (~45 s and ~90 s
here); docs/reliability.md records the long run of
``tests/crash_harness.py --kills 40 --commands 100``. ``tests/test_crash_store.py``
kills reembed, delete-space and a batch with a review pass at every store write.
``tests/crash_studio.py`` kills the studio itself mid chat turn (``CW_CRASH_STUDIO``
rounds, 2 by default). The in-process tests below lay down the exact on-disk state each kind of crash
leaves (node without decision, promote without decision update, edges to a
node that never committed) and check the repair on open.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from crash_harness import check_space, make_corpus, run_campaign
from weaver.models import Edge, MemoryNode


@pytest.mark.slow
def test_sigkill_campaign_over_every_writing_command(tmp_path):
    """Kill promote, review --apply, accept/reject, edge set/rm, undo/redo, status, task, reembed, delete-space..."""
    from crash_commands import run_commands_campaign

    rounds = int(os.environ.get("CW_CRASH_COMMANDS", "3"))
    summary = run_commands_campaign(
        rounds, tmp_path, seed=int(os.environ.get("CW_CRASH_SEED", "4")), log=lambda *_: None
    )
    assert summary["problems"] == [], summary["problems"][:5]
    assert summary["lost"] == 0 and summary["dangling"] == 0
    assert summary["rounds"] == summary["checks"] == rounds
    assert summary["kills"] >= rounds // 2  # most rounds really were killed (the others finished or refused)


@pytest.mark.slow
@pytest.mark.browser
def test_sigkill_the_studio_mid_turn(tmp_path):
    """The studio killed while a chat turn runs: every turn whose reply was shown is there, whole, after restart."""
    pytest.importorskip("playwright")
    from crash_studio import run_studio_campaign

    rounds = int(os.environ.get("CW_CRASH_STUDIO", "2"))
    summary = run_studio_campaign(rounds, tmp_path, seed=int(os.environ.get("CW_CRASH_SEED", "3")), log=lambda *_: None)
    assert summary["problems"] == [], summary["problems"][:5]
    assert summary["rounds"] == summary["checks"] == rounds
    assert summary["kills"] == rounds  # the server was alive, mid-turn, when it was killed
    assert summary["acked"] == rounds
    assert summary["shown_again"] == rounds * (rounds - 1) // 2  # each restart showed every earlier turn


@pytest.mark.slow
def test_sigkill_campaign_loses_nothing_acknowledged(tmp_path):
    kills = int(os.environ.get("CW_CRASH_KILLS", "2"))
    summary = run_campaign(kills, tmp_path, seed=int(os.environ.get("CW_CRASH_SEED", "1")), log=lambda *_: None)
    assert summary["problems"] == [], summary["problems"][:10]
    assert summary["lost"] == 0 and summary["dangling"] == 0
    assert summary["kills"] + summary["finished_early"] == summary["rounds"] == kills
    assert summary["kills"] >= kills - 1  # the kills really happened
    assert summary["acked"] > 0 and summary["nodes"] > 0
    assert summary["checks"] == kills + 1  # a check after every kill and a final one
    assert summary["audit_checked"]


def _legacy_build_record(w, node) -> None:
    """The builder's audit record as older releases wrote it, before the decision (this release keeps the
    entry on the decision, so a kill before the decision leaves none): the repair must drop it."""
    entry = w.curation.log.new(
        "builder",
        "build",
        node.id,
        None,
        {"node": {"id": node.id}, "edges": []},
        f"ingest of {node.message_id}",
        message_id=node.message_id,
    )
    w.space.put_records("audit", {entry.id: entry.to_dict()})


def _crash_state_node_without_decision(w, embedder, text="Found 3 hotels near the station, 400 yuan a night."):
    """What a kill between the node write and the decision write leaves on disk."""
    parent = next(iter(w.nodes))
    node = MemoryNode(id="n_orphan", content=text, kind="tool_result", turn=9, message_id="msg-never-committed")
    vec = embedder.embed([text])
    edge = Edge(parent, "n_orphan", "temporal", 0.9, "rules", "crash test")
    w.space.put_nodes([node], vec)
    w.space.put_edges([edge])
    _legacy_build_record(w, node)
    return parent


def test_repair_removes_a_node_whose_decision_never_landed(runtime, embedder):
    w = runtime.open("repair")
    w.set_task("Plan a Beijing trip")
    for m in make_corpus(12, seed=3):
        w.ingest(m["content"], m["kind"], message_id=m["id"])
    before = (set(w.nodes), w.graph.number_of_edges())
    _crash_state_node_without_decision(w, embedder)
    again = runtime.open("repair")
    assert "n_orphan" not in again.nodes
    assert any("n_orphan" in r for r in again.repaired)
    assert any("dropped audit entry" in r for r in again.curation.repaired)  # the older release's build record
    assert (set(again.nodes), again.graph.number_of_edges()) == before
    report = check_space(again, {})
    assert report["problems"] == []
    # the message was never acknowledged: ingesting it again weaves it normally
    res = again.ingest(
        "Found 3 hotels near the station, 400 yuan a night.", "tool_result", message_id="msg-never-committed"
    )
    assert not res.duplicate and res.decision.message_id == "msg-never-committed"


def test_repair_undoes_a_promote_that_crashed_before_its_decision(runtime, embedder):
    w = runtime.open("promote-crash")
    w.set_task("规划北京三日游")
    w.ingest("我的预算是5000元。", "user_input", message_id="budget")
    rejected = w.ingest("好的", "user_input", message_id="ok")
    assert not rejected.kept
    # the promote's node and edge landed, its decision update did not
    node = MemoryNode(id="n_promoted", content="好的", kind="user_input", turn=2, message_id="ok")
    edge = Edge(w.decisions["budget"].node_id, "n_promoted", "temporal", 0.5, "rules")
    w.space.put_nodes([node], embedder.embed(["好的"]))
    w.space.put_edges([edge])
    _legacy_build_record(w, node)
    again = runtime.open("promote-crash")
    assert "n_promoted" not in again.nodes and not again.decisions["ok"].kept
    assert check_space(again, {})["problems"] == []
    assert again.promote("ok").decision.kept  # and the promote can simply be redone


def test_reingest_of_the_same_message_id_is_idempotent(weaver):
    weaver.set_task("Plan a trip to Xi'an")
    first = weaver.ingest("My budget is 3000 yuan and I am allergic to peanuts.", message_id="rerun-1")
    nodes, edges, decisions = len(weaver.nodes), weaver.graph.number_of_edges(), len(weaver.decisions)
    # a Streamlit rerun sends the same message again, possibly with different whitespace
    for text in ("My budget is 3000 yuan and I am allergic to peanuts.", "  My budget is 3000 yuan  "):
        again = weaver.ingest(text, message_id="rerun-1")
        assert again.duplicate and again.decision.node_id == first.decision.node_id
    assert (len(weaver.nodes), weaver.graph.number_of_edges(), len(weaver.decisions)) == (nodes, edges, decisions)
    # and after reopening the space
    reopened = type(weaver)(weaver.space, weaver.embedder, weaver.reasoner, weaver.config)
    assert reopened.ingest("whatever", message_id="rerun-1").duplicate
    assert len(reopened.nodes) == nodes


def test_batch_with_a_repeated_id_weaves_it_once(weaver):
    from weaver.models import Message

    out = weaver.ingest_many(
        [Message("我对海鲜过敏。", "user_input", {}, "dup"), Message("我对海鲜过敏。", "user_input", {}, "dup")]
    )
    assert not out[0].duplicate and out[1].duplicate
    assert sum(1 for n in weaver.nodes.values() if n.message_id == "dup") == (1 if out[0].kept else 0)
    assert np.isfinite(out[0].decision.total)
