"""Space maintenance: re-embedding a space with another embedder."""

from __future__ import annotations

from .embedding import embed_text_for

__all__ = ["reembed_space"]


def reembed_space(runtime, space_name: str) -> int:
    """Recompute every node and decision vector with the runtime's embedder; returns records touched."""
    space = runtime.store.open_space(space_name, create=False)
    data = space.load()
    emb = runtime.embedder
    node_vecs = emb.embed([n.embed_text or embed_text_for(n.content, n.kind, n.meta) for n in data.nodes])
    decision_vecs = emb.embed([embed_text_for(d.content, d.kind, d.meta) for d in data.decisions])
    space.recreate_vector_collections()
    if data.nodes:
        space.put_nodes(data.nodes, node_vecs)
    if data.decisions:
        space.put_decisions(data.decisions, decision_vecs)
    meta = data.meta
    meta["embedder"] = {"name": emb.name, "dim": emb.dim}
    space.put_meta(meta)
    return len(data.nodes) + len(data.decisions)
