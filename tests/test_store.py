"""Persistence: spaces in Chroma (local and server), reopening, embedder guard."""

import json
import subprocess
import sys

import numpy as np
import pytest

from weaver import Runtime, Settings, WeaverError
from weaver.store import space_slug

from conftest import ROOT

TURNS = [
    ("我打算5月1号到5月3号去北京旅游。", "user_input"),
    ("好的", "user_input"),
    ("我的预算总共是5000元。", "user_input"),
    ("需要查询5月1日北京入住的酒店。", "agent_thought"),
    ("查询到王府井附近酒店，价格约400元/晚。", "tool_result"),
]


def _fill(w):
    w.set_task("为用户规划一次北京三日游")
    return [w.ingest(c, k) for c, k in TURNS]


def _snapshot(w) -> dict:
    return {
        "nodes": sorted((n.id, n.content, n.kind, n.turn, n.status) for n in w.nodes.values()),
        "edges": sorted((e.source, e.target, e.relation, e.origin, round(e.confidence, 4)) for e in w.edges()),
        "decisions": sorted((d.message_id, d.kept, d.total, d.node_id) for d in w.decisions.values()),
        "task": w.meta.get("task"),
    }


def test_reopen_in_same_process_restores_everything(runtime):
    w = runtime.open("trip")
    _fill(w)
    before = _snapshot(w)
    again = runtime.open("trip")
    assert _snapshot(again) == before
    assert again.matrix.shape == (len(before["nodes"]), 512)
    # the reopened weaver keeps weaving: new nodes link to the old ones
    res = again.ingest("酒店最好离地铁站近一点，预算以内。", "user_input")
    assert res.kept and res.edges


def test_second_process_sees_same_graph_and_decisions(runtime, settings):
    w = runtime.open("shared")
    _fill(w)
    expected = _snapshot(w)
    code = f"""
import json
from weaver import Runtime, Settings
rt = Runtime.from_settings(Settings.from_env(env={{}}, secrets_path=None, data_dir={str(settings.data_dir)!r}))
w = rt.open("shared", create=False)
print(json.dumps({{
  "nodes": sorted((n.id, n.content, n.kind, n.turn, n.status) for n in w.nodes.values()),
  "edges": sorted((e.source, e.target, e.relation, e.origin, round(e.confidence, 4)) for e in w.edges()),
  "decisions": sorted((d.message_id, d.kept, d.total, d.node_id) for d in w.decisions.values()),
  "task": w.meta.get("task"),
}}, ensure_ascii=False))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == json.loads(json.dumps(expected, ensure_ascii=False))


def test_spaces_create_list_delete_with_any_name(runtime):
    for name in ("alpha", "北京 三日游", "a b/c?"):
        runtime.open(name).ingest("我的预算是3000元", "user_input")
    assert {"alpha", "北京 三日游", "a b/c?"} <= set(runtime.store.list_spaces())
    runtime.store.delete_space("北京 三日游")
    assert "北京 三日游" not in runtime.store.list_spaces()
    with pytest.raises(WeaverError):
        runtime.store.delete_space("北京 三日游")
    with pytest.raises(WeaverError):
        runtime.open("never-made", create=False)


def test_space_slug_is_valid_and_distinct():
    import re

    names = ["trip", "北京", "北京 ", "x" * 150, "a..b", "-lead"]
    slugs = [space_slug(n) for n in names]
    assert len(set(slugs)) == len(slugs)
    for s in slugs:
        assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*[A-Za-z0-9]", s) and 3 <= len(s) + 12 <= 512
    with pytest.raises(WeaverError):
        space_slug("   ")


class _OtherEmbedder:
    name = "other-embedder"
    dim = 512

    def embed(self, texts):
        return np.ones((len(texts), 512), dtype=np.float32) / np.sqrt(512)


def test_refuses_to_mix_embedders(runtime, settings):
    _fill(runtime.open("mixed"))
    other = Runtime.from_settings(settings, embedder=_OtherEmbedder())
    with pytest.raises(WeaverError, match="reembed"):
        other.open("mixed")


def test_reembed_converts_a_space(runtime, settings, embedder):
    w = runtime.open("convert")
    _fill(w)
    n_nodes = len(w.nodes)

    class Small:
        name, dim = "small-64", 64

        def embed(self, texts):
            return embedder.embed(texts)[:, :64] / np.linalg.norm(embedder.embed(texts)[:, :64], axis=1, keepdims=True)

    other = Runtime.from_settings(settings, embedder=Small())
    from weaver.maintenance import reembed_space

    assert reembed_space(other, "convert") == n_nodes + len(w.decisions)
    converted = other.open("convert")
    assert converted.matrix.shape == (n_nodes, 64)
    assert converted.query("预算多少？").nodes


@pytest.mark.slow
def test_space_on_a_chroma_server(chroma_server, tmp_path, embedder):
    host, port = chroma_server
    s = Settings.from_env(
        env={"WEAVER_CHROMA_HOST": host, "WEAVER_CHROMA_PORT": str(port)},
        secrets_path=None,
        data_dir=tmp_path / "unused",
    )
    rt = Runtime.from_settings(s, embedder=embedder)
    assert type(rt.store.client.raw).__name__ != "PersistentClient"
    w = rt.open("server-space")
    _fill(w)
    before = _snapshot(w)
    rt2 = Runtime.from_settings(s, embedder=embedder)
    assert _snapshot(rt2.open("server-space", create=False)) == before
    assert "server-space" in rt2.store.list_spaces()
    assert not (tmp_path / "unused").exists()  # nothing was written locally
    rt2.store.delete_space("server-space")


def test_unreachable_chroma_server_is_a_clear_error(tmp_path, embedder):
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again: nothing listens there
    s = Settings.from_env(env={"WEAVER_CHROMA_HOST": "127.0.0.1", "WEAVER_CHROMA_PORT": str(port)}, secrets_path=None)
    with pytest.raises(WeaverError, match="Chroma server"):
        Runtime.from_settings(s, embedder=embedder)


def test_crash_leftovers_are_repaired_on_open(runtime):
    """A node written without its decision (commit marker) is removed with its edges on open."""
    from weaver.models import Edge, MemoryNode

    w = runtime.open("repair")
    _fill(w)
    some = next(iter(w.nodes.values()))
    ghost = MemoryNode(id="n_ghost", content="half-written", kind="user_input", turn=99, message_id="m_ghost")
    w.space.put_nodes([ghost], w.matrix[:1])
    w.space.put_edges(
        [Edge(some.id, "n_ghost", "causal", 0.9, "rules"), Edge("n_gone", some.id, "causal", 0.9, "rules")]
    )
    again = runtime.open("repair")
    assert "n_ghost" not in again.nodes
    assert all("n_ghost" not in (e.source, e.target) and e.source != "n_gone" for e in again.edges())
    assert len(again.repaired) == 3
    assert len(runtime.open("repair").repaired) == 0  # the repair was persisted


def test_loads_read_in_pages(runtime):
    """Big spaces are read page by page (one get of 100k records overruns SQLite's variable limit)."""
    from weaver.store import get_all_records

    w = runtime.open("paged")
    _fill(w)
    w.flush()  # Chroma read directly: apply the write-behind log first
    got = get_all_records(w.space.decisions, ["metadatas"], page=2)
    assert sorted(got["ids"]) == sorted(w.decisions) and len(got["metadatas"]) == len(w.decisions)


def test_a_hold_inside_its_own_thread_s_hold_keeps_the_lock_until_the_outer_one_ends(tmp_path):
    import threading

    from weaver.space_lock import SpaceLock

    lock = SpaceLock(("store", "s"), "s", tmp_path)

    def other_thread_gets_it() -> bool:
        got = []

        def attempt():
            try:
                with lock.hold(timeout=0):
                    got.append(True)
            except WeaverError:
                got.append(False)

        t = threading.Thread(target=attempt)
        t.start()
        t.join()
        return got[0]

    with lock.hold():
        with lock.hold():  # re-entered: counted, not taken again
            assert not other_thread_gets_it()
        assert not other_thread_gets_it()  # the inner hold's end leaves the outer one holding it
    assert other_thread_gets_it()
