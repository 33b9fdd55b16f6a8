"""The ingest path's speed-ups change no outcome: the supersede index read from the slot cache, the relation
builder's cached name grams and matchers, write-behind groups bounded by records (real Chroma, real embedder)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

from weaver.bench.scale import synthetic_texts
from weaver.curation import arrival
from weaver.curation.arrival import plan_supersedes
from weaver.models import Message
from weaver.relations import references as R
from weaver import slots
from weaver.runtime import Runtime
from weaver.slot_index import CACHED_FROM, nodes_digest
from weaver.slots import read_slots
from weaver.store import get_all_records

ROOT = Path(__file__).resolve().parents[1]


def _index_state(w) -> tuple:
    idx = arrival.slot_index(w)
    values = {pos: idx.values_at(pos) for pos in idx.stated()}  # a cached statement's values are made when first read
    return idx.upto, idx.by_key, values, idx.said, idx.said_ids


def _plans(w) -> dict:
    """Every node's supersede plan, with what arrival superseded made active again (in the mirror only), so
    the plans have earlier statements to pair with."""
    for nid in w.node_ids:
        if w.nodes[nid].status == "superseded":
            w.set_node_status(nid, "active")
    return {nid: plan_supersedes(w, nid, across_sessions=True) for nid in w.node_ids}


def _slot_cache_file(w) -> Path:
    return next((Path(w.space.lock_path).parent.parent / "cache").glob("*.slots.json"))


def _no_index_file(w) -> None:
    """Remove the supersede index's own cache file: the next mirror builds its index from the slot cache."""
    for f in (Path(w.space.lock_path).parent.parent / "cache").glob("*.slot_index.json"):
        f.unlink()


def test_the_supersede_index_from_the_slot_cache_equals_a_fresh_read(runtime):
    w = runtime.open("slots")
    w.ingest_many([Message(t) for t in synthetic_texts(300, seed=5)])
    _no_index_file(w)
    fresh = runtime.open("slots")  # a new mirror: its index reads every statement (and writes the cache)
    assert len(fresh.nodes) >= CACHED_FROM
    want = _index_state(fresh)
    plans = _plans(fresh)
    assert any(plans.values())  # the synthetic turns restate budgets and places: something to compare
    path = _slot_cache_file(fresh)
    path.unlink()
    runtime.open("slots").constraints()  # the constraint records read every statement: they write it too
    path = _slot_cache_file(fresh)
    _no_index_file(w)
    cached = runtime.open("slots")  # reads the cache the constraint records wrote
    slots._read.cache_clear()  # the reader's own cache must not answer either: every value from the file
    assert _index_state(cached) == want
    assert slots._read.cache_info().misses == 0
    assert _plans(cached) == plans
    # a stale entry (its text's crc differs) and a torn row are read again, not trusted
    data = json.loads(path.read_text("utf-8"))
    first, second = [k for k in data if not k.startswith("_")][:2]
    data[first][0] += 1
    data[second][1] = [["budget"]]
    path.write_text(json.dumps(data), "utf-8")
    _no_index_file(w)
    again = runtime.open("slots")
    assert _index_state(again) == want
    order = again.mirror.order
    for pos, vals in _index_state(again)[2].items():
        assert vals == tuple(read_slots(again.nodes[order[pos]].content))
    # rows written by other slot readers (an older release's) are never served: the file's stamp differs
    data = json.loads(path.read_text("utf-8"))
    wrong = next(v[1] for k, v in data.items() if not k.startswith("_") and v[1])
    for k in data:
        if not k.startswith("_"):
            data[k][1] = wrong  # the right crc, another text's readings
    path.write_text(json.dumps(data), "utf-8")
    _no_index_file(w)
    assert _index_state(runtime.open("slots")) != want  # same readers: the file is trusted (the test can fail)
    data["_reader"] = "an older reader"
    path.write_text(json.dumps(data), "utf-8")
    _no_index_file(w)
    assert _index_state(runtime.open("slots")) == want


def _index_file(w) -> Path:
    return next((Path(w.space.lock_path).parent.parent / "cache").glob("*.slot_index.json"))


def test_the_supersede_index_from_its_own_file_equals_a_fresh_build(runtime):
    """The index a process built is written to a cache file and the next mirror reads it back instead of
    reading every statement again; its statements' values are made from the file's rows when a plan reads
    them. Nodes that arrived since are indexed after it; a file that no longer fits its positions (another
    text, another order), a torn one, or one from other slot readers is not trusted: built again."""
    w = runtime.open("index-file")
    w.ingest_many([Message(t) for t in synthetic_texts(300, seed=5)])
    _no_index_file(w)
    fresh = runtime.open("index-file")
    want, plans = _index_state(fresh), _plans(fresh)  # built from the slot cache: and written
    path = _index_file(fresh)
    slots._read.cache_clear()
    stored = runtime.open("index-file")
    idx = arrival.slot_index(stored)
    assert idx.upto == want[0] and not idx.values  # read from the file: no statement's values made yet
    assert _index_state(stored) == want
    assert slots._read.cache_info().misses == 0  # no slot reader ran: every value from the file
    assert _plans(stored) == plans
    # nodes that arrive after the file: indexed after its positions, as a fresh build of all of them
    more = runtime.open("index-file")
    for t in synthetic_texts(40, seed=8):
        more.ingest(t)
    grown = runtime.open("index-file")
    assert _index_file(grown) == path and json.loads(path.read_text("utf-8"))["n"] == want[0]
    got = _index_state(grown)
    _no_index_file(grown)
    assert got == _index_state(runtime.open("index-file")) and got[0] > want[0]
    # a file that does not fit, is torn, or was written by other slot readers: built again, the same
    good = path.read_text("utf-8")
    assert json.loads(good)["n"] == got[0]  # the build of all its positions (file removed) wrote it
    data = json.loads(good)
    data["said"][0] = [0] * len(data["said"][0])  # what a text's readings would be after an edit
    data["digest"] = "0" * 40  # ... which the digest of the texts at its positions catches
    for bad in (json.dumps(data), good[: len(good) // 2], good.replace(data["reader"], "an older reader")):
        path.write_text(bad, "utf-8")
        assert _index_state(runtime.open("index-file")) == got
    # the digest is of the nodes at its positions: another text there is not served the file's readings
    order = grown.mirror.order
    assert nodes_digest(order, grown.nodes, 10) != nodes_digest(order[1:] + order[:1], grown.nodes, 10)


def _uncached_shared_name(child: str, earlier: str) -> str | None:
    """shared_name with nothing kept from an earlier call: a fresh matcher and gram set, as before the caches."""
    R._grams.cache_clear()
    R._matcher.cache_clear()
    return R.shared_name(child, earlier)


def _strings(x):
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for v in x.values():
            yield from _strings(v)
    elif isinstance(x, list):
        for v in x:
            yield from _strings(v)


def test_shared_name_with_cached_grams_and_matchers_equals_the_reference():
    names = []
    for f in sorted((ROOT / "assets" / "crosswoz").glob("*_db.json")):
        names += [t for t in _strings(json.loads(f.read_text("utf-8"))) if 4 <= len(t) <= 60]
    rng = random.Random(3)
    names = sorted(set(names))
    tpl = ["帮我看看{a}附近的{b}", "推荐{a}，还有{b}", "{a}怎么样？", "I want to visit {a} near {b}", "{a}的评分是多少"]
    texts = [rng.choice(tpl).format(a=rng.choice(names)[:20], b=rng.choice(names)[:20]) for _ in range(400)]
    texts += rng.sample(names, 400)
    rng.shuffle(texts)
    pairs = [(child, earlier) for i, child in enumerate(texts) for earlier in texts[max(0, i - 25) : i]]
    got = [R.shared_name(c, e) for c, e in pairs]  # in arrival order: each earlier text's grams and matcher reused
    found = 0
    for (child, earlier), name in zip(pairs, got):
        want = _uncached_shared_name(child, earlier)
        assert name == want, (child, earlier)
        found += want is not None
    assert found > 20  # the texts do share names: the cached path was exercised


def test_a_write_behind_group_is_bounded_by_the_records_it_holds(settings, embedder):
    w = Runtime.from_settings(replace(settings, write_behind=1000), embedder=embedder).open("bounded")
    w.space.write_behind_log_records = 6  # a message writes 2-4 records: the third section at the latest
    acked = [w.ingest(t).decision.message_id for t in synthetic_texts(3, seed=1)]
    held = set(get_all_records(w.space.decisions, ["metadatas"])["ids"])
    assert set(acked) <= held  # applied to Chroma long before a group of 1,000 sections


def test_small_record_kinds_are_read_once_per_revision_and_never_stale(settings, embedder):
    from weaver.probes import PROBE_RECORDS, list_probes, save_probe

    a = Runtime.from_settings(settings, embedder=embedder).open("seen")
    b = Runtime.from_settings(settings, embedder=embedder).open("seen")  # another writer of the same space
    assert a.space is not b.space
    assert list_probes(a) == []
    a.ingest("I need a hotel near Sanlitun under 800 yuan")  # its own write section: nothing to read again
    reads = []
    col = a.space._col(a.space._records(PROBE_RECORDS))
    a.space._cols[col.name] = type(
        "Counting", (), {"name": col.name, "get": lambda s, **kw: reads.append(1) or col.get(**kw)}
    )()
    assert list_probes(a) == [] and reads == []
    b.ingest("My budget is 5000 dollars")
    save_probe(b, "hotel budget", note="from b")  # another writer: the revision moved, so a reads Chroma again
    got = list_probes(a)
    assert [p.note for p in got] == ["from b"] and reads
    a.space._cols[col.name] = col
    save_probe(a, "flight", note="from a")  # its own write drops what it read
    assert sorted(p.note for p in list_probes(a)) == ["from a", "from b"]
    assert sorted(p.note for p in list_probes(b)) == ["from a", "from b"]


def test_audit_entries_as_dicts_are_what_asdict_gives(runtime):
    from dataclasses import asdict

    w = runtime.open("audit-dicts")
    w.ingest_many([Message(t) for t in synthetic_texts(120, seed=4)])
    entries = w.curation.log.entries
    assert len({e.action for e in entries}) >= 2  # builds and the supersedes on arrival at least
    for e in entries:
        d = e.to_dict()
        assert d == asdict(e)
        if e.after:
            assert d["after"] is not e.after  # a copy: editing the dict never edits the log


def test_the_slot_readers_stamp_covers_every_module_they_import(tmp_path):
    """An edit to any module the slot readers import (split out or new) must invalidate the cached readings."""
    import shutil

    import weaver
    from weaver.slot_cache import reader_sources

    src = Path(weaver.__file__).parent
    for f in src.glob("*.py"):
        shutil.copy(f, tmp_path / f.name)

    def digest():
        import hashlib

        h = hashlib.sha1()
        for p in reader_sources(root=tmp_path):
            h.update(p.read_bytes())
        return h.hexdigest()

    before = digest()
    names = {p.name for p in reader_sources(root=tmp_path)}
    assert {"slots_budget.py", "slots_dates.py", "slots_counts.py", "slots_location.py", "slot_value.py"} <= names
    (tmp_path / "slots_dates.py").write_text((tmp_path / "slots_dates.py").read_text() + "\n# an edit\n")
    assert digest() != before
    assert "slots_prefs.py" not in names  # preferences are not read by read_slots: their edits keep the cache


def test_the_slot_readers_sources_are_the_modules_python_would_import(tmp_path):
    """The stamp's module list is found with a pattern, not the parser: the same list as walking the syntax tree
    for "from .x import y" (a lazy import inside a function included), so a cache stamped before stays valid."""
    import ast

    import weaver
    from weaver.slot_cache import reader_sources

    (tmp_path / "slots.py").write_text(
        'from .a import x\n"""from .doc import nothing"""\ndef f():\n    from .b import (\n        y,\n    )\n'
    )
    (tmp_path / "a.py").write_text("from . import c\nfrom .. import d\nimport os\n")
    (tmp_path / "b.py").write_text("")
    (tmp_path / "doc.py").write_text("")
    assert [p.name for p in reader_sources(root=tmp_path)] == ["a.py", "b.py", "slots.py"]

    src = Path(weaver.__file__).parent
    seen: dict[str, Path] = {}
    todo = [src / "slots.py"]
    while todo:
        path = todo.pop()
        if path.name in seen or not path.is_file():
            continue
        seen[path.name] = path
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                todo.append(src / f"{node.module}.py")
    assert reader_sources() == [seen[n] for n in sorted(seen)]
