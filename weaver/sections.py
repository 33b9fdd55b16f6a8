"""Write sections of a Chroma space: buffer every write, then land them whole or not at all.

Mixed into :class:`~weaver.chroma_space.ChromaSpace`, which provides the
``put_*`` / ``delete_*`` writes, ``_write`` (one raw Chroma call, or collected
into ``_sink`` while a flush is prepared), ``_journal()`` and ``_space_lock``.
See that module's docstring for the protocol.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from .chroma_access import CHROMA_BATCH
from .chroma_io import Call, CrashPoint, decode_journal, encode_journal
from .write_log import WriteLog, call_size, merge_calls

if TYPE_CHECKING:  # names for annotations only
    from .models import Edge, FilterDecision, MemoryNode
    from .space_lock import SpaceLock
    from .store_api import SpaceData

__all__ = ["WriteSections"]

_UNIT = [1.0]  # journal records need a vector in Chroma; never searched


class WriteSections:
    _buffer: list | None = None
    _sink: list[Call] | None = None
    # write-behind (weaver.write_log): set by ChromaSpace in local mode; None writes every section at once
    _write_log: WriteLog | None = None
    _logged_sections = _logged_records = 0  # what this process logged since the log was last applied
    write_behind = 1024  # sections per group applied to Chroma
    write_behind_age = 5.0  # seconds: an older pending section is applied at the next write
    write_behind_records = 256  # a section writing more records than this (a batch) goes to Chroma at once
    # the log is applied once it holds this many records: bounds what a reader lays over Chroma and what an
    # open applies (~4 records a message: ~1,000 messages, ~10 MB of log)
    write_behind_log_records = 4096

    if TYPE_CHECKING:  # provided by ChromaSpace, the class this one is mixed into
        _space_lock: SpaceLock

        _crash_point: CrashPoint

        def _write(self, collection: str, op: str, **kwargs) -> None: ...
        def _col(self, name: str, vectors: bool = False) -> Any: ...
        def put_nodes(self, nodes: list[MemoryNode], vectors: np.ndarray | None = None) -> None: ...
        def put_decisions(self, decisions: list[FilterDecision], vectors: np.ndarray | None = None) -> None: ...
        def put_edges(self, edges: list[Edge]) -> None: ...
        def put_meta(self, meta: dict[str, Any]) -> None: ...
        def put_records(self, kind: str, records: dict[str, dict]) -> None: ...
        def delete_records(self, kind: str, ids: list[str]) -> None: ...

    # ------------------------------------------------------ batched writes
    # commit order on flush: a crash mid-flush leaves at worst audit entries, nodes and edges without their
    # decision, which the repair on open rolls back; the audit entries land first so that an earlier node's
    # status change (a supersede on arrival) is never on disk without the entry that says how to undo it;
    # decisions (the commit markers) land last
    _FLUSH_ORDER = ("records", "nodes", "edges", "meta", "decisions")

    @contextlib.contextmanager
    def deferred(self):
        """Buffer every write and apply them on exit as one section (see the module docstring).

        Chroma pays a fixed cost per call (~5-30 ms); a batch of messages then costs a
        handful of calls (one per collection it touches) instead of a few per message. Reads of records and meta
        inside the block see the buffered writes. Hold the writer lock around it.
        """
        if self._buffer is not None:  # nested: the outer block flushes
            yield
            return
        self._buffer = []
        try:
            yield
        finally:
            ops, self._buffer = self._buffer, None
            self._flush(ops)

    def _defer(self, group: str, op: str, *args) -> bool:
        if self._buffer is None:
            return False
        self._buffer.append((group, op, args))
        return True

    def _flush(self, ops: list[tuple[str, str, tuple]]) -> None:
        self._sink = []
        try:
            for group in self._FLUSH_ORDER:
                run: list[tuple[tuple, tuple]] = []
                for g, op, args in ops:
                    if g != group:
                        continue
                    key = (op, args[0] if op.endswith("records") else None)
                    if run and run[-1][0] != key:
                        self._apply(run)
                        run = []
                    run.append((key, args))
                if run:
                    self._apply(run)
        finally:
            calls, self._sink = self._sink, None
        if not calls:
            return
        log = self._write_log
        if log is not None and sum(call_size(c) for c in calls) <= self.write_behind_records:
            self._logged(log, calls)
            return
        self.sync()  # a big section (a batch): what the log holds is older and lands first
        if len(calls) > 1 and not _self_repairing(ops):
            self._run_journaled(calls)
        else:
            for c in calls:
                self._write(c.collection, c.op, **c.kwargs)

    # ------------------------------------------------------- write-behind
    def _logged(self, log: WriteLog, calls: list[Call]) -> None:
        """Acknowledge a section once it is in the write-behind log; apply the log when a group is due."""
        self._crash_point.write(lambda: log.append(calls))  # a store write: the crash harness kills here too
        self._logged_sections += 1
        self._logged_records += sum(call_size(c) for c in calls)
        if (
            self._logged_sections >= self.write_behind
            or self._logged_records >= self.write_behind_log_records  # bounds the log a reader lays over Chroma
            or log.age() >= self.write_behind_age
        ):
            self.sync()

    @contextlib.contextmanager
    def _logged_view(self, collection: str):
        """Read a collection as of every acknowledged section: yields the log's pending calls on it.

        Applying the log costs Chroma calls; reading it costs a file read, so a read (a review pass lists
        the probes every few messages) lays the pending calls over what Chroma returns instead. With a
        pending log the writer lock is held, so the log and Chroma are read as of one moment.
        """
        log = self._write_log
        if log is None or not log.pending():
            yield []
            return
        with self._space_lock.hold():
            yield [c for s in log.read() for c in s if c.collection == collection]

    def sync(self) -> int:
        """Apply what the write-behind log holds to Chroma, then empty it; returns the sections applied.

        Cheap when there is nothing to apply (a file stat). Takes the writer lock; safe inside a write section
        (the log holds only earlier, acknowledged sections).
        """
        log = self._write_log
        if log is None or not log.pending():
            return 0
        with self._space_lock.hold():
            sections = log.read()
            for c in merge_calls(sections, CHROMA_BATCH):
                getattr(self._col(c.collection), c.op)(**c.kwargs)  # not through _write: a flush may be collecting
            log.clear()
            self._logged_sections = self._logged_records = 0
        return len(sections)

    def _apply(self, run: list[tuple[tuple, tuple]]) -> None:
        """One Chroma call for consecutive writes of the same kind."""
        (op, _), first = run[0]
        if op in ("put_nodes", "put_decisions"):
            # a run holds records of one kind: nodes for put_nodes, decisions for put_decisions
            fn: Callable[[list[Any], np.ndarray | None], None] = (
                self.put_nodes if op == "put_nodes" else self.put_decisions
            )
            key = (lambda r: r.id) if op == "put_nodes" else (lambda r: r.message_id)
            with_vec: dict[str, tuple] = {}  # Chroma refuses an id twice in one call: the last write wins
            without: dict[str, object] = {}
            for _, (records, vectors) in run:
                for i, r in enumerate(records):
                    if vectors is not None:
                        with_vec[key(r)] = (r, vectors[i])
                        without.pop(key(r), None)
                    else:
                        without[key(r)] = r
            if with_vec:
                fn([r for r, _ in with_vec.values()], np.stack([v for _, v in with_vec.values()]))
            if without:
                fn(list(without.values()), None)
        elif op == "put_edges":
            self.put_edges(list({e.id: e for _, a in run for e in a[0]}.values()))
        elif op in ("delete_edges", "delete_nodes"):
            getattr(self, op)(list(dict.fromkeys(x for _, a in run for x in a[0])))
        elif op == "put_meta":
            self.put_meta(run[-1][1][0])
        elif op == "put_records":
            merged: dict[str, dict] = {}
            for _, a in run:
                merged.update(a[1])
            self.put_records(first[0], merged)
        elif op == "delete_records":
            self.delete_records(first[0], list(dict.fromkeys(x for _, a in run for x in a[1])))

    # -------------------------------------------------------------- journal
    def _journal(self):
        return self._col(f"{self.prefix}-x-journal")

    def _run_journaled(self, calls: list[Call]) -> None:
        self._space_lock.bump()  # another process's weaver reloads (and so replays) should this one die mid-way
        ids, docs = encode_journal(f"t{time.time_ns():020d}-{uuid.uuid4().hex[:6]}", calls)
        self._journal().upsert(ids=ids, documents=docs, embeddings=[_UNIT] * len(ids))
        for c in calls:
            self._write(c.collection, c.op, **c.kwargs)
        self._journal().delete(ids=ids)

    def _replay_journal(self, data: SpaceData) -> None:
        got = self._journal().get(include=["documents"])
        if not got["ids"]:
            return
        sections, ids = decode_journal(got["ids"], got["documents"])
        for calls in sections:  # idempotent: upserts and deletes of the same records again
            for c in calls:
                self._write(c.collection, c.op, **c.kwargs)
        self._journal().delete(ids=ids)
        data.repaired.append(
            f"replayed {len(sections)} journaled write section(s)"
            + (f", dropped {len(ids)} incomplete journal record(s)" if not sections else "")
        )


def _self_repairing(ops: list[tuple[str, str, tuple]]) -> bool:
    """True when a flush holds only new messages' writes, which the decisions (written last) commit.

    Their nodes are named by a decision of the same section, their edges touch
    such a node, their audit entries are the builder's for such a message: its
    ``build``, and a supersede on arrival (an edge into its node, an earlier
    node's status change, whose entry lands first and names the status before).
    A kill mid-flush leaves only traces the repair on open removes or reverts
    (``ChromaSpace._repair``, ``Curation._load``). Anything else (human or review
    edits, edits of older edges, meta, deletions, other records) needs the journal.
    """
    decided = {d.message_id: d.node_id for _, op, a in ops if op == "put_decisions" for d in a[0]}
    new_nodes = {nid for nid in decided.values() if nid}
    restated = set()  # earlier nodes whose status a builder entry of a decided message changes
    for _, op, a in ops:
        if op == "put_records" and a[0] == "audit":
            for v in a[1].values():
                if not _builder_entry(v, decided, new_nodes):
                    return False
                if v.get("action") == "node.status":
                    restated.add(v.get("key"))
    for _, op, a in ops:
        if op in ("put_decisions", "put_records") and (op != "put_records" or a[0] == "audit"):
            continue
        if op == "put_nodes":
            if any(decided.get(n.message_id) != n.id and n.id not in restated for n in a[0]):
                return False
        elif op == "put_edges":
            if any(e.source not in new_nodes and e.target not in new_nodes for e in a[0]):
                return False
        else:
            return False
    return True


def _builder_entry(v: dict, decided: dict, new_nodes: set) -> bool:
    """An audit entry the repair on open drops (and reverts) when its message's decision is missing."""
    if v.get("actor") != "builder" or not decided.get(v.get("message_id")):
        return False
    action, key = v.get("action"), v.get("key", "")
    if action == "build":
        return decided[v["message_id"]] == key
    if action in ("edge.add", "edge.update"):
        return bool(set(key.split("->", 1)) & new_nodes)
    return action == "node.status" and key not in new_nodes
