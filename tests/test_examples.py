"""The README's LangGraph example runs as shipped (in-process: the loaded embedder is shared)."""

from __future__ import annotations

import runpy

import pytest

from conftest import ROOT

pytest.importorskip("langgraph")


def test_langgraph_example_recalls_across_threads(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # Settings.from_env reads ./.streamlit/secrets.toml: none here
    monkeypatch.setenv("WEAVER_DATA_DIR", str(tmp_path / "data"))
    runpy.run_path(str(ROOT / "examples" / "langgraph_memory.py"), run_name="__main__")
    out = capsys.readouterr().out.strip().splitlines()[-1]
    assert "allergic to peanuts" in out and out.endswith("-> No peanuts, noted.")
