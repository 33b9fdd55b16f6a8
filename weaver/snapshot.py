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

This module holds the file: its stamp, the atomic write and the checked read.
The columns it stores for edges, decisions and tokens (and their encoding and
checks) are in :mod:`weaver.snapshot_columns`, which the mirror and the BM25
index read; they are re-exported here, where callers have always imported them.

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
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np

from .models import FilterDecision, MemoryNode
from .snapshot_columns import (
    NO_NODE,
    TOKEN_SEP,
    UNPLACED,
    DecisionRows,
    EdgeColumns,
    TokenColumn,
    as_bytes,
    json_loads,
)

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
    if any(TOKEN_SEP in t for n in nodes for t in derived[n.id][1]):
        return False  # a token the flat column cannot hold (never seen): the next open is a full load
    own = [d.message_id for d in decisions if not d.node_id and d.message_id in own_vectors]
    dim = 0 if node_vectors is None else int(np.asarray(node_vectors).shape[1])
    own_vecs = (
        np.stack([np.asarray(own_vectors[m], dtype=np.float32) for m in own])
        if own
        else np.zeros((0, dim), dtype=np.float32)
    )
    members = {
        "stamp": as_bytes(json.dumps(stamp, sort_keys=True).encode("utf-8")),
        "nodes": as_bytes(_rows("nodes", nodes)),
        "own": as_bytes(json.dumps(own).encode("utf-8")),
        "tokens": as_bytes(TOKEN_SEP.join(t for n in nodes for t in derived[n.id][1]).encode("utf-8")),
        "token_counts": np.asarray([len(derived[n.id][1]) for n in nodes], dtype=np.int32),
        "words": as_bytes(json.dumps(sorted(words), ensure_ascii=False).encode("utf-8")),
        "numbers": as_bytes(json.dumps(sorted(numbers)).encode("utf-8")),
        "node_vectors": np.asarray(node_vectors if node_vectors is not None else np.zeros((0, dim)), dtype=np.float32),
        "own_vectors": own_vecs,
        "lex_terms": as_bytes(json.dumps(lexical[0], ensure_ascii=False).encode("utf-8")),
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
        "edge_texts": as_bytes(json.dumps(cols.texts, ensure_ascii=False).encode("utf-8")),
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
            if tokens.raw.count(TOKEN_SEP.encode()) + 1 != max(1, int(tokens.counts.sum())):
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
        or not edges.fits(len(nodes))
    ):
        return None
    own = {mid: own_vectors[i] for i, mid in enumerate(own_ids)}
    return Snapshot(nodes, node_vectors if len(nodes) else None, decisions, own, edges, tokens, lex, words, numbers)
