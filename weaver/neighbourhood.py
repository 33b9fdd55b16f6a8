"""Per-node facts retrieval scores with: who spoke a memory, and the episode it belongs to.

Three query-time signals come from them and from the dependency edges:

- **speaker**: a query that names some participants of a conversation ("What did
  Caroline paint?") is about their own turns, so the others' memories step back;
- **episode context**: a memory's relevance is lifted by the relevance of its
  neighbours in the same episode (session, date, or agent turn), decaying with
  distance. A reply ("It helped me a lot") rarely repeats the words of the
  question it answers; its neighbours do. On LoCoMo this lifted the share of
  evidence among the top 30 memories from 73.5 to 83.7 (docs/benchmarks);
- **dependency context**: a memory also gains a share of the relevance of the
  memories it depends on or that depend on it, times the edge's confidence,
  beyond what the episode context already lent it (a neighbour is counted once).

``NodeFacts`` and ``EdgeIndex`` are kept by the weaver as nodes and edges arrive
(aligned with its node order), so a query costs a few vector operations, not a
walk over the graph.
"""

from __future__ import annotations

import re

import numpy as np

from .asking import asks

__all__ = [
    "NodeFacts",
    "EdgeIndex",
    "named_speakers",
    "speaker_offset",
    "context_lift",
    "edge_lift",
    "episode_of",
    "lends",
]


def episode_of(meta: dict | None, turn: int) -> str:
    """The episode a memory belongs to: its session, else its date, else its agent turn.

    A reflection summary (``weaver.lifecycle``) is an episode of its own: it already quotes its episode's key
    lines, and borrowing the context of the memories it digests would rank the digest above them.

    >>> episode_of({"session": 3, "date": "8 May 2023"}, 7), episode_of({}, 7)
    ('session:3', 'turn:7')
    >>> episode_of({"session": 3, "lifecycle": "summary", "region": "session:3"}, 9)
    'summary:session:3'
    """
    meta = meta or {}
    if meta.get("lifecycle") == "summary":
        return f"summary:{meta.get('region', turn)}"
    if meta.get("session") not in (None, ""):
        return f"session:{meta['session']}"
    if meta.get("date"):
        return f"date:{meta['date']}"
    return f"turn:{turn}"


class NodeFacts:
    """Speakers and episodes of the nodes, and whether a spoken memory asks (:func:`weaver.asking.asks`), in node
    order, with cached arrays."""

    def __init__(self) -> None:
        self.speaker_codes: dict[str, int] = {}  # every speaker seen -> its code
        self._speakers: list[int] = []  # -1: no speaker
        self._episode_codes: dict[str, int] = {}
        self._episodes: list[int] = []
        self._asks: list[bool] = []  # only a memory with a speaker is read (a chat between people)
        self._arrays: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def __len__(self) -> int:
        return len(self._episodes)

    def append(self, meta: dict | None, turn: int, content: str = "") -> None:
        speaker = (meta or {}).get("speaker")
        code = self.speaker_codes.setdefault(str(speaker), len(self.speaker_codes)) if speaker else -1
        self._speakers.append(code)
        self._asks.append(code >= 0 and asks(content))
        key = episode_of(meta, turn)
        self._episodes.append(self._episode_codes.setdefault(key, len(self._episode_codes)))
        self._arrays = None

    def _cached(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self._arrays is None:
            self._arrays = (
                np.asarray(self._speakers, dtype=np.int64),
                np.asarray(self._episodes, dtype=np.int64),
                np.asarray(self._asks, dtype=bool),
            )
        return self._arrays

    @property
    def speakers(self) -> np.ndarray:
        """Each node's speaker code (-1 for none)."""
        return self._cached()[0]

    @property
    def episodes(self) -> np.ndarray:
        """Each node's episode code."""
        return self._cached()[1]

    @property
    def asks(self) -> np.ndarray:
        """Whether each node, spoken by a named speaker, asks (False without a speaker)."""
        return self._cached()[2]

    @classmethod
    def of(cls, items: list[tuple]) -> "NodeFacts":
        """From ``(meta, turn)`` or ``(meta, turn, content)`` tuples."""
        facts = cls()
        for item in items:
            facts.append(*item)
        return facts


def named_speakers(query: str, speakers: set[str]) -> set[str]:
    """The conversation participants a query names (whole words; CJK names as substrings).

    >>> sorted(named_speakers("What did Caroline paint?", {"Caroline", "Melanie"}))
    ['Caroline']
    >>> named_speakers("小明喜欢什么？", {"小明", "小红"}), named_speakers("What about Carol?", {"Caroline"})
    ({'小明'}, set())
    """
    found = set()
    for name in speakers:
        if not name:
            continue
        if name.isascii():
            if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", query, re.IGNORECASE):
                found.add(name)
        elif name in query:
            found.add(name)
    return found


def speaker_offset(facts: NodeFacts | None, query: str, weight: float) -> np.ndarray | None:
    """Minus ``weight`` for memories spoken by a participant the query does not name.

    Only when the query names some, not all, of the speakers (in LoCoMo 97% of
    the evidence of a question naming one speaker is that speaker's own turns).

    >>> f = NodeFacts.of([({"speaker": "Ann"}, 1), ({"speaker": "Bo"}, 2), ({}, 3)])
    >>> speaker_offset(f, "What did Ann say?", 0.1).tolist(), speaker_offset(f, "and Bo and Ann?", 0.1)
    ([0.0, -0.10000000149011612, 0.0], None)
    """
    if facts is None or not weight or len(facts.speaker_codes) < 2:
        return None
    named = named_speakers(query, set(facts.speaker_codes))
    if not named or len(named) == len(facts.speaker_codes):
        return None
    codes = facts.speakers
    others = (codes >= 0) & ~np.isin(codes, [facts.speaker_codes[x] for x in named])
    return np.where(others, np.float32(-weight), np.float32(0.0)).astype(np.float32)


def context_lift(relevance: np.ndarray, facts: NodeFacts | None, decay: float, window: int) -> np.ndarray:
    """Each memory's relevance plus ``decay**d`` times its best neighbour's at distance ``d``.

    Neighbours are the memories ``d`` places before or after in node order, in
    the same episode; only positive relevance is lent, and unreachable memories
    (``-inf``) neither lend nor receive.

    >>> f = NodeFacts.of([({"session": 1}, 1), ({"session": 1}, 2), ({"session": 2}, 3)])
    >>> context_lift(np.array([0.8, 0.1, 0.5]), f, 0.5, 2).round(2).tolist()
    [0.85, 0.5, 0.5]
    """
    if facts is None or not decay or window < 1 or len(facts) != len(relevance) or len(relevance) < 2:
        return relevance
    ep = facts.episodes
    lend = np.where(np.isfinite(relevance), np.maximum(relevance, 0.0), 0.0)
    out = relevance.astype(np.float64, copy=True)
    n = len(relevance)
    for d in range(1, min(window, n - 1) + 1):
        same = ep[d:] == ep[:-d]
        before = np.zeros(n)
        after = np.zeros(n)
        before[d:] = np.where(same, lend[:-d], 0.0)  # the memory d places earlier
        after[:-d] = np.where(same, lend[d:], 0.0)  # the memory d places later
        out += decay**d * np.maximum(before, after)
    return out.astype(relevance.dtype, copy=False)


def lends(relation: str | None, target_meta: dict | None) -> bool:
    """Whether an edge shares relevance (:func:`edge_lift`): every usable edge but the ``elaborates`` links from a
    reflection summary's members to it (a digest of a whole episode would lift every member at once, and they it).

    >>> lends("causal", {"lifecycle": "summary"}), lends("elaborates", {"lifecycle": "summary"}), lends("elaborates", {})
    (True, False, True)
    """
    return not (relation == "elaborates" and (target_meta or {}).get("lifecycle") == "summary")


class EdgeIndex:
    """The usable (not rejected) dependency edges as arrays of node positions and confidences (only those that
    :func:`lends`).

    New edges are appended as the weaver weaves them; any other change (a curator's
    edit, a review pass) marks the index stale and it is rebuilt from the graph once.
    """

    def __init__(self) -> None:
        self._src: list[int] = []
        self._dst: list[int] = []
        self._conf: list[float] = []
        # edges loaded as arrays (from a snapshot), before those added one by one: 200k of them as Python
        # numbers took ~20 MB and a loop on every open
        self._base: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._arrays: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._plans: dict = {}  # edge_lift's per-state work (see _lift_plan)
        self.stale = False

    def __len__(self) -> int:
        return len(self._src) + (len(self._base[0]) if self._base is not None else 0)

    def load(self, source: np.ndarray, target: np.ndarray, confidence: np.ndarray) -> None:
        """Become the index of these edges (positions and confidences, aligned), as :meth:`add` for each in turn.

        >>> e = EdgeIndex(); e.load(np.array([0, 1]), np.array([2, 2]), np.array([0.5, 0.8])); e.add(1, 3, 1.0)
        >>> len(e), [a.tolist() for a in e.arrays()]
        (3, [[0, 1, 1], [2, 2, 3], [0.5, 0.8, 1.0]])
        """
        base = (
            np.asarray(source, dtype=np.int64),
            np.asarray(target, dtype=np.int64),
            np.asarray(confidence, dtype=np.float64),
        )
        if not len(base[0]) == len(base[1]) == len(base[2]):
            raise ValueError("EdgeIndex.load: one source, target and confidence per edge")
        self._src, self._dst, self._conf = [], [], []
        self._base, self._arrays, self._plans, self.stale = base, None, {}, False

    def add(self, source: int, target: int, confidence: float) -> None:
        self._src.append(source)
        self._dst.append(target)
        self._conf.append(float(confidence))
        self._arrays = None
        self._plans = {}

    def rebuild(self, g, position: dict[str, int]) -> None:
        self._src, self._dst, self._conf, self._base = [], [], [], None
        for u, v, d in g.edges(data=True):
            if d.get("status") != "rejected" and u in position and v in position:
                if lends(d.get("relation"), g.nodes[v].get("meta")):
                    self.add(position[u], position[v], d.get("confidence", 1.0))
        self._arrays = None
        self._plans = {}
        self.stale = False

    @classmethod
    def of(cls, g, ids: list[str]) -> "EdgeIndex":
        index = cls()
        index.rebuild(g, {x: i for i, x in enumerate(ids)})
        return index

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self._arrays is None:
            added = (
                np.asarray(self._src, dtype=np.int64),
                np.asarray(self._dst, dtype=np.int64),
                np.asarray(self._conf, dtype=np.float64),
            )
            base = self._base
            self._arrays = (
                added
                if base is None
                else (
                    np.concatenate([base[0], added[0]]),
                    np.concatenate([base[1], added[1]]),
                    np.concatenate([base[2], added[2]]),
                )
            )
        return self._arrays


def edge_lift(
    relevance: np.ndarray,
    edges: EdgeIndex | None,
    weight: float,
    facts: NodeFacts | None = None,
    decay: float = 0.0,
    window: int = 0,
) -> np.ndarray:
    """What each memory gains from its dependency neighbours: ``weight`` times the best
    neighbour's relevance times the edge's confidence, over edges in either direction.

    >>> e = EdgeIndex(); e.add(0, 2, 0.8)
    >>> edge_lift(np.array([1.0, 0.5, 0.1]), e, 0.5).round(2).tolist()
    [0.04, 0.0, 0.4]

    A neighbour's relevance is lent once. With ``facts`` and the episode context's ``decay`` and
    ``window`` (:func:`context_lift`), an edge between two memories at most ``window`` places apart in
    one episode lends only what its share exceeds the context's ``decay**d``: the context already lent
    that neighbour's relevance, edge or not. Most guessed edges join a reply to the turn before it
    (342 of LoCoMo conv-26's 379): lent twice, a question's neighbours outranked memories that
    matched it themselves, and graph expansion lost to the weaver without it at every budget
    (docs/benchmarks). An edge reaching further (a name introduced sessions ago) still lends in full.

    >>> f = NodeFacts.of([({"session": 1}, 1), ({"session": 1}, 2), ({"session": 2}, 3)])
    >>> e = EdgeIndex(); e.add(0, 1, 1.0); e.add(1, 2, 1.0)
    >>> edge_lift(np.array([0.8, 0.5, 0.1]), e, 0.6, f, 0.5, 3).round(2).tolist()  # 0.6 - 0.5 within session 1
    [0.05, 0.08, 0.3]
    >>> edge_lift(np.array([0.8, 0.5, 0.1]), e, 0.6).round(2).tolist()  # without the episodes: lent twice
    [0.3, 0.48, 0.3]
    """
    out = np.zeros(len(relevance))
    if edges is None or not weight or not len(edges) or not len(relevance):
        return out
    lend = np.where(np.isfinite(relevance), np.maximum(relevance, 0.0), 0.0)
    # causes lend to their effects and effects to their causes: per receiving memory, the best of its edges
    for receivers, senders, share, starts in _lift_plan(edges, len(relevance), weight, facts, decay, window):
        got = np.maximum.reduceat(lend[senders] * share, starts)
        out[receivers] = np.maximum(out[receivers], got)
    return out


def _lift_plan(edges: EdgeIndex, n: int, weight: float, facts, decay: float, window: int) -> list:
    """What :func:`edge_lift` computes from the edges alone, once per state of the edges (a query only looks up
    its relevance): for each direction, the receiving memories (unique), the lending ones and each edge's share
    grouped by receiver, and where each group starts (``np.maximum.reduceat``, which took a third of the time of
    ``np.maximum.at`` per query at 200k edges)."""
    with_facts = facts is not None and bool(decay) and window >= 1 and len(facts) == n
    key = (n, weight, decay, window, id(facts) if with_facts else None, len(facts) if with_facts else 0)
    got = edges._plans.get(key)
    if got is not None:
        return got
    src, dst, conf = edges.arrays()
    ok = (src < n) & (dst < n)
    src, dst, conf = src[ok], dst[ok], conf[ok]
    share = weight * conf
    if with_facts:
        apart = np.abs(dst - src)
        ep = facts.episodes
        near = (ep[src] == ep[dst]) & (apart >= 1) & (apart <= window)
        lent = decay ** np.clip(apart, 1, window).astype(np.float64)  # what the episode context lent already
        share = np.where(near, np.maximum(0.0, share - lent), share)
    plan = []
    for receivers, senders in ((dst, src), (src, dst)):
        if not len(receivers):
            continue
        order = np.argsort(receivers, kind="stable")
        r = receivers[order]
        starts = np.flatnonzero(np.r_[True, r[1:] != r[:-1]])
        plan.append((r[starts], senders[order], share[order], starts))
    edges._plans = {key: plan}  # one state of the edges at a time
    return plan
