"""Run the CLI in this process: ``main(argv)`` with stdin, stdout and stderr captured.

A child process per command reloads the embedder (seconds each); in-process the loaded
model is shared, so a test can run a dozen commands in the time one process takes to
start. Tests that must see a real process (``python -m weaver``, exit codes, signals)
still spawn one.
"""

from __future__ import annotations

import contextlib
import io
import sys
from dataclasses import dataclass
from pathlib import Path

from weaver.cli import main

__all__ = ["CliResult", "run_cli"]


@dataclass
class CliResult:
    returncode: int
    stdout: str
    stderr: str


def run_cli(*argv: str, stdin: str | bytes = "", cwd: Path) -> CliResult:
    """``python -m weaver *argv`` in-process, run from ``cwd`` (so no ``.streamlit/secrets.toml`` of the
    checkout is read); an argparse usage error's SystemExit becomes its exit code. ``stdin`` bytes are given as
    they are (what a pipe of bytes that are not UTF-8 gives); text is encoded as UTF-8."""
    out, err = io.StringIO(), io.StringIO()
    old_in = sys.stdin
    raw = stdin if isinstance(stdin, bytes) else stdin.encode("utf-8")
    sys.stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", errors="surrogateescape")
    try:
        with contextlib.chdir(cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(argv))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    finally:
        sys.stdin = old_in
    return CliResult(code, out.getvalue(), err.getvalue())
