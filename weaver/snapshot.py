"""A revision-stamped local snapshot of what opening a space reads, so a big space opens in seconds.

Chroma stays the system of record. Opening a 100k-node space from it took ~49 s
(two thirds of it Chroma's paged reads, which cost per metadata key) and most
of the rest deriving per-node features; the same data as columns loads in
well under a second. So after a full load from Chroma the weaver writes what it
read (nodes and decisions as JSON rows in field order, edges as columns of
node positions, codes and floats, node vectors and the vectors of rejected
messages as float32 arrays, each node's BM25 tokens as one joined string, the
BM25 postings as columns, and the words and numbers the filter compares
against) into one ``.npz`` file (the vectors stored, the rest deflated), stamped with:

- the space's revision token (bumped by every write section of every process),
- its generation: the collection prefix and the node and decision collection
  names (a reembed or a delete-and-recreate changes them),
- for each collection the snapshot holds (nodes, decisions, edges), its
  Chroma id and the sequence number its metadata segment has applied
  (``max_seq_id`` in Chroma's ``chroma.sqlite3``): every record write and
  delete by any process moves it, even one that bypasses the weaver's own
  revision token.

The stamp is taken *before* the data is read (after the journal replay and the
generation repair, which change the data), so a write that lands during the read
makes the snapshot stale, never wrong. Open uses a snapshot only when its stamp
equals the space's current one, read the same way; anything else (a missing
file, another writer's change, a torn or corrupt file, an unknown format, an
unreadable Chroma database) means a full load from Chroma and a new snapshot.
The file is written to a temporary name and renamed over the old one, and each
member of the ``.npz`` carries a CRC that is checked when it is read.

Local mode only: with a Chroma server there is no shared local file to stamp
against, so every open is a full load there.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import zipfile
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np

from .lazy_records import LazyRecords
from .models import Edge, FilterDecision, MemoryNode

__all__ = [
    "FORMAT",
    "NO_NODE",
    "UNPLACED",
    "DecisionRows",
    "TokenColumn",
    "EdgeColumns",
    "Snapshot",
    "chroma_sequences",
    "json_loads",
    "read_snapshot",
    "write_snapshot",
]

# 3: decisions as JSON rows made into objects when read; 2: edges and tokens as columns; 1: JSON rows (an older
# snapshot is stale, so the next open is a full load)
FORMAT = 3
_MODELS = {"nodes": MemoryNode, "decisions": FilterDecision}
_EDGE_TEXT = ("relation", "origin", "rationale", "status")  # string fields of an edge, stored as codes
NO_NODE, UNPLACED = -1, -2  # a decision's node position (DecisionRows.node_at): none; not among the nodes written
_SEP = "\x00"  # joins every node's BM25 tokens into one string (no token holds it)


def chroma_sequences(persist_dir: str | Path, names: list[str]) -> dict[str, list] | None:
    """``{collection name: [collection id, applied sequence number]}`` from Chroma's SQLite file, or None.

    Read-only and without Chroma's client: a plain SQLite read of two of its
    tables. None (no snapshot use) when the file, a table or a collection is
    missing, or the database is busy.
    """
    db = Path(persist_dir) / "chroma.sqlite3"
    if not db.is_file():
        return None
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=2.0)
        try:
            marks = ",".join("?" * len(names))
            rows = con.execute(
                "SELECT c.name, c.id, m.seq_id FROM collections c JOIN segments s ON s.collection = c.id "
                f"LEFT JOIN max_seq_id m ON m.segment_id = s.id WHERE s.scope = 'METADATA' AND c.name IN ({marks})",
                names,
            ).fetchall()
        finally:
            con.close()
    except sqlite3.Error:
        return None
    out = {name: [cid, seq] for name, cid, seq in rows}
    return out if set(out) == set(names) and len(rows) == len(names) else None


class EdgeColumns:
    """A space's edges as columns, in load order: endpoints as positions in the node order, each string field as
    codes into its table of values (``texts[field]``), confidence and time as floats. Opening a 100k-node space
    spent ~2.5 s parsing 200k edges into objects; the mirror builds its graph and edge index from these."""

    def __init__(self, source, target, codes, texts, confidence, created_at):
        self.source: np.ndarray = source  # int32 node positions
        self.target: np.ndarray = target
        self.codes: np.ndarray = codes  # int32, one column per _EDGE_TEXT field
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
        return self.codes[:, _EDGE_TEXT.index(field)] == table.index(value)

    def column(self, field: str) -> list[str]:
        """The values of one string field, one per edge."""
        table = self.texts[field]
        return [table[i] for i in self.codes[:, _EDGE_TEXT.index(field)].tolist()]

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
        codes = np.zeros((len(kept), len(_EDGE_TEXT)), dtype=np.int32)
        for j, name in enumerate(_EDGE_TEXT):
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
        """The snapshot members of ``decisions`` (:func:`write_snapshot`; ``position``: node id -> its place in
        the node order written).

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
            "decision_fields": _bytes(json.dumps(names).encode("utf-8")),
            "decisions": _bytes(b"".join(rows)),
            "decision_ends": np.cumsum([len(r) for r in rows], dtype=np.int64),
            "decision_keys": _bytes(json.dumps([d.message_id for d in decisions], ensure_ascii=False).encode()),
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
            "decision_audits": _bytes(
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


class Snapshot:
    """What a snapshot holds, parsed: the records (nodes in the mirror's order), their vectors, each node's BM25
    tokens, the BM25 postings as columns (:meth:`weaver.lexical.LexicalIndex.columns`), the space's words and
    numbers (:attr:`weaver.mirror.Mirror.words`)."""

    def __init__(self, nodes, node_vectors, decisions, own_vectors, edges, tokens, lexical, words, numbers):
        """``edges``: :class:`EdgeColumns` (the mirror adopts them with the nodes); ``decisions``:
        :class:`DecisionRows`; ``tokens``: :class:`TokenColumn`."""
        self.nodes: list[MemoryNode] = nodes
        self.node_vectors: np.ndarray | None = node_vectors
        self.decisions: DecisionRows = decisions
        # vectors of the decisions without a node (a kept message's vector is its node's)
        self.own_vectors: dict[str, np.ndarray] = own_vectors
        self.edges: EdgeColumns = edges
        self.tokens: TokenColumn = tokens
        self.lexical: tuple = lexical
        self.words: set[str] = words
        self.numbers: set[float] = numbers


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


def _rows(kind: str, records: list) -> bytes:
    names = [f.name for f in fields(_MODELS[kind])]
    rows = [[getattr(r, n) for n in names] for r in records]
    return json.dumps({"fields": names, "rows": rows}, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


# fields of a node with few distinct values (a kind, a language, a status, a default number): the parser makes
# one object per occurrence, 21 MB at 100k nodes; one object per distinct value is shared instead (immutable)
_SHARED = ("kind", "language", "status", "importance", "last_access")


def _parse(kind: str, raw: bytes | memoryview) -> list:
    """The records of a ``nodes`` member (the ``{"fields", "rows"}`` JSON :func:`_rows` wrote).

    >>> a, b = _parse("nodes", _rows("nodes", [MemoryNode("n1", "hi", "user_input", 1, "m1", 1.0)] * 2))
    >>> a == b and a.kind is b.kind and a.status is b.status
    True
    """
    cls = _MODELS[kind]
    got = json_loads(raw)
    names = [f.name for f in fields(cls)]
    if got.get("fields") != names:
        raise ValueError(f"snapshot {kind}: the model's fields changed")
    rows = got["rows"]
    for j in (names.index(f) for f in _SHARED if f in names):
        seen: dict = {}
        for row in rows:
            row[j] = seen.setdefault(row[j], row[j])
    return [cls(*row) for row in rows]


def _bytes(data: bytes) -> np.ndarray:
    return np.frombuffer(data, dtype=np.uint8)


def write_snapshot(
    path: Path,
    stamp: dict[str, Any],
    nodes,
    node_vectors,
    decisions,
    own_vectors,
    edges,
    derived,
    lexical,
    words,
    numbers,
    position: dict[str, int],
) -> bool:
    """Write a snapshot atomically (temporary file, fsync, rename); False when it could not be written.

    ``nodes`` in the mirror's order (``position``: node id -> its
    place there), ``node_vectors`` aligned with them; ``edges`` in load order; ``own_vectors``: message id -> the
    vector of a decision without a node (a kept message's vector is its node's); ``derived``: node id ->
    :func:`weaver.mirror.derived_of` of its content (its BM25 tokens are stored, aligned with ``nodes``);
    ``lexical``: the BM25 postings as :meth:`weaver.lexical.LexicalIndex.columns` (rows are positions in
    ``nodes``); ``words``, ``numbers``: the mirror's sets.
    """
    if any(_SEP in t for n in nodes for t in derived[n.id][1]):
        return False  # a token the flat column cannot hold (never seen): the next open is a full load
    own = [d.message_id for d in decisions if not d.node_id and d.message_id in own_vectors]
    dim = 0 if node_vectors is None else int(np.asarray(node_vectors).shape[1])
    own_vecs = (
        np.stack([np.asarray(own_vectors[m], dtype=np.float32) for m in own])
        if own
        else np.zeros((0, dim), dtype=np.float32)
    )
    members = {
        "stamp": _bytes(json.dumps(stamp, sort_keys=True).encode("utf-8")),
        "nodes": _bytes(_rows("nodes", nodes)),
        "own": _bytes(json.dumps(own).encode("utf-8")),
        "tokens": _bytes(_SEP.join(t for n in nodes for t in derived[n.id][1]).encode("utf-8")),
        "token_counts": np.asarray([len(derived[n.id][1]) for n in nodes], dtype=np.int32),
        "words": _bytes(json.dumps(sorted(words), ensure_ascii=False).encode("utf-8")),
        "numbers": _bytes(json.dumps(sorted(numbers)).encode("utf-8")),
        "node_vectors": np.asarray(node_vectors if node_vectors is not None else np.zeros((0, dim)), dtype=np.float32),
        "own_vectors": own_vecs,
        "lex_terms": _bytes(json.dumps(lexical[0], ensure_ascii=False).encode("utf-8")),
        "lex_offsets": np.asarray(lexical[1], dtype=np.int64),
        "lex_rows": np.asarray(lexical[2], dtype=np.int32),
        "lex_counts": np.asarray(lexical[3], dtype=np.float32),
    }
    members |= DecisionRows.members(decisions, position)
    cols = EdgeColumns.of(edges, position)
    members |= {
        "edge_source": cols.source,
        "edge_target": cols.target,
        "edge_codes": cols.codes,
        "edge_texts": _bytes(json.dumps(cols.texts, ensure_ascii=False).encode("utf-8")),
        "edge_confidence": cols.confidence,
        "edge_created_at": cols.created_at,
    }
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as fh:
            _save(fh, members)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)  # atomic: a reader sees the old snapshot or the new one
        return True
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return False


# Members stored as they are: float32 vectors barely compress (~7%) and are most of the file; everything
# else (records as JSON, tokens, postings, edge columns) is deflated, a fifth of its size (level 1: a write at
# 100k nodes stays well under a second, and inflating at open costs ~0.1 s).
_STORED = ("node_vectors", "own_vectors")


def _save(fh, members: dict[str, np.ndarray]) -> None:
    """``np.savez`` with each member compressed or not (:data:`_STORED`); ``np.load`` reads either, checking
    each member's CRC."""
    with zipfile.ZipFile(fh, "w", zipfile.ZIP_DEFLATED, allowZip64=True, compresslevel=1) as zf:
        for name, arr in members.items():
            info: zipfile.ZipInfo | str = f"{name}.npy"  # a name: the archive's compression
            if name in _STORED:
                info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))  # compress_type: stored
            with zf.open(info, "w", force_zip64=True) as out:
                np.lib.format.write_array(out, np.asanyarray(arr), allow_pickle=False)


def _token_lists(raw: bytes, counts: np.ndarray) -> list[list[str]]:
    """Each node's BM25 tokens from one separator-joined string and a count per node (a JSON list of lists took
    over a second to parse at 100k nodes; a split and slices take a tenth of that).

    >>> _token_lists(_SEP.join(["a", "b", "c"]).encode(), np.asarray([2, 0, 1]))
    [['a', 'b'], [], ['c']]
    """
    flat = raw.decode("utf-8").split(_SEP) if int(counts.sum()) else []
    if len(flat) != int(counts.sum()) or (len(counts) and int(counts.min()) < 0):
        raise ValueError("snapshot tokens: the counts do not match the tokens")
    ends = np.cumsum(counts).tolist()
    return [flat[e - c : e] for e, c in zip(ends, counts.tolist())]


def _edges_fit(c: EdgeColumns, n: int) -> bool:
    """Whether edge columns are whole and point inside ``n`` nodes and their tables."""
    e = len(c.source)
    if not (len(c.target) == len(c.confidence) == len(c.created_at) == e and c.codes.shape == (e, len(_EDGE_TEXT))):
        return False
    if set(c.texts) != set(_EDGE_TEXT) or c.source.dtype != np.int32 or c.target.dtype != np.int32:
        return False
    if not e:
        return True
    ends = (c.source.min(), c.source.max(), c.target.min(), c.target.max())
    tables = np.asarray([len(c.texts[f]) for f in _EDGE_TEXT])
    return min(ends) >= 0 and max(ends) < n and c.codes.min() >= 0 and bool((c.codes.max(axis=0) < tables).all())


SPARE_ROWS = 1024  # at least this many empty rows after the node vectors (and a sixteenth more of a big space)


def _rows_with_room(z, name: str) -> np.ndarray:
    """The float32 matrix ``name`` of the open ``.npz`` ``z``, read into a buffer with spare rows after it (a
    view of its first rows is returned; the mirror adopts the whole buffer). Without the room the first node
    after an open copied every vector into a bigger array: 205 MB and 0.3-0.8 s at 100k nodes."""
    with z.zip.open(name + ".npy") as f:
        version = np.lib.format.read_magic(f)
        read = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, fortran, dtype = read(f)
        if dtype != np.float32 or fortran or len(shape) != 2:
            return z[name]  # not what this code writes: the plain reader (its checks reject it below)
        room = np.empty((shape[0] + max(SPARE_ROWS, shape[0] // 16), shape[1]), dtype=np.float32)
        got = room[: shape[0]]
        if f.readinto(got.data.cast("B")) != got.nbytes or f.read(1):  # read to its end: the CRC checked
            raise ValueError(f"snapshot {name}: the member is torn")
    return got


def read_snapshot(path: Path, stamp: dict[str, Any]) -> Snapshot | None:
    """The snapshot at ``path`` if its stamp equals ``stamp``; None when missing, stale, torn or corrupt."""
    try:
        with np.load(path, allow_pickle=False) as z:
            if json.loads(z["stamp"].tobytes()) != json.loads(json.dumps(stamp, sort_keys=True)):
                return None  # stale: another writer, a reembed, a replayed journal... changed the space
            nodes = _parse("nodes", memoryview(z["nodes"]))
            decisions = DecisionRows.read(z)
            texts = json_loads(z["edge_texts"].tobytes())
            edges = EdgeColumns(
                z["edge_source"], z["edge_target"], z["edge_codes"], texts, z["edge_confidence"], z["edge_created_at"]
            )
            own_ids = json_loads(z["own"].tobytes())
            tokens = TokenColumn(z["tokens"].tobytes(), z["token_counts"])
            if tokens.raw.count(_SEP.encode()) + 1 != max(1, int(tokens.counts.sum())):
                raise ValueError("snapshot tokens: the counts do not match the tokens")
            words = set(json_loads(z["words"].tobytes()))
            numbers = set(json_loads(z["numbers"].tobytes()))
            node_vectors = _rows_with_room(z, "node_vectors")
            own_vectors = z["own_vectors"]
            lex = (json_loads(z["lex_terms"].tobytes()), z["lex_offsets"], z["lex_rows"], z["lex_counts"])
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile, json.JSONDecodeError):
        return None  # torn or corrupt (each member's CRC is checked as it is read): a full load instead
    if (
        node_vectors.dtype != np.float32
        or len(node_vectors) != len(nodes)
        or len(tokens) != len(nodes)
        or len(own_vectors) != len(own_ids)
        or len(lex[1]) != len(lex[0]) + 1
        or (len(lex[2]) and (int(lex[2].max()) >= len(nodes) or int(lex[2].min()) < 0))
        or int(lex[1][-1]) != len(lex[2])
        or len(lex[2]) != len(lex[3])
        or not _edges_fit(edges, len(nodes))
    ):
        return None
    own = {mid: own_vectors[i] for i, mid in enumerate(own_ids)}
    return Snapshot(nodes, node_vectors if len(nodes) else None, decisions, own, edges, tokens, lex, words, numbers)
