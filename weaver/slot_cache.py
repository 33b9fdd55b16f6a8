"""The slot values of a space's user statements, kept across processes in the store's local ``slots`` cache.

The slot readers (:func:`weaver.slots.read_slots`) cost ~0.5 ms a text; supersede
planning indexes every user statement of a space by slot key on its first use after
an open, so the first arrival into a 10k-node space paid 5-7 s for it (70 s at 100k).
The cache maps a node id to ``[crc of its text, rows]`` (a row per slot value); a
text whose crc differs is read again, and the whole file when the readers' code differs from the code that
wrote it (an upgrade that reads slots better must not be served the old readings). A cache only: Chroma stays the system of
record, and a missing or torn file costs a full read. Both readers of slot values
fill it: the constraint records (a query's first decision reads every statement)
and the supersede index (weaver.curation.arrival).
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import sys
import zlib
from dataclasses import fields
from functools import lru_cache
from pathlib import Path

from .slots import SlotValue, read_slots

__all__ = ["SlotCache", "slot_row", "slot_value"]

KIND = "slots"
WRITE_MIN = 256  # texts read anew before the cache file is rewritten (a few new ones: the next open reads them)
_NAMES = [f.name for f in fields(SlotValue)]
_FEW = ("slot", "value", "bound", "unit", "scope")  # fields whose values repeat across statements
_SPANS: dict[tuple, tuple] = {}
_READER_KEY = "_reader"  # the cache file's stamp of the slot readers' code (a node id never starts with "_")


def reader_sources(start: str = "slots.py", root: Path | None = None) -> list[Path]:
    """The package's modules ``start`` imports, directly or through each other (relative imports followed):
    the slot readers' whole source, so a reader split into new modules, or a new one, still changes the stamp.

    >>> names = [p.name for p in reader_sources()]
    >>> {"slots.py", "slot_value.py", "slots_budget.py", "numerals.py"} <= set(names)
    True
    """
    here = root or Path(__file__).parent
    seen: dict[str, Path] = {}
    todo = [here / start]
    while todo:
        path = todo.pop()
        if path.name in seen or not path.is_file():
            continue
        seen[path.name] = path
        # "from .x import y" within weaver/, at any indent (a lazy import inside a function counts too); a
        # pattern, not the parser: parsing the ~30 modules cost 0.1-0.4 s of the first ingest in every process
        todo += [here / f"{m}.py" for m in _RELATIVE_IMPORT.findall(path.read_text(encoding="utf-8"))]
    return [seen[name] for name in sorted(seen)]


_RELATIVE_IMPORT = re.compile(r"^[ \t]*from \.(\w[\w.]*) import\b", re.MULTILINE)


@lru_cache(maxsize=1)
def reader_stamp() -> str:
    """A digest of the slot readers' source (read_slots and what it imports), stamped on the cache file."""
    h = hashlib.sha1()
    for path in reader_sources():
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def slot_row(v: SlotValue) -> list:
    """A slot value as a JSON row (read back by :func:`slot_value`).

    >>> v = read_slots("预算总共8000元")[0]
    >>> slot_value(slot_row(v)) == v
    True
    """
    return [getattr(v, n) for n in _NAMES]


def slot_value(row: list) -> SlotValue:
    """The slot value of a :func:`slot_row` (ValueError or TypeError for a row of another shape)."""
    if len(row) != len(_NAMES):
        raise ValueError("a cached slot value of another shape")
    kw = dict(zip(_NAMES, row))
    span = tuple(kw["span"])
    # spans repeat too (a few places in a short text); the table stays bounded
    kw["span"] = _SPANS.setdefault(span, span) if len(_SPANS) < 65536 else _SPANS.get(span, span)
    for name in _FEW:  # one string object per distinct value, not one per statement (~17 MB at 100k statements)
        if isinstance(kw[name], str):
            kw[name] = sys.intern(kw[name])
    return SlotValue(**kw)


class SlotCache:
    """``read_slots`` of node texts, from the space's cache file where its crc matches (see the module)."""

    def __init__(self, space) -> None:
        self.space = space
        disk = space.read_cache(KIND)
        self.disk = disk if disk.get(_READER_KEY) == reader_stamp() else {_READER_KEY: reader_stamp()}
        self.known: dict[str, list] = {}
        self.misses = 0

    def values(self, nid: str, text: str) -> tuple[SlotValue, ...]:
        crc = zlib.crc32(text.encode("utf-8"))
        got = self.disk.get(nid)
        if isinstance(got, list) and len(got) == 2 and got[0] == crc and isinstance(got[1], list):
            with contextlib.suppress(TypeError, ValueError):
                vals = tuple(slot_value(row) for row in got[1])
                self.known[nid] = got
                return vals
        vals = tuple(read_slots(text))
        self.misses += 1
        self.known[nid] = [crc, [slot_row(v) for v in vals]]
        return vals

    def rows(self, nid: str, text: str) -> list[list]:
        """The cached rows of ``text`` (each a :func:`slot_row`) without making their slot values: an index over
        100k statements reads only their keys and values (making 85k SlotValue objects cost ~1 s there). A text
        not cached, or rows of another shape, are read (or read again) with the readers."""
        got = self.disk.get(nid)
        if (
            isinstance(got, list)
            and len(got) == 2
            and isinstance(got[1], list)
            and got[0] == zlib.crc32(text.encode("utf-8"))
            and all(isinstance(r, list) and len(r) == len(_NAMES) and isinstance(r[5], list) for r in got[1])
        ):
            self.known[nid] = got
            return got[1]
        self.values(nid, text)
        return self.known[nid][1]

    def save(self) -> None:
        """Rewrite the cache file when enough texts were read anew (what it held of other nodes stays)."""
        if self.misses >= WRITE_MIN:
            self.space.write_cache(KIND, self.disk | self.known)
            self.disk, self.misses = self.disk | self.known, 0
