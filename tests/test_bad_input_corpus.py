"""The hostile-input corpus: every bad input is a one-line error, never a traceback, and writes nothing.

One parametrized test runs each case against a populated data directory: CLI arguments, ingest
files (JSON lines, bytes, Unicode oddities), environment variables and library calls. For each
refused case it asserts: no exception other than WeaverError escapes (the CLI exits 2), the
CLI's stderr is exactly one line starting ``error:`` (naming ``FILE, line N`` when a file line is
at fault), and every Chroma collection of the data directory is byte-for-byte what it was (0
partial commits, no space created). The CLI runs in-process (``weaver.cli.main``), so the real
embedder is loaded once.
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest

from weaver import Runtime, Settings
from weaver.cli import main
from weaver.models import Message, WeaverError
from weaver.probes import save_probe

BIG = 1_000_001


@dataclass
class Case:
    """One bad input. ``argv`` (CLI, with ``{file}``/``{dir}``/``{node}``... placeholders) or ``call`` (library)."""

    id: str
    expect: str  # a substring of the error
    argv: list[str] | None = None
    file: bytes | None = None  # written to {file} before the run
    env: dict[str, str] = field(default_factory=dict)
    line: int | None = None  # the file line the error must name
    stdin: bytes | None = None
    call: Callable | None = None  # (runtime, weaver, ids) -> anything; must raise WeaverError


def _lines(*objs) -> bytes:
    return b"".join((o if isinstance(o, bytes) else json.dumps(o, ensure_ascii=False).encode()) + b"\n" for o in objs)


GOOD = [{"task": "Plan a Beijing trip"}, {"kind": "user_input", "content": "My budget is 5000 yuan."}]


def _bad_line(raw) -> bytes:
    """A file whose first two lines (a task and a message) are fine and whose third is ``raw``."""
    return _lines(*GOOD, raw)


def _deep(n: int) -> bytes:
    return b"[" * n + b"]" * n


def _file_cases() -> list[Case]:
    bad_lines = [  # (id, third line, expected text)
        ("control-only-content", {"content": "\u0000\u0001\u001f"}, "message is empty"),
        ("control-and-space-content", {"content": " \t\u0007 \u007f "}, "message is empty"),
        ("oversized-content", {"content": "x" * BIG}, "1,000,001 characters; the limit is 1,000,000"),
        ("control-only-task", {"task": "\u0000\u0007"}, "the task text is empty"),
        ("oversized-task", {"task": "t" * 20_001}, "the limit is 20,000"),
        ("blank-task", {"task": "   "}, "task must be a non-empty string"),
        ("number-task", {"task": 5}, "task must be a non-empty string"),
        ("null-task", {"task": None}, "task must be a non-empty string"),
        ("list-task", {"task": ["a"]}, "task must be a non-empty string"),
        ("turn-str", {"content": "hi", "meta": {"turn": "abc"}}, "meta.turn must be an integer"),
        ("turn-nan", b'{"content": "hi", "meta": {"turn": NaN}}', "meta.turn"),
        ("turn-list", {"content": "hi", "meta": {"turn": [1]}}, "meta.turn must be an integer"),
        ("turn-bool", {"content": "hi", "meta": {"turn": True}}, "meta.turn must be an integer"),
        ("turn-huge-int", {"content": "hi", "meta": {"turn": 10**30}}, "meta.turn must be an integer"),
        ("turn-huge-float", {"content": "hi", "meta": {"turn": 1e30}}, "meta.turn must be an integer"),
        ("turn-negative", {"content": "hi", "meta": {"turn": -1}}, "meta.turn must be an integer"),
        ("turn-fraction", {"content": "hi", "meta": {"turn": 3.5}}, "meta.turn must be an integer"),
        ("turn-infinity", b'{"content": "hi", "meta": {"turn": Infinity}}', "meta"),
        (
            "summary-number",
            {"kind": "tool_result", "content": '{"a": 1}', "meta": {"summary": 5}},
            "meta.summary must be a string",
        ),
        (
            "summary-object",
            {"kind": "tool_result", "content": '{"a": 1}', "meta": {"summary": {"x": 1}}},
            "meta.summary must be a string",
        ),
        ("tool-number", {"kind": "tool_result", "content": "rows", "meta": {"tool": 7}}, "meta.tool must be a string"),
        ("meta-nan", b'{"content": "hi", "meta": {"score": NaN}}', "non-finite"),
        ("meta-deep", {"content": "hi", "meta": {"a": json.loads(_deep(40))}}, "nested more than 32 levels"),
        ("id-lone-surrogate", b'{"content": "hi", "id": "x\\ud800y"}', "lone surrogate"),
        ("id-control", {"content": "hi", "id": "a\u0000b"}, "control character"),
        ("id-list", {"content": "hi", "id": [1]}, "id must be a string"),
        ("id-object", {"content": "hi", "id": {"a": 1}}, "id must be a string"),
        ("id-bool", {"content": "hi", "id": True}, "id must be a string"),
        ("id-float", {"content": "hi", "id": 1.5}, "id must be a string"),
        ("id-too-long", {"content": "hi", "id": "i" * 300}, "limited to 256 characters"),
        ("id-blank", {"content": "hi", "id": "   "}, "must not be blank"),
        ("json-nested-100k", _deep(100_000), "nested too deeply"),
        ("json-nested-100k-in-meta", b'{"content": "hi", "meta": {"a": ' + _deep(100_000) + b"}}", "nested too deeply"),
        ("json-5000-digit-int", b'{"content": "hi", "meta": {"n": ' + b"9" * 5000 + b"}}", "not valid JSON"),
        ("json-truncated", b'{"content": "trunc', "not valid JSON"),
        ("json-trailing-garbage", b'{"content": "hi"} x', "not valid JSON"),
        ("json-single-quotes", b"{'content': 'hi'}", "not valid JSON"),
        ("json-array", b'["a", "list"]', "expected a JSON object"),
        ("json-string", b'"just text"', "expected a JSON object"),
        ("json-number", b"42", "expected a JSON object"),
        ("json-null", b"null", "expected a JSON object"),
        ("invalid-utf8", b'{"content": "caf\xe9"}', "not valid UTF-8"),
        ("utf16-line", '{"content": "hi"}'.encode("utf-16"), "not valid UTF-8"),
        ("unknown-kind", {"kind": "memo", "content": "hi"}, "unknown kind 'memo'"),
        ("kind-number", {"kind": 5, "content": "hi"}, "unknown kind 5"),
        ("kind-null", {"kind": None, "content": "hi"}, "unknown kind None"),
        ("kind-list", {"kind": ["user_input"], "content": "hi"}, "unknown kind"),
        ("content-missing", {"kind": "user_input"}, "content must be a non-empty string"),
        # keys the reader would drop while reporting the line ingested
        ("key-metadata-typo", {"content": "hi", "metadata": {"turn": 3}}, "unknown key 'metadata': a message line"),
        ("key-depends-on", {"content": "hi", "depends_on": [["n_1", "causal"]]}, "unknown key 'depends_on'"),
        ("key-text-for-content", {"text": "hi", "role": "user"}, "unknown key 'text', 'role'"),
        ("task-with-content", {"task": "Plan", "content": "hi"}, "a task line holds only task"),
        ("content-number", {"content": 5}, "content must be a non-empty string"),
        ("content-list", {"content": ["a"]}, "content must be a non-empty string"),
        ("content-null", {"content": None}, "content must be a non-empty string"),
        ("meta-list", {"content": "hi", "meta": [1]}, "meta must be an object"),
        ("meta-string", {"content": "hi", "meta": "x"}, "meta must be an object"),
        ("meta-number", {"content": "hi", "meta": 3}, "meta must be an object"),
    ]
    cases = [
        Case(f"file:{name}", why, ["--space", "files", "ingest", "{file}"], _bad_line(raw), line=3)
        for name, raw, why in bad_lines
    ]
    cases += [
        Case(
            "file:bad-first-line",
            "not valid JSON",
            ["--space", "files", "ingest", "{file}"],
            b"{oops\n" + _lines(*GOOD),
            line=1,
        ),
        Case(
            "file:bad-last-of-many",
            "message is empty",
            ["--space", "files", "ingest", "{file}"],
            _lines(*GOOD, *[{"content": f"msg {i}"} for i in range(60)], {"content": "\u0000"}),
            line=63,
        ),
        Case(
            "file:bad-line-into-existing-space",
            "meta.turn",
            ["--space", "base", "ingest", "{file}"],
            _bad_line({"content": "hi", "meta": {"turn": "abc"}}),
            line=3,
        ),
        Case(
            "file:crlf-bad-line",
            "message is empty",
            ["--space", "files", "ingest", "{file}"],
            _bad_line({"content": "\u0000"}).replace(b"\n", b"\r\n"),
            line=3,
        ),
        Case("file:empty", "the file is empty", ["--space", "files", "ingest", "{file}"], b""),
        Case("file:only-blank-lines", "the file is empty", ["--space", "files", "ingest", "{file}"], b"\n \n\t\n"),
        Case("file:missing", "cannot read", ["--space", "files", "ingest", "{dir}/nope.jsonl"]),
        Case("file:a-directory", "cannot read", ["--space", "files", "ingest", "{dir}"]),
        Case(
            "file:stdin-bad-line",
            "stdin, line 3",
            ["--space", "files", "ingest", "-"],
            stdin=_bad_line({"content": "\u0000"}),
        ),
        Case(
            "file:undecodable-file-name",
            "line 3",
            ["--space", "files", "ingest", "{dir}/\udcff.jsonl"],
            _bad_line({"content": "\u0007"}),
            line=3,
        ),
    ]
    return cases


def _cli_cases() -> list[Case]:
    def c(name, expect, *argv):
        return Case(f"cli:{name}", expect, list(argv))

    return [
        c(
            "query-budget-negative",
            "expected a positive integer",
            "--space",
            "base",
            "query",
            "hotel",
            "--budget",
            "-5",
        ),
        c("query-budget-zero", "expected a positive integer", "--space", "base", "query", "hotel", "--budget", "0"),
        c("query-budget-text", "expected a positive integer", "--space", "base", "query", "hotel", "--budget", "abc"),
        c("query-budget-fraction", "expected a positive integer", "--space", "base", "query", "x", "--budget", "1.5"),
        c("query-empty", "the query is empty", "--space", "base", "query", ""),
        c("query-control-only", "the query is empty", "--space", "base", "query", "\u0000\u0007"),
        c("query-missing-space-empty", "the query is empty", "--space", "nowhere", "query", "  "),
        c(
            "trace-budget-negative",
            "expected a positive integer",
            "--space",
            "base",
            "trace",
            "hotel",
            "--budget",
            "-1",
        ),
        c(
            "why-budget-zero",
            "expected a positive integer",
            "--space",
            "base",
            "why",
            "{node}",
            "--query",
            "x",
            "--budget",
            "0",
        ),
        c("status-empty-prefix", "matches everything", "--space", "base", "status", "", "retracted"),
        c("status-blank-prefix", "matches everything", "--space", "base", "status", "   ", "retracted"),
        c("status-ambiguous-prefix", "matches", "--space", "base", "status", "n_", "retracted"),
        c("status-unknown-node", "no node", "--space", "base", "status", "n_nope", "retracted"),
        c("status-bad-status", "invalid choice", "--space", "base", "status", "{node}", "gone"),
        c("edge-set-empty-prefixes", "matches everything", "--space", "base", "edge", "set", "", "", "causal"),
        c(
            "edge-set-unknown-relation",
            "invalid choice",
            "--space",
            "base",
            "edge",
            "set",
            "{node}",
            "{node2}",
            "because",
        ),
        c("edge-set-self-loop", "", "--space", "base", "edge", "set", "{node}", "{node}", "causal"),
        c("edge-rm-unknown-node", "no node", "--space", "base", "edge", "rm", "{node}", "n_nope"),
        c("accept-empty-prefix", "matches everything", "--space", "base", "accept", ""),
        c("accept-unknown", "no review item", "--space", "base", "accept", "q_nope"),
        c("reject-empty-prefix", "matches everything", "--space", "base", "reject", ""),
        c("undo-empty-prefix", "matches everything", "--space", "base", "undo", ""),
        c("undo-unknown", "no audit entry", "--space", "base", "undo", "a_nope"),
        c("redo-nothing", "nothing to redo", "--space", "base", "redo"),
        c("promote-unknown", "no message", "--space", "base", "promote", "nope"),
        c("promote-empty", "no message", "--space", "base", "promote", ""),
        c(
            "export-missing-dir",
            "cannot write {dir}/missing/dir/x.json",
            "--space",
            "base",
            "export",
            "-o",
            "{dir}/missing/dir/x.json",
        ),
        c("export-to-a-directory", "cannot write", "--space", "base", "export", "-o", "{dir}"),
        c("export-bad-format", "invalid choice", "--space", "base", "export", "--format", "xml"),
        c("export-missing-space", "does not exist", "--space", "nowhere", "export"),
        c("delete-space-without-yes", "add --yes", "delete-space", "base"),
        c("delete-space-empty-name", "non-empty name", "delete-space", "", "--yes"),
        c("delete-space-nul-name", "control character", "delete-space", "\u0000", "--yes"),
        c("delete-space-missing", "does not exist", "delete-space", "nowhere", "--yes"),
        c("space-lone-nul", "control character", "--space", "\u0000", "task", "Plan a trip"),
        c("space-control-char", "control character", "--space", "trip\u0007", "task", "Plan a trip"),
        c("space-undecodable-byte", "lone surrogate", "--space", "trip\udcff", "task", "Plan a trip"),
        c("space-empty", "non-empty name", "--space", "", "task", "Plan a trip"),
        c("space-blank", "non-empty name", "--space", "   ", "task", "Plan a trip"),
        c("space-too-long", "200 characters", "--space", "s" * 201, "task", "Plan a trip"),
        c("task-empty", "the task text is empty", "--space", "base", "task", ""),
        c("task-control-only", "the task text is empty", "--space", "base", "task", "\u0000\u001b"),
        c("task-oversized", "the limit is 20,000", "--space", "base", "task", "t" * 20_001),
        c("log-negative-limit", "--limit must be 0", "--space", "base", "log", "--limit", "-5"),
        c("review-missing-space", "does not exist", "--space", "nowhere", "review"),
        c("decisions-missing-space", "does not exist", "--space", "nowhere", "decisions"),
        c("unknown-command", "invalid choice", "--space", "base", "frobnicate"),
        c("no-command", "required", "--space", "base"),
        c("unknown-option", "unrecognized arguments", "--space", "base", "spaces", "--colour"),
        c("probe-add-without-query", "", "--space", "base", "probe", "add"),
        c("probe-rm-unknown", "", "--space", "base", "probe", "rm", "p_nope"),
        c(
            "status-superseded-by-itself",
            "cannot be superseded by itself",
            "--space",
            "base",
            "status",
            "{node}",
            "superseded",
            "--by",
            "{node}",
        ),
        # an error quoting a 100 kB argument stays a line a person can read
        c("undo-huge-entry-id", "... (100,017 characters)", "--space", "base", "undo", "a" * 100_000),
        # numbers the socket layer, the lifecycle or a bench loop would take with a traceback or silently
        c("mcp-port-out-of-range", "a port from 1 to 65535, not '70000'", "mcp", "--http", "--port", "70000"),
        c("mcp-port-negative", "a port from 1 to 65535, not '-1'", "mcp", "--http", "--port", "-1"),
        c("forget-working-turns-negative", "0 or more, not '-1'", "--space", "base", "forget", "--working-turns", "-1"),
        c("tiers-working-turns-negative", "0 or more, not '-5'", "--space", "base", "tiers", "--working-turns", "-5"),
        c("data-dir-empty", "--data-dir: an empty path", "--data-dir", "", "spaces"),
        c("bench-scale-sizes-text", "--sizes takes comma-separated node counts", "bench", "scale", "--sizes", "a,b"),
        c("bench-count-negative", "a positive integer, not '-1'", "bench", "locomo", "--conversations", "-1"),
        c("bench-every-zero", "a positive integer, not '0'", "bench", "lifecycle", "--every", "0"),
        c(
            "bench-distractors-missing",
            "cannot read CrossWOZ distractors from {dir}/nope.zip",
            "bench",
            "madial-channels",
            "--data",
            "{dir}/nope",
            "--crosswoz",
            "{dir}/nope.zip",
        ),
    ]


def _env_cases() -> list[Case]:
    def e(name, expect, env):
        return Case(f"env:{name}", expect, ["--space", "base", "spaces"], env=env)

    return [
        e("timeout-text", "WEAVER_LLM_TIMEOUT must be a number", {"WEAVER_LLM_TIMEOUT": "abc"}),
        e("timeout-negative", "WEAVER_LLM_TIMEOUT", {"WEAVER_LLM_TIMEOUT": "-1"}),
        e("timeout-zero", "WEAVER_LLM_TIMEOUT", {"WEAVER_LLM_TIMEOUT": "0"}),
        e("timeout-nan", "WEAVER_LLM_TIMEOUT", {"WEAVER_LLM_TIMEOUT": "nan"}),
        e("timeout-inf", "WEAVER_LLM_TIMEOUT", {"WEAVER_LLM_TIMEOUT": "inf"}),
        e("retries-text", "WEAVER_LLM_RETRIES must be an integer", {"WEAVER_LLM_RETRIES": "x"}),
        e("retries-negative", "WEAVER_LLM_RETRIES", {"WEAVER_LLM_RETRIES": "-1"}),
        e("retries-fraction", "WEAVER_LLM_RETRIES", {"WEAVER_LLM_RETRIES": "1.5"}),
        e("retries-huge", "WEAVER_LLM_RETRIES", {"WEAVER_LLM_RETRIES": "100000"}),
        e("port-text", "WEAVER_CHROMA_PORT must be an integer", {"WEAVER_CHROMA_PORT": "abc"}),
        e("port-out-of-range", "WEAVER_CHROMA_PORT", {"WEAVER_CHROMA_PORT": "70000"}),
        e("backend-unknown", "WEAVER_BACKEND must be auto, rules or openai", {"WEAVER_BACKEND": "gpt"}),
        e("embedder-unknown", "unknown embedder", {"WEAVER_EMBEDDER": "bert"}),
        Case("env:space-control-char", "control character", ["query", "hotel"], env={"WEAVER_SPACE": "a\u0007b"}),
        Case(
            "env:data-dir-is-a-file",
            "Chroma data directory",
            ["spaces"],
            file=b"x",
            env={"WEAVER_DATA_DIR": "{dir}/in.jsonl"},
        ),
        Case(
            "env:secrets-file-broken",
            "cannot read .streamlit/secrets.toml",
            ["--space", "base", "spaces"],
            env={"__secrets__": "OPENAI_API_KEY = [unclosed"},
        ),
    ]


def _deep_dict(n: int) -> dict:
    d: dict = {}
    for _ in range(n):
        d = {"a": d}
    return d


def _lib_cases() -> list[Case]:
    def lib(name, expect, call):
        return Case(f"lib:{name}", expect, call=call)

    ing = lambda *a, **k: lambda rt, w, ids: w.ingest(*a, **k)  # noqa: E731
    return [
        lib("content-none", "content must be a string", ing(None)),
        lib("content-int", "content must be a string", ing(5)),
        lib("content-bytes", "content must be a string", ing(b"bytes")),
        lib("content-control-only", "message is empty", ing("\x00\x01")),
        lib("content-oversized", "the limit is 1,000,000", ing("x" * BIG)),
        lib("kind-unknown", "unknown kind", ing("hi", "thought")),
        lib("kind-none", "unknown kind", ing("hi", None)),
        lib("kind-unhashable", "unknown kind", ing("hi", ["user_input"])),
        lib("meta-list", "meta must be an object", ing("hi", meta=[1])),
        lib("turn-str", "meta.turn", ing("hi", meta={"turn": "abc"})),
        lib("turn-nan", "meta", ing("hi", meta={"turn": float("nan")})),
        lib("turn-list", "meta.turn", ing("hi", meta={"turn": [1]})),
        lib("turn-bool", "meta.turn", ing("hi", meta={"turn": False})),
        lib("turn-huge", "meta.turn", ing("hi", meta={"turn": 10**30})),
        lib("summary-int", "meta.summary", ing('{"a": 1}', "tool_result", {"summary": 5})),
        lib("meta-int-key", "meta keys must be strings", ing("hi", meta={1: "a"})),
        lib("meta-object-value", "must be JSON", ing("hi", meta={"a": object()})),
        lib("meta-set-value", "must be JSON", ing("hi", meta={"a": {1, 2}})),
        lib("meta-inf", "non-finite", ing("hi", meta={"a": float("inf")})),
        lib("meta-100k-deep", "nested more than 32 levels", ing("hi", meta=_deep_dict(100_000))),
        lib("meta-oversized", "larger than 1,000,000", ing("hi", meta={"blob": "b" * 1_000_001})),
        lib("id-lone-surrogate", "lone surrogate", ing("hi", message_id="m\ud800")),
        lib("id-int", "must be a string", ing("hi", message_id=5)),
        lib("id-control", "control character", ing("hi", message_id="a\x00b")),
        lib("id-too-long", "limited to 256", ing("hi", message_id="i" * 257)),
        lib("timestamp-nan", "timestamp", ing("hi", timestamp=float("nan"))),
        lib("timestamp-str", "timestamp", ing("hi", timestamp="now")),
        lib("timestamp-negative", "timestamp", ing("hi", timestamp=-1.0)),
        lib(
            "batch-good-then-bad-turn",
            "meta.turn",
            lambda rt, w, ids: w.ingest_many(
                [Message("I'm allergic to seafood.", message_id="ok-1"), Message("hi", meta={"turn": "abc"})]
            ),
        ),
        lib(
            "batch-good-then-surrogate-id",
            "lone surrogate",
            lambda rt, w, ids: w.ingest_many(
                [Message("My budget is 800 yuan.", message_id="ok-2"), Message("hi", message_id="\udc80")]
            ),
        ),
        lib("batch-not-a-list", "takes a list of Message objects, not int", lambda rt, w, ids: w.ingest_many(5)),
        lib("batch-a-string", "takes a list of Message objects, not str", lambda rt, w, ids: w.ingest_many("hi")),
        lib(
            "batch-a-dict-entry",
            "message 1 of the batch is a dict",
            lambda rt, w, ids: w.ingest_many([Message("My budget is 900 yuan.", message_id="ok-3"), {"content": "x"}]),
        ),
        lib("batch-a-none-entry", "message 0 of the batch is a NoneType", lambda rt, w, ids: w.ingest_many([None])),
        lib("query-int", "the query must be a string, not int", lambda rt, w, ids: w.query(5)),
        lib("score-nodes-list", "the query must be a string, not list", lambda rt, w, ids: w.score_nodes(["x"])),
        lib("probe-expect-empty-id", "not in this space: ''", lambda rt, w, ids: save_probe(w, "hotel", [""])),
        lib("probe-expect-bare-id", "a list of node ids", lambda rt, w, ids: save_probe(w, "hotel", ids[0])),
        lib("probe-query-int", "the query must be a string", lambda rt, w, ids: save_probe(w, 5, [ids[0]])),
        lib("task-none", "the task must be a string", lambda rt, w, ids: w.set_task(None)),
        lib("task-int", "the task must be a string", lambda rt, w, ids: w.set_task(5)),
        lib("task-control-only", "the task text is empty", lambda rt, w, ids: w.set_task("\x00")),
        lib("task-oversized", "the limit is 20,000", lambda rt, w, ids: w.set_task("t" * 20_001)),
        lib("query-empty", "the query is empty", lambda rt, w, ids: w.query("")),
        lib("query-budget-negative", "positive integer", lambda rt, w, ids: w.query("hotel", budget=-5)),
        lib("query-budget-zero", "positive integer", lambda rt, w, ids: w.query("hotel", budget=0)),
        lib("query-budget-float", "positive integer", lambda rt, w, ids: w.query("hotel", budget=1.5)),
        lib("query-budget-bool", "positive integer", lambda rt, w, ids: w.query("hotel", budget=True)),
        lib("query-budget-str", "positive integer", lambda rt, w, ids: w.query("hotel", budget="10")),
        lib("promote-unknown", "no message", lambda rt, w, ids: w.promote("nope")),
        lib(
            "supersede-by-itself",
            "cannot be superseded by itself",
            lambda rt, w, ids: w.curation.set_status(ids[0], "superseded", "t", by=ids[0]),
        ),
        lib("resolve-empty-prefix", "matches everything", lambda rt, w, ids: w.curation.resolve_node("")),
        lib(
            "set-status-empty-prefix",
            "matches everything",
            lambda rt, w, ids: w.curation.set_status(w.curation.resolve_node(""), "retracted", "t"),
        ),
        lib("accept-empty-prefix", "matches everything", lambda rt, w, ids: w.curation.accept("")),
        lib("reject-empty-prefix", "matches everything", lambda rt, w, ids: w.curation.reject("")),
        lib("undo-empty-prefix", "matches everything", lambda rt, w, ids: w.curation.undo("")),
        lib(
            "set-edge-unknown-relation",
            "because",
            lambda rt, w, ids: w.curation.set_edge(ids[0], ids[1], "because", "t"),
        ),
        lib("open-nul-name", "control character", lambda rt, w, ids: rt.open("\x00")),
        lib("open-surrogate-name", "lone surrogate", lambda rt, w, ids: rt.open("trip\ud83d")),
        lib("open-empty-name", "non-empty name", lambda rt, w, ids: rt.open("")),
        lib("open-none-name", "non-empty name", lambda rt, w, ids: rt.open(None)),
        lib("open-int-name", "non-empty name", lambda rt, w, ids: rt.open(5)),
        lib("open-missing", "does not exist", lambda rt, w, ids: rt.open("nowhere", create=False)),
        lib(
            "settings-timeout",
            "WEAVER_LLM_TIMEOUT",
            lambda rt, w, ids: Settings.from_env(env={"WEAVER_LLM_TIMEOUT": "abc"}, secrets_path=None),
        ),
        lib(
            "settings-retries",
            "WEAVER_LLM_RETRIES",
            lambda rt, w, ids: Settings.from_env(env={"WEAVER_LLM_RETRIES": "x"}, secrets_path=None),
        ),
    ]


CASES = _file_cases() + _cli_cases() + _env_cases() + _lib_cases()
assert len(CASES) >= 100 and len({c.id for c in CASES}) == len(CASES)


# ------------------------------------------------------------------ fixtures
def _snapshot(client, data: Path) -> dict[str, str]:
    """Every collection of the data directory -> a digest of its ids, documents and metadata; every
    write-behind log -> a digest of its bytes (a refused input must not append to it either)."""
    out = {p.name: hashlib.sha1(p.read_bytes()).hexdigest() for p in sorted((data / "locks").glob("*.wal"))}
    for col in client.list_collections():
        name = col if isinstance(col, str) else col.name
        got = client.get_collection(name).get(include=["metadatas", "documents"])
        blob = json.dumps(
            [got["ids"], got["documents"], got["metadatas"]], sort_keys=True, ensure_ascii=True, default=str
        )
        out[name] = hashlib.sha1(blob.encode()).hexdigest()
    return out


@pytest.fixture(scope="module")
def world(tmp_path_factory, embedder):
    """A data directory with one populated space (nodes, edges, an audit log, a review queue)."""
    root = tmp_path_factory.mktemp("corpus")
    data = root / "data"
    rt = Runtime.from_settings(Settings.from_env(env={}, secrets_path=None, data_dir=data), embedder=embedder)
    w = rt.open("base")
    w.set_task("Plan a Beijing trip 规划北京旅行")
    for i, (text, kind) in enumerate(
        [
            ("My total budget for the trip is 5000 yuan.", "user_input"),
            ("我对海鲜过敏。", "user_input"),
            ("I need hotels near Wangfujing within the 5000 yuan budget.", "agent_thought"),
            ('{"results": [{"name": "王府井酒店", "price": 400}]}', "tool_result"),
            ("Book the Wangfujing hotel for May 1st, 400 yuan per night.", "user_input"),
        ]
    ):
        w.ingest(text, kind, message_id=f"base-{i}")
    ids = w.node_ids
    w.curation.set_edge(ids[0], ids[-1], "causal", "budget decides the booking")
    w.curation.review(mode="rules")
    w.flush()  # Chroma complete: a refused input's command that opens the space then has nothing to apply
    return root, data, rt, ids


def _fill(arg: str, root: Path, ids: list[str]) -> str:
    return (
        arg.replace("{file}", str(root / "in.jsonl"))
        .replace("{dir}", str(root))
        .replace("{node2}", ids[1])
        .replace("{node}", ids[0])
    )


def _run_cli(case: Case, root: Path, data: Path, ids, monkeypatch, capsys) -> tuple[int, str]:
    monkeypatch.chdir(root)  # .streamlit/secrets.toml is read from the working directory
    for k in (
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "WEAVER_BACKEND",
        "WEAVER_CHROMA_HOST",
        "WEAVER_SPACE",
        "WEAVER_EMBEDDER",
    ):
        monkeypatch.delenv(k, raising=False)
    secrets = root / ".streamlit" / "secrets.toml"
    for k, v in case.env.items():
        if k == "__secrets__":
            secrets.parent.mkdir(exist_ok=True)
            secrets.write_text(v)
        else:
            monkeypatch.setenv(k, _fill(v, root, ids))
    argv = ([] if "WEAVER_DATA_DIR" in case.env else ["--data-dir", str(data)]) + [
        _fill(a, root, ids) for a in case.argv
    ]
    if case.file is not None:
        target = next((Path(a) for a in argv if a.endswith(".jsonl")), root / "in.jsonl")
        target.write_bytes(case.file)
    if case.stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(case.stdin)))
    capsys.readouterr()
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse: a usage error
        code = exc.code
    finally:
        secrets.unlink(missing_ok=True)
    return code, capsys.readouterr().err


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_is_one_clear_line_and_writes_nothing(case, world, monkeypatch, capsys):
    root, data, rt, ids = world
    before = _snapshot(rt.store.client, data)
    if case.call is not None:
        w = rt.open("base", create=False)
        with pytest.raises(WeaverError) as exc:  # any other exception fails the test with its traceback
            case.call(rt, w, ids)
        message = str(exc.value)
        assert "\n" not in message and message
    else:
        code, err = _run_cli(case, root, data, ids, monkeypatch, capsys)
        assert code == 2, (code, err)
        assert "Traceback" not in err
        assert err.startswith("error: ") and err.endswith("\n") and err.count("\n") == 1, err
        assert len(err) <= 1_100, len(err)  # a refused 1 MB argument is not echoed whole
        message = err
        if case.line is not None:
            assert f", line {case.line}: " in err, err
            assert "in.jsonl" in err or "\udcff" in err or ".jsonl" in err, err
    assert _fill(case.expect, root, ids) in message, message
    assert _snapshot(rt.store.client, data) == before, "a refused input changed the store"


# ------------------------------------------------------- accepted oddities
ODD = [
    ("utf-8 BOM (first line)", b'\xef\xbb\xbf{"content": "BOM first line"}'),
    ("lone surrogate in meta", {"content": "hi there", "meta": {"note": "x\ud800y", "k\udfff": 1}}),
    ("CRLF line", b'{"content": "Windows line"}\r'),
    ("RTL override", {"content": "price \u202e0054\u202c yuan"}),
    ("emoji ZWJ sequence", {"content": "family 👨‍👩‍👧 trip to Beijing"}),
    ("combining marks", {"content": "cafe\u0301 near 王府井"}),
    ("full-width digits", {"content": "预算５０００元"}),
    ("integer id", {"content": "numbered", "id": 7}),
    ("raw control chars inside a JSON string", b'{"content": "bell \x07 tab\tend"}'),
    ("zero-width only around text", {"content": "\u200b hello \u200b"}),
]


def test_unicode_oddities_are_accepted_cleanly(world, monkeypatch, capsys):
    """Odd but valid input ingests (cleaned), with no traceback, and reads back intact."""
    root, data, rt, ids = world
    body = b"".join((raw if isinstance(raw, bytes) else json.dumps(raw).encode()) + b"\n" for _, raw in ODD)
    path = root / "odd.jsonl"
    path.write_bytes(body)
    case = Case("odd", "", ["--space", "odd", "ingest", str(path), "--json"])
    code, err = _run_cli(case, root, data, ids, monkeypatch, capsys)
    assert code == 0, err
    w = rt.open("odd", create=False)
    contents = [d.content for d in w.decisions.values()]
    assert len(contents) == len(ODD)
    assert "BOM first line" in contents and "预算5000元" in contents and "bell  tab\tend" in contents
    assert any(d.meta.get("note") == "x\ufffdy" for d in w.decisions.values())
    assert all("\ud800" not in c and "\x07" not in c for c in contents)
