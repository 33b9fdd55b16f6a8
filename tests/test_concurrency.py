"""Concurrency: two writers on one space never corrupt it; spaces stay isolated; one Chroma client per process.

The design (docs/reliability.md): every write section of a weaver holds the
space's file lock (``<data_dir>/locks/<space>.lock``) and first catches up with
any other writer (a revision token beside the lock), so two processes — the
studio and a CLI ingest — interleave whole messages and never weave the same
message id twice or from a stale graph.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from crash_harness import check_space, make_corpus
from weaver import Runtime, Settings
from weaver.models import WeaverError

ROOT = Path(__file__).resolve().parents[1]

WRITER = """
import json, random, sys, time
from crash_harness import make_corpus
from weaver import Runtime, Settings
rt = Runtime.from_settings(Settings.from_env(env={{}}, secrets_path=None, data_dir={data!r}, backend="rules"))
w = rt.open("shared space")
msgs = make_corpus({n}, seed=5)
random.Random({seed}).shuffle(msgs)
print("READY", flush=True)
sys.stdin.readline()  # start together
out = {{}}
for m in msgs:
    r = w.ingest(m["content"], m["kind"], message_id=m["id"])
    out[m["id"]] = {{"kept": r.kept, "node": r.node.id if r.node else "", "dup": r.duplicate}}
    time.sleep(0.05)  # room for the other writer on a loaded machine, so the two really interleave
print("RESULT " + json.dumps(out), flush=True)
"""


def _writer(data: Path, n: int, seed: int) -> subprocess.Popen:
    code = WRITER.format(data=str(data), n=n, seed=seed)
    return subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


@pytest.mark.slow
def test_two_processes_writing_the_same_messages_to_one_space(tmp_path, embedder):
    data, n = tmp_path / "data", 24
    Runtime.from_settings(Settings.from_env(env={}, secrets_path=None, data_dir=data), embedder=embedder).open(
        "shared space"
    ).set_task("Plan a trip in China / 规划中国旅行")
    procs = [_writer(data, n, seed) for seed in (1, 2)]
    for p in procs:
        assert p.stdout.readline().strip() == "READY", p.stderr.read()
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    results = []
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err[-2000:]
        results.append(__import__("json").loads(next(x for x in out.splitlines() if x.startswith("RESULT "))[7:]))
    a, b = results
    assert set(a) == set(b) == {m["id"] for m in make_corpus(n, seed=5)}
    for mid in a:
        # each message woven exactly once: the other writer saw it as a duplicate with the same node
        assert a[mid]["dup"] != b[mid]["dup"], mid
        assert (a[mid]["kept"], a[mid]["node"]) == (b[mid]["kept"], b[mid]["node"]), mid
    w = Runtime.from_settings(Settings.from_env(env={}, secrets_path=None, data_dir=data), embedder=embedder).open(
        "shared space", create=False
    )
    acks = {mid: {"id": mid, "kept": r["kept"], "node": r["node"]} for mid, r in a.items()}
    report = check_space(w, acks)
    assert report["problems"] == [] and report["decisions"] == n
    assert sum(1 for r in a.values() if not r["dup"]) > 0 and sum(1 for r in b.values() if not r["dup"]) > 0


def test_two_weavers_in_two_threads_on_one_space(runtime):
    runtime.open("threads").set_task("Plan a trip in China")
    w1, w2 = runtime.open("threads"), runtime.open("threads")  # e.g. two studio processes' views, in one
    msgs = make_corpus(16, seed=9)
    errors: list[BaseException] = []

    def run(w, order):
        try:
            for m in order:
                w.ingest(m["content"], m["kind"], message_id=m["id"])
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(w1, msgs)), threading.Thread(target=run, args=(w2, msgs[::-1]))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors, errors
    fresh = runtime.open("threads")
    assert check_space(fresh, {})["problems"] == []
    assert set(fresh.decisions) == {m["id"] for m in msgs}
    # each weaver caught up with the other's writes at its next write section
    w1.refresh()
    assert set(w1.nodes) == set(fresh.nodes) and w1.graph.number_of_edges() == fresh.graph.number_of_edges()


def test_a_writer_catches_up_before_weaving(runtime):
    a, b = runtime.open("catch-up"), runtime.open("catch-up")
    a.set_task("Plan a trip to Beijing")
    a.ingest("My budget is 5000 yuan.", message_id="budget")
    assert "budget" not in b.decisions  # b has not written since: its mirror is stale...
    res = b.ingest("My budget is 5000 yuan.", message_id="budget")
    assert res.duplicate  # ...until its next write section reloads it
    b_thought = b.ingest("I need hotels in Beijing within the 5000 yuan budget.", "agent_thought", message_id="t")
    assert b_thought.kept and any(e.source == a.decisions["budget"].node_id for e in b_thought.edges)


def test_a_held_lock_gives_a_clear_error_after_the_timeout(runtime, monkeypatch, tmp_path):
    import weaver.space_lock as space_lock

    monkeypatch.setattr(space_lock, "LOCK_TIMEOUT", 0.5)
    w = runtime.open("busy space")
    lock = w.space.lock_path
    assert lock.parent == Path(runtime.settings.data_dir).resolve() / "locks"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import sys, time; from filelock import FileLock; l = FileLock(sys.argv[1]); l.acquire(); "
                "print('held', flush=True); time.sleep(30)"
            ),
            str(lock),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        other = runtime.open("busy space 2")  # another space is not blocked
        other.ingest("My budget is 5000 yuan.", message_id="x")
        t0 = time.perf_counter()
        with pytest.raises(WeaverError, match="busy"):
            runtime.open("busy space")
        assert time.perf_counter() - t0 < 10
    finally:
        holder.kill()
        holder.wait()
    # the holder died: its lock went with it
    assert runtime.open("busy space").ingest("My budget is 5000 yuan.", message_id="y").decision


def test_spaces_are_isolated(runtime):
    trip, work = runtime.open("session A trip"), runtime.open("session B work")
    trip.set_task("Plan a trip to Beijing")
    work.set_task("Prepare the quarterly report")
    trip.ingest("I'm allergic to seafood. 我对海鲜过敏。", message_id="m1")
    work.ingest("The report is due on Friday and must cover Q3 revenue.", message_id="m1")
    assert trip.decisions["m1"].content != work.decisions["m1"].content
    assert not set(trip.nodes) & set(work.nodes)
    assert all("seafood" not in n.content for n in work.nodes.values())
    assert "seafood" not in work.query("what am I allergic to?").context
    assert runtime.open("session B work").decisions["m1"].content.startswith("The report")


def test_one_chroma_client_per_process(settings, embedder):
    a = Runtime.from_settings(settings, embedder=embedder)
    b = Runtime.from_settings(settings, embedder=embedder)
    assert a.store.client is b.store.client
    other = Runtime.from_settings(
        Settings.from_env(env={}, secrets_path=None, data_dir=settings.data_dir / "x"), embedder=embedder
    )
    assert other.store.client is not a.store.client
    # the studio builds its Runtime once per process (st.cache_resource)
    src = (ROOT / "ui" / "state.py").read_text()
    assert (
        "@st.cache_resource" in src.split("def get_runtime")[0].splitlines()[-1]
        or "cache_resource" in src.split("def get_runtime")[0][-200:]
    )


@pytest.mark.slow
def test_two_studio_sessions_on_different_spaces_stay_isolated(tmp_path, monkeypatch):
    """Two sessions of one studio process (shared cached Runtime), each on its own space."""
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    if not (ROOT / "app.py").exists():
        pytest.skip("the studio is not built yet")
    monkeypatch.setenv("WEAVER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(ROOT)
    st.cache_resource.clear()
    try:
        sessions = {}
        for space, text in (
            ("session-alpha", "I'm allergic to peanuts, budget 3000 yuan for Beijing."),
            ("会话-贝塔", "我们住在王府井附近，预算每晚600元。"),
        ):
            at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
            at.session_state["space"] = space
            at.run()
            at.chat_input[0].set_value(text)
            at._finished_page_script_hash = ""
            at.run()
            assert not at.exception, [e.value for e in at.exception]
            sessions[space] = at
        from ui.state import get_weaver

        alpha, beta = get_weaver("session-alpha"), get_weaver("会话-贝塔")
        assert any("peanuts" in n.content for n in alpha.nodes.values())
        assert not any("peanuts" in n.content for n in beta.nodes.values())
        assert not any("王府井" in d.content for d in alpha.decisions.values() if d.kind == "user_input")
        assert alpha.space.prefix != beta.space.prefix
        md_beta = "\n".join(m.value for m in sessions["会话-贝塔"].markdown)
        assert "peanuts" not in md_beta and "王府井" in md_beta
    finally:
        st.cache_resource.clear()
