# ruff: noqa: E401, E402, E702  (a measurement script, as run)
"""LoCoMo variants side by side over one ingest, with leave-one-conversation-out: each conversation is ingested once
(the bench's own ingest), then every variant (a WeaverConfig change, with or without graph expansion) answers every
question of categories 1-4 at every budget. Prints in-sample recall per budget and per category at 1,024 tokens,
query p50 / p95, and for the family of variants with expansion (and the one without) the leave-one-conversation-out
recall: for each conversation, the variant with the best mean over budgets on the other six, scored on it.
usage: PYTHONPATH=<tree> python locomo_variants.py '{"name": {"w_date": 0.5}, "other": {...}}' [--no-expand]
(each variant also runs without expansion with --no-expand; the bench's defaults are always the row "default")"""

import json, sys, time
import numpy as np
from weaver.bench.cli import _DATA, _embedder
from weaver.bench.common import ingest_turns, recall, temp_runtime, weaver_picks
from weaver.bench.locomo import conversation_turns, load_locomo, questions
from weaver.settings import WeaverConfig

BUDGETS = (256, 512, 1024, 2048)
variants = {"default": {}, **json.loads(sys.argv[1] if len(sys.argv) > 1 else "{}")}
runs = [(name, ch, True) for name, ch in variants.items()]
if "--no-expand" in sys.argv:
    runs += [(f"{name} no-expand", ch, False) for name, ch in variants.items()]
cfg0 = WeaverConfig()
res = {name: {} for name, _, _ in runs}
lat = {name: [] for name, _, _ in runs}
cats = {}
with temp_runtime(_embedder(), cfg0) as rt:
    for sample in load_locomo(_DATA / "locomo" / "locomo7.json"):
        turns = conversation_turns(sample)
        qs = [q for q in questions(sample, {t.key for t in turns}) if q["category"] != 5]
        sid = sample["sample_id"]
        w = rt.open(f"{sid}-full")
        ingest_turns(w, turns, sid)
        cats[sid] = np.array([q["category"] for q in qs])
        for name, changes, expand in runs:
            cfg = cfg0.with_(**changes)
            arr = np.zeros((len(qs), len(BUDGETS)))
            for i, q in enumerate(qs):
                for j, b in enumerate(BUDGETS):
                    t0 = time.perf_counter()
                    r = w.query(q["question"], budget=b, expand=expand, config=cfg)
                    if b == 1024:
                        lat[name].append((time.perf_counter() - t0) * 1e3)
                    arr[i, j] = recall(weaver_picks(w, r), q["evidence"])
            res[name][sid] = arr
        print(sid, "done", flush=True)
sids = list(cats)
c = np.concatenate([cats[s] for s in sids])
for name in res:
    a = np.concatenate([res[name][s] for s in sids])
    by = " / ".join(f"{100 * a[c == k, 2].mean():.1f}" for k in (1, 2, 3, 4))
    p = np.percentile(lat[name], [50, 95])
    print(
        f"{name:30s}",
        " / ".join(f"{x:.1f}" for x in 100 * a.mean(0)),
        f"| cats 1-4 at 1,024: {by}",
        f"| p50 / p95 {p[0]:.2f} / {p[1]:.2f} ms",
    )
for family in ([n for n, _, e in runs if e], [n for n, _, e in runs if not e]):
    if len(family) < 2:
        continue
    held, picks = [], []
    for s in sids:
        best = max(family, key=lambda n: np.concatenate([res[n][o] for o in sids if o != s]).mean())
        picks.append(best)
        held.append(res[best][s])
    print("leave-one-conversation-out", " / ".join(f"{x:.1f}" for x in 100 * np.concatenate(held).mean(0)), picks)
