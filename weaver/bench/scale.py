"""Scale: retrieval latency, ingest throughput, peak RSS and disk size at 1k / 10k / 100k nodes.

- **ingest throughput** is measured on the real path (filter, relation builder,
  Chroma writes): ``ingest_many`` in batches and ``ingest`` one message at a time,
  on a fresh space;
- **latency** needs big spaces fast, so they are written through the store in
  bulk (the benchmark's own path, not a weaver feature): synthetic bilingual
  memories with random unit vectors, each linked to 1-2 recent nodes, plus their
  commit-marker decisions; the space is then opened by a real ``ContextWeaver``
  (load time reported) and queried with real embedded queries at 1,024 tokens;
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
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from .common import percentiles, temp_runtime
from .report import markdown_table
from ..models import Edge, FilterDecision, MemoryNode, Message, WeaverError

__all__ = ["synthetic_texts", "run_scale", "scale_markdown", "plot_scale"]

_EN = ["I need a hotel near {p} under {n} yuan", "The flight to {p} leaves at {h}:00", "My budget is {n} dollars",
       "Found {k} restaurants near {p}, average {n} per person", "Booked the museum in {p} for day {k}",
       "I'm allergic to {f}, avoid it", "The weather in {p} is rainy on day {k}"]
_ZH = ["我想住在{p}附近，每晚不超过{n}元", "查询到{p}附近有{k}家餐馆，人均{n}元", "我对{f}过敏", "第{k}天去{p}参观",
       "预算总共{n}元", "{p}的门票{n}元，评分4.{k}分"]
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
        out.append(tpl.format(p=rng.choice(_PLACES), n=rng.randint(50, 9000), h=rng.randint(6, 22),
                              k=rng.randint(1, 9), f=rng.choice(_FOODS)) + f" #{i}")
    return out


def _rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _disk_mb(path: str) -> float:
    total = sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file())
    return round(total / 2**20, 1)


def _bulk_space(w, n: int, dim: int, seed: int) -> None:
    """Write n nodes (+ edges + decisions) through the space store in batches."""
    rng = np.random.default_rng(seed)
    texts = synthetic_texts(n, seed)
    now = time.time()
    for start in range(0, n, 5000):
        stop = min(n, start + 5000)
        vecs = rng.standard_normal((stop - start, dim)).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        nodes, edges, decisions = [], [], []
        for i in range(start, stop):
            mid = f"bulk-{i}"
            nodes.append(MemoryNode(id=f"n-{i}", content=texts[i], kind="user_input", turn=i + 1, message_id=mid,
                                    timestamp=now + i, language="zh" if i % 3 == 0 else "en"))
            for j in {i - 1, i - int(rng.integers(2, 20))}:
                if j >= 0:
                    edges.append(Edge(f"n-{j}", f"n-{i}", "elaborates", 0.6, "rules", "synthetic"))
            decisions.append(FilterDecision(mid, "user_input", texts[i], i + 1, 0.5, 4, 4, 4, 4.0, 0.05, 3.0,
                                            True, "synthetic", "bulk", 0.0, node_id=f"n-{i}", timestamp=now + i))
        w.space.put_nodes(nodes, vecs)
        w.space.put_edges(edges)
        w.space.put_decisions(decisions, vecs)


def _throughput(rt, n_batched: int, n_single: int) -> dict:
    texts = synthetic_texts(n_batched + n_single, seed=7)
    w = rt.open("throughput")
    t0 = time.perf_counter()
    for s in range(0, n_batched, 64):
        w.ingest_many([Message(t) for t in texts[s : min(n_batched, s + 64)]])
    batched = n_batched / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    for t in texts[n_batched:]:
        w.ingest(t)
    single = n_single / (time.perf_counter() - t0)
    return {"batched_turns_per_s": round(batched, 1), "one_by_one_turns_per_s": round(single, 1),
            "batched_n": n_batched, "one_by_one_n": n_single}


def _llm_mode(embedder, n: int = 30) -> dict:
    tests = Path(__file__).resolve().parents[2] / "tests"
    if not (tests / "openai_server.py").is_file():
        return {"skipped": "tests/openai_server.py not found"}
    # the suite's scripted OpenAI-protocol server, loaded from its file (a checkout only; never installed)
    spec = importlib.util.spec_from_file_location("_weaver_bench_openai_server", tests / "openai_server.py")
    stub_module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(stub_module)
    OpenAIStub = stub_module.OpenAIStub
    from ..settings import Settings

    def reply(body):
        """Schema-correct replies for each prompt, so the run counts the LLM path, not its fallback."""
        system = body["messages"][0]["content"]
        data = json.loads(body["messages"][1]["content"])
        if "dependency graph" in system and isinstance(data.get("candidates"), dict):
            return json.dumps({"relations": [{"candidate": c, "relation": "elaborates", "confidence": 0.7,
                                              "rationale": "synthetic"} for c in data["candidates"]]})
        if "summar" in system.lower():
            return json.dumps({"summary": "synthetic summary"})
        if "review" in system.lower():
            return json.dumps({"proposals": []})
        return json.dumps({"relevance": 4, "novelty": 4, "importance": 3, "reason": "synthetic"})

    stub = OpenAIStub(default=reply).start()
    try:
        settings = Settings.from_env(env={"OPENAI_BASE_URL": stub.base_url, "OPENAI_API_KEY": "sk-local-stub"},
                                     secrets_path=None)
        with temp_runtime(embedder, settings=settings) as rt:
            w = rt.open("llm-mode")
            res = w.ingest_many([Message(t) for t in synthetic_texts(n, seed=3)])
        calls = sum(r.decision.llm_calls for r in res)
        tokens = sum(r.decision.llm_tokens for r in res)
        return {"messages": n, "llm_calls_per_message": round(calls / n, 2),
                "llm_tokens_per_message": round(tokens / n, 1), "requests_seen_by_server": len(stub.requests),
                "fallbacks": sum(1 for r in res if r.decision.fallback)}
    finally:
        stub.stop()


def run_scale(sizes=(1000, 10000, 100000), embedder=None, queries: int = 100, one_by_one: int = 300,
              llm: bool = True, progress: bool = True) -> dict:
    if not sizes or min(sizes) < 10:
        raise WeaverError("scale sizes must be at least 10 nodes")
    t_start = time.perf_counter()
    out = {"benchmark": "scale", "sizes": list(sizes), "rows": [], "cpus": os.cpu_count()}
    qtexts = synthetic_texts(queries, seed=99)
    qvecs = embedder.embed(qtexts)  # warm the cache: latency below is retrieval, not first-time embedding
    with temp_runtime(embedder) as rt:
        out["throughput"] = _throughput(rt, max(one_by_one, 64), one_by_one)
    for n in tqdm(sizes, desc="scale sizes", disable=not progress):
        with temp_runtime(embedder) as rt:
            w = rt.open(f"scale-{n}")
            t0 = time.perf_counter()
            _bulk_space(w, n, embedder.dim, seed=n)
            bulk_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            w = rt.open(f"scale-{n}")
            load_s = time.perf_counter() - t0
            lat = []
            for q in qtexts:
                t0 = time.perf_counter()
                w.query(q, budget=1024)
                lat.append((time.perf_counter() - t0) * 1e3)
            out["rows"].append({"nodes": n, "edges": w.graph.number_of_edges(), "bulk_write_s": round(bulk_s, 1),
                                "bulk_nodes_per_s": round(n / bulk_s, 1), "open_s": round(load_s, 2),
                                "query_ms": percentiles(lat), "peak_rss_mb": _rss_mb(),
                                "disk_mb": _disk_mb(rt.tmp_dir)})
            del w
    del qvecs
    if llm:
        out["llm_mode"] = _llm_mode(embedder)
    out["wall_s"] = round(time.perf_counter() - t_start, 1)
    return out


def scale_markdown(res: dict) -> str:
    rows = [[r["nodes"], r["edges"], r["query_ms"]["p50"], r["query_ms"]["p95"], r["open_s"], r["bulk_nodes_per_s"],
             r["peak_rss_mb"], r["disk_mb"]] for r in res["rows"]]
    t = res["throughput"]
    md = ["# Scale", "", f"{res['cpus']} CPUs. Wall time {res['wall_s']} s.", "",
          markdown_table(["nodes", "edges", "query p50 ms", "query p95 ms", "open s", "bulk write nodes/s",
                          "peak RSS MB", "disk MB"], rows), "",
          f"Real ingest path (filter + relations + Chroma): {t['batched_turns_per_s']} turns/s batched "
          f"(ingest_many, {t['batched_n']} msgs), {t['one_by_one_turns_per_s']} turns/s one by one "
          f"({t['one_by_one_n']} msgs)."]
    llm = res.get("llm_mode")
    if llm and "skipped" not in llm:
        md += ["", f"LLM mode (openai backend against the local test server, {llm['messages']} messages): "
                   f"{llm['llm_calls_per_message']} LLM calls and {llm['llm_tokens_per_message']} tokens per "
                   f"message ({llm['fallbacks']} fell back to rules)."]
    return "\n".join(md) + "\n"


def plot_scale(res: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ns = [r["nodes"] for r in res["rows"]]
    fig, ax = plt.subplots(figsize=(6, 3.8), dpi=110)
    ax.plot(ns, [r["query_ms"]["p50"] for r in res["rows"]], "-o", label="p50")
    ax.plot(ns, [r["query_ms"]["p95"] for r in res["rows"]], "-s", label="p95")
    ax.set_xscale("log")
    ax.set_xlabel("nodes in the space")
    ax.set_ylabel("query latency at 1,024 tokens (ms)")
    ax.set_title("Retrieval latency vs. memory size")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
