"""Revisits: a person who comes back, in a later session, to what they talked about in an earlier one.

"Last Sunday my friends and I took a rock climbing class" and, sessions later, "we went fishing in one of the
nearby lakes": a conversation over months returns to the same things (a hobby, a trip, a game), and a question
that gathers them ("What outdoor activities has Andrew done?") needs the turns of every session. The link model
and the reference rules look a few turns back, within a session; the episode context lends only within one. This
links a memory to the earlier memory **of the same named speaker, in another session**, that is most similar to it,
when the two are similar enough and share a word few memories use (a common word is no topic). Without speaker
names the user's messages are one person's: a user message in a conversation's ``session`` revisits the user's
earlier sessions ("The dentist moved my appointment" to "I have a dentist appointment on Friday"). It abstains
otherwise: an agent's steps, a single chat, memories dated only by their event.

A revisit lends relevance only for what it adds: its confidence is ``1 - similarity``. A later turn that repeats
an earlier one (a near duplicate) would otherwise lift a whole cluster of like turns together and push the turn
that answers a question out of a small budget; on LoCoMo a fixed confidence cost up to 0.6 points at 512 tokens,
this one 0.1 at most (docs/benchmarks/README.md, "Revisits across sessions").

>>> shared_rare({"climb", "class", "sunday"}, {"climb", "gym"}, lambda w: 2)
'climb'
>>> shared_rare({"game", "won"}, {"game", "team"}, lambda w: 40) is None
True
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..models import MemoryNode

__all__ = [
    "revisit_parent",
    "shared_rare",
    "episode_key",
    "is_revisit",
    "REVISIT_WHY",
    "REVISIT_SIMILARITY",
    "RARE_HOLDERS",
    "REVISIT_LOOKBACK",
]

REVISIT_SIMILARITY = 0.5  # cosine of the two memories: below it, no revisit (chosen by leave-one-conversation-out)
RARE_HOLDERS = 5  # a shared word more earlier memories hold is a common word, not a topic (as references.MAX_SHARING)
REVISIT_LOOKBACK = 1000  # earlier memories searched: a revisit's cost per ingest stays bounded at any size
CANDIDATES = 20  # the most similar earlier memories looked at, best first
REVISIT_WHY = "revisits "  # how a revisit's rationale begins


def is_revisit(edge: dict) -> bool:
    """A revisit edge (its confidence is what it adds, ``1 - similarity``, not a belief that it is right).

    >>> is_revisit({"origin": "rules", "rationale": "revisits 'climb' from session 3 (similarity 0.8)"})
    True
    """
    return edge.get("origin") == "rules" and str(edge.get("rationale") or "").startswith(REVISIT_WHY)


def episode_key(meta: dict | None) -> str | None:
    """The session (else date) a memory names, or None.

    >>> episode_key({"session": 3, "date": "8 May"}), episode_key({"date": "8 May"}), episode_key({})
    ('session:3', 'date:8 May', None)
    """
    meta = meta or {}
    for key in ("session", "date"):
        if meta.get(key) not in (None, ""):
            return f"{key}:{meta[key]}"
    return None


def _who(node: MemoryNode) -> str | None:
    """Whose memory can be revisited: a named speaker's; else the user's own messages in a conversation's session
    (a user coming back to the dentist or the marathon in a later chat). Not the agent's steps, and not a list of
    memories each dated by its event (MADial: a date says when something happened, not a sitting of talk)."""
    name = node.meta.get("speaker")
    if name:
        return str(name)
    if node.kind == "user_input" and node.meta.get("session") not in (None, ""):
        return "\x00user"  # no name can collide with it
    return None


def shared_rare(child: set[str], parent: set[str], holders: Callable[[str], int]) -> str | None:
    """A word both memories use that at most :data:`RARE_HOLDERS` earlier memories hold (the rarest), or None."""
    best: tuple[int, str] | None = None
    for w in child & parent:
        n = holders(w)
        if n <= RARE_HOLDERS and (best is None or (n, w) < best):
            best = (n, w)
    return best[1] if best else None


def revisit_parent(
    child: MemoryNode,
    vec: np.ndarray,
    earlier: list[MemoryNode],
    earlier_vecs: np.ndarray,
    words: Callable[[str], set[str]],
    holders: Callable[[str], int],
) -> tuple[int, float, str] | None:
    """(index into ``earlier``, similarity, shared word) of the earlier memory ``child`` revisits, or None.

    ``earlier``: earlier memories, oldest first, with their vectors (unit length) as rows of ``earlier_vecs``;
    ``words(text)``: a text's content words; ``holders(word)``: how many earlier memories hold the word.

    >>> n = lambda i, text, s, who="Ann": MemoryNode(f"n{i}", text, "user_input", i, "m",
    ...                                               meta={"session": s, "speaker": who})
    >>> old = [n(0, "Ann: we climbed at the gym", 1), n(1, "Bo: nice", 1), n(2, "Ann: pizza tonight", 2)]
    >>> V = np.eye(3, dtype=np.float32)
    >>> child, v = n(3, "Ann: climbed again today", 3), np.array([0.8, 0.0, 0.6], dtype=np.float32)
    >>> words = lambda t: set(t.lower().replace(":", "").split()) - {"ann", "at", "the", "we"}
    >>> revisit_parent(child, v, old, V, words, lambda w: 1)
    (0, 0.8, 'climbed')
    >>> revisit_parent(n(3, "Ann: climbed", 1), v, old, V, words, lambda w: 1) is None  # same session
    True
    >>> revisit_parent(child, v, old, V, words, lambda w: 9) is None  # only common words shared
    True
    """
    me, episode = _who(child), episode_key(child.meta)
    if not me or episode is None or not len(earlier):
        return None
    sims = earlier_vecs @ np.asarray(vec, dtype=earlier_vecs.dtype)
    mine = None
    for j in np.argsort(-sims)[:CANDIDATES]:
        j = int(j)
        sim = float(sims[j])
        if sim < REVISIT_SIMILARITY:
            break
        parent = earlier[j]
        if _who(parent) != me or episode_key(parent.meta) in (None, episode):
            continue
        mine = words(child.content) if mine is None else mine
        word = shared_rare(mine, words(parent.content), holders)
        if word is not None:
            return j, round(sim, 3), word
    return None
