"""Scale: retrieval latency, ingest throughput, peak RSS and disk size at 1k / 10k / 100k nodes.

- **ingest throughput** is measured on the real path (filter, relation builder,
  Chroma writes): ``ingest_many`` in batches and ``ingest`` one message at a time,
  on a fresh space, with short bilingual task-like turns (:func:`synthetic_texts`:
  "I need a hotel near Sanlitun under 800 yuan", "我对花生过敏", ~30-45 characters);
- **latency** needs big spaces fast, so they are written through the store in
  bulk (the benchmark's own path, not a weaver feature): synthetic bilingual
  memories with random unit vectors, each linked to 1-2 recent nodes, plus their
  commit-marker decisions, each restated slot's earlier statements superseded as
  ingest would have left them (:mod:`weaver.bench.scale_space`); the space is then opened by a real ``ContextWeaver``
  in a fresh process (cold: a full load from Chroma, after which the weaver
  writes its snapshot, :mod:`weaver.snapshot`) and again in another fresh
  process (warm: nothing was written between, so the snapshot serves), open
  time and each process's peak RSS reported; the warm one is queried with real
  embedded queries at 1,024 tokens, then fed messages one by one (ingest into
  a big space, review passes included);
- **baseline**: with ``baseline=<a source tree>`` (e.g. ``git archive`` of an
  earlier commit) every measurement above also runs on that tree's code, in its
  own processes, on a copy of the same space, back to back, and the report gives
  the ratios (this code / baseline);
- **LLM mode** ingests messages with the ``openai`` backend against the
  OpenAI-protocol test server (``tests/openai_server.py``) started in-process,
  and reports LLM calls and tokens per message.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from .common import finish_line_plot, percentiles, temp_runtime
from .report import markdown_table
from .scale_space import restatements
from ..models import Message, WeaverError

__all__ = ["synthetic_texts", "run_scale", "scale_markdown", "plot_scale"]

_EN = [
    "I need a hotel near {p} under {n} yuan",
    "The flight to {p} leaves at {h}:00",
    "My budget is {n} dollars",
    "Found {k} restaurants near {p}, average {n} per person",
    "Booked the museum in {p} for day {k}",
    "I'm allergic to {f}, avoid it",
    "The weather in {p} is rainy on day {k}",
]
_ZH = [
    "我想住在{p}附近，每晚不超过{n}元",
    "查询到{p}附近有{k}家餐馆，人均{n}元",
    "我对{f}过敏",
    "第{k}天去{p}参观",
    "预算总共{n}元",
    "{p}的门票{n}元，评分4.{k}分",
]
_PLACES = ["Wangfujing", "Sanlitun", "Houhai", "王府井", "三里屯", "颐和园", "故宫", "Shibuya", "Montmartre", "Soho"]
_FOODS = ["seafood", "peanuts", "gluten", "海鲜", "花生", "辣椒"]


def synthetic_texts(n: int, seed: int = 0) -> list[str]:
    """Deterministic bilingual task-like messages.

    >>> len(synthetic_texts(5)), synthetic_texts(3) == synthetic_texts(3)
    (5, True)
    """
    rng = random.Random(seed)
    out = []
    for i in range(n):
        tpl = rng.choice(_ZH if i % 3 == 0 else _EN)
        out.append(
            tpl.format(
                p=rng.choice(_PLACES),
                n=rng.randint(50, 9000),
                h=rng.randint(6, 22),
                k=rng.randint(1, 9),
                f=rng.choice(_FOODS),
            )
            + f" #{i}"
        )
    return out


def _disk_mb(path: str | Path) -> float:
    total = sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file())
    return round(total / 2**20, 1)


# Run in a fresh interpreter with PYTHONPATH at a source tree (this one or a baseline): only names that every
# release of the weaver has (Settings, Runtime, CachedEmbedder, USEEmbedder, Message, ingest, query).
_CHILD = r"""
import json, resource, sys, time
from dataclasses import replace
from pathlib import Path
from weaver.embedding import CachedEmbedder, USEEmbedder
from weaver.models import Message
from weaver.runtime import Runtime
from weaver.settings import Settings

job = json.loads(sys.argv[1])
emb = CachedEmbedder(USEEmbedder())
emb.embed(job["queries"] + job["texts"])  # warm: what is measured is the weaver, not first-time embedding
import jieba
jieba.initialize()  # its dictionary loads once a process (~0.9 s), like the model: not a cost per turn
rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
s = Settings.from_env(env={}, secrets_path=None)
rt = Runtime.from_settings(replace(s, data_dir=Path(job["data_dir"])), embedder=emb)
out = {}
t0 = time.perf_counter()
w = rt.open(job["space"])
out["open_s"] = time.perf_counter() - t0
out["open_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
out["rss_before_open_mb"] = rss0
lat = []
for q in job["queries"]:
    t0 = time.perf_counter()
    w.query(q, budget=1024)
    lat.append((time.perf_counter() - t0) * 1e3)
out["query_ms"] = lat
texts = job["texts"]
nb = job.get("batched", 0)
if nb:
    t0 = time.perf_counter()
    for i in range(0, nb, 64):
        w.ingest_many([Message(t) for t in texts[i:min(nb, i + 64)]])
    getattr(w, "flush", lambda: None)()  # timed: Chroma holds every message (write-behind applied)
    out["batched_turns_per_s"] = nb / (time.perf_counter() - t0)
t0 = time.perf_counter()
lat = []
for t in texts[nb:]:
    t1 = time.perf_counter()
    w.ingest(t)
    lat.append((time.perf_counter() - t1) * 1e3)
getattr(w, "flush", lambda: None)()  # timed: the write-behind log applied, so Chroma holds every message
out["one_by_one_turns_per_s"] = (len(texts) - nb) / max(time.perf_counter() - t0, 1e-9)
out["ingest_ms"] = lat
if job.get("reopen"):
    t0 = time.perf_counter()
    rt.open(job["space"])
    out["reopen_s"] = time.perf_counter() - t0
out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print("\nRESULT " + json.dumps(out))
"""


# The bulk build of a big space on the code of a tree (this one or a baseline): each system is measured on the
# storage layout its own code writes (a space of this release's layout is not writable by an older one).
_BUILD = r"""
import json, sys, time
from dataclasses import replace
from pathlib import Path
from weaver.settings import Settings
from weaver.store import connect

job = json.loads(sys.argv[1])
spec = json.loads(Path(job["spec"]).read_text("utf-8"))  # the texts and their restatements, from the running bench
ns = {"__name__": "scale_writer"}
exec(compile(Path(job["writer"]).read_text("utf-8"), job["writer"], "exec"), ns)  # this release's writer, any code
s = replace(Settings.from_env(env={}, secrets_path=None), data_dir=Path(job["data_dir"]))
w = type("W", (), {})()
w.space = connect(s).open_space(job["space"], create=True)
t0 = time.perf_counter()
edges = ns["write_bulk"](w, spec["texts"], job["dim"], job["n"], (spec["edges"], spec["gone"]))
getattr(w.space, "sync", lambda: None)()
print("\nRESULT " + json.dumps({"edges": edges, "bulk_s": time.perf_counter() - t0}))
"""


def _child(tree: Path, job: dict, timeout: float = 3600, script: str = _CHILD) -> dict:
    """Run :data:`_CHILD` (or ``script``) on the code of ``tree`` (a fresh process: its RSS is the job's own)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    proc = subprocess.run(
        [sys.executable, "-c", script, json.dumps(job)],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=str(tree),
        check=False,
    )
    lines = [x for x in proc.stdout.splitlines() if x.startswith("RESULT ")]
    if proc.returncode != 0 or not lines:
        raise WeaverError(f"scale job on {tree} failed ({proc.returncode}): {proc.stderr.strip()[-400:]}")
    return json.loads(lines[-1][7:])


def _ratio(new, old) -> float | None:
    return round(new / old, 2) if new and old else None


def _llm_mode(embedder, n: int = 30) -> dict:
    tests = Path(__file__).resolve().parents[2] / "tests"
    if not (tests / "openai_server.py").is_file():
        return {"skipped": "tests/openai_server.py not found"}
    # the suite's scripted OpenAI-protocol server, loaded from its file (a checkout only; never installed)
    spec = importlib.util.spec_from_file_location("_weaver_bench_openai_server", tests / "openai_server.py")
    # a .py location always gets a spec with a source loader
    assert spec is not None and spec.loader is not None
    stub_module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(stub_module)
    OpenAIStub = stub_module.OpenAIStub
    from ..settings import Settings

    def reply(body):
        """Schema-correct replies for each prompt, so the run counts the LLM path, not its fallback."""
        system = body["messages"][0]["content"]
        data = json.loads(body["messages"][1]["content"])
        if "dependency graph" in system and isinstance(data.get("candidates"), dict):
            return json.dumps(
                {
                    "relations": [
                        {"candidate": c, "relation": "elaborates", "confidence": 0.7, "rationale": "synthetic"}
                        for c in data["candidates"]
                    ]
                }
            )
        if "summar" in system.lower():
            return json.dumps({"summary": "synthetic summary"})
        if "review" in system.lower():
            return json.dumps({"proposals": []})
        return json.dumps({"relevance": 4, "novelty": 4, "importance": 3, "reason": "synthetic"})

    stub = OpenAIStub(default=reply).start()
    try:
        settings = Settings.from_env(
            env={"OPENAI_BASE_URL": stub.base_url, "OPENAI_API_KEY": "sk-local-stub"}, secrets_path=None
        )
        with temp_runtime(embedder, settings=settings) as rt:
            w = rt.open("llm-mode")
            res = w.ingest_many([Message(t) for t in synthetic_texts(n, seed=3)])
        calls = sum(r.decision.llm_calls for r in res)
        tokens = sum(r.decision.llm_tokens for r in res)
        return {
            "messages": n,
            "llm_calls_per_message": round(calls / n, 2),
            "llm_tokens_per_message": round(tokens / n, 1),
            "requests_seen_by_server": len(stub.requests),
            "fallbacks": sum(1 for r in res if r.decision.fallback),
        }
    finally:
        stub.stop()


def run_scale(
    sizes=(1000, 10000, 100000),
    embedder=None,
    queries: int = 100,
    one_by_one: int = 300,
    llm: bool = True,
    progress: bool = True,
    baseline: str | Path | None = None,
    into: int = 50,
) -> dict:
    """``into``: messages ingested one by one into each big space after its queries."""
    if not sizes or min(sizes) < 10:
        raise WeaverError("scale sizes must be at least 10 nodes")
    here = Path(__file__).resolve().parents[2]
    trees = {"weaver": here}
    if baseline:
        base = Path(baseline).resolve()
        if not (base / "weaver" / "core.py").is_file():
            raise WeaverError(f"--baseline {baseline}: no weaver/core.py there (give a source tree)")
        trees["baseline"] = base
    t_start = time.perf_counter()
    out: dict[str, Any] = {
        "benchmark": "scale",
        "sizes": list(sizes),
        "rows": [],
        "cpus": os.cpu_count(),
        "texts": "synthetic_texts(): short bilingual task-like turns",
        "systems": list(trees),
    }
    qtexts = synthetic_texts(queries, seed=99)
    n_batched = max(one_by_one, 64)
    texts = synthetic_texts(n_batched + one_by_one, seed=7)
    out["throughput"] = {}
    for name, tree in trees.items():  # a fresh space each: batched, then one by one
        with tempfile.TemporaryDirectory(prefix="weaver-scale-") as tmp:
            r = _child(
                tree, {"data_dir": tmp, "space": "throughput", "queries": [], "texts": texts, "batched": n_batched}
            )
        out["throughput"][name] = {
            "batched_turns_per_s": round(r["batched_turns_per_s"], 1),
            "one_by_one_turns_per_s": round(r["one_by_one_turns_per_s"], 1),
            # one message's ingest as its caller waits for it (a write-behind group's apply included)
            "one_by_one_ms": percentiles(r["ingest_ms"]) | {"max": round(max(r["ingest_ms"]), 1)}
            if r.get("ingest_ms")
            else None,
            "batched_n": n_batched,
            "one_by_one_n": one_by_one,
        }
        if progress:
            print(json.dumps({name: out["throughput"][name]}), file=sys.stderr, flush=True)
    into_texts = synthetic_texts(into, seed=11)
    for n in tqdm(sizes, desc="scale sizes", disable=not progress):
        row: dict[str, Any] = {"nodes": n}
        bulk_texts = synthetic_texts(n, n)
        sup_edges, gone = restatements(bulk_texts)  # superseded as ingest would have: the same in every space
        spec = {"texts": bulk_texts, "edges": sup_edges, "gone": gone}
        for name, tree in trees.items():  # the same synthetic space, built by each system's own code
            with tempfile.TemporaryDirectory(prefix="weaver-scale-") as built:
                spec_path = Path(built).parent / f"{Path(built).name}-spec.json"
                spec_path.write_text(json.dumps(spec), "utf-8")
                try:
                    b = _child(
                        tree,
                        {
                            "data_dir": built,
                            "space": f"scale-{n}",
                            "n": n,
                            "dim": embedder.dim,
                            "spec": str(spec_path),
                            "writer": str(Path(__file__).with_name("scale_writer.py")),
                        },
                        script=_BUILD,
                    )
                finally:
                    spec_path.unlink(missing_ok=True)
                if name == "weaver":
                    bulk_s = b["bulk_s"]
                    row |= {
                        "edges": b["edges"],
                        "bulk_write_s": round(bulk_s, 1),
                        "bulk_nodes_per_s": round(n / bulk_s, 1),
                        "disk_mb": _disk_mb(built),
                    }
                disk_built = _disk_mb(built)
                with tempfile.TemporaryDirectory(prefix="weaver-scale-") as copy:
                    shutil.copytree(built, copy, dirs_exist_ok=True)
                    job = {"data_dir": copy, "space": f"scale-{n}", "queries": qtexts}
                    # cold: the first open after the bulk writer (a full load from Chroma; this code then
                    # writes its snapshot); warm: the next open in a fresh process, nothing written between
                    cold = _child(tree, dict(job, texts=[]))
                    disk_opened = _disk_mb(copy)
                    r = _child(tree, dict(job, texts=into_texts, reopen=True))
                    disk_after = _disk_mb(copy)
                row[name] = {
                    "open_s": round(r["open_s"], 2),
                    "cold_open_s": round(cold["open_s"], 2),
                    "reopen_s": round(r.get("reopen_s", 0), 2),
                    "query_ms": percentiles(r["query_ms"]),
                    "cold_query_ms": percentiles(cold["query_ms"]),
                    "first_query_ms": round(cold["query_ms"][0], 1) if cold["query_ms"] else None,
                    "open_rss_mb": round(r["open_rss_mb"], 1),
                    "open_rss_added_mb": round(r["open_rss_mb"] - r["rss_before_open_mb"], 1),
                    "cold_open_rss_mb": round(cold["open_rss_mb"], 1),
                    "peak_rss_mb": round(max(r["peak_rss_mb"], cold["peak_rss_mb"]), 1),
                    "into_turns_per_s": round(r["one_by_one_turns_per_s"], 1),
                    "disk_mb_built": disk_built,
                    "disk_mb_opened": disk_opened,
                    "disk_mb_after": disk_after,
                }
        out["rows"].append(row)
        if progress:  # a long run's finished sizes are visible before it ends
            print(json.dumps(row), file=sys.stderr, flush=True)
    if "baseline" in trees:
        t, b = out["throughput"]["weaver"], out["throughput"]["baseline"]
        out["ratios"] = {
            "one_by_one": _ratio(t["one_by_one_turns_per_s"], b["one_by_one_turns_per_s"]),
            "batched": _ratio(t["batched_turns_per_s"], b["batched_turns_per_s"]),
            "by_size": {
                r["nodes"]: {
                    "query_p95_speedup": _ratio(r["baseline"]["query_ms"]["p95"], r["weaver"]["query_ms"]["p95"]),
                    "query_p50_speedup": _ratio(r["baseline"]["query_ms"]["p50"], r["weaver"]["query_ms"]["p50"]),
                    "open_speedup": _ratio(r["baseline"]["open_s"], r["weaver"]["open_s"]),
                    "cold_open_speedup": _ratio(r["baseline"]["cold_open_s"], r["weaver"]["cold_open_s"]),
                    "open_rss_ratio": _ratio(r["weaver"]["open_rss_mb"], r["baseline"]["open_rss_mb"]),
                    "disk_ratio": _ratio(r["weaver"]["disk_mb_opened"], r["baseline"]["disk_mb_opened"]),
                    "into_speedup": _ratio(r["weaver"]["into_turns_per_s"], r["baseline"]["into_turns_per_s"]),
                }
                for r in out["rows"]
            },
        }
    if llm:
        out["llm_mode"] = _llm_mode(embedder)
    out["wall_s"] = round(time.perf_counter() - t_start, 1)
    return out


def scale_markdown(res: dict) -> str:
    systems = res.get("systems", ["weaver"])
    md = ["# Scale", "", f"{res['cpus']} CPUs. Wall time {res['wall_s']} s. Turns: {res.get('texts', '')}.", ""]
    head = ["system", "turns/s one by one", "one ingest p50 / p95 / max ms", "turns/s batched"]

    def waits(t: dict) -> str:
        ms = t.get("one_by_one_ms")
        return f"{ms['p50']} / {ms['p95']} / {ms['max']}" if ms and "max" in ms else "-"

    md += [
        markdown_table(
            head,
            [
                [
                    s,
                    res["throughput"][s]["one_by_one_turns_per_s"],
                    waits(res["throughput"][s]),
                    res["throughput"][s]["batched_turns_per_s"],
                ]
                for s in systems
            ],
        ),
        "",
    ]
    rows = []
    for r in res["rows"]:
        for s in systems:
            x = r[s]
            rows.append(
                [
                    r["nodes"],
                    s,
                    x["query_ms"]["p50"],
                    x["query_ms"]["p95"],
                    x.get("first_query_ms", ""),
                    x.get("cold_open_s", ""),
                    x["open_s"],
                    x["reopen_s"],
                    x.get("cold_open_rss_mb", ""),
                    x["open_rss_mb"],
                    x["into_turns_per_s"],
                    x.get("disk_mb_built", r["disk_mb"]),
                    x.get("disk_mb_opened", ""),
                ]
            )
    md += [
        markdown_table(
            [
                "nodes",
                "system",
                "query p50 ms",
                "query p95 ms",
                "first query ms (cold)",
                "open s, cold",
                "open s, warm",
                "reopen s (after writes)",
                "RSS MB at cold open",
                "RSS MB at warm open",
                "ingest into it, turns/s",
                "disk MB (as built)",
                "disk MB (opened)",
            ],
            rows,
        ),
        "",
        "Cold: the first open after the bulk writer, in a fresh process (a full load from Chroma; this code then "
        "writes its snapshot). Warm: the next open in another fresh process, nothing written in between (this code "
        "reads the snapshot). Queries (p50 / p95) are the warm process's, after its open; the first query is the "
        "cold process's first. Reopen: a new weaver in the warm process after it ingested into the space (its "
        "writes made the snapshot stale: a full load). RSS is the process's peak so far, the embedder included.",
    ]
    if res.get("ratios"):
        ra = res["ratios"]
        md += [
            "",
            f"Ratios (this code vs baseline): one by one x{ra['one_by_one']}, batched x{ra['batched']}; "
            + "; ".join(
                f"{n} nodes: query p95 x{v['query_p95_speedup']} faster (p50 x{v.get('query_p50_speedup')}), "
                f"open x{v['open_speedup']} warm, x{v.get('cold_open_speedup')} cold, RSS at open "
                f"x{v.get('open_rss_ratio')}, disk x{v.get('disk_ratio')}, ingest into it x{v['into_speedup']}"
                for n, v in ra["by_size"].items()
            )
            + ".",
        ]
    llm = res.get("llm_mode")
    if llm and "skipped" not in llm:
        md += [
            "",
            f"LLM mode (openai backend against the local test server, {llm['messages']} messages): "
            f"{llm['llm_calls_per_message']} LLM calls and {llm['llm_tokens_per_message']} tokens per "
            f"message ({llm['fallbacks']} fell back to rules).",
        ]
    return "\n".join(md) + "\n"


def plot_scale(res: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ns = [r["nodes"] for r in res["rows"]]
    fig, ax = plt.subplots(figsize=(6, 3.8), dpi=110)
    for sys_name in res.get("systems", ["weaver"]):
        ax.plot(ns, [r[sys_name]["query_ms"]["p50"] for r in res["rows"]], "-o", label=f"{sys_name} p50")
        ax.plot(ns, [r[sys_name]["query_ms"]["p95"] for r in res["rows"]], "-s", label=f"{sys_name} p95")
    ax.set_xscale("log")
    finish_line_plot(
        fig, ax, path, "nodes in the space", "query latency at 1,024 tokens (ms)", "Retrieval latency vs. memory size"
    )
