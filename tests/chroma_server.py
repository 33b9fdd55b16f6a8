"""Start a real `chroma run` on a free loopback port (the Chroma-server tests and their fault test)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_chroma(path: Path, port: int) -> subprocess.Popen:
    """A Chroma server on 127.0.0.1:port serving ``path``, up and accepting connections (skips if not installed)."""
    exe = shutil.which("chroma") or str(Path(sys.executable).with_name("chroma"))
    if not Path(exe).exists():
        pytest.skip("the chroma server binary is not installed")
    proc = subprocess.Popen(
        [exe, "run", "--host", "127.0.0.1", "--port", str(port), "--path", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    pytest.fail("chroma server did not start")
