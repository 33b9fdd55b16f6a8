"""Shared fixtures: offline guard, the real embedder, fresh spaces, local servers.

Every test runs offline by construction: a socket-level guard refuses any
connection that is not to a loopback address.
"""

from __future__ import annotations

import gc
import ipaddress
import os
import socket
from pathlib import Path

import pytest
from chroma_server import free_port, start_chroma

from weaver import Runtime, Settings, WeaverConfig
from weaver.embedding import CachedEmbedder, USEEmbedder

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"
# Child processes (`python -m weaver`, the crash harness, the studio server) import the same checkout and the same
# test helpers as this run, whether or not the package is installed (pytest.ini's `pythonpath` covers this process).
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (str(ROOT), str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")) if p
)

_real_connect = socket.socket.connect


class NetworkRefused(RuntimeError):
    pass


def _is_loopback(address) -> bool:
    if isinstance(address, (str, bytes)):  # unix socket
        return True
    host = address[0]
    if host in ("localhost", "::1"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _guarded_connect(self, address):
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address):
        raise NetworkRefused(f"test tried to reach {address!r}: only loopback is allowed")
    return _real_connect(self, address)


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    """Refuse every non-loopback connection (the default path must work without a network)."""
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "WEAVER_CHROMA_HOST", "WEAVER_BACKEND", "WEAVER_EMBEDDER"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    yield


@pytest.fixture(autouse=True)
def release_runtimes(monkeypatch):
    """Close every runtime a test made (its weavers' write-behind logs applied, their mirrors and Chroma's
    system for the data folder released), and let the collector reach what the test dropped.

    Without it a full quick tier grew to several GB: each data folder's Chroma client (~7 threads, 8-12 MB)
    lived until the process ended, and every dropped weaver stayed frozen (an open freezes the process's
    objects, see weaver.mirror.paused_gc). Runtimes a wider-scoped fixture made are not this test's to close."""
    made: list[Runtime] = []
    build = Runtime.from_settings.__func__  # type: ignore[attr-defined]

    def tracked(cls, *args, **kwargs):
        rt = build(cls, *args, **kwargs)
        made.append(rt)
        return rt

    monkeypatch.setattr(Runtime, "from_settings", classmethod(tracked))
    yield
    for rt in made:
        try:
            rt.close()  # closes the store even when a weaver's flush fails
        except Exception:  # noqa: BLE001 - a test that broke its store on purpose (a crash point, a dead server)
            pass
    gc.unfreeze()  # what the test dropped is the collector's again (nothing else unfreezes it before the next open)


@pytest.fixture(scope="session")
def embedder() -> CachedEmbedder:
    return CachedEmbedder(USEEmbedder())


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings.from_env(env={}, secrets_path=None, data_dir=tmp_path / "data")


@pytest.fixture
def runtime(settings, embedder) -> Runtime:
    return Runtime.from_settings(settings, embedder=embedder)


@pytest.fixture
def weaver(runtime):
    return runtime.open("test")


@pytest.fixture
def openai_stub():
    from openai_server import OpenAIStub

    stub = OpenAIStub().start()
    yield stub
    stub.stop()


@pytest.fixture
def llm_settings(tmp_path, openai_stub) -> Settings:
    return Settings.from_env(
        env={
            "OPENAI_BASE_URL": openai_stub.base_url,
            "OPENAI_API_KEY": "sk-test-secret-123",
            "WEAVER_LLM_TIMEOUT": "2",
            "WEAVER_LLM_RETRIES": "2",
        },
        secrets_path=None,
        data_dir=tmp_path / "data",
    )


@pytest.fixture(scope="session")
def chroma_server(tmp_path_factory):
    """(host, port) of a Chroma server: the one .ci/run started, or one started here."""
    url = os.environ.get("WEAVER_TEST_CHROMA")
    if url:
        host, port = url.rsplit(":", 1)
        yield host, int(port)
        return
    port = free_port()
    proc = start_chroma(tmp_path_factory.mktemp("chroma-server"), port)
    yield "127.0.0.1", port
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def chromium():
    """One headless Chromium for a browser-test module; each test opens its own context (own cookies, storage,
    pages), so nothing but the browser process is shared. Module scope, not session: Playwright's sync API keeps
    an event loop current in this thread while it runs, which other modules' asyncio code must not meet."""
    from studio_server import CHROMIUM, CHROMIUM_ARGS

    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed at /usr/bin/chromium")
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
    finally:
        pw.stop()


RAM_DISK = Path("/dev/shm")
RAM_DISK_MIN_FREE = 2 << 30


def ram_temp_root(config, ram_disk: Path = RAM_DISK, min_free: int = RAM_DISK_MIN_FREE) -> Path | None:
    """Where the run's temporary directories go when a RAM disk can hold them, else None (pytest's default).

    Every test writes real Chroma spaces; on a disk shared with benchmarks their fsyncs were ~40% of a test's
    time (tests/test_agent_long_memory.py + test_scenario.py: 25-28 s in /tmp, 15-17 s in /dev/shm). A SIGKILL
    (the crash tests) loses nothing a RAM disk would keep: killed processes leave the page cache alone. An
    explicit ``--basetemp`` or ``PYTEST_DEBUG_TEMPROOT`` (e.g. ``=/tmp`` to stay on disk) is left alone.
    """
    if config.option.basetemp or os.environ.get("PYTEST_DEBUG_TEMPROOT"):
        return None
    try:
        st = os.statvfs(ram_disk)
    except OSError:
        return None
    if not os.access(ram_disk, os.W_OK) or st.f_bavail * st.f_frsize < min_free:
        return None
    return ram_disk


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    config.addinivalue_line("markers", "slow: slower integration tests (servers, browsers)")
    config.addinivalue_line("markers", "browser: needs Chromium")
    root = ram_temp_root(config)
    if root is not None:  # read when the first tmp_path is made: pytest's numbered dirs, kept 3 runs, locked
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(root)


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not present")
    return SHARED_DATA


__all__ = ["WeaverConfig"]
