"""The columns a snapshot (:mod:`weaver.snapshot`) holds and an open adopts: edges, filter decisions, BM25 tokens.

Each is the in-memory form the mirror reads straight from the ``.npz``
members, with the code that turns records into those members and checks the
members read back (a torn or corrupt member raises ValueError, so the open
falls back to a full load). They live apart from the snapshot's file handling
(stamp, atomic write, read) because they are what the rest of the weaver
touches: the mirror adopts :class:`EdgeColumns` and :class:`DecisionRows`, the
BM25 index reads a :class:`TokenColumn`, the statement cache parses with
:func:`json_loads`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import fields

import numpy as np

from .lazy_records import LazyRecords
from .models import Edge, FilterDecision

__all__ = [
    "EDGE_TEXT",
    "NO_NODE",
    "TOKEN_SEP",
    "UNPLACED",
    "DecisionRows",
    "EdgeColumns",
    "TokenColumn",
    "as_bytes",
    "json_loads",
]

EDGE_TEXT = ("relation", "origin", "rationale", "status")  # string fields of an edge, stored as codes
NO_NODE, UNPLACED = -1, -2  # a decision's node position (DecisionRows.node_at): none; not among the nodes written
TOKEN_SEP = "\x00"  # joins every node's BM25 tokens into one string (no token holds it)


def json_loads(raw: bytes | memoryview):
    """JSON, parsed by orjson (a dependency of chromadb; several times faster on 100k records) when it can; a
    memoryview (of a snapshot member) is parsed without a copy of its bytes."""
    try:
        import orjson
    except ImportError:  # pragma: no cover - chromadb requires it
        return json.loads(bytes(raw))
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:  # e.g. an Infinity, which the standard module writes and reads
        return json.loads(bytes(raw))


def as_bytes(data: bytes) -> np.ndarray:
    """``data`` as a uint8 array (how a snapshot member holds bytes)."""
    return np.frombuffer(data, dtype=np.uint8)


class EdgeColumns:
    """A space's edges as columns, in load order: endpoints as positions in the node order, each string field as
    codes into its table of values (``texts[field]``), confidence and time as floats. Opening a 100k-node space
    spent ~2.5 s parsing 200k edges into objects; the mirror builds its graph and edge index from these."""

    def __init__(self, source, target, codes, texts, confidence, created_at):
        self.source: np.ndarray = source  # int32 node positions
        self.target: np.ndarray = target
        self.codes: np.ndarray = codes  # int32, one column per EDGE_TEXT field
        self.texts: dict[str, list[str]] = texts
        self.confidence: np.ndarray = confidence  # float64: the values written, bit for bit
        self.created_at: np.ndarray = created_at

    def __len__(self) -> int:
        return len(self.source)

    def holds(self, field: str, value: str) -> np.ndarray:
        """Which edges have ``value`` in the string field ``field`` (a mask, from the codes).

        >>> c = EdgeColumns.of([Edge("a", "b", "causal", 1.0, "rules"), Edge("b", "a", "elaborates", 1.0, "rules")],
        ...                    {"a": 0, "b": 1})
        >>> c.holds("relation", "elaborates").tolist(), c.holds("status", "rejected").tolist()
        ([False, True], [False, False])
        """
        table = self.texts[field]
        if value not in table:
            return np.zeros(len(self), dtype=bool)
        return self.codes[:, EDGE_TEXT.index(field)] == table.index(value)

    def column(self, field: str) -> list[str]:
        """The values of one string field, one per edge."""
        table = self.texts[field]
        return [table[i] for i in self.codes[:, EDGE_TEXT.index(field)].tolist()]

    @classmethod
    def of(cls, edges: list[Edge], position: dict[str, int]) -> "EdgeColumns":
        """The edges whose two ends are at ``position`` (the mirror skips any other), in their order.

        >>> e = [Edge("a", "b", "causal", 0.5, "rules", "why", 1.0, "proposed"), Edge("a", "x", "causal", 1.0, "rules")]
        >>> c = EdgeColumns.of(e, {"a": 0, "b": 1})
        >>> len(c), c.source.tolist(), c.target.tolist(), c.column("rationale"), c.confidence.tolist()
        (1, [0], [1], ['why'], [0.5])
        """
        kept = [e for e in edges if e.source in position and e.target in position]
        texts: dict[str, list[str]] = {}
        codes = np.zeros((len(kept), len(EDGE_TEXT)), dtype=np.int32)
        for j, name in enumerate(EDGE_TEXT):
            slot: dict[str, int] = {}
            codes[:, j] = [slot.setdefault(getattr(e, name), len(slot)) for e in kept]
            texts[name] = list(slot)
        return cls(
            np.asarray([position[e.source] for e in kept], dtype=np.int32),
            np.asarray([position[e.target] for e in kept], dtype=np.int32),
            codes,
            texts,
            np.asarray([e.confidence for e in kept], dtype=np.float64),
            np.asarray([e.created_at for e in kept], dtype=np.float64),
        )

    def fits(self, n: int) -> bool:
        """Whether the columns are whole and point inside ``n`` nodes and their tables."""
        e = len(self.source)
        if not (
            len(self.target) == len(self.confidence) == len(self.created_at) == e
            and self.codes.shape == (e, len(EDGE_TEXT))
        ):
            return False
        if set(self.texts) != set(EDGE_TEXT) or self.source.dtype != np.int32 or self.target.dtype != np.int32:
            return False
        if not e:
            return True
        ends = (self.source.min(), self.source.max(), self.target.min(), self.target.max())
        tables = np.asarray([len(self.texts[f]) for f in EDGE_TEXT])
        return (
            min(ends) >= 0 and max(ends) < n and self.codes.min() >= 0 and bool((self.codes.max(axis=0) < tables).all())
        )


class DecisionRows(Sequence):
    """A snapshot's filter decisions as JSON rows (one per decision, in the order written), made into
    :class:`FilterDecision` objects only when read (:meth:`records`): at 100k nodes parsing all of them cost
    ~100 MB and a fifth of a warm open. What an open needs of all of them is stored beside: the keys, the order
    the mirror keeps them in (by time), the latest turn, the rows that moved the task focus. As a sequence,
    each decision in the order written, made anew on every read (what a reembed or a compact reads)."""

    def __init__(self, blob, ends: np.ndarray, keys: list[str], order: np.ndarray, turns, shifts) -> None:
        """``blob``: the rows' UTF-8 bytes (or a uint8 array of them), row ``i`` ending at ``ends[i]``."""
        self.blob, self.ends, self.keys, self.order = blob, ends, keys, order
        self.turn = int(turns.max()) if len(turns) else 0  # the latest turn any decision was made at
        self._shifts = shifts  # rows whose decision moved the task focus
        # message id -> the build audit entry its decision carries (the decisions of kept messages)
        self.audits: dict[str, dict] = {}
        # per row, the position (in the node order written) of the node its decision names: NO_NODE for a
        # rejected message, UNPLACED for a node not among those written (read from the decision itself)
        self.node_at: np.ndarray = np.zeros(0, dtype=np.int32)

    def __len__(self) -> int:
        return len(self.keys)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):  # a list of the decisions made (a writer's batch)
            return [self.make(j) for j in range(len(self))[i]]
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        return self.make(i % len(self))

    def make(self, row: int) -> FilterDecision:
        """The decision at ``row`` (of the order written)."""
        a = int(self.ends[row - 1]) if row else 0
        return FilterDecision(*json_loads(memoryview(self.blob)[a : int(self.ends[row])]))

    def records(self) -> LazyRecords:
        """message id -> decision, in the mirror's order, each made when first read."""
        rows = self.order.tolist()
        return LazyRecords([self.keys[i] for i in rows], rows, self.make)

    def shifted(self) -> list[FilterDecision]:
        """The decisions that moved the task focus, in the order written (what the focus history reads)."""
        return [self.make(int(i)) for i in self._shifts]

    @staticmethod
    def members(decisions: list[FilterDecision], position: dict[str, int]) -> dict[str, np.ndarray]:
        """The snapshot members of ``decisions`` (:func:`weaver.snapshot.write_snapshot`; ``position``: node id ->
        its place in the node order written).

        >>> d = [FilterDecision("m1", "user_input", "hi", 2, *[0.5] * 7, True, "ok", "rules", 1.0, timestamp=5.0),
        ...      FilterDecision("m2", "user_input", "yo", 1, *[0.5] * 7, False, "no", "rules", 1.0, timestamp=4.0)]
        >>> got = DecisionRows.read(DecisionRows.members(d, {}))
        >>> len(got), got.turn, list(got.records()), got.records()["m1"] == d[0], got.shifted(), list(got) == d
        (2, 2, ['m2', 'm1'], True, [], True)
        >>> got[1:] == d[1:], got[-1] == d[1], got.audits, got.node_at.tolist() == [NO_NODE] * 2
        (True, True, {}, True)
        """
        names = [f.name for f in fields(FilterDecision)]
        rows = [
            json.dumps([getattr(d, n) for n in names], ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            for d in decisions
        ]
        return {
            "decision_fields": as_bytes(json.dumps(names).encode("utf-8")),
            "decisions": as_bytes(b"".join(rows)),
            "decision_ends": np.cumsum([len(r) for r in rows], dtype=np.int64),
            "decision_keys": as_bytes(json.dumps([d.message_id for d in decisions], ensure_ascii=False).encode()),
            # the mirror's order: by time, ties in the order written (a stable sort, as a full load sorts them)
            "decision_order": np.asarray(
                sorted(range(len(decisions)), key=lambda i: decisions[i].timestamp), dtype=np.int64
            ),
            "decision_turns": np.asarray([d.turn for d in decisions], dtype=np.int64),
            "decision_shifts": np.asarray([i for i, d in enumerate(decisions) if d.focus_shift_at], dtype=np.int64),
            # the rows that carry their node's build audit entry, and those entries (what curation reads on open:
            # a space built by ingest has one per kept message)
            "decision_audited": np.asarray([i for i, d in enumerate(decisions) if d.audit and d.node_id], np.int64),
            "decision_nodes": np.asarray(
                [position.get(d.node_id, UNPLACED) if d.node_id else NO_NODE for d in decisions], dtype=np.int32
            ),
            "decision_audits": as_bytes(
                json.dumps([d.audit for d in decisions if d.audit and d.node_id], ensure_ascii=False).encode("utf-8")
            ),
        }

    @classmethod
    def read(cls, z) -> "DecisionRows":
        """The rows from the members :meth:`members` wrote (``z``: the open archive); ValueError when they
        do not fit together."""
        if json_loads(z["decision_fields"].tobytes()) != [f.name for f in fields(FilterDecision)]:
            raise ValueError("snapshot decisions: the model's fields changed")
        blob, ends = z["decisions"], z["decision_ends"]  # the rows read in place (no copy: 19 MB at 100k)
        keys, order = json_loads(z["decision_keys"].tobytes()), z["decision_order"]
        turns, shifts, audited = z["decision_turns"], z["decision_shifts"], z["decision_audited"]
        n = len(keys)
        if not (len(ends) == len(order) == len(turns) == n) or (n and int(ends[-1]) != len(blob)):
            raise ValueError("snapshot decisions: the columns do not fit")
        if n and (bool((np.diff(ends) < 0).any()) or int(ends[0]) < 0):
            raise ValueError("snapshot decisions: rows out of order")
        if not np.array_equal(np.sort(order), np.arange(n)) or any(
            len(r) and not 0 <= r.min() <= r.max() < n for r in (shifts, audited)
        ):
            raise ValueError("snapshot decisions: an order or row out of range")
        audits = json_loads(z["decision_audits"].tobytes())
        if len(audits) != len(audited):
            raise ValueError("snapshot decisions: one audit entry per audited row")
        node_at = z["decision_nodes"]
        if len(node_at) != n or node_at.dtype != np.int32 or (n and int(node_at.min()) < UNPLACED):
            raise ValueError("snapshot decisions: one node position per row")
        got = cls(blob, ends, keys, order, turns, shifts)
        got.audits = dict(zip((keys[i] for i in audited.tolist()), audits))
        got.node_at = node_at
        return got


def _token_lists(raw: bytes, counts: np.ndarray) -> list[list[str]]:
    """Each node's BM25 tokens from one separator-joined string and a count per node (a JSON list of lists took
    over a second to parse at 100k nodes; a split and slices take a tenth of that).

    >>> _token_lists(TOKEN_SEP.join(["a", "b", "c"]).encode(), np.asarray([2, 0, 1]))
    [['a', 'b'], [], ['c']]
    """
    flat = raw.decode("utf-8").split(TOKEN_SEP) if int(counts.sum()) else []
    if len(flat) != int(counts.sum()) or (len(counts) and int(counts.min()) < 0):
        raise ValueError("snapshot tokens: the counts do not match the tokens")
    ends = np.cumsum(counts).tolist()
    return [flat[e - c : e] for e, c in zip(ends, counts.tolist())]


class TokenColumn:
    """Each node's BM25 tokens, as one separator-joined string and a count per node: the BM25 index reads the
    counts and makes the lists only for a rebuild (:meth:`weaver.lexical.LexicalIndex.load_columns`)."""

    def __init__(self, raw: bytes, counts: np.ndarray) -> None:
        if len(counts) and int(counts.min()) < 0:
            raise ValueError("snapshot tokens: a negative count")
        self.raw, self.counts = raw, counts

    def __len__(self) -> int:
        return len(self.counts)

    def lists(self) -> list[list[str]]:
        return _token_lists(self.raw, self.counts)
