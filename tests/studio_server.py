"""Start the real studio (`streamlit run app.py`) on a free loopback port for browser tests."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


_LAST: list[subprocess.Popen] = []


def last_process() -> subprocess.Popen:
    """The streamlit process of the innermost ``running_studio`` (the crash campaign SIGKILLs it)."""
    return _LAST[-1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_studio(data_dir: Path, log_path: Path, start_timeout: float = 90, extra_env: dict | None = None):
    """Yield the base URL of a studio serving ``data_dir``, offline, with no LLM configured.

    ``extra_env`` adds variables after that (e.g. ``OPENAI_BASE_URL`` of a local stub endpoint).
    """
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "WEAVER_BACKEND", "WEAVER_CHROMA_HOST")
    }
    env.update(WEAVER_DATA_DIR=str(data_dir), HF_HUB_OFFLINE="1", STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    env.update(extra_env or {})
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "streamlit",
                "run",
                str(ROOT / "app.py"),
                "--server.port",
                str(port),
                "--server.address",
                "127.0.0.1",
                "--server.headless",
                "true",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        _LAST.append(proc)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.time() + start_timeout
            while time.time() < deadline:
                try:
                    with urllib.request.urlopen(base + "/_stcore/health", timeout=1) as r:
                        if r.status == 200:
                            break
                except OSError:
                    time.sleep(0.3)
            else:
                pytest.fail("streamlit did not start: " + Path(log_path).read_text()[-2000:])
            yield base
        finally:
            _LAST.remove(proc)
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
