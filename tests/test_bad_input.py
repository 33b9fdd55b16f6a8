"""Bad input gets a clear error (WeaverError / CLI exit 2 with one line), never a crash, and nothing is lost."""

from __future__ import annotations

import json
import socket
import time

import pytest

from weaver import Runtime, Settings
from weaver.cli import main, read_jsonl
from weaver.core import MAX_MESSAGE_CHARS
from weaver.models import Message, WeaverError
from weaver.store import space_slug


def _state(w):
    return len(w.decisions), len(w.nodes), w.graph.number_of_edges()


# ------------------------------------------------------------------ messages
@pytest.mark.parametrize("content", ["", "   ", "\n\t  \n", "\x00\x01\x1f", "　"])
def test_empty_and_whitespace_messages_are_refused(weaver, content):
    weaver.ingest("I'm allergic to seafood.", message_id="keep")
    before = _state(weaver)
    with pytest.raises(WeaverError, match="empty"):
        weaver.ingest(content, message_id="blank")
    assert _state(weaver) == before and "blank" not in weaver.decisions


@pytest.mark.parametrize("bad", [None, 42, b"bytes", ["list"]])
def test_non_text_content_is_refused(weaver, bad):
    with pytest.raises(WeaverError, match="string"):
        weaver.ingest(bad)
    assert weaver.decisions == {}


def test_unknown_kind_and_bad_meta_are_refused(weaver):
    with pytest.raises(WeaverError, match="unknown kind 'thought'"):
        weaver.ingest("hello", "thought")
    with pytest.raises(WeaverError, match="meta"):
        weaver.ingest_many([Message("hello", "user_input", ["not", "a", "dict"])])
    assert weaver.decisions == {}


def test_a_bad_message_in_a_batch_refuses_the_whole_batch(weaver):
    with pytest.raises(WeaverError):
        weaver.ingest_many([Message("My budget is 800 yuan.", message_id="a"), Message("  ", message_id="b")])
    assert weaver.decisions == {}  # validated before anything was written


def test_control_characters_are_stripped_and_text_kept(weaver):
    weaver.set_task("Plan a trip to Beijing")
    res = weaver.ingest("My\x00 budget\x07 is 5000\x1b yuan,\x7f 预算5000元\x0c。", message_id="ctl")
    content = res.decision.content
    assert content == "My budget is 5000 yuan, 预算5000元。"
    if res.node:
        assert res.node.content == content
    lone = weaver.ingest("I'm allergic to \ud800 peanuts", message_id="surrogate")  # a lone surrogate
    assert "\ud800" not in lone.decision.content and "peanuts" in lone.decision.content
    reopened = type(weaver)(weaver.space, weaver.embedder, weaver.reasoner)
    assert reopened.decisions["ctl"].content == content


@pytest.mark.slow
def test_a_one_megabyte_message_is_stored_whole_and_one_more_char_is_refused(weaver):
    weaver.set_task("Find a hotel in Beijing")
    unit = "Hotel near Wangfujing costs 400 yuan per night, 王府井酒店每晚400元。"
    big = (unit * (MAX_MESSAGE_CHARS // len(unit) + 1))[: MAX_MESSAGE_CHARS - 1] + "!"
    assert len(big) == MAX_MESSAGE_CHARS
    t0 = time.perf_counter()
    res = weaver.ingest(big, "tool_result", message_id="big")
    assert time.perf_counter() - t0 < 60
    assert len(res.decision.content) == MAX_MESSAGE_CHARS
    if res.node:
        assert len(res.node.content) == MAX_MESSAGE_CHARS
    before = _state(weaver)
    with pytest.raises(WeaverError, match="1,000,001 characters; the limit is 1,000,000"):
        weaver.ingest(big + "x", "tool_result", message_id="too-big")
    assert _state(weaver) == before
    reopened = type(weaver)(weaver.space, weaver.embedder, weaver.reasoner)
    assert len(reopened.decisions["big"].content) == MAX_MESSAGE_CHARS
    if res.node:  # ranked like any node (it may not fit a context budget whole)
        assert res.node.id in {r.id for r in reopened.query("hotel price per night").ranked}


def test_empty_task_and_query_are_refused(weaver):
    with pytest.raises(WeaverError, match="empty"):
        weaver.set_task(" \x00 ")
    with pytest.raises(WeaverError, match="empty"):
        weaver.query("   ")


# ---------------------------------------------------------------- ingest files
def _write(tmp_path, name, data: bytes):
    p = tmp_path / name
    p.write_bytes(data)
    return str(p)


def _lines(*objs) -> bytes:
    return b"".join(json.dumps(o, ensure_ascii=False).encode() + b"\n" for o in objs)


def test_invalid_utf8_names_the_line_and_nothing_is_ingested(tmp_path, capsys):
    good = _lines({"task": "Plan a trip"}, {"kind": "user_input", "content": "My budget is 5000 yuan."})
    path = _write(tmp_path, "bad.jsonl", good + b'{"kind": "user_input", "content": "caf\xe9 \xff"}\n')
    with pytest.raises(WeaverError, match="line 3: not valid UTF-8"):
        read_jsonl(path)
    data = tmp_path / "data"
    assert main(["--data-dir", str(data), "--space", "files", "ingest", path]) == 2
    err = capsys.readouterr().err
    assert "line 3" in err and "Traceback" not in err and err.count("\n") == 1
    assert main(["--data-dir", str(data), "--space", "files", "decisions"]) == 2  # the space was never created


@pytest.mark.parametrize(
    "bad_line, why",
    [
        (b'{"kind": "user_input", "content": "truncated', "not valid JSON"),
        (b'["a", "list"]', "expected a JSON object"),
        (b'{"kind": "memo", "content": "x"}', "unknown kind 'memo'"),
        (b'{"kind": "user_input", "content": "   "}', "content must be a non-empty string"),
        (b'{"kind": "user_input", "content": 5}', "content must be a non-empty string"),
        (b'{"kind": "user_input", "content": "x", "meta": [1]}', "meta must be an object"),
        (b'{"task": ""}', "task must be a non-empty string"),
    ],
)
def test_malformed_json_lines_name_the_line_and_ingest_nothing(tmp_path, capsys, bad_line, why):
    body = _lines({"kind": "user_input", "content": "我的预算是5000元。"}, {"kind": "user_input", "content": "ok"})
    path = _write(tmp_path, "in.jsonl", body + b"\n" + bad_line + b"\n")
    data = tmp_path / "data"
    assert main(["--data-dir", str(data), "--space", "files", "ingest", path]) == 2
    err = capsys.readouterr().err
    assert "line 4" in err and why in err and "Traceback" not in err
    rt = Runtime.from_settings(Settings.from_env(env={}, secrets_path=None, data_dir=data))
    assert "files" not in rt.store.list_spaces()


def test_control_characters_in_an_ingest_file_are_stripped(tmp_path, capsys):
    raw = ('{"kind": "user_input", "content": "budget\\u0000 5000\\u0007 yuan, bell \x07 raw"}\n').encode()
    path = _write(tmp_path, "ctl.jsonl", raw)
    data = tmp_path / "data"
    assert main(["--data-dir", str(data), "--space", "ctl", "ingest", path, "--json"]) == 0
    capsys.readouterr()
    assert main(["--data-dir", str(data), "--space", "ctl", "decisions", "--json"]) == 0
    (rec,) = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert rec["content"] == "budget 5000 yuan, bell  raw"


def test_reingesting_the_same_file_is_idempotent(tmp_path, capsys):
    path = _write(
        tmp_path,
        "ok.jsonl",
        _lines(
            {"task": "规划北京旅行"},
            {"kind": "user_input", "content": "我的预算是5000元。"},
            {"kind": "user_input", "content": "我对海鲜过敏。"},
        ),
    )
    data = tmp_path / "data"
    assert main(["--data-dir", str(data), "--space", "again", "ingest", path, "--json"]) == 0
    first = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert main(["--data-dir", str(data), "--space", "again", "ingest", path, "--json"]) == 0
    second = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["duplicate"] for r in second] == [True, True]
    assert [r["node_id"] for r in second] == [r["node_id"] for r in first]


def test_unknown_relation_is_refused_on_the_cli_and_in_the_library(tmp_path, capsys, runtime):
    data = str(runtime.settings.data_dir)
    w = runtime.open("rel")
    w.set_task("Plan a trip to Beijing")
    a = w.ingest("My budget is 5000 yuan.", message_id="a").node
    b = w.ingest(
        "I need to find hotels in Beijing within the budget of 5000 yuan.", "agent_thought", message_id="b"
    ).node
    assert a and b
    with pytest.raises(SystemExit) as exc:
        main(["--data-dir", data, "--space", "rel", "edge", "set", a.id, b.id, "because"])
    assert exc.value.code == 2 and "invalid choice: 'because'" in capsys.readouterr().err
    edges = w.graph.number_of_edges()
    with pytest.raises(WeaverError, match="because"):
        w.curation.set_edge(a.id, b.id, "because", "test")
    assert w.graph.number_of_edges() == edges


# ---------------------------------------------------------------- space names
@pytest.mark.parametrize(
    "name",
    [
        "北京 三日游",
        "a",
        "x" * 200,
        "<script>alert(1)</script>",
        "../../etc/passwd",
        "trip.2026",
        "-leading",
        "with space",
        "emoji 🎉",
        "Ünïcödé",
    ],
)
def test_any_space_name_maps_to_a_valid_chroma_name(runtime, name):
    import re

    slug = space_slug(name)
    assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", slug) and len(f"cw-{slug}-decisions") <= 512
    w = runtime.open(name)
    w.ingest("I'm allergic to seafood. 我对海鲜过敏。", message_id="m")
    assert name in runtime.store.list_spaces()
    assert runtime.open(name, create=False).decisions.keys() == {"m"}


def test_space_names_that_look_alike_do_not_share_memory(runtime):
    names = ["trip a", "trip-a", "trip_a", "Trip A", "北京", "北京 "]
    assert len({space_slug(n) for n in names}) == len(names)
    for i, n in enumerate(names):
        runtime.open(n).ingest(f"My budget is {1000 + i} yuan.", message_id=f"m{i}")
    for i, n in enumerate(names):
        assert set(runtime.open(n, create=False).decisions) == {f"m{i}"}


@pytest.mark.parametrize(
    "name, why", [("", "non-empty"), ("   ", "non-empty"), ("x" * 201, "200 characters"), (None, "non-empty")]
)
def test_unusable_space_names_are_refused_clearly(runtime, name, why):
    with pytest.raises(WeaverError, match=why):
        runtime.open(name)


def test_opening_a_missing_space_without_create_is_a_clear_error(runtime, tmp_path, capsys):
    with pytest.raises(WeaverError, match="does not exist"):
        runtime.open("nowhere", create=False)
    # a query of it is no error: nothing is remembered there yet (as MCP recall), and nothing is created
    assert main(["--data-dir", str(runtime.settings.data_dir), "--space", "nowhere", "query", "hi"]) == 0
    assert "does not exist yet" in capsys.readouterr().out and not runtime.has_space("nowhere")


# -------------------------------------------------------------------- the store
def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when the block ends: nothing listens there


def test_unreachable_chroma_server_is_a_clear_error_in_the_library_and_cli(tmp_path, capsys, monkeypatch):
    port = _closed_port()
    s = Settings.from_env(
        env={"WEAVER_CHROMA_HOST": "127.0.0.1", "WEAVER_CHROMA_PORT": str(port)},
        secrets_path=None,
        data_dir=tmp_path / "d",
    )
    t0 = time.perf_counter()
    with pytest.raises(WeaverError, match=f"Chroma server at 127.0.0.1:{port}"):
        Runtime.from_settings(s)
    assert time.perf_counter() - t0 < 30
    monkeypatch.setenv("WEAVER_CHROMA_HOST", "127.0.0.1")
    monkeypatch.setenv("WEAVER_CHROMA_PORT", str(port))
    assert main(["--space", "x", "spaces"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: cannot open the Chroma server") and "Traceback" not in err


def test_a_data_dir_that_is_a_file_is_a_clear_error(tmp_path, capsys):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    with pytest.raises(WeaverError, match="Chroma data directory"):
        Runtime.from_settings(Settings.from_env(env={}, secrets_path=None, data_dir=blocker))
    assert main(["--data-dir", str(blocker), "spaces"]) == 2
    assert "Traceback" not in capsys.readouterr().err
