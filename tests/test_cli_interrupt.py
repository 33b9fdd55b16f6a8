"""Stopping a batch ingest: Ctrl-C (SIGINT) or a reader that leaves the pipe never loses what was acknowledged.

The CLI acknowledges each write section's messages (prints and flushes them) once they are stored, so what a
user saw is exactly what landed; a first Ctrl-C stops between sections, a second at once; the same file again
adds the rest. Before, nothing was printed until the whole file was in, and Ctrl-C left silently.
"""

import json
import os
import signal
import subprocess
import sys

import pytest

from cli_run import run_cli
from conftest import ROOT
from weaver.core import ContextWeaver
from weaver.ingest import WRITE_BATCH


def _write_file(path, n):
    rows = []
    for i in range(n):
        text = (
            f"Message {i}: we need a hotel near station {i} for at most {300 + i} yuan a night."
            if i % 2
            else f"第{i}条：我们想在{i}号地铁站附近找餐厅，人均不超过{50 + i}元。"
        )
        rows.append(json.dumps({"kind": "user_input", "content": text}, ensure_ascii=False))
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


def _stored(tmp_path, space):
    res = run_cli("--data-dir", str(tmp_path / "data"), "--space", space, "decisions", "--json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    return {json.loads(line)["message_id"] for line in res.stdout.splitlines()}


def _process(tmp_path, *args):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "weaver", "--data-dir", str(tmp_path / "data"), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=tmp_path,
        # a background child of a non-interactive shell ignores SIGINT; a user's terminal does not
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def test_ctrl_c_in_a_real_ingest_stops_between_sections_and_keeps_every_acknowledged_message(tmp_path):
    path = tmp_path / "chat.jsonl"
    _write_file(path, 4 * WRITE_BATCH)
    proc = _process(tmp_path, "--space", "s", "ingest", "--json", str(path))
    first = proc.stdout.readline()  # the first section is acknowledged while the rest is still being woven
    assert first.startswith(b"{"), proc.stderr.read().decode()
    proc.send_signal(signal.SIGINT)
    # read through the same buffered pipe as readline (communicate() would skip what readline buffered)
    rest, err = proc.stdout.read(), proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 130, err
    acked = [json.loads(line)["message_id"] for line in (first + rest).decode().splitlines()]
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith(f"interrupted: {len(acked)} of {4 * WRITE_BATCH} messages stored")
    assert 0 < len(acked) < 4 * WRITE_BATCH and len(acked) % WRITE_BATCH == 0  # whole sections only
    assert _stored(tmp_path, "s") == set(acked)  # stopped between sections: exactly what was acknowledged
    again = run_cli("--data-dir", str(tmp_path / "data"), "--space", "s", "ingest", "--json", str(path), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    rows = [json.loads(line) for line in again.stdout.splitlines()]
    assert [r["message_id"] for r in rows if r["duplicate"]] == acked  # the same ids: nothing ingested twice
    assert len(_stored(tmp_path, "s")) == 4 * WRITE_BATCH


@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_during_a_section_first_finishes_it_second_stops_at_once(tmp_path, monkeypatch, presses):
    path = tmp_path / "chat.jsonl"
    _write_file(path, 3 * WRITE_BATCH)
    real = ContextWeaver.ingest_many
    calls = []

    def ingest_many(self, messages):
        out = real(self, messages)
        calls.append(len(out))
        if len(calls) == 1:
            for _ in range(presses):  # Ctrl-C while the first section is being stored
                os.kill(os.getpid(), signal.SIGINT)
        return out

    monkeypatch.setattr(ContextWeaver, "ingest_many", ingest_many)
    # the handler before: Python's default, or SIG_IGN when pytest runs in a background job of a script (as CI may)
    before = signal.getsignal(signal.SIGINT)
    res = run_cli("--data-dir", str(tmp_path / "data"), "--space", "s", "ingest", "--json", str(path), cwd=tmp_path)
    assert res.returncode == 130
    assert "stopping after the batch in progress (Ctrl-C again to stop at once)" in res.stderr
    last = res.stderr.strip().splitlines()[-1]
    acked = [json.loads(line)["message_id"] for line in res.stdout.splitlines()]
    assert calls == [WRITE_BATCH]  # no second section was started either way
    assert len(_stored(tmp_path, "s")) == WRITE_BATCH
    if presses == 1:  # the section finished and was acknowledged
        assert len(acked) == WRITE_BATCH and last.startswith(f"interrupted: {WRITE_BATCH} of {3 * WRITE_BATCH}")
    else:  # stopped before it was printed: stored all the same, and the message says it may be
        assert acked == [] and "the batch in progress may be partly stored too" in last
    assert signal.getsignal(signal.SIGINT) is before  # the handler is put back


@pytest.mark.slow
def test_a_reader_that_leaves_the_pipe_does_not_cut_the_ingest_short(tmp_path):
    path = tmp_path / "chat.jsonl"
    _write_file(path, 3 * WRITE_BATCH)
    proc = _process(tmp_path, "--space", "s", "ingest", str(path))
    assert proc.stdout.readline().startswith(b"kept")
    proc.stdout.close()  # `weaver ingest chat.jsonl | head -1`
    proc.wait(timeout=120)
    err = proc.stderr.read().decode()
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert len(_stored(tmp_path, "s")) == 3 * WRITE_BATCH
