"""A fact said anew links back to what it updates: "I moved to Berlin" after "I live in Paris".

The two share no word, so neither the link model (a few turns back) nor a revisit (a shared rare word) finds the
pair, and a question about where the user lives seeds on the old statement alone. Where the speaker lives or
works holds one value at a time (:mod:`weaver.fact_frames`): the latest earlier statement of the same frame by
the same speaker, with another value, is the memory the new one updates. The edge is ``temporal`` (first
Paris, then Berlin), so retrieval reaching either reaches both, in order; marking the old one superseded is the
curator's call (the review pass proposes it: :mod:`weaver.curation.fact_updates`).

>>> from weaver.models import MemoryNode
>>> n = lambda i, text: MemoryNode(f"n{i}", text, "user_input", i, "m")
>>> earlier = [n(0, "I live in Paris now."), n(1, "I love cycling."), n(2, "My sister lives in Rome.")]
>>> update_parents(n(3, "We moved to Berlin last month."), earlier, set())
[(0, 'where they live said anew: Paris -> Berlin')]
>>> update_parents(n(3, "I still live in Paris, near the Seine."), earlier, set())  # the same value
[]
>>> earlier.append(n(4, "I work at a bank."))
>>> update_parents(n(5, "We moved to Berlin and I got a new job at a bakery."), earlier, set())
[(0, 'where they live said anew: Paris -> Berlin'), (3, 'where they work said anew: bank -> bakery')]
"""

from __future__ import annotations

from ..fact_frames import FRAME_NAMES, frame_values, same_speaker, same_values
from ..models import MemoryNode

__all__ = ["update_parents", "is_update", "UPDATE_CONFIDENCE", "UPDATE_WHY"]

UPDATE_CONFIDENCE = 0.6  # read from words, as the review pass's proposal: a curator may prune it
UPDATE_WHY = " said anew: "  # in every update edge's rationale (retrieval carries a fact forward along it)


def is_update(edge: dict) -> bool:
    """An edge from a statement of where the speaker lives or works to the later one that says it anew.

    >>> is_update({"origin": "rules", "rationale": "where they work said anew: bank -> bakery"})
    True
    >>> is_update({"origin": "rules", "rationale": "revisits 'work' from session 1"})
    False
    """
    return edge.get("status") != "rejected" and UPDATE_WHY in str(edge.get("rationale") or "")


def update_parents(node: MemoryNode, earlier: list[MemoryNode], exclude: set[str]) -> list[tuple[int, str]]:
    """(index into ``earlier``, why) of the latest earlier statement of each frame ``node`` says anew (a message
    can move and change jobs at once), oldest parent first.

    ``earlier``: earlier active memories, oldest first; ``exclude``: parents already linked.
    """
    if node.kind != "user_input":
        return []
    wanted = frame_values(node.content)
    latest: dict[str, tuple[int, list[str]]] = {}  # frame -> (index, values) of its latest earlier statement
    # one pass back over the earlier memories for every frame said, each read once, until each frame is found
    for i in range(len(earlier) - 1, -1, -1):
        if len(latest) == len(wanted):
            break
        old = earlier[i]
        if old.kind != "user_input" or not same_speaker(old.meta, node.meta):
            continue
        for frame, was in frame_values(old.content).items():
            if frame in wanted:
                latest.setdefault(frame, (i, was))
    out: list[tuple[int, str]] = []
    for frame, value in wanted.items():
        i, was = latest.get(frame, (-1, []))
        # none, or the latest statement of the frame holds these values, or is linked already
        if i < 0 or same_values(was, value) or earlier[i].id in exclude or any(i == j for j, _ in out):
            continue
        out.append((i, f"{FRAME_NAMES[frame]}{UPDATE_WHY}{', '.join(was)} -> {', '.join(value)}"))
    return sorted(out)
