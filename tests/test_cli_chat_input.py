"""``weaver chat`` refuses a line of bytes that are not UTF-8 in one line and goes on; nothing is stored for it
(it used to be stored, and answered, as "\ufffd\ufffd"). ``weaver ingest`` refuses such a file the same way."""

from __future__ import annotations

import pytest

from cli_run import run_cli
from weaver.transcript import load_transcript

LINES = {
    "en": ("I'm allergic to seafood, please avoid it.", "Find restaurants near Wangfujing."),
    "zh": ("我对海鲜过敏，请避开。", "帮我找王府井附近的餐厅。"),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_chat_refuses_an_undecodable_line_and_goes_on(runtime, tmp_path, lang):
    first, second = LINES[lang]
    bad = "不".encode()[:2] + b" \xff\xfe ok"  # a cut multi-byte character and two stray bytes
    stdin = first.encode() + b"\n" + bad + b"\n" + second.encode() + b"\n"
    out = run_cli("--data-dir", str(tmp_path / "data"), "--space", "c", "chat", "--offline", stdin=stdin, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    errors = out.stderr.strip().splitlines()
    assert errors == ["error: line 2: not valid UTF-8 (byte 0); nothing stored for it"]
    said = [line.removeprefix("you> ") for line in out.stdout.splitlines() if line.startswith("you> ")]
    assert said == [first, second]
    assert sum(line.startswith("agent> ") for line in out.stdout.splitlines()) == 2
    w = runtime.open("c")
    users = [e.text for e in load_transcript(w) if e.type == "user"]
    assert users == [first, second]
    stored = [n.content for n in w.nodes.values()] + [d.content for d in w.decisions.values()]
    assert stored and not any("\ufffd" in t or any(0xD800 <= ord(c) <= 0xDFFF for c in t) for t in stored)


def test_ingest_names_the_line_and_byte_of_undecodable_input(tmp_path):
    stdin = b'{"kind": "user_input", "content": "ok"}\n{"kind": "user_input", "content": "x\xff"}\n'
    out = run_cli("--data-dir", str(tmp_path / "data"), "--space", "c", "ingest", "-", stdin=stdin, cwd=tmp_path)
    assert out.returncode == 2 and out.stderr == "error: stdin, line 2: not valid UTF-8 (byte 36)\n"
