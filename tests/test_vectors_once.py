"""Each vector stored once (layout 2): nodes hold their vectors, decisions a placeholder, a rejected message's
vector is held apart; vectors are read from Chroma itself, correctly across processes; older spaces still open.

Real parts: a real Chroma data directory, the real embedder, a second process writing (and one killed with
SIGKILL right after its write was acknowledged), the CLI's own runtime.
"""

from __future__ import annotations

import base64
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from crash_harness import check_space
from weaver.bench.scale import synthetic_texts
from weaver.maintenance import compact_space
from weaver.models import Message
from weaver.store import LEGACY_VECTOR_KEY, vector_reader

ROOT = Path(__file__).resolve().parents[1]

WRITER = """
import os, signal, sys
from weaver import Runtime, Settings
rt = Runtime.from_settings(Settings.from_env(env={{}}, secrets_path=None, data_dir={data!r}, backend="rules"))
w = rt.open("once")
r = w.ingest("我对芒果过敏，千万别点芒果", message_id="proc-1")
w.ingest("ok", "agent_response", message_id="proc-2")
w.space.sync()
print("DONE " + r.node.id + " " + w.vector_of(r.node.id).tobytes().hex(), flush=True)
print("HELD " + w.decision_vector("proc-2").tobytes().hex(), flush=True)
if {kill}:
    os.kill(os.getpid(), signal.SIGKILL)  # no clean exit: nothing flushed by atexit
"""


def _fill(runtime, name="once", n=30):
    w = runtime.open(name)
    w.set_task("Plan a trip to Beijing / 规划北京旅行")
    w.ingest_many([Message(t) for t in synthetic_texts(n, seed=3)])
    w.ingest("ok", "agent_response", message_id="rej-1")  # rejected: its vector is held for a promote
    w.space.sync()
    return w


def test_layout_2_stores_each_vector_once(runtime):
    w = _fill(runtime)
    sp = w.space
    assert sp.held_name
    nodes = sp.nodes.get(include=["metadatas"])
    decisions = sp.decisions.get(include=["metadatas", "embeddings"])
    assert len(nodes["ids"]) == len(w.node_ids) and len(decisions["ids"]) == len(w.decisions)
    # no metadata copy, no vector on a decision: kept ones point at their node, rejected ones are held
    assert not any(LEGACY_VECTOR_KEY in m for m in nodes["metadatas"] + decisions["metadatas"])
    assert {len(v) for v in decisions["embeddings"]} == {1}
    rejected = {d.message_id for d in w.decisions.values() if not d.node_id}
    with vector_reader(runtime.store.client) as collection:
        held = collection(sp.held_name).get(include=["embeddings"])
    assert set(held["ids"]) == rejected and "rej-1" in rejected
    got = dict(zip(held["ids"], held["embeddings"]))
    assert np.allclose(got["rej-1"], w.decision_vector("rej-1"))
    # a promote moves the vector to the node: the held copy goes
    res = w.promote("rej-1")
    sp.sync()
    with vector_reader(runtime.store.client) as collection:
        assert "rej-1" not in collection(sp.held_name).get()["ids"]
    again = runtime.open("once")
    assert again.loaded_from == "chroma"
    assert np.allclose(again.vector_of(res.node.id), w.vector_of(res.node.id))
    assert np.array_equal(again.matrix, w.matrix) and again.decisions.keys() == w.decisions.keys()


@pytest.mark.parametrize("kill", [False, True], ids=["clean-exit", "killed"])
def test_vectors_written_by_another_process_are_read_from_chroma(runtime, kill):
    """This process's Chroma client has the space's vector index cached when the other process writes: its own
    ``get(include=["embeddings"])`` fails then, so a full load must read through a fresh reader."""
    data = Path(runtime.settings.data_dir)
    w = _fill(runtime, n=12)
    runtime.open("once")  # a full load (w wrote since): it snapshots, and caches the index in this process
    assert runtime.open("once").loaded_from == "snapshot"
    proc = subprocess.run(
        [sys.executable, "-c", WRITER.format(data=str(data), kill=kill)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == (-signal.SIGKILL if kill else 0), proc.stderr[-2000:]
    out = dict(x.split(" ", 1) for x in proc.stdout.splitlines() if x.startswith(("DONE", "HELD")))
    nid, vec_hex = out["DONE"].split()
    w2 = runtime.open("once")
    assert w2.loaded_from == "chroma"
    assert len(w2.node_ids) == len(w.node_ids) + 1
    # bit for bit what the other process embedded and wrote, for the node and the held rejected vector
    assert w2.vector_of(nid).tobytes().hex() == vec_hex
    assert w2.decision_vector("proc-2").tobytes().hex() == out["HELD"]
    assert np.array_equal(w2.matrix[: len(w.node_ids)], w.matrix)
    acks = {"proc-1": {"kept": True, "node": nid}, "proc-2": {"kept": False}}
    assert check_space(w2, acks)["problems"] == []
    assert "芒果" in w2.query("我对什么过敏？").context
    assert runtime.open("once").loaded_from == "snapshot"
    assert w2.promote("proc-2").node is not None  # the held vector serves a promote in this process


def _make_legacy(runtime, name="old"):
    """A space as the code before layout 2 wrote it: no ``held`` pointer, every decision with its message's
    vector, and a base64 copy of each vector in the metadata of nodes and decisions."""
    store = runtime.store
    sp = store.open_space(name)
    sp.meta_col.delete(ids=["vectors"])  # written for a new space: without it the space is layout 1
    w = runtime.open(name)
    assert w.space.held_name is None
    w.set_task("Plan a trip to Beijing / 规划北京旅行")
    w.ingest_many([Message(t) for t in synthetic_texts(20, seed=5)])
    w.ingest("ok", "agent_response", message_id="rej-old")
    w.space.sync()
    for col in (w.space.nodes, w.space.decisions):
        got = col.get(include=["metadatas", "embeddings"])
        assert {len(v) for v in got["embeddings"]} == {runtime.embedder.dim}
        metas = [
            m | {LEGACY_VECTOR_KEY: base64.b64encode(np.asarray(v, np.float32).tobytes()).decode()}
            for m, v in zip(got["metadatas"], got["embeddings"])
        ]
        col.update(ids=got["ids"], metadatas=metas)
    return w


def test_an_older_space_opens_works_and_compacts(runtime):
    old = _make_legacy(runtime)
    w = runtime.open("old")
    assert w.loaded_from == "chroma" and w.space.held_name is None
    assert np.array_equal(w.matrix, old.matrix)
    assert np.allclose(w.decision_vector("rej-old"), old.decision_vector("rej-old"))
    w.ingest("The hotel budget is 777 yuan per night", message_id="after")  # still written in layout 1
    assert "777" in runtime.open("old").query("hotel budget").context
    before = runtime.open("old")
    n = compact_space(runtime, "old")
    assert n == len(before.node_ids) + len(before.decisions)
    after = runtime.open("old")
    assert after.space.held_name and after.loaded_from == "chroma"
    assert np.array_equal(after.matrix, before.matrix)
    assert after.decisions.keys() == before.decisions.keys()
    assert np.array_equal(after.decision_vector("rej-old"), before.decision_vector("rej-old"))
    dec = after.space.decisions.get(include=["metadatas", "embeddings"])
    assert {len(v) for v in dec["embeddings"]} == {1}
    assert not any(LEGACY_VECTOR_KEY in m for m in dec["metadatas"])
    assert after.query("hotel budget").context == before.query("hotel budget").context
    assert after.promote("rej-old").node is not None
    # the old generation is gone: only the current collections of the space remain
    names = {c.name for c in runtime.store.client.list_collections()}
    assert before.space.decisions_name not in names and before.space.nodes_name not in names


def test_compact_from_the_cli(runtime, capsys):
    from weaver.cli import main

    _make_legacy(runtime, "cli-old")
    data = str(runtime.settings.data_dir)
    os.environ.pop("WEAVER_CRASH_AT", None)
    assert main(["--data-dir", data, "--space", "cli-old", "compact"]) == 0
    assert "each vector stored once" in capsys.readouterr().out
    assert runtime.open("cli-old").space.held_name
