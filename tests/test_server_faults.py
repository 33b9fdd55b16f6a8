"""A Chroma server killed mid-ingest: one clear error line (CLI and library), acknowledged data there after restart."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from chroma_server import free_port, start_chroma

from weaver import Runtime, Settings
from weaver.models import WeaverError

ROOT = Path(__file__).resolve().parents[1]


def _kill(proc: subprocess.Popen) -> None:
    proc.kill()
    proc.wait(timeout=10)


@pytest.mark.slow
def test_server_killed_mid_ingest_is_one_clear_line_and_acknowledged_data_survives(tmp_path, embedder):
    port = free_port()
    server = start_chroma(tmp_path / "server", port)
    env = {"WEAVER_CHROMA_HOST": "127.0.0.1", "WEAVER_CHROMA_PORT": str(port)}
    settings = Settings.from_env(env=env, secrets_path=None, data_dir=tmp_path / "unused", backend="rules")
    try:
        rt = Runtime.from_settings(settings, embedder=embedder)
        w = rt.open("served 服务器")
        acked = [w.ingest(f"My budget for day {i} is {100 * i} yuan.", message_id=f"ack-{i}") for i in range(4)]
        # the CLI: a long ingest, and the server dies while it runs
        src = tmp_path / "long.jsonl"
        src.write_text(
            "\n".join(
                json.dumps(
                    {"kind": "user_input", "content": f"第{i}天的预算是{i * 37}元，酒店要安静。"}, ensure_ascii=False
                )
                for i in range(400)
            ),
            encoding="utf-8",
        )
        cli_env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "WEAVER_"))} | env
        cli = subprocess.Popen(
            [sys.executable, "-m", "weaver", "--space", "served 服务器", "ingest", str(src)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=cli_env,
        )
        deadline = time.time() + 120
        seen = len(w.space.decisions.get()["ids"])
        while time.time() < deadline and len(w.space.decisions.get()["ids"]) == seen and cli.poll() is None:
            time.sleep(0.2)  # until the CLI's first batch has landed: it is mid-ingest
        _kill(server)
        out, err = cli.communicate(timeout=120)
        assert cli.returncode == 2, (out[-500:], err[-2000:])
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err[-2000:]
        assert err.startswith("error: lost the connection to the Chroma server at 127.0.0.1:"), err
        # the library: the same one-line error
        with pytest.raises(WeaverError, match="lost the connection to the Chroma server"):
            w.ingest("One more message while the server is down.", message_id="down")
    finally:
        if server.poll() is None:
            _kill(server)
    server = start_chroma(tmp_path / "server", port)
    try:
        again = Runtime.from_settings(settings, embedder=embedder).open("served 服务器", create=False)
        for res in acked:
            assert again.decisions[res.decision.message_id].node_id == res.decision.node_id
        assert "down" not in again.decisions
        from crash_harness import check_space

        assert (
            check_space(
                again,
                {
                    r.decision.message_id: {
                        "id": r.decision.message_id,
                        "kept": r.kept,
                        "node": r.decision.node_id or "",
                    }
                    for r in acked
                },
            )["problems"]
            == []
        )
    finally:
        _kill(server)
