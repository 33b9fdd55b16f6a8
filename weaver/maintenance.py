"""Space maintenance: re-embedding a space with another embedder, rewriting an older one in the current layout."""

from __future__ import annotations

from .embedding import embed_text_for

__all__ = ["compact_space", "reembed_space"]


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
        space.replace_vectors(data.nodes, node_vecs, data.decisions, decision_vecs, embedder, space.stored_edges())
        space.put_meta(data.meta | {"embedder": embedder})  # the space record says so too (the pointer rules)
        space.bump_revision()  # other processes' weavers reload the new vectors
    return len(data.nodes) + len(data.decisions)


def compact_space(runtime, space_name: str) -> int:
    """Rewrite a space in the current layout with the vectors it has (no embedding); returns records written.

    A space written before layout 2 stores each kept message's vector twice
    (node and decision) plus a base64 copy of each in metadata, and every
    record of an earlier release one metadata key per field; this writes the nodes,
    the decisions with only a rejected message's vector of their own, and the
    edges, packed (:mod:`weaver.record_codec`), into new collections and switches
    to them as a reembed does (same crash safety: the old space or the new one,
    whole).
    """
    import numpy as np

    from .models import WeaverError

    space = runtime.store.open_space(space_name, create=False)
    with space.write_lock():
        data = space.load()
        dim = data.node_vectors.shape[1] if data.node_vectors is not None else runtime.embedder.dim
        own = space.own_vectors(data)
        dvecs = np.zeros((len(data.decisions), dim), dtype=np.float32)
        for i, d in enumerate(data.decisions):
            if not d.node_id:
                if d.message_id not in own:
                    raise WeaverError(f"space {space_name!r}: message {d.message_id} has no stored vector")
                dvecs[i] = own[d.message_id]
        nvecs = data.node_vectors if data.node_vectors is not None else np.zeros((0, dim), dtype=np.float32)
        embedder = data.meta.get("embedder") or {"name": runtime.embedder.name, "dim": runtime.embedder.dim}
        space.replace_vectors(data.nodes, nvecs, data.decisions, dvecs, embedder, space.stored_edges())
        space.bump_revision()  # other processes' weavers reload from the new collections
    return len(data.nodes) + len(data.decisions)
