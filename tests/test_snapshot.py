"""The open snapshot (weaver/snapshot.py): used only while nothing changed the space, never stale, never trusted
when torn.

Real parts: a real Chroma data directory, the real embedder, a second process writing through the CLI's own
runtime, and writers that bypass the weaver's revision token.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from crash_harness import check_space
from weaver.bench.scale import synthetic_texts
from weaver.chroma_io import Call, encode_journal
from weaver.models import Edge, MemoryNode, Message
from weaver.record_codec import pack

ROOT = Path(__file__).resolve().parents[1]
QUERIES = ["hotel near Sanlitun", "预算多少", "what am I allergic to?", "第3天去故宫"]


def _snapshots(runtime) -> list[Path]:
    return sorted((Path(runtime.settings.data_dir) / "cache").glob("*.snapshot.npz"))


def _state(w) -> dict:
    """Everything a query and the builder read from the mirror, comparable between two weavers."""
    m = w.mirror
    return {
        "order": list(m.order),
        "nodes": {k: (n.content, n.status, n.meta, n.turn, n.timestamp) for k, n in m.nodes.items()},
        "edges": sorted((u, v, tuple(sorted(d.items()))) for u, v, d in m.graph.edges(data=True)),
        "decisions": {k: (d.kept, d.node_id, d.reason, d.meta) for k, d in m.decisions.items()},
        "rejected_vectors": {k: v.tobytes() for k, v in m.decision_vecs.items()},
        "matrix": m.matrix.tobytes(),
        "tokens": m.lexical.token_lists(),
        "words": m.words,
        "numbers": m.numbers,
        "turn": m.turn,
        "contexts": [w.query(q).context for q in QUERIES],
    }


def _fill(runtime, name="snap", n=40):
    w = runtime.open(name)
    w.set_task("Plan a trip to Beijing / 规划北京旅行")
    w.ingest_many([Message(t) for t in synthetic_texts(n, seed=2)])
    w.ingest("ok", "agent_response")  # a rejected message: its own vector rides in the snapshot
    return w


def test_a_second_open_reads_the_snapshot_and_sees_the_same_space(runtime):
    w = _fill(runtime)
    assert any(not d.kept for d in w.decisions.values())
    cold = runtime.open("snap")  # another writer (w) changed the space since any snapshot: a full load
    assert cold.loaded_from == "chroma"
    assert len(_snapshots(runtime)) == 1
    warm = runtime.open("snap")
    assert warm.loaded_from == "snapshot"
    assert _state(warm) == _state(cold)  # exactly what a full load reads
    # and what the writer holds (Chroma keeps float metadata to ~1e-7 relative: times differ in the last digit)
    assert _state(warm)["contexts"] == _state(w)["contexts"] and warm.node_ids == w.node_ids
    # its BM25 postings (read as columns) score every memory exactly as the index built token by token
    for q in QUERIES + ["Sanlitun hotel yuan", "过敏"]:
        assert np.array_equal(warm.lexical.scores(q), cold.lexical.scores(q)), q
    # the snapshot's weaver writes like any other, and its index grows as one built from scratch would
    before = warm.matrix
    r = warm.ingest("I'm allergic to shellfish now, and the Sanlitun hotel is 700 yuan", message_id="after-snap")
    assert r.kept
    # the snapshot's vectors were read with spare rows: the new node filled one, nothing was copied (a 205 MB
    # copy on the first new node at 100k nodes)
    assert len(warm.matrix) == len(before) + 1 and np.shares_memory(warm.matrix, before)
    fresh = runtime.open("snap")
    assert fresh.loaded_from == "chroma"
    assert warm.node_ids == fresh.node_ids and np.array_equal(warm.matrix, fresh.matrix)
    for q in QUERIES + ["Sanlitun hotel yuan", "shellfish"]:
        assert np.allclose(warm.lexical.scores(q), fresh.lexical.scores(q), atol=1e-6), q
        assert warm.query(q).context == fresh.query(q).context


def test_any_write_by_another_weaver_or_a_bypassing_writer_makes_it_stale(runtime):
    _fill(runtime)
    runtime.open("snap")  # writes the snapshot
    assert runtime.open("snap").loaded_from == "snapshot"

    other = runtime.open("snap")  # a second weaver object writes through the protocol (revision bumped)
    other.ingest("My budget is 1234 yuan", message_id="other-1")
    w = runtime.open("snap")
    assert w.loaded_from == "chroma" and "other-1" in w.decisions
    assert runtime.open("snap").loaded_from == "snapshot"

    # writers that bypass the revision token (e.g. bench scale's bulk writer) still make it stale: the stamp
    # holds the sequence number Chroma applied to each collection
    space = runtime.store.open_space("snap")
    rev = space.revision()
    nid = w.node_ids[0]
    node = w.nodes[nid]
    space.put_nodes([MemoryNode(**{**node.__dict__, "importance": 0.25})])  # metadata only
    assert space.revision() == rev
    w2 = runtime.open("snap")
    assert w2.loaded_from == "chroma" and w2.nodes[nid].importance == 0.25

    assert runtime.open("snap").loaded_from == "snapshot"
    a, b = w2.node_ids[1], w2.node_ids[-1]
    space.put_edges([Edge(a, b, "causal", 0.9, "human", "bypass")])
    w3 = runtime.open("snap")
    assert w3.loaded_from == "chroma" and w3.graph.has_edge(a, b)

    assert runtime.open("snap").loaded_from == "snapshot"
    space.delete_edges([f"{a}->{b}"])
    w4 = runtime.open("snap")
    assert w4.loaded_from == "chroma" and not w4.graph.has_edge(a, b)


def test_a_replayed_journal_is_seen_not_the_snapshot_from_before_it(runtime):
    w = _fill(runtime)
    runtime.open("snap")
    assert runtime.open("snap").loaded_from == "snapshot"
    # a journaled section whose writes never ran (the writer died right after the journal landed)
    space = runtime.store.open_space("snap")
    nid = w.node_ids[3]
    meta = pack(dataclasses.replace(w.nodes[nid], status="superseded"))
    call = Call(space.nodes_name, "update", {"ids": [nid], "metadatas": [meta]})
    ids, docs = encode_journal("t00000000000000000001-abcdef", [call])
    space._journal().upsert(ids=ids, documents=docs, embeddings=[[1.0]] * len(ids))
    after = runtime.open("snap")
    assert any("replayed" in r for r in after.repaired)
    assert after.loaded_from == "chroma" and after.nodes[nid].status == "superseded"
    assert runtime.open("snap").nodes[nid].status == "superseded"


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "empty"])
def test_a_torn_or_corrupt_snapshot_falls_back_to_chroma(runtime, damage):
    w = _fill(runtime, n=20)
    runtime.open("snap")
    (path,) = _snapshots(runtime)
    raw = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(raw[: len(raw) // 2])
    elif damage == "flip":  # inside the vectors, past every header: only the member's CRC can tell
        buf = bytearray(raw)
        at = raw.index(b"node_vectors.npy") + 200
        buf[at] ^= 0x5A
        path.write_bytes(bytes(buf))
    elif damage == "garbage":
        path.write_bytes(b"PK\x03\x04" + b"\x00" * 100)
    else:
        path.write_bytes(b"")
    got = runtime.open("snap")
    assert got.loaded_from == "chroma"
    assert _state(got)["contexts"] == _state(w)["contexts"]
    again = runtime.open("snap")
    assert again.loaded_from == "snapshot" and _state(again) == _state(got)  # rewritten whole


def test_a_reembed_changes_the_generation(runtime):
    _fill(runtime, n=12)
    runtime.open("snap")
    assert runtime.open("snap").loaded_from == "snapshot"
    from weaver.maintenance import reembed_space

    reembed_space(runtime, "snap")
    w = runtime.open("snap")
    assert w.loaded_from == "chroma"
    assert runtime.open("snap").loaded_from == "snapshot"


def test_without_local_files_every_open_is_a_full_load(tmp_path, embedder):
    import chromadb

    from weaver.backends.rules import RulesReasoner
    from weaver.core import ContextWeaver
    from weaver.store import ChromaStore

    store = ChromaStore(chromadb.PersistentClient(path=str(tmp_path / "c")), lock_dir=None)  # as with a server
    w = ContextWeaver(store.open_space("s"), embedder, RulesReasoner())
    w.ingest_many([Message(t) for t in synthetic_texts(8, seed=4)])
    for _ in range(2):
        assert ContextWeaver(store.open_space("s"), embedder, RulesReasoner()).loaded_from == "chroma"
    assert not list(tmp_path.rglob("*.snapshot.npz"))


WRITER = """
from weaver import Runtime, Settings
rt = Runtime.from_settings(Settings.from_env(env={{}}, secrets_path=None, data_dir={data!r}, backend="rules"))
w = rt.open("snap")
print("OPENED " + w.loaded_from, flush=True)
r = w.ingest("我对芒果过敏，千万别点芒果", message_id="proc-1")
w.ingest("The hotel budget is 777 yuan per night", message_id="proc-2")
print("DONE " + r.node.id, flush=True)
"""


@pytest.mark.slow
def test_another_process_writing_makes_the_snapshot_stale(runtime, embedder):
    data = Path(runtime.settings.data_dir)
    _fill(runtime, n=24)
    before = runtime.open("snap")
    assert runtime.open("snap").loaded_from == "snapshot"
    proc = subprocess.run(
        [sys.executable, "-c", WRITER.format(data=str(data))], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = dict(x.split(" ", 1) for x in proc.stdout.splitlines() if x.startswith(("OPENED", "DONE")))
    assert lines["OPENED"] == "snapshot"  # the other process read this process's snapshot
    w = runtime.open("snap")
    assert w.loaded_from == "chroma"
    assert {"proc-1", "proc-2"} <= set(w.decisions) and lines["DONE"] in w.nodes
    assert len(w.node_ids) == len(before.node_ids) + 2
    # the vectors the other process wrote are there, finite and unit length
    v = w.vector_of(lines["DONE"])
    assert np.isfinite(v).all() and abs(float(np.linalg.norm(v)) - 1) < 1e-3
    assert "芒果" in w.query("我对什么过敏？").context
    again = runtime.open("snap")
    assert again.loaded_from == "snapshot" and _state(again) == _state(w)
    acks = {m: {"kept": True, "node": w.decisions[m].node_id} for m in ("proc-1", "proc-2")}
    assert check_space(again, acks)["problems"] == []


def test_a_warm_open_makes_no_decision_and_reads_the_same_audit_log(runtime):
    """Decisions stay rows until read; curation's log (build entries ride on the decisions) is the full load's."""
    _fill(runtime)
    cold = runtime.open("snap")
    warm = runtime.open("snap")
    assert warm.loaded_from == "snapshot" and cold.loaded_from in ("chroma", "snapshot")
    # only the focus window's decisions are read on open (curation reads the build entries stored beside them)
    window = warm.config.focus_window
    assert 0 < window < 40 and warm.mirror.decisions.made() <= window
    builds = [e for e in warm.curation.log.entries if e.action == "build"]
    assert len(builds) == sum(1 for d in cold.decisions.values() if d.kept) > 0
    assert [e.to_dict() for e in warm.curation.log.entries] == [e.to_dict() for e in cold.curation.log.entries]
    some, made = next(iter(warm.decisions)), warm.mirror.decisions.made()  # the oldest: outside the window
    assert warm.decisions[some] is warm.decisions[some] and warm.mirror.decisions.made() == made + 1
    assert {k: d.to_record() for k, d in warm.decisions.items()} == {
        k: d.to_record() for k, d in cold.decisions.items()
    }


def test_a_space_opened_from_its_snapshot_takes_writes_and_hears_the_message_before(runtime):
    w = _fill(runtime, "snap-write")
    w.ingest("Caroline: I finally signed up for the pottery class downtown.", meta={"speaker": "Caroline"})
    runtime.open("snap-write")  # the snapshot is written at this full load
    warm = runtime.open("snap-write")
    assert warm.loaded_from == "snapshot"
    # the filler rule reads the message before (the lazily made decisions, newest first): an echo is filler
    echo = warm.ingest("Melanie: Pottery class! Wow!", meta={"speaker": "Melanie"})
    assert not echo.kept and "filler" in echo.decision.reason
    kept = warm.ingest(
        "Melanie: I am moving to Lisbon in March for a new job at the aquarium.", meta={"speaker": "Melanie"}
    )
    assert kept.kept and kept.node.id in warm.nodes
