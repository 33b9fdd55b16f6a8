# ruff: noqa: E402  (a measurement script: imports after the argument checks, as run)
"""Ingest the same turns into a copy of a space and dump what came of it, ids replaced by positions.
usage: PYTHONPATH=<tree> python ingest_identity.py <src_data_dir or -> <space> <n_into> <scratch_dir> <out.json>
Diff two dumps with: python ingest_identity.py diff a.json b.json"""

import json
import re
import shutil
import sys
import time
from dataclasses import replace
from pathlib import Path

if sys.argv[1] == "diff":
    a, b = (json.load(open(p)) for p in sys.argv[2:4])
    bad = [k for k in a if a[k] != b.get(k)]
    for k in a:
        print(k, len(a[k]) if isinstance(a[k], list) else a[k], "identical" if a[k] == b.get(k) else "DIFFERENT")
    sys.exit(1 if bad else 0)

src, space, n, scratch, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
from weaver.bench.scale import synthetic_texts
from weaver.embedding import CachedEmbedder, USEEmbedder
from weaver.runtime import Runtime
from weaver.settings import Settings
import weaver

print(weaver.__file__, file=sys.stderr)

shutil.rmtree(scratch, ignore_errors=True)
if src != "-":
    shutil.copytree(src, scratch)
texts = synthetic_texts(n, seed=11)
emb = CachedEmbedder(USEEmbedder())
s = Settings.from_env(env={}, secrets_path=None)
rt = Runtime.from_settings(replace(s, data_dir=Path(scratch)), embedder=emb)
w = rt.open(space)
loaded = getattr(w, "loaded_from", "?")
t0 = time.perf_counter()
for t in texts:
    w.ingest(t)
getattr(w, "flush", lambda: None)()
el = time.perf_counter() - t0
order = list(w.node_ids)
pos = {nid: i for i, nid in enumerate(order)}
P = lambda x: pos.get(x, x)
nodes = [
    [n_.content, n_.kind, n_.status, n_.turn, sorted(k for k in n_.meta if k not in ("created_at",))]
    for n_ in (w.nodes[i] for i in order)
]
edges = sorted(
    [
        P(e.source),
        P(e.target),
        e.relation,
        round(float(e.confidence), 6),
        e.origin,
        getattr(e, "status", ""),
        e.rationale,
    ]
    for e in w.edges()
)
decs = [
    [
        d.content,
        d.kind,
        d.turn,
        d.kept,
        round(d.total, 6),
        round(d.relevance, 6),
        round(d.novelty, 6),
        round(d.importance, 6),
        d.reason,
        P(d.node_id),
        d.promoted,
    ]
    for d in w.decisions.values()
]
decs.sort(key=lambda r: json.dumps(r, ensure_ascii=False))


def strip(x):  # node and message ids are random: the positions stand for them
    if isinstance(x, dict):
        return {k: (P(v) if k == "id" else strip(v)) for k, v in x.items() if k != "message_id"}
    return [strip(v) for v in x] if isinstance(x, list) else x


items = sorted(
    [
        i.kind,
        P(i.source),
        P(i.target),
        i.relation,
        i.current,
        round(float(i.confidence), 6),
        re.sub(r"n_[0-9a-f]{12}", lambda m: str(P(m.group(0))), i.rationale),  # ids a rationale names, too
        i.status,
        json.dumps(strip(i.evidence), sort_keys=True, ensure_ascii=False, default=str),
    ]
    for i in w.curation.queue.values()
)
runs = [
    {k: v for k, v in r.items() if k not in ("at", "queued", "applied")}
    | {"n_queued": len(r["queued"]), "n_applied": len(r["applied"])}
    for r in w.curation.state.get("runs", [])
]
json.dump(
    {"nodes": nodes, "edges": edges, "decisions": decs, "review_items": items, "review_runs": runs},
    open(out, "w"),
    ensure_ascii=False,
)
print(
    json.dumps(
        {
            "loaded_from": loaded,
            "turns_per_s": round(n / el, 1),
            "nodes": len(nodes),
            "edges": len(edges),
            "items": len(items),
        }
    )
)
