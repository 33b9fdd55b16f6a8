"""The CLI as a user runs it: JSON contracts, clear errors.

The ingest runs as a real ``python -m weaver`` process (the entry point, exit codes, stdout as a user
sees them); every other command calls ``main(argv)`` in-process (tests/cli_run.py), so the embedder is
loaded once, not once per command.
"""

import json
import socket
import subprocess
import sys

import networkx as nx
import pytest

from cli_run import run_cli
from conftest import ROOT

SCENARIO = [
    {"task": "为用户规划一次北京三日游"},
    {"kind": "user_input", "content": "我打算5月1号到5月3号去北京旅游。"},
    {"kind": "user_input", "content": "好的"},
    {"kind": "user_input", "content": "我的预算总共是5000元。"},
    {"kind": "agent_thought", "content": "需要查询5月1日北京入住的酒店。"},
    {"kind": "tool_result", "content": "查询到5月1日王府井附近酒店，约400元/晚。", "meta": {"tool": "hotel_search"}},
    {"kind": "user_input", "content": "对了，我对海鲜过敏，订餐时要注意。"},
    {"kind": "agent_thought", "content": "需要根据预算和过敏信息推荐餐厅。"},
]


def run_process(tmp_path, *args, stdin=None):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "weaver", "--data-dir", str(tmp_path / "data"), *args],
        capture_output=True,
        text=True,
        input=stdin,
        env=env,
        timeout=180,
        cwd=tmp_path,
    )


def run(tmp_path, *args, stdin=""):
    return run_cli("--data-dir", str(tmp_path / "data"), *args, stdin=stdin, cwd=tmp_path)


@pytest.fixture(scope="module")
def ingested(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cli")
    path = tmp / "trip.jsonl"
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in SCENARIO), encoding="utf-8")
    out = run_process(tmp, "--space", "trip", "ingest", str(path), "--json")
    assert out.returncode == 0, out.stderr
    return tmp, path, [json.loads(line) for line in out.stdout.splitlines()]


def test_ingest_json_contract(ingested):
    _, _, rows = ingested
    assert len(rows) == 7
    for r in rows:
        assert set(r) >= {"message_id", "kept", "scores", "node_id", "edges"}
        assert set(r["scores"]) >= {"relevance", "novelty", "importance", "total", "coarse"}
        assert (r["node_id"] is None) == (not r["kept"])
    assert [r["kept"] for r in rows] == [True, False, True, True, True, True, True]
    edges = [e for r in rows for e in r["edges"]]
    assert {"source", "target", "relation"} <= set(edges[0])


def test_reingesting_a_file_is_idempotent(ingested):
    tmp, path, rows = ingested
    again = run(tmp, "--space", "trip", "ingest", str(path), "--json")
    rows2 = [json.loads(line) for line in again.stdout.splitlines()]
    assert [r["message_id"] for r in rows2] == [r["message_id"] for r in rows]
    assert all(r["duplicate"] for r in rows2)
    decisions = run(tmp, "--space", "trip", "decisions", "--json").stdout.splitlines()
    assert len(decisions) == 7
    plain = run(tmp, "--space", "trip", "ingest", str(path))  # the human-readable lines claim no new edges
    assert plain.returncode == 0 and "edges)" not in plain.stdout and "duplicate" in plain.stdout, plain.stdout


def test_why_takes_an_id_prefix_like_every_other_command(ingested):
    tmp, _, rows = ingested
    nid = next(r["node_id"] for r in rows if r["kept"])
    out = run(tmp, "--space", "trip", "why", nid[:8], "--query", "budget", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["node_id"] == nid


def test_query_json_contract(ingested):
    tmp, _, _ = ingested
    out = run(tmp, "--space", "trip", "query", "推荐一家餐厅", "--budget", "300", "--json")
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)
    assert res["tokens"] <= 300 and "海鲜过敏" in res["context"]
    for n in res["nodes"]:
        assert set(n) >= {"id", "content", "kind", "role", "score", "hops"} and n["role"] in ("seed", "expanded")
    for e in res["edges"]:
        assert set(e) >= {"source", "target", "relation"}


def test_query_explain_prints_trace(ingested):
    tmp, _, _ = ingested
    out = run(tmp, "--space", "trip", "query", "推荐一家餐厅", "--explain")
    assert "seed" in out.stdout and "rank" in out.stdout


def test_export_json_and_graphml(ingested):
    tmp, _, rows = ingested
    data = json.loads(run(tmp, "--space", "trip", "export").stdout)
    kept = [r["node_id"] for r in rows if r["kept"]]
    assert sorted(n["id"] for n in data["nodes"]) == sorted(kept)
    assert all({"source", "target", "relation", "origin", "confidence"} <= set(e) for e in data["edges"])
    gml = tmp / "g.graphml"
    assert run(tmp, "--space", "trip", "export", "--format", "graphml", "-o", str(gml)).returncode == 0
    g = nx.read_graphml(gml)
    assert g.number_of_nodes() == len(kept) and g.number_of_edges() == len(data["edges"])
    assert nx.is_directed_acyclic_graph(g)
    text = gml.read_text(encoding="utf-8")  # Chinese as written, not as character references
    assert text.startswith("<?xml version='1.0' encoding='utf-8'?>") and "我的预算总共是5000元。" in text
    assert "&#" not in text and {g.nodes[n]["content"] for n in g} == {n["content"] for n in data["nodes"]}


def test_spaces_and_promote(ingested):
    tmp, _, rows = ingested
    assert "trip" in run(tmp, "spaces").stdout.split()
    rejected = next(r for r in rows if not r["kept"])
    out = run(tmp, "--space", "trip", "promote", rejected["message_id"])
    assert json.loads(out.stdout)["kept"] is True


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"kind": "user_input", "content": "ok"}\n{"kind": "user_input", "content": "broken', "line 2"),
        ('{"kind": "shout", "content": "hi"}', "unknown kind"),
        ('{"kind": "user_input", "content": "   "}', "non-empty"),
        ("[1, 2]", "JSON object"),
    ],
)
def test_bad_ingest_files_are_clear_errors_and_ingest_nothing(tmp_path, content, message):
    f = tmp_path / "bad.jsonl"
    f.write_text(content, encoding="utf-8")
    out = run(tmp_path, "--space", "bad", "ingest", str(f))
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr
    assert "bad" not in run(tmp_path, "spaces").stdout.split()


def test_invalid_utf8_names_the_line(tmp_path):
    f = tmp_path / "bin.jsonl"
    f.write_bytes(b'{"kind": "user_input", "content": "ok"}\n{"kind": "user_input", "content": "\xff\xfe"}\n')
    out = run(tmp_path, "ingest", str(f))
    assert out.returncode == 2 and "bin.jsonl, line 2" in out.stderr and "UTF-8" in out.stderr


def test_missing_space_and_server_errors_are_one_line(tmp_path, monkeypatch):
    out = run(tmp_path, "--space", "nothing-here", "export")
    assert out.returncode == 2 and "does not exist" in out.stderr and "Traceback" not in out.stderr
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("WEAVER_CHROMA_HOST", "127.0.0.1")  # a server that is not there
    monkeypatch.setenv("WEAVER_CHROMA_PORT", str(port))
    env_run = run_cli("spaces", cwd=tmp_path)
    assert env_run.returncode == 2 and "Chroma server" in env_run.stderr and "Traceback" not in env_run.stderr


def test_empty_decisions_and_log_say_so_instead_of_printing_nothing(tmp_path):
    assert run(tmp_path, "--space", "fresh", "task", "plan a trip").returncode == 0
    assert run(tmp_path, "--space", "fresh", "decisions").stdout == "(no messages ingested yet)\n"
    assert run(tmp_path, "--space", "fresh", "decisions", "--json").stdout == ""  # JSON Lines: no rows
    assert run(tmp_path, "--space", "fresh", "log").stdout == "(the audit log is empty)\n"
    lines = [{"kind": "user_input", "content": "I am allergic to peanuts."}, {"content": "我的预算是五千元。"}]
    text = "\n".join(json.dumps(x, ensure_ascii=False) for x in lines)
    assert run(tmp_path, "--space", "fresh", "ingest", "-", stdin=text).returncode == 0
    # only ingests so far: their entries are hidden without --all, and the line says so
    hint = "(no edits in the audit log; --all shows its 2 ingest entries)\n"
    assert run(tmp_path, "--space", "fresh", "log").stdout == hint
    assert len(run(tmp_path, "--space", "fresh", "log", "--all").stdout.splitlines()) == 2


def test_a_budget_too_small_for_any_memory_says_so_and_is_never_exceeded(ingested):
    tmp, _, _ = ingested
    out = run(tmp, "--space", "trip", "query", "推荐一家餐厅", "--budget", "2")  # a deciding query: a block too
    assert out.returncode == 0 and out.stdout.startswith("(none of the ") and "fits in 2 tokens" in out.stdout
    res = json.loads(run(tmp, "--space", "trip", "query", "推荐一家餐厅", "--budget", "12", "--json").stdout)
    assert res["tokens"] <= 12 and (res["decision"] is None or res["decision"]["records"])


def test_a_data_dir_given_with_a_tilde_is_the_home_folder(tmp_path):
    """`--data-dir=~/memories` (no shell expands a tilde after "=") made a folder named "~" in the working
    directory; a tilde from secrets.toml the same."""
    work = tmp_path / "work"
    work.mkdir()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "weaver", "--data-dir=~/memories", "ingest", "-"],
        capture_output=True,
        text=True,
        input=json.dumps({"kind": "user_input", "content": "My budget is 5000 yuan in total."}) + "\n",
        env=env,
        timeout=180,
        cwd=work,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "memories" / "chroma").is_dir()
    assert not (work / "~").exists()


@pytest.mark.parametrize("query", ["预算是多少？", "what is my budget?"])
def test_query_and_constraints_of_a_space_not_made_yet_are_empty_with_a_note(tmp_path, query):
    """As MCP recall: no error, no traceback, nothing created; a bad query is refused all the same."""
    out = run(tmp_path, "--space", "later", "query", "--json", query)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert (got["query"], got["context"], got["nodes"]) == (query, "", []) and "does not exist yet" in got["note"]
    out = run(tmp_path, "--space", "later", "constraints")
    assert out.returncode == 0 and json.loads(out.stdout)["constraints"] == []
    assert run(tmp_path, "--space", "later", "query", "").returncode == 2
    assert "later" not in run(tmp_path, "spaces").stdout.split()
