"""Write-behind: a space's write sections land in a local append-only log first, in Chroma a group at a time.

Chroma charges a fixed cost per call (5-15 ms on a 2-core box, more as a
collection grows), whatever the call holds; a message ingested on its own costs
three or four calls (audit, node, edges, decision), which capped one-by-one
ingest near 20 messages a second. With a write-behind log a write section is
acknowledged once its calls are appended to ``<data_dir>/locks/<space>.wal``
and fsynced (~0.2 ms); every ``group`` sections (or when the oldest is older
than ``max_age`` seconds, or before anything reads Chroma) the log is applied
as one call per collection and operation, then emptied.

Why this loses nothing: a section is one checksummed line, so it is in the log
whole or not at all (a torn last line was never acknowledged: its fsync had not
returned); the log is applied in order and only then cleared, and every call in
it is an upsert or delete of whole records, so applying it again after a kill
mid-way gives the same records. Whoever next holds the space's writer lock and
reads it (the next open in any process, or this process's next read) applies
what is left first.

Local mode only: a Chroma server has no shared local files, so there every
section goes to Chroma at once (as before).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from .chroma_io import Call

__all__ = ["WriteLog", "merge_calls", "call_size", "overlay_documents"]


_datasync = getattr(os, "fdatasync", os.fsync)  # macOS and Windows have only fsync


def call_size(call: Call) -> int:
    """The number of records a call writes (what bounds a section that is worth logging)."""
    ids = call.kwargs.get("ids")
    return len(ids) if isinstance(ids, list) else 1


class WriteLog:
    """The append-only log of one space (hold the space's writer lock around every method but ``pending``).

    >>> import tempfile
    >>> log = WriteLog(Path(tempfile.mkdtemp()) / "s.wal")
    >>> log.pending()
    False
    >>> log.append([Call("c-nodes", "upsert", {"ids": ["n1"], "documents": ["hi"]})])
    >>> log.append([Call("c-nodes", "delete", {"ids": ["n0"]})])
    >>> [[(c.op, c.kwargs["ids"]) for c in s] for s in log.read()]
    [[('upsert', ['n1'])], [('delete', ['n0'])]]
    >>> log.clear(); log.pending(), log.read()
    (False, [])
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._since: float | None = None  # when this process appended the oldest section it knows is pending
        self._parsed: tuple[tuple[int, int], list[list[Call]]] = ((0, 0), [])  # ((inode, bytes parsed), sections)

    def pending(self) -> bool:
        """True when the log holds sections not yet in Chroma (a stat: cheap enough for every read)."""
        try:
            return self.path.stat().st_size > 0
        except FileNotFoundError:
            return False

    def append(self, calls: list[Call]) -> None:
        """Append one section durably: when this returns the section survives a kill of the process."""
        text = json.dumps([c.to_dict() for c in calls], ensure_ascii=False, separators=(",", ":"))
        line = f"{hashlib.sha256(text.encode('utf-8')).hexdigest()} {text}\n".encode("utf-8")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                # a killed append left half a line (never acknowledged): cut it, or this line would join it
                # and read as corrupt
                os.ftruncate(fd, os.pread(fd, size, 0).rfind(b"\n") + 1)
            os.write(fd, line)
            # the line's bytes and the file's new size reach the disk before this returns (what a later read
            # needs); fdatasync skips the inode's times, which nothing reads
            _datasync(fd)
        finally:
            os.close(fd)
        if self._since is None:
            self._since = time.monotonic()

    def read(self) -> list[list[Call]]:
        """The complete sections in order, without a torn last line or a corrupt one (never acknowledged).

        Incremental: a log only grows between two clears (a clear makes a new file, so a new inode), so a
        read parses only what was appended since the last one (a review pass reads it every few messages).
        """
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            return []
        try:
            st = os.fstat(fd)
            (ino, done), sections = self._parsed
            if ino != st.st_ino or st.st_size < done:
                done, sections = 0, []
            if st.st_size == done:
                return list(sections)
            os.lseek(fd, done, os.SEEK_SET)
            raw = b""
            while len(raw) < st.st_size - done:
                chunk = os.read(fd, st.st_size - done - len(raw))
                if not chunk:
                    break
                raw += chunk
        finally:
            os.close(fd)
        sections = list(sections)
        for line in raw.split(b"\n")[:-1]:  # the part after the last newline is a torn (or growing) line
            digest, _, text = line.partition(b" ")
            done += len(line) + 1
            if text and hashlib.sha256(text).hexdigest().encode("ascii") == digest:
                sections.append([Call.from_dict(c) for c in json.loads(text)])
            # else a corrupt line (a torn append's remains): never acknowledged, skipped; what follows is kept
        self._parsed = ((st.st_ino, done), sections)
        return list(sections)

    def age(self) -> float:
        """Seconds since this process appended the oldest section it has not seen applied."""
        return 0.0 if self._since is None else time.monotonic() - self._since

    def clear(self) -> None:
        """Empty the log once every section in it is in Chroma: an empty file replaces it (a new inode, so a
        reader never mistakes later appends for the tail of what it parsed). Should a kill undo the replace,
        the old log is applied again at the next open, which gives the same records."""
        if not self.path.exists():
            self._since = None
            return
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.empty")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, self.path)
        self._since = None
        self._parsed = ((0, 0), [])


def _ids(call: Call) -> list | None:
    ids = call.kwargs.get("ids")
    return ids if isinstance(ids, list) else None


def merge_calls(sections: list[list[Call]], limit: int) -> list[Call]:
    """The calls of many sections as few calls: per collection, upserts (updates, deletes) joined.

    Calls on different collections touch different records, so only each collection's
    own order matters, and within it only the order of calls that share a record: a call
    joins the latest earlier call of the same operation and keyword arguments that no
    call in between shares a record with (so a status update between two new nodes does
    not split their upserts), holding at most ``limit`` records. A record written twice
    by joined calls becomes one row that gives what applying both in turn gives: Chroma's
    upsert (and update) replaces the document and vector it is given and *merges* the
    metadata, so the later metadata is laid over the earlier.

    >>> a = Call("n", "upsert", {"ids": ["1"], "metadatas": [{"s": "active", "t": 1}]})
    >>> b = Call("e", "delete", {"ids": ["x"]})
    >>> u = Call("n", "update", {"ids": ["0"], "metadatas": [{"s": "superseded"}]})
    >>> c = Call("n", "upsert", {"ids": ["2"], "metadatas": [{"s": "active"}]})
    >>> d = Call("n", "upsert", {"ids": ["1"], "metadatas": [{"s": "superseded"}]})
    >>> [(m.collection, m.op, m.kwargs["ids"]) for m in merge_calls([[a, b], [u, c], [d]], 100)]
    [('n', 'upsert', ['1', '2']), ('n', 'update', ['0']), ('e', 'delete', ['x'])]
    >>> merge_calls([[a, b], [u, c], [d]], 100)[0].kwargs["metadatas"]
    [{'s': 'superseded', 't': 1}, {'s': 'active'}]
    >>> x = Call("n", "delete", {"ids": ["2"]})  # a delete of "2" between: the later upsert of "2" may not pass it
    >>> [(m.op, m.kwargs["ids"]) for m in merge_calls([[a], [x], [c]], 100)]
    [('upsert', ['1']), ('delete', ['2']), ('upsert', ['2'])]

    An update of a record an earlier upsert of the group wrote (nothing between touching it) is laid over that
    upsert's row; the rest of the update stays an update:

    >>> s = Call("n", "update", {"ids": ["1", "0"], "metadatas": [{"s": "superseded"}, {"s": "superseded"}]})
    >>> [(m.op, m.kwargs["ids"], m.kwargs["metadatas"]) for m in merge_calls([[a], [s]], 100)]
    [('upsert', ['1'], [{'s': 'superseded', 't': 1}]), ('update', ['0'], [{'s': 'superseded'}])]
    """
    per: dict[str, list[tuple[Call, dict | None]]] = {}  # collection -> [(call, id -> its row; None: not joinable)]
    for call in (c for s in sections for c in s):
        seq = per.setdefault(call.collection, [])
        ids = _ids(call)
        joinable = (
            ids is not None
            and call.op in ("upsert", "update", "delete")
            and all(isinstance(v, list) and len(v) == len(ids) for v in call.kwargs.values())
        )
        target = None
        if joinable:
            assert ids is not None
            target, sharing = _join_target(seq, call, set(ids), limit)
            if sharing is not None and call.op == "update" and sharing[0].op == "upsert":
                if set(call.kwargs) <= set(sharing[0].kwargs):
                    # an update of records an earlier upsert wrote, nothing between touching them (a node
                    # superseded in the group that made it): laid over those rows, as applying both gives
                    call = _fold_update(call, *sharing)
                    ids = call.kwargs["ids"]
                    if not ids:
                        continue
                    target, _ = _join_target(seq, call, set(ids), limit)
        if target is not None:
            last, rows = target
            assert ids is not None
            _lay_over(call, last, rows)
            continue
        own = {k: list(v) if isinstance(v, list) else v for k, v in call.kwargs.items()}
        seq.append((Call(call.collection, call.op, own), {i: n for n, i in enumerate(ids or ())} if joinable else None))
    return [c for seq in per.values() for c, _ in seq]


def _join_target(seq: list, call: Call, mine: set, limit: int) -> tuple[tuple | None, tuple | None]:
    """(the call ``call`` joins, None) or (None, the latest call that writes one of ``mine``, if any): the scan
    back over a collection's calls stops at either (or at a call whose records are unknown)."""
    for last, rows in reversed(seq):
        if rows is None:
            return None, None  # a call whose records are unknown: nothing passes it
        if last.op == call.op and set(last.kwargs) == set(call.kwargs):
            return ((last, rows) if len(rows) + len(mine - rows.keys()) <= limit else None), None
        if mine & rows.keys():
            return None, (last, rows)  # it writes one of these records: the order between them stays
    return None, None


def _lay_over(call: Call, last: Call, rows: dict) -> None:
    """Join ``call`` into ``last`` (same operation, or an update into an upsert): a new record appends a row, a
    record ``last`` already writes takes the call's values, its metadata laid over the row's (Chroma merges)."""
    ids = call.kwargs["ids"]
    for j, rid in enumerate(ids):
        row = rows.get(rid)
        if row is None:
            rows[rid] = len(rows)
            for k, v in call.kwargs.items():
                last.kwargs[k].append(v[j])
        elif call.op in ("upsert", "update"):
            for k, v in call.kwargs.items():
                if k == "metadatas" and isinstance(v[j], dict):
                    last.kwargs[k][row] = {**(last.kwargs[k][row] or {}), **v[j]}
                elif k != "ids":
                    last.kwargs[k][row] = v[j]


def _fold_update(call: Call, upsert: Call, rows: dict) -> Call:
    """Lay the rows of an update that ``upsert`` (earlier, joinable) also writes over its rows; returns the
    update of the other records (no ids: nothing left)."""
    ids = call.kwargs["ids"]
    folded = [j for j, rid in enumerate(ids) if rid in rows]
    _lay_over(Call(call.collection, call.op, {k: [v[j] for j in folded] for k, v in call.kwargs.items()}), upsert, rows)
    rest = [j for j, rid in enumerate(ids) if rid not in rows]
    return Call(call.collection, call.op, {k: [v[j] for j in rest] for k, v in call.kwargs.items()})


def overlay_documents(docs: dict[str, str], calls: list[Call], key: str | None = None) -> None:
    """Lay pending upserts and deletes of one collection over documents read from it (id -> document); with
    ``key``, an upsert's text may instead be its metadata's ``key`` (how record kinds are written).

    >>> docs = {"a": "1", "b": "2"}
    >>> overlay_documents(docs, [Call("x", "upsert", {"ids": ["c", "a"], "documents": ["3", "4"]}),
    ...                          Call("x", "delete", {"ids": ["b"]})])
    >>> docs
    {'a': '4', 'c': '3'}
    """
    for c in calls:
        ids = _ids(c) or []
        if c.op == "delete":
            for i in ids:
                docs.pop(i, None)
        elif c.op in ("upsert", "add") and isinstance(c.kwargs.get("documents"), list):
            docs.update(zip(ids, c.kwargs["documents"]))
        elif c.op in ("upsert", "add", "update") and key and isinstance(c.kwargs.get("metadatas"), list):
            docs.update((i, m[key]) for i, m in zip(ids, c.kwargs["metadatas"]) if isinstance((m or {}).get(key), str))
