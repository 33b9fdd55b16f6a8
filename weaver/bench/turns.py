"""``bench turns``: how long the studio's travel agent takes per chat turn, offline, once the embedder is loaded.

The studio's chat page calls ``TravelAgent.run`` for each message on a weaver of a ``PersistentClient``
space (the default settings, write-behind included). This bench does the same, outside Streamlit, for every
scripted Beijing demo (``assets/demo/*.jsonl``, zh and en), each into a fresh space of one throw-away data
folder: the embedder is loaded first (``Runtime.warm``, as the studio does under its spinner), so every
turn measured is a *warm* turn. A turn is timed from the call to its last event (the reply), as the user
waits for it; where that time goes is split into the weaver's ingest, its retrieval and the rest (the
agent's understanding, the database tools, the reply), by timing the weaver's public calls.

What it does not time: the page's own rerun and the graph's drawing in the browser (the browser test
``tests/test_browser.py`` drives that path; its waits are not a benchmark).
"""

from __future__ import annotations

import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from .common import percentiles
from ..models import WeaverError

__all__ = ["run_turns", "turns_markdown"]

_TIMED = ("ingest", "ingest_many", "query", "retrieve")  # the weaver's calls an agent turn makes


@contextmanager
def _timing(weaver, spent: dict[str, float]):
    """Time the weaver's public calls on this instance (the class is untouched) while the block runs."""
    originals = {}
    depth = [0]  # ingest calls ingest_many: time the outermost call only
    for name in _TIMED:
        fn = getattr(weaver, name, None)
        if fn is None:
            continue
        originals[name] = fn
        part = "retrieval" if name in ("query", "retrieve") else "ingest"

        def timed(*a, _fn=fn, _part=part, **kw):
            t0 = time.perf_counter()
            depth[0] += 1
            try:
                return _fn(*a, **kw)
            finally:
                depth[0] -= 1
                if not depth[0]:
                    spent[_part] += time.perf_counter() - t0

        setattr(weaver, name, timed)
    try:
        yield
    finally:
        for name in originals:
            delattr(weaver, name)  # back to the class's method


def run_turns(
    scripts: list[str] | None = None, rounds: int = 1, progress: bool = True, embedder=None, pause: float = 0.0
) -> dict:
    """Every demo script's turns through the offline agent, each turn timed (``rounds`` replays, fresh spaces).

    ``embedder``: one already loaded (the tests'); by default the runtime loads its own, untimed. ``pause``:
    seconds between turns, untimed, as a user reads a reply: a pause longer than the write-behind log's age
    bound (5 s) would make each turn's first write apply the previous turn's writes to Chroma, but the chat
    page applies them once a turn is drawn, and so does this bench after each turn (untimed).
    """
    import tempfile
    from dataclasses import replace

    from ..agent import TravelAgent
    from ..agent import warm as warm_agent
    from ..agent.demo import DEMO_DIR, load_script
    from ..runtime import Runtime
    from ..settings import Settings

    names = scripts or sorted(p.stem for p in DEMO_DIR.glob("*.jsonl"))
    if not names:
        raise WeaverError(f"no demo scripts under {DEMO_DIR}")
    if rounds < 1:
        raise WeaverError(f"rounds must be at least 1, not {rounds}")
    loaded = [load_script(n) for n in names]
    t_start = time.perf_counter()
    per_script: dict[str, list[dict]] = defaultdict(list)
    with tempfile.TemporaryDirectory(prefix="weaver-bench-turns-") as tmp:
        base = Settings.from_env(env={}, secrets_path=None)  # offline defaults, whatever this shell has set
        rt = Runtime.from_settings(replace(base, data_dir=Path(tmp)), embedder=embedder)
        t0 = time.perf_counter()
        rt.warm()
        warm_agent()  # as the studio does under its spinner
        warm_s = time.perf_counter() - t0
        for r in range(rounds):
            for script in loaded:
                weaver = rt.open(f"turns-{script.name}-{r}")
                agent = TravelAgent(weaver)
                for i, turn in enumerate(script.turns, 1):
                    if pause and i > 1:
                        time.sleep(pause)
                    spent: dict[str, float] = defaultdict(float)
                    c0, t0 = time.process_time(), time.perf_counter()
                    with _timing(weaver, spent):
                        events = list(agent.run(turn["user"], message_id=f"turns-{r}-{script.name}-{i:03d}"))
                    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
                    if not any(ev.type == "reply" for ev in events):
                        raise WeaverError(f"{script.name} turn {i}: the agent gave no reply")
                    weaver.flush()  # untimed: the chat page applies the write-behind log once the turn is drawn
                    per_script[script.name].append(
                        {
                            "turn": i,
                            "wall_ms": 1000 * wall,
                            "cpu_ms": 1000 * cpu,
                            "ingest_ms": 1000 * spent["ingest"],
                            "retrieval_ms": 1000 * spent["retrieval"],
                        }
                    )
                if progress:
                    walls = [t["wall_ms"] for t in per_script[script.name]]
                    print(f"{script.name}: {len(walls)} turns, p50 {np.median(walls):.0f} ms", flush=True)

    def summary(rows: list[dict]) -> dict:
        wall = [t["wall_ms"] for t in rows]
        wall_ms = dict(percentiles(wall), max=round(max(wall), 2))
        out: dict = {"turns": len(rows), "wall_ms": wall_ms, "cpu_ms": percentiles([t["cpu_ms"] for t in rows])}
        total = sum(wall) or 1.0
        for part in ("ingest", "retrieval"):
            out[f"{part}_share"] = round(100 * sum(t[f"{part}_ms"] for t in rows) / total, 1)
        out["under_1s"] = round(100 * sum(w < 1000 for w in wall) / len(wall), 1)
        return out

    every = [t for rows in per_script.values() for t in rows]
    return {
        "benchmark": "turns",
        "scripts": {name: summary(rows) for name, rows in per_script.items()},
        "all": summary(every),
        "rounds": rounds,
        "pause_s": pause,
        "warm_s": round(warm_s, 2),
        "wall_s": round(time.perf_counter() - t_start, 1),
        "raw": dict(per_script),
    }


def turns_markdown(res: dict) -> str:
    from .report import markdown_table

    def row(name: str, s: dict) -> list:
        w, c = s["wall_ms"], s["cpu_ms"]
        return [name, s["turns"], w["p50"], w["p95"], w["max"], c["p50"], s["ingest_share"], s["retrieval_share"],
                s["under_1s"]]  # fmt: skip

    rows = [row(n, s) for n, s in res["scripts"].items()] + [row("**all**", res["all"])]
    head = ["demo", "turns", "wall p50 ms", "wall p95 ms", "max ms", "CPU p50 ms", "ingest %", "retrieval %",
            "turns < 1 s %"]  # fmt: skip
    return (
        "# Studio chat turns (offline agent, embedder loaded)\n\n"
        f"Every scripted Beijing demo through `TravelAgent.run` on a fresh `PersistentClient` space with the "
        f"default settings, {res['rounds']} round(s), {res.get('pause_s', 0)} s between turns; the embedder loaded first ({res['warm_s']} s). A turn is timed "
        "from the user's message to the reply; ingest % and retrieval % are the shares of that time spent in the "
        "weaver's ingest and retrieval calls (the rest is the agent: understanding, tools, reply). "
        f"Wall time {res['wall_s']} s.\n\n" + markdown_table(head, rows) + "\n"
    )
