# ruff: noqa: E401, E402, E702  (a measurement script, as run)
"""LoCoMo filter variants with leave-one-conversation-out: unlike locomo_variants.py (one ingest, query-time knobs),
a filter knob changes what is kept, so every variant ingests every conversation again (the bench's own ingest) and
answers every question of categories 1-4 at every budget; the unfiltered weaver (the bench's no-filter space) once.
Prints each variant's recall per budget and share of turns kept, then two leave-one-conversation-out choices: for
each conversation, among the variants that cost nothing against no filter on the other six (at 1,024 tokens; at
every budget), the one keeping the fewest of their turns, scored on it.
usage: PYTHONPATH=<tree> python locomo_filter_variants.py '{"own 2": {"filler_own_words": 2}, ...}'
[--conversations N] (the bench's defaults are always the row "default")"""

import json, sys
import numpy as np
from weaver.bench.cli import _DATA, _embedder
from weaver.bench.common import NO_FILTER, ingest_turns, recall, temp_runtime, weaver_picks
from weaver.bench.locomo import conversation_turns, load_locomo, questions
from weaver.settings import WeaverConfig

BUDGETS = (256, 512, 1024, 2048)
args = [a for a in sys.argv[1:] if not a.startswith("--")]
variants = {"default": {}, **json.loads(args[0] if args else "{}")}
limit = int(sys.argv[sys.argv.index("--conversations") + 1]) if "--conversations" in sys.argv else None
cfg0 = WeaverConfig()
res = {name: {} for name in [*variants, "no filter"]}
kept = {name: {} for name in variants}
with temp_runtime(_embedder(), cfg0) as rt:
    for sample in load_locomo(_DATA / "locomo" / "locomo7.json")[:limit]:
        turns = conversation_turns(sample)
        qs = [q for q in questions(sample, {t.key for t in turns}) if q["category"] != 5]
        sid = sample["sample_id"]
        for name, changes in [*variants.items(), ("no filter", NO_FILTER)]:
            w = rt.open(f"{sid}-{len(res[name])}-{abs(hash(name))}", config=cfg0.with_(**changes))
            ingest_turns(w, turns, sid)
            if name in kept:
                kept[name][sid] = (sum(d.kept for d in w.decisions.values()), len(w.decisions))
            res[name][sid] = np.array(
                [
                    [recall(weaver_picks(w, w.query(q["question"], budget=b)), q["evidence"]) for b in BUDGETS]
                    for q in qs
                ]
            )
        print(sid, "done", flush=True)
sids = list(res["default"])
share = lambda n, ss: sum(kept[n][s][0] for s in ss) / sum(kept[n][s][1] for s in ss)  # noqa: E731
mean = lambda n, ss: np.concatenate([res[n][s] for s in ss]).mean(0)  # noqa: E731
for name in res:
    k = f"{100 * share(name, sids):.1f}% kept" if name in kept else ""
    print(f"{name:24s}", " / ".join(f"{x:.1f}" for x in 100 * mean(name, sids)), k)
for label, cols in (("at 1,024", [2]), ("at every budget", [0, 1, 2, 3])):
    held, picks, k = [], [], [0, 0]
    for s in sids:
        others = [o for o in sids if o != s]
        base = mean("no filter", others)
        free = [n for n in variants if all(mean(n, others)[cols] >= base[cols] - 1e-9)]
        best = (
            min(free, key=lambda n: share(n, others)) if free else max(variants, key=lambda n: mean(n, others).mean())
        )
        picks.append(best)
        held.append(res[best][s])
        k[0] += kept[best][s][0]
        k[1] += kept[best][s][1]
    print(
        f"leave-one-conversation-out (no cost {label}):",
        " / ".join(f"{x:.1f}" for x in 100 * np.concatenate(held).mean(0)),
        f"{100 * k[0] / k[1]:.1f}% kept",
        picks,
    )
