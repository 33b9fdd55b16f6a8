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

This module holds the texts and the plan of the runs (:func:`run_scale`); each
run's child process is in :mod:`weaver.bench.scale_jobs`, the report (Markdown
and plot) in :mod:`weaver.bench.scale_report`, re-exported here.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tqdm import tqdm

from .common import percentiles, temp_runtime
from .scale_jobs import BUILD_SCRIPT, disk_mb, run_job
from .scale_report import plot_scale, scale_markdown
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
    """``into``: messages ingested one by one into each big space after its queries and its warm-up
    (:meth:`weaver.core.ContextWeaver.warm`, timed apart), then as many again in the same process."""
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

    def throughput_job(tree: Path, texts: list[str], warm_first: bool) -> dict:
        with tempfile.TemporaryDirectory(prefix="weaver-scale-") as tmp:
            job = {"data_dir": tmp, "space": "throughput", "queries": [], "texts": texts, "batched": n_batched}
            return run_job(tree, job | ({"warm_first": True} if warm_first else {}))

    for name, tree in trees.items():  # a fresh space each: batched, then one by one
        # warm first: the segmenter's and the builder's once-a-process tables (~0.1-0.2 s) are not a cost per
        # turn (as the embedder's load and jieba's dictionary, loaded above the timing)
        r = throughput_job(tree, texts, warm_first=True)
        out["throughput"][name] = {
            "batched_turns_per_s": round(r["batched_turns_per_s"], 1),
            "one_by_one_turns_per_s": round(r["one_by_one_turns_per_s"], 1),
            # one message's ingest as its caller waits for it (a write-behind group's apply included)
            "one_by_one_ms": percentiles(r["ingest_ms"]) | {"max": round(max(r["ingest_ms"]), 1)}
            if r.get("ingest_ms")
            else None,
            "batched_n": n_batched,
            "one_by_one_n": one_by_one,
            "warm_first_s": round(r["warm_first_s"], 2) if "warm_first_s" in r else None,
            "cpu_ms_per_message": {
                "batched": round(r["batched_cpu_ms"], 2),
                "one_by_one": round(r["one_by_one_cpu_ms"], 2),
            },
        }
        # the batch as a fresh process's first work, without the warm-up: it pays what it loads itself (the
        # segmenter's tables, not the token counter a query needs), as a program that only ingests would
        cold = throughput_job(tree, texts[:n_batched], warm_first=False)
        out["throughput"][name]["batched_first_work_turns_per_s"] = round(cold["batched_turns_per_s"], 1)
        out["throughput"][name]["cpu_ms_per_message"]["batched_first_work"] = round(cold["batched_cpu_ms"], 2)
        if progress:
            print(json.dumps({name: out["throughput"][name]}), file=sys.stderr, flush=True)
    into_texts = synthetic_texts(2 * into, seed=11)  # the first half measured after the open, the rest after it
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
                    b = run_job(
                        tree,
                        {
                            "data_dir": built,
                            "space": f"scale-{n}",
                            "n": n,
                            "dim": embedder.dim,
                            "spec": str(spec_path),
                            "writer": str(Path(__file__).with_name("scale_writer.py")),
                        },
                        script=BUILD_SCRIPT,
                    )
                finally:
                    spec_path.unlink(missing_ok=True)
                if name == "weaver":
                    bulk_s = b["bulk_s"]
                    row |= {
                        "edges": b["edges"],
                        "bulk_write_s": round(bulk_s, 1),
                        "bulk_nodes_per_s": round(n / bulk_s, 1),
                        "disk_mb": disk_mb(built),
                    }
                disk_built = disk_mb(built)
                with tempfile.TemporaryDirectory(prefix="weaver-scale-") as copy:
                    shutil.copytree(built, copy, dirs_exist_ok=True)
                    job = {"data_dir": copy, "space": f"scale-{n}", "queries": qtexts}
                    # cold: the first open after the bulk writer (a full load from Chroma; this code then
                    # writes its snapshot); warm: the next open in a fresh process, nothing written between
                    cold = run_job(tree, dict(job, texts=[]))
                    disk_opened = disk_mb(copy)
                    r = run_job(
                        tree, dict(job, texts=into_texts[:into], then=into_texts[into:], warm=True, reopen=True)
                    )
                    disk_after = disk_mb(copy)
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
                    # after the warm-up (a release without one pays its loads here); then the next messages
                    "into_turns_per_s": round(r["one_by_one_turns_per_s"], 1),
                    "warm_s": round(r["warm_s"], 2) if "warm_s" in r else None,
                    "into_with_warm_turns_per_s": round(
                        into / (into / r["one_by_one_turns_per_s"] + r.get("warm_s", 0.0)), 1
                    ),
                    "into_then_turns_per_s": round(r["then_turns_per_s"], 1) if "then_turns_per_s" in r else None,
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
                    "into_speedup": _ratio(  # end to end: a release with a warm-up pays it here
                        r["weaver"]["into_with_warm_turns_per_s"], r["baseline"]["into_with_warm_turns_per_s"]
                    ),
                }
                for r in out["rows"]
            },
        }
    if llm:
        out["llm_mode"] = _llm_mode(embedder)
    out["wall_s"] = round(time.perf_counter() - t_start, 1)
    return out
