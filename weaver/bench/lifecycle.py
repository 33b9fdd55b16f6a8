"""``bench lifecycle``: a long interleaved stream with and without the memory lifecycle.

The stream: the LoCoMo conversations' sessions in time order (each session keeps
its own episode), with CrossWOZ dialogues spread evenly between them, until the
stream holds ``turns`` turns. Two spaces ingest it through the real path; one
runs a lifecycle pass every ``every`` user turns. Every ``checkpoint`` turns both
report their size (active nodes, all nodes, edges, disk). At the end, the LoCoMo
and CrossWOZ questions whose evidence is in the stream are asked of both at each
budget: recall counts the evidence turns among the memories in the context
(``strict``), and, for the lifecycle space, also the members a retrieved summary
quotes (``with summaries``) and the same space with its cold tier off. Query
latency is measured at 1,024 tokens with both spaces open, each question asked of
one then the other (three rounds), so a shared machine's load weighs on both alike.

The stream is built in :mod:`weaver.bench.lifecycle_stream`, the result's page and plot in
:mod:`weaver.bench.lifecycle_report`; this module grows and measures the spaces.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import sys
import tempfile
import time
import traceback
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

import numpy as np
from tqdm import tqdm

from ..embedding import embed_text_for
from ..lifecycle import LifecycleConfig, run_pass
from ..lifecycle.reflection import quoted_members
from ..settings import Settings
from .common import Turn, ingest_turns, percentiles, recall
from .lifecycle_report import lifecycle_markdown, plot_lifecycle
from .lifecycle_stream import lifecycle_stream
from .scale_jobs import disk_mb

# the stream and the report live in lifecycle_stream and lifecycle_report: re-exported (the CLI and tests import
# them from here)
__all__ = ["grow_space", "lifecycle_markdown", "lifecycle_stream", "plot_lifecycle", "run_lifecycle", "side_by_side"]


def _size(w, rt, turn: int, elapsed: float) -> dict:
    active = sum(1 for n in w.nodes.values() if n.status == "active")
    return {
        "turn": turn,
        "active_nodes": active,
        "nodes": len(w.nodes),
        "edges": w.graph.number_of_edges(),
        "disk_mb": disk_mb(rt.settings.data_dir),
        "elapsed_s": round(elapsed, 1),
    }


def _found(w, res) -> tuple[set[str], set[str]]:
    """(keys of the memories in the context, plus the keys of the members retrieved summaries quote)."""
    strict, quoted = set(), set()
    for n in res.nodes:
        node = w.nodes.get(n.id)
        if node is None:
            continue
        if node.meta.get("lifecycle") == "summary":
            quoted |= {w.nodes[m].meta.get("key") for m in quoted_members(w.graph, n.id)}
        else:
            strict.add(node.meta.get("key"))
    return strict, strict | quoted


@contextmanager
def _runtime_at(embedder, path: Path) -> Iterator:
    """A Runtime over ``path`` (a folder of the run's own temporary directory)."""
    from ..runtime import Runtime

    base = Settings.from_env(env={}, secrets_path=None)
    yield Runtime.from_settings(replace(base, data_dir=path), embedder=embedder)


def grow_space(
    system: str,
    path: Path,
    embedder,
    stream: list[Turn],
    qs: list[dict],
    every: int,
    checkpoint: int,
    cfg: LifecycleConfig,
    budgets=(512, 1024),
    progress: bool = False,
    log: bool = False,
) -> dict:
    """Feed ``stream`` to a new space under ``path`` (``system`` "with": a lifecycle pass every ``every`` user
    turns), its size every ``checkpoint`` turns (``log``: printed to stderr), then each question's recall at each
    budget.

    Recall counts the evidence turns among the memories in the context (``strict``), also the members a
    retrieved summary quotes (``summaries``), and for "with" the same space with its cold tier off (``no-cold``).
    """
    with _runtime_at(embedder, path) as rt:
        w = rt.open("stream")
        sizes, pass_s, last = [], [], 0
        t0 = time.perf_counter()
        ingest_s = 0.0
        for start in tqdm(range(0, len(stream), 64), desc=f"stream {system}", disable=not progress):
            ingest_s += ingest_turns(w, stream[start : start + 64], "s")
            if system == "with" and w.turn - last >= every:
                t1 = time.perf_counter()
                run_pass(w, cfg)
                pass_s.append(time.perf_counter() - t1)
                last = w.turn
            done = min(len(stream), start + 64)
            if done // checkpoint != (done - 64) // checkpoint or done == len(stream):
                sizes.append(_size(w, rt, done, time.perf_counter() - t0))
                if log:
                    print(f"{system}: {sizes[-1]}", file=sys.stderr, flush=True)
        return {
            "sizes": sizes,
            "pass_s": percentiles(pass_s),
            "passes": len(pass_s),
            "pass_total_s": round(sum(pass_s), 1),
            "ingest_s": round(ingest_s, 1),
            "recall": space_recall(w, system, qs, budgets),
        }


def space_recall(w, system: str, qs: list[dict], budgets=(512, 1024)) -> dict:
    """Each question's recall at each budget, averaged per dataset: ``{"locomo@512/strict": 57.5, ...}``.

    ``strict``: the evidence turns among the memories in the context; ``summaries``: also the members a retrieved
    summary quotes; ``no-cold`` (for "with"): strict, with the space's cold tier off.
    """
    kinds = ("strict", "summaries") + (("no-cold",) if system == "with" else ())
    rec: dict[tuple[str, int, str], list[float]] = {
        (d, b, k): [] for d in ("locomo", "crosswoz") for b in budgets for k in kinds
    }
    warm_only = w.config.with_(search_archived=False)  # the same space without its cold tier
    for q in qs:
        for b in budgets:
            strict, quoted = _found(w, w.query(q["question"], budget=b))
            rec[(q["dataset"], b, "strict")].append(recall(strict, q["evidence"]))
            rec[(q["dataset"], b, "summaries")].append(recall(quoted, q["evidence"]))
            if system == "with":
                strict, _ = _found(w, w.query(q["question"], budget=b, config=warm_only))
                rec[(q["dataset"], b, "no-cold")].append(recall(strict, q["evidence"]))
    return {f"{d}@{b}/{k}": round(100 * float(np.mean(v)), 1) if v else None for (d, b, k), v in rec.items()}


def measure_space(system: str, path: Path, embedder, qs: list[dict], budgets=(512, 1024)) -> dict:
    """Recall of a space grown earlier (``reuse``): opened from ``path``, asked every question."""
    with _runtime_at(embedder, path) as rt:
        return {"recall": space_recall(rt.open("stream"), system, qs, budgets)}


def _child(conn, fn, args) -> None:
    try:
        conn.send(("ok", fn(*args)))
    except BaseException:  # the parent re-raises it with the child's traceback
        conn.send(("error", traceback.format_exc()))
    finally:
        conn.close()


def side_by_side(jobs: dict[str, tuple], fn) -> dict[str, dict]:
    """``fn(*args)`` for every job at once, each in a forked process (the two spaces share nothing: on a
    2-core machine they grow in about the time of one). Forked, so the arguments (the embedder with its
    warm cache, the stream) are inherited, not pickled; only the results travel back."""
    ctx = mp.get_context("fork")
    running = {}
    for name, args in jobs.items():
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_child, args=(child, fn, args), name=f"lifecycle-{name}")
        proc.start()
        child.close()
        running[name] = (proc, parent)
    out, errors = {}, []
    for name, (proc, conn) in running.items():
        try:
            status, got = conn.recv()
        except EOFError:
            status, got = "error", "the process died"
        proc.join()
        if status == "error" and got == "the process died":
            got += f" (exit code {proc.exitcode})"
        if status == "ok":
            out[name] = got
        else:
            errors.append(f"{name}: {got}")
    if errors:
        raise RuntimeError("bench lifecycle failed\n" + "\n".join(errors))
    return out


def run_lifecycle(
    data_dir,
    embedder,
    turns: int = 10000,
    every: int = 500,
    budgets=(512, 1024),
    checkpoint: int = 1000,
    cfg: LifecycleConfig | None = None,
    progress: bool = True,
    latency_rounds: int = 3,
    parallel: bool = True,
    keep: Path | None = None,
    reuse: Path | None = None,
) -> dict:
    """Both spaces grown from the same stream (``parallel``: at once, in two forked processes), then the
    latency measured with both open in this process, each question asked of one then the other.

    ``keep``: grow the spaces under this (new or empty) folder and leave them there, to inspect afterwards.
    ``reuse``: a folder a run with ``keep`` left (its ``without/`` and ``with/`` spaces and its
    ``lifecycle.json``): nothing is grown; the sizes and passes are that run's, recall and latency are measured
    again with this code (retrieval changed, the spaces did not)."""
    data_dir = Path(data_dir)
    cfg = cfg or LifecycleConfig(working_turns=200)
    t_start = time.perf_counter()
    stream, qs = lifecycle_stream(data_dir / "locomo" / "locomo7.json", data_dir / "crosswoz" / "val.json.zip", turns)
    out: dict[str, Any] = {
        "benchmark": "lifecycle",
        "turns": len(stream),
        "every": every,
        "budgets": list(budgets),
        "config": cfg.__dict__,
        "questions": {d: sum(q["dataset"] == d for q in qs) for d in ("locomo", "crosswoz")},
        "parallel": parallel,
        "systems": {},
    }
    # warm the cache (the forked processes inherit it): latency is retrieval, not the embedder
    texts = [embed_text_for(t.content, t.kind, dict(t.meta, key=t.key))[:4000] for t in stream]
    embedder.embed(texts + [q["question"] for q in qs])
    with ExitStack() as folder:
        tmp = keep if keep is not None else folder.enter_context(tempfile.TemporaryDirectory(prefix="weaver-bench-"))
        paths = {system: Path(tmp) / system for system in ("without", "with")}
        jobs = {
            system: (
                system,
                path,
                embedder,
                stream,
                qs,
                every,
                checkpoint,
                cfg,
                budgets,
                progress and not parallel,
                progress,
            )
            for system, path in paths.items()
        }
        if reuse is not None:
            grown = json.loads((reuse / "lifecycle.json").read_text(encoding="utf-8"))
            if grown["turns"] != len(stream) or grown["every"] != every or grown["config"] != cfg.__dict__:
                raise ValueError(f"{reuse} holds a run of another stream or configuration")
            paths = {system: reuse / system for system in paths}
            measure = {system: (system, paths[system], embedder, qs, budgets) for system in paths}
            again = (
                side_by_side(measure, measure_space) if parallel else {k: measure_space(*a) for k, a in measure.items()}
            )
            out["grown_by"] = {k: grown[k] for k in ("wall_s", "grow_s", "code") if k in grown}
            out["systems"] = {
                system: {k: v for k, v in grown["systems"][system].items() if k not in ("recall", "query_ms_1024")}
                | again[system]
                for system in paths
            }
        elif parallel:
            out["systems"] = side_by_side(jobs, grow_space)
        else:
            out["systems"] = {system: grow_space(*args) for system, args in jobs.items()}
        out["grow_s"] = round(time.perf_counter() - t_start, 1)
        # latency: both spaces open, each question asked of one then the other, three rounds, so that the load
        # of a shared machine weighs on both alike
        with ExitStack() as stack:
            spaces = {}
            for system, path in paths.items():
                t1 = time.perf_counter()
                spaces[system] = stack.enter_context(_runtime_at(embedder, path)).open("stream")
                out["systems"][system]["open_s"] = round(time.perf_counter() - t1, 2)
            lat: dict[str, list[float]] = {"without": [], "with": []}
            for q in qs:  # one untimed round: first-query costs (an edge index, caches) are not retrieval
                for w in spaces.values():
                    w.query(q["question"], budget=1024)
            for _ in range(latency_rounds):
                for q in qs:
                    for system, w in spaces.items():
                        t1 = time.perf_counter()
                        w.query(q["question"], budget=1024)
                        lat[system].append((time.perf_counter() - t1) * 1e3)
            for system, got in lat.items():
                out["systems"][system]["query_ms_1024"] = percentiles(got)
            out["latency_ratio_p50"] = round(
                out["systems"]["with"]["query_ms_1024"]["p50"] / out["systems"]["without"]["query_ms_1024"]["p50"], 3
            )
    w_, wo = out["systems"]["with"]["sizes"][-1], out["systems"]["without"]["sizes"][-1]
    out["kept_share"] = round(100 * w_["active_nodes"] / max(1, wo["active_nodes"]), 1)
    out["wall_s"] = round(time.perf_counter() - t_start, 1)
    if keep is not None:  # beside the spaces, for a later run with ``reuse``
        (keep / "lifecycle.json").write_text(json.dumps(out, indent=1), encoding="utf-8")
    return out
