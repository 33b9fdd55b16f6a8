"""Write-behind (weaver.write_log): a message is acknowledged once its section is in the space's local log, and
Chroma gets the log a group at a time. Nothing acknowledged may be lost or hidden: not by a SIGKILL before the
group lands, not from another weaver on the same space, not by a batch, a reembed or a delete in between."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from weaver import Runtime
from weaver.chroma_io import Call
from weaver.maintenance import reembed_space
from weaver.models import Message
from weaver.store import get_all_records
from weaver.write_log import WriteLog

ROOT = Path(__file__).resolve().parents[1]
TEXTS = [
    "I am allergic to peanuts.",
    "My total budget for the trip is 5000 yuan.",
    "我想住在故宫附近的安静酒店。",
    "The hotel must be near a metro station.",
    "我们5月1日到北京。",
]


def _logs(settings) -> list[Path]:
    return sorted((Path(settings.data_dir) / "locks").glob("*.wal"))


def _pending(settings) -> bool:
    return any(p.stat().st_size for p in _logs(settings))


def _rt(settings, embedder, group: int) -> Runtime:
    return Runtime.from_settings(replace(settings, write_behind=group), embedder=embedder)


def _raw_decisions(w) -> set[str]:
    """What Chroma itself holds, read past the weaver."""
    return set(get_all_records(w.space.decisions, ["metadatas"])["ids"])


def test_a_group_lands_in_chroma_and_empties_the_log(settings, embedder):
    w = _rt(settings, embedder, 3).open("group")
    acked = [w.ingest(t).decision.message_id for t in TEXTS[:2]]
    assert _pending(settings) and not set(acked) & _raw_decisions(w)  # acknowledged, in the log only
    acked.append(w.ingest(TEXTS[2]).decision.message_id)  # the third section completes the group
    assert not _pending(settings) and set(acked) <= _raw_decisions(w)


def test_without_write_behind_every_section_goes_to_chroma_at_once(settings, embedder):
    w = _rt(settings, embedder, 0).open("direct")
    mid = w.ingest(TEXTS[0]).decision.message_id
    assert _logs(settings) == [] and mid in _raw_decisions(w)


def test_another_weaver_on_the_space_sees_pending_sections(settings, embedder):
    w1 = _rt(settings, embedder, 100).open("shared")
    ids = [w1.ingest(t).node.id for t in TEXTS[:3]]
    assert _pending(settings)
    w2 = _rt(settings, embedder, 100).open("shared")  # another weaver (a CLI beside the studio)
    assert set(ids) <= set(w2.nodes)
    late = w2.ingest(TEXTS[3]).node.id
    assert w1.refresh() and set(ids + [late]) <= set(w1.nodes)


def test_reads_of_records_see_pending_sections(settings, embedder):
    w = _rt(settings, embedder, 100).open("records")
    a, b = (w.ingest(t).node.id for t in TEXTS[:2])
    w.curation.set_edge(a, b, "causal", why="a curator links them")
    assert _pending(settings)
    audit = w.space.get_records("audit")  # read without applying the log
    assert any(v.get("action") == "edge.add" and v.get("key") == f"{a}->{b}" for v in audit.values())
    assert _pending(settings) and w.flush() >= 3 and not _pending(settings)
    assert w.space.get_records("audit").keys() == audit.keys()


def test_a_batch_lands_after_the_pending_sections(settings, embedder):
    w = _rt(settings, embedder, 100).open("batch")
    first = [w.ingest(t).decision.message_id for t in TEXTS[:2]]
    w.space.write_behind_records = 20  # a section writing more records than this is a batch: Chroma at once
    batch = [Message(f"Day {i}: visit the museum number {i} near Wangfujing.", "user_input") for i in range(80)]
    done = w.ingest_many(batch)  # its sections go to Chroma directly, after what the log held
    assert set(first) | {r.decision.message_id for r in done} <= _raw_decisions(w)
    again = _rt(settings, embedder, 100).open("batch")
    turns = [again.decisions[m].turn for m in first] + [again.decisions[r.decision.message_id].turn for r in done]
    assert turns == sorted(turns) and len(again.decisions) == 82


def test_reembed_and_delete_with_pending_sections(settings, embedder):
    rt = _rt(settings, embedder, 100)
    w = rt.open("moves")
    ids = [w.ingest(t).node.id for t in TEXTS[:3]]
    assert _pending(settings)
    reembed_space(rt, "moves")
    again = rt.open("moves")
    assert set(ids) <= set(again.nodes) and not _pending(settings)
    again.ingest(TEXTS[3])
    assert _pending(settings)
    rt.store.delete_space("moves")
    assert _logs(settings) == []  # the deleted space's log went with it
    assert rt.open("moves").nodes == {}  # made again: nothing of the old one comes back


def test_a_torn_last_line_was_never_acknowledged(tmp_path):
    log = WriteLog(tmp_path / "s.wal")
    log.append([Call("c", "upsert", {"ids": ["1"], "documents": ["a"]})])
    log.append([Call("c", "delete", {"ids": ["0"]})])
    with open(log.path, "ab") as fh:  # a kill mid-append: half a line, no newline
        fh.write(b'3f2a {"collection": "c", "op": "ups')
    assert [[c.op for c in s] for s in log.read()] == [["upsert"], ["delete"]]
    # the next writer's section is not glued to the torn half (it would read as corrupt and be lost)
    log.append([Call("c", "upsert", {"ids": ["2"], "documents": ["b"]})])
    assert [[c.kwargs["ids"] for c in s] for s in WriteLog(log.path).read()] == [[["1"]], [["0"]], [["2"]]]
    log.clear()
    assert log.read() == [] and not log.pending()
    log.append([Call("c", "delete", {"ids": ["3"]})])  # after a clear a reader starts over, not mid-file
    assert [[c.kwargs["ids"] for c in s] for s in log.read()] == [[["3"]]]


_CHILD = textwrap.dedent(
    """
    import json, os, signal, sys
    from dataclasses import replace
    from pathlib import Path
    from weaver import Runtime
    from weaver.settings import Settings

    data_dir, group, texts, how = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3]), sys.argv[4]
    s = Settings.from_env(env={}, secrets_path=None, data_dir=Path(data_dir))
    w = Runtime.from_settings(replace(s, write_behind=group)).open("killed")
    for t in texts:
        print("ACK " + w.ingest(t).decision.message_id, flush=True)
    if how == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    """
)


def _child(settings, texts, how: str) -> tuple[list[str], int]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run(
        [sys.executable, "-c", _CHILD, str(settings.data_dir), "1000", json.dumps(texts), how],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    return [line.split()[1] for line in p.stdout.splitlines() if line.startswith("ACK ")], p.returncode


def test_a_sigkill_before_the_group_lands_loses_nothing_acknowledged(settings, embedder):
    acked, code = _child(settings, TEXTS, "kill")
    assert code == -signal.SIGKILL and len(acked) == len(TEXTS)
    assert _pending(settings)  # the process died with every section in the log only
    w = _rt(settings, embedder, 100).open("killed")
    assert set(acked) <= set(w.decisions)  # the open applied the log
    assert not _pending(settings) and set(acked) <= _raw_decisions(w)
    assert "peanut" in w.query("what am I allergic to?").context


def test_a_clean_exit_applies_the_log(settings, embedder):
    acked, code = _child(settings, TEXTS[:2], "exit")
    assert code == 0 and len(acked) == 2
    assert not _pending(settings)  # applied at exit: another program reading Chroma finds them


@pytest.mark.parametrize("group", [1, 4])
def test_the_crash_point_counts_the_log_append(settings, embedder, group):
    """The crash harness kills at every store write: the append is one, so it is covered like a Chroma call."""
    rt = _rt(settings, embedder, group)
    w = rt.open(f"count-{group}")
    crash = rt.store.client.crash_point
    crash.arm(0)
    w.ingest(TEXTS[0])
    assert crash.writes >= 1 if group == 1 else crash.writes == 1


def test_a_status_change_in_the_group_that_made_the_node_rides_on_its_upsert(settings, embedder, monkeypatch):
    import weaver.sections as sections
    from weaver.record_codec import unpack
    from weaver.models import MemoryNode

    applied = []
    real = sections.merge_calls
    monkeypatch.setattr(sections, "merge_calls", lambda *a: applied.extend(real(*a)) or applied)
    w = _rt(settings, embedder, 100).open("fold")
    old = w.ingest("My total budget for the trip is 5000 yuan.").node.id
    new = w.ingest("My total budget for the trip is 8000 yuan.").node.id
    assert w.nodes[old].status == "superseded" and _pending(settings)
    assert w.flush() >= 2 and not _pending(settings)
    on_nodes = [c for c in applied if c.collection == w.space.nodes_name]
    assert [c.op for c in on_nodes] == ["upsert"]  # the update of the earlier node folded into the upsert
    raw = get_all_records(w.space.nodes, ["metadatas"])
    held = {i: unpack(MemoryNode, m).status for i, m in zip(raw["ids"], raw["metadatas"])}
    assert held == {old: "superseded", new: "active"}
    again = _rt(settings, embedder, 100).open("fold")
    assert again.nodes[old].status == "superseded" and again.vector_of(old) @ w.vector_of(old) > 0.999


def test_records_are_written_as_metadata_and_earlier_documents_still_read(settings, embedder):
    from weaver.space_records import RECORD_KEY

    w = _rt(settings, embedder, 0).open("records-layout")
    w.space.put_records("notes", {"a": {"v": 1}})
    col = w.space._col(w.space._records("notes"))
    got = col.get(ids=["a"], include=["documents", "metadatas"])
    assert got["documents"] == [None] and json.loads(got["metadatas"][0][RECORD_KEY]) == {"v": 1}
    # an earlier release wrote the JSON as the document: it reads, and a rewrite's metadata wins over it
    col.upsert(ids=["b"], embeddings=[[1.0]], documents=[json.dumps({"v": 2})])
    assert w.space.get_records("notes") == {"a": {"v": 1}, "b": {"v": 2}}
    w.space.put_records("notes", {"b": {"v": 3}})
    assert w.space.get_records("notes") == {"a": {"v": 1}, "b": {"v": 3}}
