"""Space maintenance: re-embedding a space with another embedder."""

from __future__ import annotations

from .embedding import embed_text_for

__all__ = ["reembed_space"]


def reembed_space(runtime, space_name: str) -> int:
    """Recompute every node and decision vector with the runtime's embedder; returns records touched.

    Runs under the space's writer lock from the read to the switch, so no other
    writer's message can fall between them. The new vectors go into new
    collections beside the old ones; one pointer write switches to them (see
    ``ChromaSpace.replace_vectors``): a kill at any moment leaves the old space
    or the new one, whole.
    """
    space = runtime.store.open_space(space_name, create=False)
    emb = runtime.embedder
    with space.write_lock():
        data = space.load()
        node_vecs = emb.embed([n.embed_text or embed_text_for(n.content, n.kind, n.meta) for n in data.nodes])
        decision_vecs = emb.embed([embed_text_for(d.content, d.kind, d.meta) for d in data.decisions])
        embedder = {"name": emb.name, "dim": emb.dim}
        space.replace_vectors(data.nodes, node_vecs, data.decisions, decision_vecs, embedder)
        space.put_meta(data.meta | {"embedder": embedder})  # the space record says so too (the pointer rules)
        space.bump_revision()  # other processes' weavers reload the new vectors
    return len(data.nodes) + len(data.decisions)
