"""The scale benchmark's big spaces, written through the store in bulk (the benchmark's own path, not a feature).

A bulk-built space should look like what real ingest of the same turns leaves behind, or ingest *into* it
measures an artefact: the synthetic turns restate a few slots (budget, hotel area, allergies) thousands of
times, and real ingest supersedes each earlier statement as its restatement arrives
(:mod:`weaver.curation.arrival`). Written all active, the first new message found thousands of statements to
supersede and the review passes then covered them. :func:`restatements` replays the same slot rules over the
turns in order, so the builder writes the ``supersedes`` edges and ``superseded`` statuses ingest would have.
"""

from __future__ import annotations

from ..curation.arrival import MAX_RESIDUE
from ..slots import asks_about, changes, is_another, is_change, read_slots, residue

__all__ = ["restatements", "bulk_space"]


def bulk_space(w, texts: list[str], dim: int, seed: int, chunk: int = 5000) -> int:
    """:func:`weaver.bench.scale_writer.write_bulk` with this code's :func:`restatements` of ``texts``."""
    from .scale_writer import write_bulk

    return write_bulk(w, texts, dim, seed, restatements(texts), chunk)


def restatements(texts: list[str]) -> tuple[list[tuple[int, int]], dict[int, int]]:
    """Replay supersede-on-arrival over user turns in order: ``(old, new)`` supersedes edges and
    ``{old: new}`` for the statements superseded as a whole (every slot they state restated since).

    The rules are arrival's (:func:`weaver.curation.arrival.plan_supersedes`) for one speaker in one session:
    only an earlier *active* statement sharing a slot is compared, :func:`weaver.slots.changes` decides whether
    the value changed, and a statement is superseded once all its slots were restated and it says little else.

    >>> edges, gone = restatements(["My total budget is 5000 yuan", "I'm allergic to peanuts",
    ...                             "My total budget is 8000 yuan", "My total budget is 9000 yuan"])
    >>> edges, gone
    ([(0, 2), (2, 3)], {0: 2, 2: 3})
    """
    vals = [read_slots(t) for t in texts]
    active: dict[tuple[str, str], set[int]] = {}  # slot key -> active statements holding it
    restated: dict[int, set] = {}  # an active statement -> its keys some later statement stated again
    edges: list[tuple[int, int]] = []
    gone: dict[int, int] = {}
    for j, text in enumerate(texts):
        if not vals[j]:
            continue
        said = {v.key for v in vals[j]}
        keys = {v.key for v in vals[j] if v.known}
        sharing = sorted({i for k in said for i in active.get(k, ())}, reverse=True)  # newest first
        if keys and not is_another(text) and not asks_about(text):
            cue = is_change(text)
            for i in sharing:
                old_keys = {v.key for v in vals[i]}
                if not keys & old_keys or not changes(vals[i], vals[j], cue):
                    continue
                edges.append((i, j))
                if old_keys <= restated.get(i, set()) | keys and len(residue(texts[i]) - residue(text)) <= MAX_RESIDUE:
                    gone[i] = j
                    for k in old_keys:
                        active[k].discard(i)
        for i in sharing:
            if i not in gone:
                restated.setdefault(i, set()).update(said & {v.key for v in vals[i]})
        for k in said:
            active.setdefault(k, set()).add(j)
    return edges, gone
