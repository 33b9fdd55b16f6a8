# ruff: noqa: E402  (a measurement script: imports after the argument checks, as run)
"""Bench scale's warm child, with per-message ingest timings and an optional cProfile of the ingest loop.
usage: PYTHONPATH=<tree> python into100k_child.py <data_dir> <space> <queries> <into> [prof_out]
env: WARM=1 runs ContextWeaver.warm() after the queries (timed apart, when the tree has it); THEN=<n> ingests n
more messages after the measured ones, in the same process (every once-a-process load behind them)."""

import json
import os
import resource
import sys
import time
from dataclasses import replace
from pathlib import Path
from weaver.bench.scale import synthetic_texts
from weaver.embedding import CachedEmbedder, USEEmbedder
from weaver.runtime import Runtime
from weaver.settings import Settings

data_dir, space, nq, ninto = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
prof = sys.argv[5] if len(sys.argv) > 5 else None
nthen = int(os.environ.get("THEN", "0"))
queries, both = synthetic_texts(nq, seed=99), synthetic_texts(ninto + nthen, seed=11)
texts, then = both[:ninto], both[ninto:]
emb = CachedEmbedder(USEEmbedder())
emb.embed(queries + both)
import jieba

jieba.initialize()
s = Settings.from_env(env={}, secrets_path=None)
rt = Runtime.from_settings(replace(s, data_dir=Path(data_dir)), embedder=emb)
c0 = time.process_time()
t0 = time.perf_counter()
w = rt.open(space)
out = {
    "open_s": round(time.perf_counter() - t0, 2),
    "open_cpu_s": round(time.process_time() - c0, 2),
    "loaded_from": getattr(w, "loaded_from", "?"),
    "open_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
}
lat = []
for q in queries:
    t0 = time.perf_counter()
    w.query(q, budget=1024)
    lat.append((time.perf_counter() - t0) * 1e3)
if lat:
    out["q_first"] = round(lat[0], 1)
    out["q_sum_s"] = round(sum(lat) / 1e3, 2)
    lat.sort()
    out["q_p50"] = round(lat[len(lat) // 2], 1)
    out["q_p95"] = round(lat[int(0.95 * (len(lat) - 1))], 1)
out["rss_after_q"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
if os.environ.get("WARM") == "1" and hasattr(w, "warm"):
    t0 = time.perf_counter()
    out["warm_parts"] = w.warm()
    out["warm_s"] = round(time.perf_counter() - t0, 2)
if ninto:
    import cProfile

    pr = cProfile.Profile() if prof else None
    ms = []
    c0 = time.process_time()
    t0 = time.perf_counter()
    if pr:
        pr.enable()
    for t in texts:
        t1 = time.perf_counter()
        w.ingest(t)
        ms.append(round((time.perf_counter() - t1) * 1e3, 1))
    getattr(w, "flush", lambda: None)()
    if pr:
        pr.disable()
        pr.dump_stats(prof)
    el = time.perf_counter() - t0
    out |= {
        "into_turns_per_s": round(ninto / el, 1),
        "into_cpu_ms_per_msg": round((time.process_time() - c0) * 1e3 / ninto, 1),
        "ingest_ms": ms,
    }
if then:
    t0 = time.perf_counter()
    for t in then:
        w.ingest(t)
    getattr(w, "flush", lambda: None)()
    out["then_turns_per_s"] = round(len(then) / (time.perf_counter() - t0), 1)
out["peak_rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
out["load"] = os.getloadavg()
print(json.dumps(out))
