"""The scale benchmark's bulk writer: nodes, edges and decisions through a space store, in chunks.

Absolute imports and only :mod:`weaver.models` and the store's ``put_*`` calls: the benchmark runs this file's
source in a child process on *each* system's code (a space is built by the code that will open it: a space
this release writes is not writable by older code), so it must run on older releases too.
"""

from __future__ import annotations

import time

import numpy as np

from weaver.models import Edge, FilterDecision, MemoryNode

__all__ = ["write_bulk"]


def write_bulk(w, texts: list, dim: int, seed: int, plan: tuple, chunk: int = 5000) -> int:
    """Write one node (+ edges + its decision) per text through the space store in chunks; returns the edge
    count. Vectors are random unit vectors; each node links to 1-2 recent ones, and restatements are superseded
    as ingest would have: ``plan`` is :func:`weaver.bench.scale_space.restatements` of the texts, computed by
    the code running the benchmark, so every system's space holds the same supersedes edges and statuses."""
    rng = np.random.default_rng(seed)
    n = len(texts)
    now = time.time()
    sup_edges, gone = plan
    gone = {int(k): v for k, v in dict(gone).items()}  # JSON keys are strings
    sup_into: dict[int, list[int]] = {}
    for i, j in sup_edges:
        sup_into.setdefault(j, []).append(i)
    n_edges = 0
    for start in range(0, n, chunk):
        stop = min(n, start + chunk)
        vecs = rng.standard_normal((stop - start, dim)).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        nodes, edges, decisions = [], [], []
        for i in range(start, stop):
            mid = f"bulk-{i}"
            later = gone.get(i)
            nodes.append(
                MemoryNode(
                    id=f"n-{i}",
                    content=texts[i],
                    kind="user_input",
                    turn=i + 1,
                    message_id=mid,
                    timestamp=now + i,
                    language="zh" if i % 3 == 0 else "en",
                    status="active" if later is None else "superseded",
                    meta={} if later is None else {"superseded_by": f"n-{later}"},
                )
            )
            parents = {i - 1, i - int(rng.integers(2, 20))} - set(sup_into.get(i, ()))
            for j in parents:
                if j >= 0:
                    edges.append(Edge(f"n-{j}", f"n-{i}", "elaborates", 0.6, "rules", "synthetic"))
            for j in sup_into.get(i, ()):
                edges.append(Edge(f"n-{j}", f"n-{i}", "supersedes", 0.8, "rules", "on arrival: restated (synthetic)"))
            decisions.append(
                FilterDecision(
                    mid,
                    "user_input",
                    texts[i],
                    i + 1,
                    0.5,
                    4,
                    4,
                    4,
                    4.0,
                    0.05,
                    3.0,
                    True,
                    "synthetic",
                    "bulk",
                    0.0,
                    node_id=f"n-{i}",
                    timestamp=now + i,
                )
            )
        w.space.put_nodes(nodes, vecs)
        w.space.put_edges(edges)
        w.space.put_decisions(decisions, vecs)
        n_edges += len(edges)
    # ingest runs a review pass every few kept nodes (config.review_every), so a space it built has been
    # reviewed up to about its newest node: without this the first pass after the open reviewed the bulk
    # space's 300 newest nodes at once (a real space's passes each read ~30)
    put_records = getattr(w.space, "put_records", None)
    if put_records is not None:
        put_records("review", {"state": {"reviewed_upto": n}})
    return n_edges
