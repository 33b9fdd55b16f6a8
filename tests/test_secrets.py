"""The API key comes from the environment or .streamlit/secrets.toml and never lands anywhere else.

Not in the Chroma files (decisions, fallback notes, audit log, chat events),
exports (JSON, GraphML, CLI output), logs (every logger at DEBUG, incl. the
openai SDK and httpx), the settings' repr or public view, or the studio page —
even when the endpoint echoes the key back in an error message.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from weaver import Runtime, Settings
from weaver.cli import main

KEY = "sk-test-secret-123"  # the key in the llm_settings fixture
GOOD = '{"relevance": 5, "novelty": 4, "importance": 5, "reason": "constraint"}'
ECHO_401 = {"status": 401, "message": f"Incorrect API key provided: {KEY}. You can find your API key at ..."}


def _files_containing(root: Path, needle: str) -> list[str]:
    """Every file under root whose bytes hold the needle (raw, UTF-8 and UTF-16 as sqlite may store it)."""
    forms = [needle.encode(), needle.encode("utf-16-le"), needle.encode("utf-16-be")]
    return [str(p) for p in root.rglob("*") if p.is_file() and any(f in p.read_bytes() for f in forms)]


def test_settings_read_the_key_from_env_or_secrets_toml_and_never_show_it(tmp_path):
    secrets = tmp_path / "secrets.toml"
    secrets.write_text(f'OPENAI_API_KEY = "{KEY}"\nOPENAI_BASE_URL = "http://127.0.0.1:9/v1"\n')
    from_file = Settings.from_env(env={}, secrets_path=secrets)
    from_env = Settings.from_env(env={"OPENAI_API_KEY": KEY}, secrets_path=None)
    for s in (from_file, from_env):
        assert s.openai_api_key == KEY and s.resolved_backend == "openai"
        assert KEY not in repr(s) and KEY not in str(s)
        assert KEY not in json.dumps(s.public_view())
    # the environment wins over the file
    assert (
        Settings.from_env(env={"OPENAI_API_KEY": "sk-other-999999"}, secrets_path=secrets).openai_api_key
        == "sk-other-999999"
    )


def test_the_key_never_reaches_chroma_exports_logs_or_the_audit_log(
    llm_settings, openai_stub, embedder, caplog, capsys, tmp_path
):
    caplog.set_level(logging.DEBUG)  # everything, incl. the openai SDK's and httpx's debug logs
    rt = Runtime.from_settings(llm_settings, embedder=embedder)
    assert KEY not in repr(rt)
    w = rt.open("secret-space")
    w.set_task("Plan a Beijing trip / 规划北京旅行")
    openai_stub.default = GOOD
    w.ingest("My budget is 5000 yuan. 我的预算是5000元。", message_id="a")
    openai_stub.push(ECHO_401)  # a proxy that echoes the key in its error
    d = w.ingest("I'm allergic to seafood, please avoid it. 我对海鲜过敏。", message_id="b").decision
    assert d.backend == "rules (fallback)" and d.fallback.startswith("AuthenticationError")
    assert "***" in d.fallback and KEY not in d.fallback
    for i in range(3):
        w.ingest(f"I need a hotel near Wangfujing within budget, option {i}.", "agent_thought", message_id=f"t{i}")
    w.curation.review()  # the review pass and its audit entries
    # the agent's chat, with a key-echoing failure
    from weaver.agent import TravelAgent

    openai_stub.script.clear()
    openai_stub.default = ECHO_401
    events = list(TravelAgent(w, llm_client=rt.llm_client, model="stub-model").run("帮我找王府井附近的酒店"))
    errors = [e for e in events if e.type == "error"]
    assert errors and all(KEY not in e.text and KEY not in json.dumps(e.data, ensure_ascii=False) for e in errors)
    assert events[-1].type == "reply"

    # exports
    assert KEY not in json.dumps(w.export_node_link(), ensure_ascii=False)
    assert KEY not in w.export_graphml()
    assert KEY not in json.dumps(w.space.get_records("audit"), ensure_ascii=False)
    data = str(llm_settings.data_dir)
    for argv in (["export"], ["export", "--format", "graphml"], ["decisions", "--json"], ["log", "--all"]):
        assert main(["--data-dir", data, "--space", "secret-space", *argv]) == 0, argv
    out = capsys.readouterr()
    assert KEY not in out.out and KEY not in out.err
    # logs
    logged = "\n".join(f"{r.name} {r.getMessage()} {r.args!r}" for r in caplog.records)
    assert logged and KEY not in logged
    # every byte Chroma wrote
    assert _files_containing(Path(data), KEY) == []
    assert any(Path(data).rglob("*.sqlite3"))  # and there were files to look at


def test_the_studio_never_shows_the_key(tmp_path, monkeypatch, openai_stub):
    from streamlit.testing.v1 import AppTest

    import streamlit as st

    root = Path(__file__).resolve().parents[1]
    if not (root / "app.py").exists():
        pytest.skip("the studio is not built yet")
    monkeypatch.setenv("WEAVER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", openai_stub.base_url)
    monkeypatch.setenv("WEAVER_LLM_RETRIES", "0")
    monkeypatch.chdir(root)
    openai_stub.default = ECHO_401
    st.cache_resource.clear()
    try:
        at = AppTest.from_file(str(root / "app.py"), default_timeout=120)
        at.run()
        at.chat_input[0].set_value("帮我找王府井附近的酒店，预算500元。")
        at._finished_page_script_hash = ""
        at.run()
        assert not at.exception, [e.value for e in at.exception]

        def walk(node):
            yield node
            for child in (
                getattr(node, "children", {}).values() if isinstance(getattr(node, "children", None), dict) else []
            ):
                yield from walk(child)

        rendered = "\n".join(str(getattr(n, "proto", "")) for n in walk(at._tree))
        assert "AuthenticationError" in rendered or "error" in rendered.lower()  # the fault is shown...
        assert KEY not in rendered  # ...without the key
    finally:
        st.cache_resource.clear()
    assert _files_containing(tmp_path / "data", KEY) == []
