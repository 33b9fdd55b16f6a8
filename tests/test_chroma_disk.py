"""Dropping a collection frees its disk: chromadb leaves a deleted collection's vector index folder behind
(chroma-core/chroma #5520), so reembed, compact and space deletes would grow the data folder for ever.

Real parts: a real PersistentClient data folder, the real embedder, the library's own reembed and delete.
"""

from __future__ import annotations

import numpy as np

from weaver.bench.scale import synthetic_texts
from weaver.chroma_disk import orphan_segment_dirs, persist_dir_of, sweep_orphan_segments
from weaver.maintenance import reembed_space
from weaver.models import Message
from weaver.runtime import Runtime


def _fill(runtime, name: str, n: int = 40):
    w = runtime.open(name)
    w.set_task("Plan a trip to Beijing / 规划北京旅行")
    w.ingest_many([Message(t) for t in synthetic_texts(n, seed=5)])
    w.space.sync()
    return w


def _segment_folders(root) -> set[str]:
    return {p.name for p in root.iterdir() if p.is_dir() and len(p.name) == 36}


def test_reembed_and_delete_leave_no_orphaned_index_folders(runtime, settings, embedder):
    keep = _fill(runtime, "keep")
    _fill(runtime, "gone")
    root = persist_dir_of(runtime.store.client)
    assert root is not None and (root / "chroma.sqlite3").is_file()
    before = keep.query("酒店预算").context

    class Small:  # another embedder: reembed builds new collections and drops the old ones
        name, dim = "small-64", 64

        def embed(self, texts):
            v = embedder.embed(texts)[:, :64]
            return v / np.linalg.norm(v, axis=1, keepdims=True)

    folders = _segment_folders(root)
    reembed_space(Runtime.from_settings(settings, embedder=Small()), "gone")
    assert orphan_segment_dirs(root) == []
    assert len(_segment_folders(root)) <= len(folders) + 2  # the new vector indexes only, not old + new

    runtime.store.delete_space("gone")
    assert orphan_segment_dirs(root) == []
    assert len(_segment_folders(root)) < len(folders)

    reopened = Runtime.from_settings(settings, embedder=embedder).open("keep", create=False)
    assert reopened.query("酒店预算").context == before  # the other space's vectors were not touched


def test_sweep_removes_only_unnamed_segment_folders(runtime):
    _fill(runtime, "one", n=10)
    root = persist_dir_of(runtime.store.client)
    stray = root / "0b5a7c1e-3f0e-4c9a-9d8e-5a1b2c3d4e5f"  # what a dropped collection leaves
    stray.mkdir()
    (stray / "data_level0.bin").write_bytes(b"\0" * 4096)
    other = root / "notes"  # not a segment name: never ours to remove
    other.mkdir()
    live = _segment_folders(root) - {stray.name}
    assert orphan_segment_dirs(root) == [stray]
    assert sweep_orphan_segments(root) == 4096
    assert not stray.exists() and other.is_dir() and _segment_folders(root) == live
    assert sweep_orphan_segments(None) == 0  # a Chroma server: nothing local


def test_opening_a_data_folder_clears_what_earlier_releases_left(settings, embedder):
    import weaver.store as store

    first = Runtime.from_settings(settings, embedder=embedder)
    _fill(first, "old", n=10)
    root = persist_dir_of(first.store.client)
    stray = root / "7d0c2f4e-1b6a-4e8f-8c3d-2e9f1a0b4c6d"  # a folder an earlier release's compact left
    stray.mkdir()
    store._CLIENTS.clear()  # a new process: connect() makes its client afresh
    again = Runtime.from_settings(settings, embedder=embedder)
    assert not stray.exists()
    assert again.open("old", create=False).query("预算").nodes
