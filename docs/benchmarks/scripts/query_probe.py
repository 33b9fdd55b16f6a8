# ruff: noqa: E401, E402, E702  (a measurement script, as run)
"""Warm open + N queries with VmHWM / VmRSS read around each step; optional cProfile of the first query and a dump
of each ranked result (ids, scores, parts, cut reasons, seeds, edges, context, decision block) to compare two codes.
usage: PYTHONPATH=<tree> python query_probe.py <data_dir> <space> <queries> [prof_out or -] [dump.json]"""

import json, os, sys, time
from dataclasses import replace
from pathlib import Path
from weaver.bench.scale import synthetic_texts
from weaver.embedding import CachedEmbedder, USEEmbedder
from weaver.runtime import Runtime
from weaver.settings import Settings


def mem():
    d = {}
    for line in open("/proc/self/status"):
        if line.startswith(("VmHWM", "VmRSS")):
            k, v = line.split(":")
            d[k] = int(v.split()[0]) // 1024
    return d


data_dir, space, nq = sys.argv[1], sys.argv[2], int(sys.argv[3])
prof = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] != "-" else None
dump = sys.argv[5] if len(sys.argv) > 5 else None
queries = synthetic_texts(nq, seed=99)
emb = CachedEmbedder(USEEmbedder())
emb.embed(queries)
import jieba

jieba.initialize()
steps = {"before_open": mem()}
s = Settings.from_env(env={}, secrets_path=None)
rt = Runtime.from_settings(replace(s, data_dir=Path(data_dir)), embedder=emb)
t0 = time.perf_counter()
w = rt.open(space)
steps["open_s"] = round(time.perf_counter() - t0, 2)
steps["loaded_from"] = getattr(w, "loaded_from", "?")
steps["after_open"] = mem()
lat, res = [], []
for i, q in enumerate(queries):
    pr = None
    if i == 0 and prof:
        import cProfile

        pr = cProfile.Profile()
        pr.enable()
    t0 = time.perf_counter()
    r = w.query(q, budget=1024)
    lat.append(round((time.perf_counter() - t0) * 1e3, 1))
    if pr:
        pr.disable()
        pr.dump_stats(prof)
    if i == 0:
        steps["after_q1"] = mem()
    if dump:
        res.append(
            {
                "ids": [n.id for n in r.nodes],
                "ranked": [
                    [n.id, n.score, n.relevance, n.similarity, n.lexical, n.included, n.cut_reason] for n in r.ranked
                ],
                "seeds": r.seeds,
                "edges": sorted(json.dumps(e, sort_keys=True) for e in r.edges),
                "context": r.context,
                "tokens": r.tokens,
                "decision": None if r.decision is None else r.decision.text,
                "revisions": r.config.get("revisions"),
            }
        )
steps["after_all"] = mem()
steps["lat_ms"] = lat
steps["load"] = os.getloadavg()
if dump:
    Path(dump).write_text(json.dumps(res, ensure_ascii=False))
print(json.dumps(steps))
