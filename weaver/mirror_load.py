"""Filling a fresh :class:`~weaver.mirror.Mirror` and task focus from a space's stored records (on open).

The facade (:class:`~weaver.core.ContextWeaver`) owns the mirror and swaps it whole; this module owns how
one is filled from what the store read: the embedder check (vectors of two embedders never mix), the
snapshot fast path or the rows read from Chroma, and the replay of the focus over the latest memories. The
facade reads the store itself (it keeps the revision it read) and keeps what this returns.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from .embedding import Embedder
from .filtering import TaskFocus, focus_history
from .mirror import Mirror
from .models import WeaverError
from .store_api import SpaceData, SpaceStore

__all__ = ["check_embedder", "fill_mirror"]


def check_embedder(space: SpaceStore, embedder: Embedder, meta: dict) -> None:
    """Refuse a space built with another embedder; record ours on a space that names none yet."""
    emb = meta.get("embedder")
    if emb and (emb.get("name") != embedder.name or int(emb.get("dim", 0)) != embedder.dim):
        raise WeaverError(
            f"space {space.name!r} was built with embedder {emb.get('name')} ({emb.get('dim')}-d), "
            f"not {embedder.name} ({embedder.dim}-d); mixing vectors would make similarity "
            f"meaningless. Run `python -m weaver --space {space.name} reembed` to convert it."
        )
    if not emb:
        meta["embedder"] = {"name": embedder.name, "dim": embedder.dim}
        space.put_meta(meta)


def fill_mirror(
    space: SpaceStore,
    data: SpaceData,
    dim: int,
    embed: Callable[[list[str]], np.ndarray],
    m: Mirror,
    focus: TaskFocus,
) -> str:
    """Fill the empty mirror ``m`` and ``focus`` from ``data`` (read from ``space``; ``embed``: the facade's
    cut-and-embed); returns where it came from, "snapshot" or "chroma". ``data.meta`` gains the focus history.
    """
    meta = data.meta
    vecs = data.node_vectors if data.node_vectors is not None else np.zeros((0, dim), np.float32)
    decisions = data.decisions
    if data.snapshot is not None:  # nodes already in the mirror's order, with what the mirror derives
        m.adopt(data.nodes, vecs, data.snapshot)  # and the decisions, each made when first read
        decisions = data.snapshot.decisions.shifted()  # what the focus history reads below
    else:
        cache = space.read_cache("derived") if data.nodes else {}
        rows = sorted(range(len(data.nodes)), key=lambda i: (data.nodes[i].turn, data.nodes[i].timestamp))
        m.add_nodes([data.nodes[i] for i in rows], vecs, np.asarray(rows, dtype=np.int64), cache)
        if m.derived_misses or len(cache) > len(m.derived):  # new nodes (or removed ones): the next open
            space.write_cache("derived", m.derived)  # reuses it
    data.node_vectors = data.snapshot = None  # the mirror holds them now: one copy at a time
    del vecs
    m.add_edges(data.edges)
    own = data.own_decision_vectors
    dvecs = data.decision_vectors
    timed = () if data.from_snapshot else sorted(range(len(data.decisions)), key=lambda i: data.decisions[i].timestamp)
    for i in timed:
        dec = data.decisions[i]  # (from a snapshot, adopt took them)
        m.add_decision(dec, own.get(dec.message_id) if own is not None else None if dvecs is None else dvecs[i])
    loaded_from = "snapshot" if data.from_snapshot else "chroma"
    # a full load: the next open reads it back in a fraction of the time, while nothing changes the space
    space.write_snapshot(data, m)
    if any(d.focus_shift_at for d in decisions) or "focus_history" in meta:
        meta["focus_history"] = focus_history(meta.get("focus_history", []), decisions)
    task = meta.get("task")
    if task:
        focus.set_task(task, embed([task])[0])
    for nid in m.order[-focus.window :]:
        node = m.nodes[nid]
        d = m.decisions.get(node.message_id or "")
        if d is not None and d.focus_shift_at:  # the topic opened there, as when it was ingested
            focus.begin_topic()
        focus.observe(m.vector_of(nid), node.importance, node.kind, node.content)
    return loaded_from
