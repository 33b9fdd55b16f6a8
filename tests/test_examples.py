"""The examples run as shipped: the LangGraph one in-process (the loaded embedder is shared), the MCP client as a
user runs it (a fresh process that starts the server)."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys

import pytest

from conftest import ROOT


def test_langgraph_example_recalls_across_threads(tmp_path, monkeypatch, capsys):
    pytest.importorskip("langgraph")
    monkeypatch.chdir(tmp_path)  # Settings.from_env reads ./.streamlit/secrets.toml: none here
    monkeypatch.setenv("WEAVER_DATA_DIR", str(tmp_path / "data"))
    runpy.run_path(str(ROOT / "examples" / "langgraph_memory.py"), run_name="__main__")
    out = capsys.readouterr().out.strip().splitlines()[-1]
    memories, answer = out.split(" -> ")
    # the second turn recalls what the first said; it recalled its own message first (remember ran before recall)
    assert memories == "I'm allergic to peanuts / 我对花生过敏" and answer == "No peanuts, noted."


@pytest.mark.slow
def test_the_mcp_client_example_honours_the_user_s_settings(tmp_path):
    pytest.importorskip("mcp")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "WEAVER_"))} | {
        "PYTHONPATH": str(ROOT),
        "HF_HUB_OFFLINE": "1",
        "WEAVER_DATA_DIR": str(tmp_path / "mine"),
        "WEAVER_BACKEND": "rules",
    }
    work = tmp_path / "cwd"
    work.mkdir()
    run = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "mcp_client.py")],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "tools: remember, recall, why, graph" in run.stdout
    assert "我的预算总共是5000元" in run.stdout and "allergic to peanuts" in run.stdout.split("remember:")[-1]
    # the server it starts got WEAVER_DATA_DIR (the SDK passes a stdio server only HOME, PATH and a few more):
    # the memory is where the user said, not in ./data of wherever the example ran
    assert (tmp_path / "mine" / "chroma").is_dir() and not (work / "data").exists()
