"""Bad input at the faces the corpus (tests/test_bad_input_corpus.py) does not reach in-process.

Real ``python -m weaver`` processes (exit code, stderr exactly one line, no traceback); a space whose
revision token was overwritten by junk; a debugger question with an empty id; MCP tool arguments that fail
the tool's schema; a Chroma server port where something accepts connections but never answers.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import threading
import time

import pytest
from conftest import ROOT

from weaver import Runtime, Settings
from weaver.models import WeaverError
from weaver.why_not import why_not


def _process(tmp_path, *args, data=None):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "weaver", "--data-dir", str(data or tmp_path / "data"), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
        cwd=tmp_path,
    )


def _one_line_error(out, expect: str) -> None:
    assert out.returncode == 2, (out.returncode, out.stderr)
    assert "Traceback" not in out.stderr
    assert out.stderr.startswith("error: ") and out.stderr.count("\n") == 1, out.stderr
    assert expect in out.stderr, out.stderr


@pytest.mark.parametrize(
    "argv, expect",
    [
        # before: uvicorn's OverflowError traceback from bind()
        (["mcp", "--http", "--port", "70000"], "a port from 1 to 65535"),
        # before: an empty --data-dir (an unset shell variable) put chroma/ and locks/ in the working directory
        (["--data-dir", "", "spaces"], "--data-dir: an empty path"),
        # before: ValueError traceback from int()
        (["bench", "scale", "--sizes", "1000,ten"], "--sizes takes comma-separated node counts"),
        # before: a negative count sliced off the last conversation without a word
        (["bench", "locomo", "--conversations", "-1"], "a positive integer, not '-1'"),
        (["tiers", "--working-turns", "-3"], "0 or more, not '-3'"),
    ],
    ids=["mcp-port", "empty-data-dir", "scale-sizes", "negative-count", "negative-working-turns"],
)
def test_bad_arguments_are_one_line_in_a_real_process(tmp_path, argv, expect):
    out = _process(tmp_path, *argv)
    _one_line_error(out, expect)
    assert not (tmp_path / "chroma").exists() and not (tmp_path / "locks").exists()


def test_a_junk_revision_token_neither_stops_the_space_nor_loses_a_message(tmp_path, runtime):
    """The revision file is compared, never parsed: junk in it (a crash, a careless edit) reads as "changed".
    Before, every command on the space died with a UnicodeDecodeError traceback."""
    w = runtime.open("trip")
    for i, text in enumerate(["My budget is 5000 yuan.", "我对海鲜过敏。", "Book a hotel near Wangfujing."]):
        w.ingest(text, message_id=f"m{i}")
    w.flush()
    data = runtime.settings.data_dir
    (rev,) = (data / "locks").glob("*.rev")
    rev.write_bytes(os.urandom(24) + b"\xff\xfe")
    out = _process(tmp_path, "--space", "trip", "task", "Plan a Beijing trip", data=data)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    assert rev.read_bytes().isascii()  # the next write section wrote a clean token over the junk
    again = Runtime.from_settings(runtime.settings, embedder=runtime.embedder).open("trip", create=False)
    assert {d.message_id for d in again.decisions.values()} == {"m0", "m1", "m2"}
    assert again.meta["task"] == "Plan a Beijing trip" and "5000" in again.query("budget").context


def test_an_empty_id_is_refused_not_matched_to_a_rejected_message(runtime):
    """A rejected message's decision names node "": ``why ""`` answered about the first of them."""
    w = runtime.open("why")
    w.ingest("My budget is 5000 yuan for the Beijing trip.", message_id="kept")
    assert not w.ingest("ok", message_id="filler").decision.kept
    res = w.query("budget")
    for ident in ("", "   "):
        with pytest.raises(WeaverError, match="empty id"):
            why_not(w, res, ident)
    assert why_not(w, res, "filler").reason == "filtered_at_ingest"  # a named rejected message still answers


def test_mcp_arguments_failing_the_schema_are_one_line_tool_errors(runtime):
    mcp = pytest.importorskip("mcp")
    from weaver.integrations import MemoryService
    from weaver.integrations.mcp_server import build_server

    service = MemoryService(runtime, default_space="t")

    async def session():
        async with mcp.Client(build_server(service)) as c:
            assert not (await c.call_tool("remember", {"content": "My budget is 5000 yuan."})).is_error
            got = {}
            for name, args in [
                ("remember", {}),
                ("remember", {"content": 5}),
                ("recall", {"query": "budget", "budget": "lots"}),
                ("graph", {"node": "n_", "hops": "far"}),
                ("why", {"node": "", "query": "budget"}),
            ]:
                res = await c.call_tool(name, args)
                assert res.is_error, (name, args)
                got[name, str(args)] = res.content[0].text
            alive = await c.call_tool("spaces", {})
            return got, alive.structured_content

    got, alive = asyncio.run(session())
    for text in got.values():
        assert "\n" not in text and "errors.pydantic.dev" not in text, text
    assert got["remember", "{}"] == "Error executing tool remember: invalid arguments: content: Field required"
    assert "budget: Input should be a valid integer" in got["recall", "{'query': 'budget', 'budget': 'lots'}"]
    assert "empty id" in got["why", "{'node': '', 'query': 'budget'}"]
    assert alive == {"spaces": ["t"]}  # the server answered every call and is still serving
    assert len(runtime.open("t", create=False).decisions) == 1  # nothing written by a refused call


def _silent_server():
    """A socket that accepts connections and never says a word (a hung server, a foreign service)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    held = []

    def accept():
        while True:
            try:
                held.append(sock.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    return sock, held


def test_a_chroma_port_that_never_answers_is_a_clear_error_not_a_hang(tmp_path, monkeypatch):
    """Chroma's HTTP client has no timeout: before, the CLI waited forever on such a port."""
    import weaver.store

    monkeypatch.setattr(weaver.store, "SERVER_ANSWER_TIMEOUT", 0.5)
    sock, held = _silent_server()
    port = sock.getsockname()[1]
    try:
        s = Settings.from_env(
            env={"WEAVER_CHROMA_HOST": "127.0.0.1", "WEAVER_CHROMA_PORT": str(port)}, secrets_path=None
        )
        t0 = time.perf_counter()
        with pytest.raises(WeaverError, match=f"Chroma server at 127.0.0.1:{port}: no answer within 0.5 s"):
            Runtime.from_settings(s)
        assert time.perf_counter() - t0 < 5
    finally:
        sock.close()
        for c in held:
            c.close()


def test_the_memory_service_refuses_bad_arguments_in_one_line_and_reads_declared_objects(runtime):
    """What an MCP or LangGraph face passes straight through: before, ``tuple()`` of each dependency turned
    ``{"node_id", "relation"}`` into its keys (refused as "unknown relation 'relation'") and a number into a
    TypeError; a list as the space name was a TypeError; ``hops=True`` was taken as 1."""
    from weaver.integrations import MemoryService

    svc = MemoryService(runtime, default_space="svc")
    budget = svc.remember("My total budget is 5000 yuan.")["node_id"]
    thought = svc.remember(
        "Search hotels under 600 yuan a night.",
        "agent_thought",
        depends_on=[{"node_id": budget, "relation": "conditional", "why": "sets max_price"}],
    )
    assert {"source": budget, "target": thought["node_id"], "relation": "conditional"} in thought["edges"]
    w = runtime.open("svc", create=False)
    assert w.graph.edges[budget, thought["node_id"]]["origin"] == "agent"  # declared, not guessed
    for call, expect in [
        (lambda: svc.remember("Book it.", depends_on=[5]), r"expected \(node id, relation\)"),
        (lambda: svc.remember("Book it.", depends_on=[None]), r"expected \(node id, relation\)"),
        (lambda: svc.remember("Book it.", depends_on="n_1"), "must be a list"),
        (lambda: svc.recall("budget", space=["svc"]), "a space needs a non-empty name"),
        (lambda: svc.graph(budget, hops=True), "hops must be 1, 2 or 3"),
        (lambda: svc.why(5, "budget"), "a node or message id is a string, not int"),
    ]:
        with pytest.raises(WeaverError, match=expect):
            call()
    assert len(runtime.open("svc", create=False).decisions) == 2


def test_a_web_server_that_is_not_chroma_is_one_short_line(tmp_path):
    """Its 404 page came back whole (HTML, newlines and all) inside the error."""
    from http.server import HTTPServer, SimpleHTTPRequestHandler

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):  # the test's output is not the place for the server's access log
            pass

    httpd = HTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    port = httpd.server_address[1]
    try:
        s = Settings.from_env(
            env={"WEAVER_CHROMA_HOST": "127.0.0.1", "WEAVER_CHROMA_PORT": str(port)}, secrets_path=None
        )
        with pytest.raises(WeaverError) as exc:
            Runtime.from_settings(s)
    finally:
        httpd.shutdown()
    text = str(exc.value)
    assert text.startswith(f"cannot open the Chroma server at 127.0.0.1:{port}: ")
    assert "\n" not in text and len(text) < 300, text


def test_an_empty_weaver_space_variable_reads_as_unset(monkeypatch):
    """As WEAVER_DATA_DIR and every other variable: an empty one means the default, not a blank space name."""
    from weaver.cli import build_parser

    monkeypatch.setenv("WEAVER_SPACE", "")
    assert build_parser().parse_args(["spaces"]).space == "default"
    monkeypatch.setenv("WEAVER_SPACE", "trip 行程")
    assert build_parser().parse_args(["spaces"]).space == "trip 行程"
