"""Crash campaign for the studio: SIGKILL the streamlit process while a chat turn runs.

Each round starts the real studio on the data directory, checks in real Chromium
that every turn acknowledged so far is shown again (the reply was on screen, so
the user saw it saved), runs one full chat turn (a new acknowledgement), sends one
more message and SIGKILLs the server after a random delay, mid-turn. A fresh
checker process then opens the space (the repair on open runs) and requires the
crash invariants of :func:`crash_harness.check_space`, no reference to a missing
node, no stray collection, and every acknowledged turn stored whole: its user
message woven or rejected with its decision, and its reply event saved.

Run: ``python tests/crash_studio.py --rounds 10`` (the long campaign, its result in
docs/reliability.md) or see ``tests/test_crash.py`` for the short one CI runs.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SPACE = "demo"  # the studio's default space (ui/state.py DEFAULT_SPACE)
LINES = [
    "我下个月想去北京玩三天，预算五千元。",
    "Find me a quiet hotel near a metro station, under 600 yuan a night.",
    "我对海鲜过敏，推荐一家吃晚饭的餐厅。",
    "Any museum you'd suggest for tomorrow morning?",
    "预算改成八千吧。",
    "颐和园门票多少钱？",
    "I'm vegetarian, where can we have lunch?",
    "帮我找一家故宫附近的酒店。",
]


# ----------------------------------------------------------------- checker
def check(data: Path, acked: list[str]) -> dict:
    """The invariants after a kill, from a process that opened the store after the studio died."""
    from crash_commands import references, stray_collections
    from crash_harness import check_space
    from weaver import Runtime, Settings
    from weaver.agent import load_transcript
    from weaver.embedding import CachedEmbedder, USEEmbedder
    from weaver.text import clean_text

    settings = Settings.from_env(env={}, secrets_path=None, data_dir=data, backend="rules")
    rt = Runtime.from_settings(settings, embedder=CachedEmbedder(USEEmbedder()))
    report: dict = {"problems": [], "acked": len(acked)}
    if SPACE not in rt.store.list_spaces():
        report["problems"].append(f"space {SPACE!r} is gone")
        return report
    w = rt.open(SPACE, create=False)
    rep = check_space(w, {}, chroma_vectors=True)
    report["problems"] += rep["problems"] + references(w)
    report["problems"] += [f"stray collection {c}" for c in stray_collections(rt)]
    events = load_transcript(w)
    by_text = {clean_text(d.content): d for d in w.decisions.values() if d.kind == "user_input"}
    for text in acked:
        d = by_text.get(clean_text(text))
        if d is None:
            report["problems"].append(f"acknowledged message lost: {text}")
            continue
        if d.kept and d.node_id not in w.nodes:
            report["problems"].append(f"acknowledged message {text}: its node is missing")
        if not any(e.type == "reply" and e.message_id == d.message_id for e in events):
            report["problems"].append(f"acknowledged turn {text}: its reply is missing")
    report.update(
        nodes=len(w.nodes),
        edges=w.graph.number_of_edges(),
        decisions=len(w.decisions),
        repaired=list(w.repaired),
        events=len(events),
    )
    return report


# ------------------------------------------------------------------ parent
@contextlib.contextmanager
def _studio(data: Path, log: Path):
    """The studio as a process the campaign can SIGKILL (``studio_server.running_studio`` only terminates)."""
    import studio_server

    with studio_server.running_studio(data, log) as base:
        yield base, studio_server.last_process()


_COUNTS = """() => { const t = document.body.innerText; const c = s => t.split(s).length - 1;
                       return [c('Agent steps'), c('Full filter decision')]; }"""


def _wait_turn_shown(page, before: list[int], timeout_ms: int = 240_000) -> None:
    """Until one more finished turn is on the page than ``before``: its agent steps and the reply's filter badge."""
    page.wait_for_function(
        f"b => {{ const n = ({_COUNTS})(); return n[0] > b[0] && n[1] >= b[1] + 2; }}", arg=before, timeout=timeout_ms
    )


def run_studio_campaign(rounds: int, work: Path, seed: int = 3, max_delay: float = 4.0, log=print) -> dict:
    from playwright.sync_api import sync_playwright
    from studio_server import CHROMIUM, CHROMIUM_ARGS, ScriptRuns

    rng = random.Random(seed)
    data = work / "data"
    acked: list[str] = []
    summary = {"rounds": 0, "kills": 0, "checks": 0, "problems": [], "shown_again": 0}
    lines = iter(LINES * (rounds + 1))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for r in range(rounds):
            with _studio(data, work / f"studio-{r}.log") as (base, proc):
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                runs = ScriptRuns(page)
                with runs.rerun(timeout=120):
                    page.goto(base)
                box = page.locator('[data-testid="stChatInputTextArea"]')
                box.wait_for(timeout=120_000)
                for text in acked:  # what the user saw saved is shown again after the crash
                    try:
                        page.get_by_text(text[:12]).first.wait_for(timeout=60_000)
                    except Exception:  # noqa: BLE001 - a finding, not a harness failure
                        page.screenshot(path=str(work / f"round-{r}-missing.png"))
                        summary["problems"].append(f"round {r}: acknowledged turn not shown after restart: {text}")
                        continue
                    summary["shown_again"] += 1
                done = next(lines)
                before = page.evaluate(_COUNTS)
                box.fill(done)
                with runs.rerun(timeout=240):  # the turn and the rerun that shows it: then it is acknowledged
                    box.press("Enter")
                _wait_turn_shown(page, before)
                acked.append(done)
                victim = next(lines)
                box.fill(victim)
                box.press("Enter")
                delay = rng.uniform(0.05, max_delay)
                time.sleep(delay)
                killed = proc.poll() is None
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait()
                summary["kills"] += killed
                page.close()
            summary["rounds"] += 1
            rep = _check_in_child(data, acked)
            summary["checks"] += 1
            summary["problems"] += [f"round {r} (kill after {delay:.2f}s): {x}" for x in rep["problems"]]
            log(
                f"round {r}: killed after {delay:.2f}s; {rep.get('nodes')} nodes, {rep.get('edges')} edges, "
                f"repaired {rep.get('repaired')}, problems {len(rep['problems'])}"
            )
        browser.close()
    summary["acked"] = len(acked)
    return summary


def _check_in_child(data: Path, acked: list[str]) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "WEAVER_"))}
    out = subprocess.run(
        [sys.executable, str(Path(__file__)), "--check", str(data), json.dumps(acked)],
        cwd=ROOT,
        env=env | {"HF_HUB_OFFLINE": "1"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    for line in out.stdout.splitlines():
        if line.startswith("CHECK "):
            return json.loads(line[6:])
    return {"problems": [f"checker failed: {out.stderr[-1500:]}"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--check", nargs=2, metavar=("DATA", "ACKED_JSON"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.check:
        print("CHECK " + json.dumps(check(Path(args.check[0]), json.loads(args.check[1])), ensure_ascii=False))
        return 0
    work = Path(tempfile.mkdtemp(prefix="cw-studio-crash-"))
    summary = run_studio_campaign(args.rounds, work, seed=args.seed)
    print(json.dumps({k: v for k, v in summary.items() if k != "problems"}, ensure_ascii=False))
    for p in summary["problems"]:
        print("PROBLEM", p)
    return 1 if summary["problems"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
