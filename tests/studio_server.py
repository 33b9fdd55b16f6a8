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

# the page has drawn the last run: Streamlit's own run state, no running badge, no spinner
_SETTLED = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return !!app && app.getAttribute('data-test-script-state') === 'notRunning'
    && !document.querySelector('[data-testid="stStatusWidget"]')
    && !document.querySelector('[data-testid="stSpinner"]');
}"""


class ScriptRuns:
    """The studio's script runs, read from the Streamlit messages the page receives, so that a browser test
    waits for the run its click started instead of sleeping a fixed time.

    Every run opens with a ``new_session`` message and ends with ``script_finished``, both tagged with the
    run's id and the fragments it reruns; a run cut short by ``st.rerun()`` ends "early for rerun" and the next
    one follows. Fragments that rerun on a timer (``auto_rerun`` messages, e.g. the chat page's 3 s follower)
    are no user action's run and are left out.

        runs = ScriptRuns(page)
        with runs.rerun():  # returns once the run the Enter started (and any rerun it chained) is drawn
            box.press("Enter")
    """

    def __init__(self, page):
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        self._msg = ForwardMsg
        self.page = page
        self.finished = 0  # runs (user-caused) that ended, not counting one cut short for a rerun
        self.open: set[tuple[int, str]] = set()  # (websocket, run id) of the runs started and not finished
        self.ticks: set[str] = set()  # fragments on a timer
        page.on("websocket", self._watch)

    def _watch(self, ws) -> None:
        if ws.url.endswith("/_stcore/stream"):
            ws.on("framereceived", lambda payload: self._frame(payload, ws))
            # a page left mid-run (goto, reload) never hears that run end
            ws.on("close", lambda _: self.open.difference_update({r for r in self.open if r[0] == id(ws)}))

    def _frame(self, payload, ws) -> None:
        if isinstance(payload, str):
            return
        try:
            msg = self._msg.FromString(payload)
        except Exception:  # noqa: BLE001 - not a ForwardMsg: nothing to count
            return
        kind = msg.WhichOneof("type")
        if kind == "auto_rerun":
            self.ticks.add(msg.auto_rerun.fragment_id)
            return
        if kind not in ("new_session", "script_finished"):
            return
        run = msg.metadata.run
        if run.fragment_ids and set(run.fragment_ids) <= self.ticks:
            return
        if kind == "new_session":
            self.open.add((id(ws), run.script_run_id))
            return
        self.open.discard((id(ws), run.script_run_id))
        if msg.script_finished != self._msg.FINISHED_EARLY_FOR_RERUN:
            self.finished += 1

    def wait(self, since: int, timeout: float = 120) -> None:
        """Until a run has ended after ``since`` (a value of ``finished``), none is going, and the page shows it."""
        deadline = time.monotonic() + timeout
        while self.finished <= since or self.open:
            if time.monotonic() > deadline:
                raise AssertionError(f"no script run ended within {timeout:.0f} s ({len(self.open)} still going)")
            self.page.wait_for_timeout(30)  # lets Playwright deliver the frames
        self.page.wait_for_function(_SETTLED, timeout=max(1, deadline - time.monotonic()) * 1000)

    def settled(self, timeout: float = 120) -> None:
        """Until no run is going and the page shows the last one (nothing need have run since)."""
        deadline = time.monotonic() + timeout
        while self.open:
            if time.monotonic() > deadline:
                raise AssertionError(f"a script run still going after {timeout:.0f} s")
            self.page.wait_for_timeout(30)
        self.page.wait_for_function(_SETTLED, timeout=max(1, deadline - time.monotonic()) * 1000)

    @contextlib.contextmanager
    def rerun(self, timeout: float = 120):
        """Around an action that makes the studio run: returns when that run has ended and been drawn."""
        since = self.finished
        yield
        self.wait(since, timeout)


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


def open_page(chromium, url: str, width: int, height: int):
    """A fresh browser context at this window size, on ``url`` once the studio has drawn it: (context, page, runs)."""
    ctx = chromium.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    runs = ScriptRuns(page)
    with runs.rerun():
        page.goto(url)
    runs.settled()
    return ctx, page, runs


def steady_boxes(page, *locators, timeout: float = 10.0, still: float = 0.3) -> list:
    """The bounding boxes of ``locators`` once they have stopped moving: the same twice, ``still`` seconds apart
    (or the last read after ``timeout``). A box read the moment a script run ends can be mid-layout: CI's
    Chromium 156 once read a hint at a third of its width, below the element that follows it."""
    import time

    deadline = time.monotonic() + timeout
    last = [loc.bounding_box() for loc in locators]
    while time.monotonic() < deadline:
        page.wait_for_timeout(still * 1000)
        now = [loc.bounding_box() for loc in locators]
        if now == last and all(b is not None for b in now):
            return now
        last = now
    return last


def woven_data(tmp_path_factory, name: str, messages: list[str]):
    """A data folder whose "demo" space holds ``messages`` chatted with the agent in this process, and the space."""
    from weaver import Runtime, Settings
    from weaver.agent import TravelAgent

    data_dir = tmp_path_factory.mktemp(name) / "data"
    rt = Runtime.from_settings(Settings.from_env(env={}, secrets_path=None, data_dir=data_dir))
    w = rt.open("demo")
    agent = TravelAgent(w)
    for msg in messages:
        list(agent.run(msg))
    w.flush()
    return data_dir, w
