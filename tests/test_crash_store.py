"""Crash at every store write of reembed, delete-space and a batch with a review pass; exact space names.

In-process: the store's crash point (``WEAVER_CRASH_AT``'s mechanism) is armed to
raise at the N-th Chroma write and to refuse every later one, as a dead process
would; the test then reopens the space and checks what that kill left, for every
N the operation reaches. ``tests/crash_commands.py`` does the same with real
SIGKILLs on the CLI.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from crash_commands import fingerprint, references, stray_collections
from crash_harness import check_space
from weaver import Runtime
from weaver.chroma_io import SimulatedCrash
from weaver.maintenance import reembed_space
from weaver.models import Message, WeaverError
from weaver.registry import legacy_slug

CONSTRAINTS = [
    "My total budget for the trip is 5000 yuan.",
    "I am allergic to peanuts.",
    "I need a quiet hotel room.",
    "The hotel must be near a metro station.",
    "I arrive in Beijing on May 1st.",
    "I leave on May 4th.",
    "I only eat vegetarian food.",
    "The hotel rating must be at least 4.5.",
    "我不吃辣的。",
]
REVISION = "Actually my total budget for the trip is now 8000 yuan."


def _crash(rt):
    return rt.store.client._crash


def _writes(rt, fn) -> int:
    """How many Chroma writes ``fn`` makes, uncut."""
    crash = _crash(rt)
    crash.arm(0)
    fn()
    return crash.writes


def _killed(rt, fn, n: int, after: bool = False) -> bool:
    """Run ``fn`` with a kill at its n-th write; False when it finished first (fewer writes than n)."""
    crash = _crash(rt)
    crash.arm(n, after)
    try:
        fn()
    except SimulatedCrash:
        return True
    finally:
        crash.arm(0)
    return False


def _fill(w, tag: str, n: int = 6) -> dict:
    w.set_task("Plan a Beijing trip / 规划北京之旅")
    msgs = [Message(f"{tag}: {CONSTRAINTS[i % len(CONSTRAINTS)]}", "user_input", {}, f"{tag}-{i}") for i in range(n)]
    return {
        r.decision.message_id: {"id": r.decision.message_id, "kept": r.kept, "node": r.node.id if r.node else ""}
        for r in w.ingest_many(msgs)
    }


class _Small:
    """A different embedder (64-d) so old and new vectors can be told apart."""

    name, dim = "small-64", 64

    def __init__(self, base):
        self.base = base

    def embed(self, texts):
        v = self.base.embed(texts)[:, :64]
        return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_a_kill_at_every_write_of_reembed_leaves_the_old_or_the_new_space_whole(runtime, settings, embedder):
    name = "re-embed 重嵌"
    w = runtime.open(name)
    acks = _fill(w, "re")
    u, v = next(iter(w.graph.edges)) if w.graph.number_of_edges() else (None, None)
    if u:
        w.curation.remove_edge(u, v, "a curator edit that must survive")
    before = fingerprint(runtime)
    small = Runtime.from_settings(settings, embedder=_Small(embedder))
    total = _writes(small, lambda: reembed_space(small, name))
    reembed_space(runtime, name)  # back to the 512-d space
    assert total >= 6
    seen = set()
    for n in range(1, total + 1):
        if not _killed(small, lambda: reembed_space(small, name), n):
            reembed_space(runtime, name)
            break
        try:
            again, which = runtime.open(name), "old"
        except WeaverError as exc:
            assert "reembed" in str(exc)
            again, which = small.open(name), "new"
        seen.add(which)
        assert check_space(again, acks, chroma_vectors=True)["problems"] == []
        assert again.matrix.shape == (len(acks), 512 if which == "old" else 64)
        assert fingerprint(runtime if which == "old" else small) == before, n
        assert stray_collections(runtime) == [], n
        if which == "new":
            reembed_space(runtime, name)
    assert seen == {"old", "new"}  # kills before and after the switch both happened


def test_space_names_map_exactly_to_their_collections(runtime):
    twin = legacy_slug("北京 trip")  # the old scheme's collection stem for "北京 trip"
    a, trip, cn, literal = (runtime.open(n) for n in ("a", "a-x-trip", "北京 trip", twin))
    for w, tag in ((a, "a"), (trip, "trip"), (cn, "cn"), (literal, "literal")):
        _fill(w, tag, 3)
    assert runtime.open("北京 trip").space.prefix != runtime.open(twin).space.prefix
    assert {n.content.split(":")[0] for n in runtime.open(twin).nodes.values()} == {"literal"}
    keep = {k: v for k, v in fingerprint(runtime).items() if k != "a"}
    runtime.store.delete_space("a")
    assert "a" not in runtime.store.list_spaces()
    assert fingerprint(runtime) == keep  # a-x-trip and the rest untouched
    assert stray_collections(runtime) == []


def _make_legacy(runtime, name: str, tag: str) -> dict:
    """A space laid out as releases before the registry made it (``cw-<slug>-*``, no registry record)."""
    reg = runtime.store.registry
    reg.put({"name": name, "prefix": f"cw-{legacy_slug(name)}", "state": "live"})
    acks = _fill(runtime.open(name), tag, 3)
    reg.drop(name)
    return acks


def test_spaces_made_by_the_old_slug_scheme_still_open_and_delete_exactly(runtime):
    acks_a = _make_legacy(runtime, "a", "old-a")
    acks_trip = _make_legacy(runtime, "a-x-trip", "old-trip")
    acks_cn = _make_legacy(runtime, "北京 trip", "old-cn")
    assert {"a", "a-x-trip", "北京 trip"} <= set(runtime.store.list_spaces())
    for name, acks in (("a", acks_a), ("a-x-trip", acks_trip), ("北京 trip", acks_cn)):
        w = runtime.open(name, create=False)
        assert w.space.prefix == f"cw-{legacy_slug(name)}"
        assert check_space(w, acks)["problems"] == [] and len(w.decisions) == 3
    # the literal old slug of "北京 trip" is another, new space
    literal = runtime.open(legacy_slug("北京 trip"))
    assert literal.space.prefix.startswith("cwx-") and not literal.decisions
    runtime.store.delete_space("a")
    assert "a" not in runtime.store.list_spaces()
    assert len(runtime.open("a-x-trip", create=False).decisions) == 3
    assert runtime.open("a").decisions == {}  # re-created empty
    assert stray_collections(runtime) == []


def test_a_kill_at_every_write_of_delete_space_leaves_it_whole_or_gone(runtime):
    _fill(runtime.open("a-x-trip"), "survivor", 3)
    keep = fingerprint(runtime)["a-x-trip"]

    def make_victim():
        acks = _fill(runtime.open("a"), "victim", 4)
        return acks, fingerprint(runtime)["a"]

    make_victim()
    total = _writes(runtime, lambda: runtime.store.delete_space("a"))
    outcomes = set()
    for n in range(1, total + 1):
        acks, whole = make_victim()
        if not _killed(runtime, lambda: runtime.store.delete_space("a"), n):
            break
        spaces = runtime.store.list_spaces()
        state = fingerprint(runtime)
        assert state["a-x-trip"] == keep
        assert stray_collections(runtime) == []
        if "a" in spaces:
            outcomes.add("there")
            assert state["a"] == whole, n
            assert check_space(runtime.open("a", create=False), acks)["problems"] == []
        else:
            outcomes.add("gone")
            with pytest.raises(WeaverError, match="does not exist"):
                runtime.open("a", create=False)
            fresh = runtime.open("a")  # re-created after a killed delete: empty, nothing comes back
            assert (fresh.nodes, fresh.decisions, fresh.graph.number_of_edges()) == ({}, {}, 0)
            assert fresh.curation.log.entries == []
    assert outcomes == {"there", "gone"}


def _budget_space(runtime, name: str):
    w = runtime.open(name)
    w.config = w.config.with_(review_every=10)
    w.set_task("Plan a Beijing trip within budget")
    w.ingest_many([Message(c, "user_input", {}, f"c{i}") for i, c in enumerate(CONSTRAINTS)])
    return w


def test_a_kill_at_every_write_of_a_batch_leaves_no_effect_of_its_unacknowledged_message(runtime):
    probe = _budget_space(runtime, "budget-probe")
    revise = lambda w: w.ingest_many([Message(REVISION, "user_input", {}, "revision")])  # noqa: E731
    total = _writes(runtime, lambda: revise(probe))
    old = probe.decisions["c0"].node_id
    assert probe.nodes[old].status == "superseded"  # the uncut run: the new budget supersedes the 5000
    outcomes = set()
    for n in range(1, total + 1):
        w = _budget_space(runtime, f"budget-{n}")
        acks = {m: {"id": m, "kept": d.kept, "node": d.node_id or ""} for m, d in w.decisions.items()}
        if not _killed(runtime, lambda: revise(w), n):
            break
        again = runtime.open(f"budget-{n}")
        report = check_space(again, acks)
        assert report["problems"] == [] and references(again) == [], n
        old = again.decisions["c0"].node_id
        status = again.nodes[old].status
        if "revision" not in again.decisions:
            outcomes.add("rolled back")
            assert status == "active", n  # no effect of the unacknowledged message
            assert not [e for e in again.curation.log.entries if e.action == "node.status"]
            assert "5000" in again.query("what is my total budget?").context
        else:
            new = again.decisions["revision"].node_id
            outcomes.add(f"committed, {status}")
            if status == "superseded":  # with its cause and its audit entry, so it can be undone
                assert again.nodes[old].meta["superseded_by"] == new
                entry = next(e for e in again.curation.log.entries if e.action == "node.status" and e.key == old)
                assert entry.actor in ("builder", "review")  # on arrival, or by the review pass
                again.curation.undo(entry.id)
                assert again.nodes[old].status == "active"
    # committed either superseded at once (on arrival, in the message's own section) or still active with the
    # review pass to come (when arrival is off): both with their audit entries
    assert "rolled back" in outcomes and any(o.startswith("committed") for o in outcomes), outcomes


@pytest.mark.parametrize("write_behind", [0, 32])
def test_a_message_that_supersedes_and_shifts_the_focus_costs_one_write_per_collection(
    settings, embedder, write_behind
):
    # a supersede on arrival (an earlier node's status and its audit entries) or a focus shift used to make
    # the message's section journaled (journal upsert + delete), the shift with a meta write as well, and the
    # builder's audit entry was a write of its own; now each collection the message touches gets one write
    # and the decision (the commit marker) carries the build entry and the shift. With write-behind (local
    # mode's default) the message costs one write, its section's line in the log, whatever it touches.
    runtime = Runtime.from_settings(replace(settings, write_behind=write_behind), embedder=embedder)
    w = _budget_space(runtime, "budget-calls")
    w.config = w.config.with_(review_every=1000)  # the review pass is a section of its own: not counted here
    done = {}
    writes = _writes(runtime, lambda: done.update(r=w.ingest(REVISION)))
    assert w.nodes[w.decisions["c0"].node_id].status == "superseded"
    edges = 1 if done["r"].edges else 0
    if write_behind:
        assert writes == 1, writes
    else:
        # the new node (upsert with its vector), the superseded one (a metadata update: re-writing an existing
        # vector makes Chroma repair its HNSW neighbourhood, 13-30 ms a node at 10k), audit, decisions
        assert writes == 4 + edges, writes
    w.ingest("我想订一家上海外滩附近的酒店，预算每晚800元。")
    w.ingest("酒店要有早餐，最好能看到江景。")
    writes = _writes(runtime, lambda: done.update(s=w.ingest("换个话题：故宫的门票多少钱？周一开放吗？")))
    assert done["s"].decision.focus_shift_at > 0
    assert writes == (1 if write_behind else 2 + (1 if done["s"].edges else 0)), writes  # nodes, (edges,) decisions
    build = next(e for e in w.curation.log.entries if e.action == "build" and e.key == done["s"].node.id)
    assert w.decisions[done["s"].decision.message_id].audit["id"] == build.id  # rides on the decision
    assert runtime.open("budget-calls").meta["focus_history"][-1]["shift"].startswith("换个话题")
