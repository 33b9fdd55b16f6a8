"""The supersede index: slot key -> positions of the user statements holding it, kept per mirror as nodes arrive,
and kept across processes in the store's local ``slot_index`` cache.

Without it every arrival re-read the slots of every earlier user statement (O(space) per message, seconds at
100k). Building it on a big space reads every statement's rows from the slot cache (:mod:`weaver.slot_cache`):
1.6-2.2 s at 100k nodes, once per process, paid by the first review pass or arrival after an open. So a build
of many positions is written to a cache file, and the next process reads it back (~0.1 s) when it still fits:

- the slot readers' code is the one that built it (:func:`weaver.slot_cache.reader_stamp`),
- the nodes at its positions are the same nodes with the same kinds and texts, checked by a digest of them
  (a full load orders nodes by turn and time, so the nodes that arrived since come after the file's; any
  other difference, a deleted or reordered node, means a build from the slot cache, as without the file).

Each statement's values are stored as its rows' JSON, parsed only when a plan reads that statement (most are
never read). A cache only: Chroma stays the system of record, a missing, stale or torn file costs a build.
"""

from __future__ import annotations

import hashlib
import json
from bisect import bisect_left

import numpy as np

from .slot_cache import SlotCache, reader_stamp, slot_row, slot_value
from .slots import SlotValue, read_slots, residue

__all__ = ["SlotIndex", "KIND", "CACHED_FROM", "WRITE_MIN", "said_value", "nodes_digest"]

KIND = "slot_index"
CACHED_FROM = 256  # nodes: a smaller space reads its statements faster than the cache files
WRITE_MIN = 256  # positions indexed in one process before the cache file is written (again)
_FORMAT = 1


def said_value(v: SlotValue) -> tuple:
    """What a statement says of its slot: ``(value, bound, high)``."""
    return (v.value, v.bound, v.high)


def nodes_digest(order, nodes, n: int) -> str:
    """A digest of the first ``n`` nodes of ``order``: their ids, kinds and texts (what the index reads)."""
    h = hashlib.sha1()
    h.update("\x1f".join(f"{nid}\x1e{nodes[nid].kind}\x1e{nodes[nid].content}" for nid in order[:n]).encode())
    return h.hexdigest()


class SlotIndex:
    """Slot key -> positions of the user statements holding it (see the module).

    Each statement's values are kept too (read once: at 100k the reader's cache no longer holds them all), and
    each key's positions as an array, so a plan keeps the *active* ones with the mirror's status mask instead of
    a Python scan over every statement the key ever had.
    """

    def __init__(self) -> None:
        self.upto = 0
        self.by_key: dict[tuple[str, str], list[int]] = {}  # SlotValue.key: (slot, scope)
        self.values: dict[int, tuple[SlotValue, ...] | list[list]] = {}  # position -> its slot values (or rows)
        # beside each key's positions: what each statement says of the key (its known values), interned
        self.said: dict[tuple[str, str], list[int]] = {}
        self.said_ids: dict[frozenset, int] = {frozenset(): 0}
        self._arrays: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]] = {}
        # position -> (its text, its residue): a plan compares its node with every earlier active statement that
        # pairs (thousands at 100k), and the slot reader's own cache no longer holds them all there
        self._residues: dict[int, tuple[str, frozenset[str]]] = {}
        # the statements read from the cache file, their rows' JSON not parsed yet: positions (sorted), and
        # each one's slice of the blob
        self._stored: tuple[list[int], list[int], str] = ([], [], "")
        self._saved = 0  # positions the cache file holds (or held when read)

    def values_at(self, pos: int) -> tuple[SlotValue, ...]:
        """The slot values of the statement at ``pos`` (made from its rows on first use)."""
        got = self.values.get(pos)
        if got is None:
            at, ends, blob = self._stored
            i = bisect_left(at, pos)
            if i == len(at) or at[i] != pos:
                return ()
            got = json.loads(blob[ends[i - 1] if i else 0 : ends[i]])
        if isinstance(got, list):
            got = self.values[pos] = tuple(slot_value(r) for r in got)
        return got

    def residue(self, pos: int, text: str) -> frozenset[str]:
        """:func:`weaver.slots.residue` of the statement at ``pos`` (read once per text)."""
        got = self._residues.get(pos)
        if got is None or got[0] != text:
            got = self._residues[pos] = (text, frozenset(residue(text)))
        return got[1]

    def stated(self) -> list[int]:
        """The positions of the statements that hold slot values (made or not yet)."""
        return sorted(set(self.values) | set(self._stored[0]))

    def update(self, order, nodes, space) -> SlotIndex:
        """Index the positions of ``order`` not indexed yet (``nodes``: id -> node; ``space``: its store, whose
        cache files a first use on a big space reads, and writes when it indexed many positions)."""
        if self.upto >= len(order):
            return self
        first = self.upto == 0 and len(order) >= CACHED_FROM
        if first:  # what an earlier process indexed, when it fits
            self._read(order, nodes, space)
        # the first use on a big space reads what an earlier process read (the slot readers over every user
        # statement took 4.7 s at 10k nodes, the first arrival or review pass after an open paid it)
        cache = SlotCache(space) if first and len(order) - self.upto >= CACHED_FROM else None
        for pos in range(self.upto, len(order)):
            node = nodes[order[pos]]
            if cache is not None:  # rows (slot, value, bound, unit, scope, span, text, high, explicit): made lazily
                rows = cache.rows(node.id, node.content) if node.kind == "user_input" else []
                if rows:
                    self.values[pos] = rows
                keyed = [((r[0], r[4]), (r[1], r[2], r[7]), r[1] is not None) for r in rows]
            else:
                vals = tuple(read_slots(node.content)) if node.kind == "user_input" else ()
                if vals:
                    self.values[pos] = vals
                keyed = [(v.key, said_value(v), v.known) for v in vals]
            for key in dict.fromkeys(k for k, _, _ in keyed):
                said = frozenset(v for k, v, known in keyed if k == key and known)
                self.by_key.setdefault(key, []).append(pos)
                self.said.setdefault(key, []).append(self.said_ids.setdefault(said, len(self.said_ids)))
        self.upto = len(order)
        if cache is not None:
            cache.save()
        if self.upto - self._saved >= WRITE_MIN:  # the next process reads them instead
            self._write(order, nodes, space)
        return self

    def rows(self, key: tuple[str, str], after: int, before: int) -> tuple[np.ndarray, np.ndarray]:
        """Positions holding ``key`` strictly between ``after`` and ``before``, and what each says of it (the
        id of its known values in ``said_ids``)."""
        held = self.by_key.get(key, [])
        got = self._arrays.get(key)
        if got is None or len(got[0]) != len(held):  # statements of the key arrived since
            got = self._arrays[key] = (np.asarray(held, dtype=np.int64), np.asarray(self.said[key], dtype=np.int64))
        lo, hi = np.searchsorted(got[0], after, side="right"), np.searchsorted(got[0], before)
        return got[0][lo:hi], got[1][lo:hi]

    # ------------------------------------------------------------ the cache file
    def _write(self, order, nodes, space) -> None:
        at = self.stated()
        parts, ends, total = [], [], 0
        for pos in at:
            got = self.values.get(pos)
            if got is None:  # read from the file and never parsed: its JSON as it was
                i = bisect_left(self._stored[0], pos)
                text = self._stored[2][self._stored[1][i - 1] if i else 0 : self._stored[1][i]]
            else:
                rows = got if isinstance(got, list) else [slot_row(v) for v in got]
                text = json.dumps(rows, separators=(",", ":"))  # ASCII: the blob stays one byte a character
            parts.append(text)
            total += len(text)
            ends.append(total)
        keys = list(self.by_key)
        space.write_cache(
            KIND,
            {
                "format": _FORMAT,
                "reader": reader_stamp(),
                "n": self.upto,
                "digest": nodes_digest(order, nodes, self.upto),
                "keys": [list(k) for k in keys],
                "positions": [self.by_key[k] for k in keys],
                "said": [self.said[k] for k in keys],
                "said_ids": [sorted((list(v) for v in s), key=repr) for s in self.said_ids],
                "at": at,
                "ends": ends,
                "blob": "".join(parts),
            },
        )
        self._saved = self.upto

    def _read(self, order, nodes, space) -> None:
        """Adopt the cache file when it fits the first positions of ``order`` (see the module); else nothing."""
        got = space.read_cache(KIND)
        try:
            n = got["n"]
            if got.get("format") != _FORMAT or got.get("reader") != reader_stamp() or not 0 < n <= len(order):
                return
            keys = [tuple(k) for k in got["keys"]]
            said_ids = {frozenset(tuple(v) for v in s): i for i, s in enumerate(got["said_ids"])}
            at, ends, blob = got["at"], got["ends"], got["blob"]
            positions, said = got["positions"], got["said"]
            if not (
                isinstance(blob, str)
                and len(at) == len(ends)
                and len(keys) == len(positions) == len(said)
                and len(said_ids) == len(got["said_ids"])
                and (not ends or ends[-1] == len(blob))
                and all(len(p) == len(s) for p, s in zip(positions, said))
            ):
                return
            if got["digest"] != nodes_digest(order, nodes, n):
                return  # other nodes (or texts) at its positions: built again from the slot cache
        except (KeyError, TypeError, ValueError):
            return  # torn or of another shape: built again
        self.by_key = dict(zip(keys, positions))
        self.said = dict(zip(keys, said))
        self.said_ids = said_ids
        self._stored = (at, ends, blob)
        self.upto = self._saved = n
