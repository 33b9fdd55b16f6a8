"""Records stored packed (one metadata key, no document: weaver.record_codec), and spaces of the earlier form
(one key per field, content as the document) still open, rank exactly the same, take writes and compact.

Real parts: a real Chroma data directory, the real embedder, the CLI's compact.
"""

from __future__ import annotations

import json
import math
import sqlite3
from dataclasses import fields
from pathlib import Path

import pytest

from weaver.bench.scale import synthetic_texts
from weaver.maintenance import compact_space
from weaver.models import Edge, FilterDecision, MemoryNode, Message
from weaver.record_codec import FIELD_ORDER, PACKED_KEY, pack, unpack

QUERIES = ["What is the hotel budget?", "预算是多少？", "我对什么过敏？", "Which restaurant near Sanlitun?"]
_KINDS = {"nodes": MemoryNode, "decisions": FilterDecision, "edges": Edge}


def _fill(runtime, name: str):
    w = runtime.open(name)
    w.set_task("Plan a trip to Beijing / 规划北京旅行")
    w.ingest_many([Message(t, meta={"session": 1 + i // 10}) for i, t in enumerate(synthetic_texts(40, seed=7))])
    w.ingest("ok", "agent_response", message_id="rej-1")  # rejected: a decision without a node
    w.space.sync()
    return w


def _state(w) -> dict:
    return {
        "nodes": {i: w.nodes[i].to_record() for i in w.node_ids},
        "decisions": {m: d.to_record() for m, d in w.decisions.items()},
        "edges": sorted((e.to_record() for e in w.edges()), key=lambda r: (r["source"], r["target"])),
    }


def _close(a, b) -> bool:
    """Equal, floats to 1e-12 relative: Chroma's per-key metadata gives a time such as 1796315333.0499165 back
    as ...163 (one unit in the last place), so the earlier form's records equal the packed ones only that far."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-12)
    return a == b and type(a) is type(b)


def _results(w) -> dict:
    out = {}
    for q in QUERIES:
        d = w.query(q).to_dict()
        d.pop("timings_ms")
        d["config"].pop("revisions", None)
        out[q] = d
    return out


def _collections(space) -> dict:
    return {"nodes": space.nodes, "decisions": space.decisions, "edges": space.edges}


def _as_object(record) -> dict[str, str]:
    """How the previous release packed a record: a JSON object of the fields not at their plain default."""
    plain = {f.name: f.default for f in fields(record) if isinstance(f.default, (str, int, float, bool))}
    plain |= {f.name: f.default_factory() for f in fields(record) if f.default_factory in (dict, list)}
    kept = {
        f.name: getattr(record, f.name)
        for f in fields(record)
        if not (
            f.name in plain
            and type(getattr(record, f.name)) is type(plain[f.name])
            and getattr(record, f.name) == plain[f.name]
        )
    }
    return {PACKED_KEY: json.dumps(kept, ensure_ascii=False, separators=(",", ":"))}


def _as_earlier_release(space) -> None:
    """Rewrite the space's nodes, decisions and edges as the releases before packing wrote them: one metadata key
    per field, the content (an edge's relation) as the document."""
    for kind, col in _collections(space).items():
        got = col.get(include=["metadatas", "embeddings"])
        recs = [unpack(_KINDS[kind], m) for m in got["metadatas"]]
        docs = [r.relation if kind == "edges" else r.content for r in recs]
        col.delete(ids=got["ids"])
        col.add(ids=got["ids"], embeddings=got["embeddings"], metadatas=[r.to_record() for r in recs], documents=docs)


def _as_objects(space) -> None:
    """Rewrite the space's nodes, decisions and edges as the previous release packed them (JSON objects)."""
    for kind, col in _collections(space).items():
        got = col.get(include=["metadatas"])
        recs = [unpack(_KINDS[kind], m) for m in got["metadatas"]]
        col.update(ids=got["ids"], metadatas=[_as_object(r) for r in recs])


def _forms(space) -> dict[str, set]:
    """Per collection, the metadata key sets its records hold and whether any has a document."""
    out: dict[str, set] = {}
    for kind, col in _collections(space).items():
        got = col.get(include=["metadatas", "documents"])
        out[kind] = {tuple(sorted(m)) for m in got["metadatas"]} | {"document" for d in got["documents"] if d}
    return out


def test_packed_records_hold_one_key_and_no_document(runtime):
    w = _fill(runtime, "packed")
    assert _forms(w.space) == {k: {(PACKED_KEY,)} for k in _KINDS}
    db = Path(runtime.settings.data_dir) / "chroma" / "chroma.sqlite3"
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    keys = {k for (k,) in con.execute("SELECT DISTINCT key FROM embedding_metadata")}
    con.close()
    assert "content" not in keys and "status" not in keys  # nothing stored one key per field


def test_every_model_field_has_a_place_in_the_packed_list():
    # a field added to a model without a place here would not be stored; its place is at the end (append only)
    for cls, order in FIELD_ORDER.items():
        assert sorted(order) == sorted(f.name for f in fields(cls)) and len(set(order)) == len(order)


def test_pack_leaves_out_plain_defaults_and_keeps_types():
    d = FilterDecision("m1", "user_input", "hi", 1, 0.1, 0.2, 0.3, 3, 0.5, 0.2, 0.4, True, "ok", "rules", 1.5)
    packed = pack(d)[PACKED_KEY]
    # the 15 fields without a default, then the timestamp (its default is a factory): no llm_calls, meta...
    mask, *values = json.loads(packed)
    assert mask == (1 << 15) - 1 | 1 << FIELD_ORDER[FilterDecision].index("timestamp") and len(values) == 16
    assert "message_id" not in packed  # no field names: Chroma stores and indexes every byte of it
    assert len(packed) < len(_as_object(d)[PACKED_KEY]) * 0.6
    back = unpack(FilterDecision, pack(d))
    assert back == d and type(back.importance) is int  # 3 stays an int (its default is 3.0: not left out)
    n = MemoryNode("n1", "x", "user_input", 1, "m1", importance=3, timestamp=1.0)
    assert type(unpack(MemoryNode, pack(n)).importance) is int
    # a field a later release added is ignored, not an error
    assert (
        unpack(
            Edge,
            {
                PACKED_KEY: '{"source":"a","target":"b","relation":"causal","confidence":1.0,'
                '"origin":"rules","created_at":1.0,"future":1}'
            },
        ).source
        == "a"
    )
    future = 1 << len(FIELD_ORDER[Edge]) + 2
    assert unpack(Edge, {PACKED_KEY: f'[{31 | future},"a","b","causal",1.0,"rules",7]'}).source == "a"
    with pytest.raises(ValueError, match="3 values for 5 fields"):
        unpack(Edge, {PACKED_KEY: '[31,"a","b","causal"]'})


def test_a_space_packed_as_objects_opens_ranks_the_same_and_compacts(runtime):
    """The previous release's packed form (a JSON object per record) reads as the list form does."""
    w = _fill(runtime, "objects")
    state, results = _state(w), _results(w)
    _as_objects(w.space)
    old = runtime.open("objects")
    assert old.loaded_from == "chroma"
    got = old.space.nodes.get(include=["metadatas"])["metadatas"]
    assert all(m[PACKED_KEY].startswith("{") for m in got)
    assert _state(old) == state and _results(old) == results
    old.ingest("The hotel budget is 777 yuan per night", message_id="after", meta={"session": 9})
    old.space.sync()
    state = _state(runtime.open("objects"))
    compact_space(runtime, "objects")
    after = runtime.open("objects")
    for col in _collections(after.space).values():
        assert all(m[PACKED_KEY].startswith("[") for m in col.get(include=["metadatas"])["metadatas"])
    assert _state(after) == state


def test_an_earlier_release_space_opens_ranks_the_same_takes_writes_and_compacts(runtime):
    w = _fill(runtime, "earlier")
    results = _results(w)
    _as_earlier_release(w.space)
    old = runtime.open("earlier")
    assert old.loaded_from == "chroma"  # the rewrite moved Chroma's sequence: the snapshot is stale
    assert _forms(old.space)["nodes"] != {(PACKED_KEY,)}
    assert _close(_state(old), _state(w))
    assert _results(old) == results  # same rankings, scores, cuts and context

    # writes into it: a status change on an old record (Chroma merges: the record holds both forms) and a new
    # message (packed beside per-key records)
    nid = old.node_ids[3]
    old.curation.set_status(nid, "superseded", "restated later", by=old.node_ids[-1])
    old.ingest("The hotel budget is 777 yuan per night", message_id="after", meta={"session": 9})
    old.space.sync()
    mixed = runtime.open("earlier")
    assert mixed.nodes[nid].status == "superseded"
    assert "777" in mixed.query("What is the hotel budget?").context
    forms = _forms(mixed.space)["nodes"]
    assert (PACKED_KEY,) in forms and any(PACKED_KEY in f and "content" in f for f in forms)
    state, results = _state(mixed), _results(mixed)

    edges_before = mixed.space.edges.name
    n = compact_space(runtime, "earlier")
    assert n == len(mixed.node_ids) + len(mixed.decisions)
    after = runtime.open("earlier")
    assert after.loaded_from == "chroma"
    assert _forms(after.space) == {k: {(PACKED_KEY,)} for k in _KINDS}
    assert _state(after) == state and _results(after) == results
    names = {c.name for c in runtime.store.client.list_collections()}
    assert after.space.edges.name != edges_before and edges_before not in names
    # it keeps working after the compact: a write, a reopen from the snapshot, a delete of the space
    after.ingest("我对芒果过敏", message_id="after-2", meta={"session": 9})
    assert "芒果" in runtime.open("earlier").query("我对什么过敏？").context
    reopened = runtime.open("earlier")
    assert runtime.open("earlier").loaded_from == "snapshot" and _state(reopened) == _state(runtime.open("earlier"))
    runtime.store.delete_space("earlier")
    left = {c.name for c in runtime.store.client.list_collections()}
    assert not any(after.space.prefix in c or c in (after.space.edges.name, after.space.nodes_name) for c in left)
