"""A dict of records that makes each record only when it is first read.

Opening a 100k-node space made 100k filter decisions into objects (their JSON
rows parsed, a dataclass each): ~100 MB of RAM and a fifth of the open's CPU
time, for records a query never reads (the studio's pages read a few; the filter
reads the ones it is asked about). :class:`LazyRecords` holds their keys and
a function that makes the record at a row (from the snapshot's JSON rows,
:mod:`weaver.snapshot`); a record once made is kept, so it is the same object
on every read and a change made to it stays, exactly as in a dict.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

__all__ = ["LazyRecords"]

_ADDED = -1  # the row of a key set after the records were read: its record is in ``made``


class LazyRecords(MutableMapping):
    """A mutable mapping key -> record, in the order of ``keys``, whose records are made by ``make(row)`` when
    first read (``rows[i]`` is the row of ``keys[i]``); keys set later come after them, as in a dict.

    >>> made = []
    >>> def make(row):
    ...     made.append(row)
    ...     return {"row": row}
    >>> d = LazyRecords(["b", "a"], [1, 0], make)
    >>> list(d), len(d), "a" in d, made
    (['b', 'a'], 2, True, [])
    >>> d["a"]["row"], d["a"] is d["a"], made
    (0, True, [0])
    >>> d["c"] = {"row": None}; d["a"]["x"] = 1
    >>> list(d), d.get("zz"), d["a"], d.made(), d.made_keys(), d.row("b"), d.row("c")
    (['b', 'a', 'c'], None, {'row': 0, 'x': 1}, 2, ['a', 'c'], 1, -1)
    >>> del d["b"]; list(d.items()), next(reversed(d))
    ([('a', {'row': 0, 'x': 1}), ('c', {'row': None})], 'c')
    """

    def __init__(self, keys: list[str], rows: list[int], make: Callable[[int], Any]) -> None:
        if len(keys) != len(rows):
            raise ValueError("LazyRecords: one row per key")
        self._rows: dict[str, int] = dict(zip(keys, rows))
        if len(self._rows) != len(keys):
            raise ValueError("LazyRecords: a key twice")
        self._made: dict[str, Any] = {}
        self._make = make

    def __getitem__(self, key: str) -> Any:
        got = self._made.get(key)
        if got is None:
            row = self._rows[key]  # KeyError for an unknown key, as a dict
            got = self._made[key] = self._make(row)
        return got

    def __setitem__(self, key: str, value: Any) -> None:
        if key not in self._rows:
            self._rows[key] = _ADDED
        self._made[key] = value

    def __delitem__(self, key: str) -> None:
        del self._rows[key]
        self._made.pop(key, None)

    def __contains__(self, key: object) -> bool:
        return key in self._rows

    def __iter__(self) -> Iterator[str]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __reversed__(self) -> Iterator[str]:
        """Keys newest first, as ``reversed(dict)`` (the filter reads the message before the one it judges)."""
        return reversed(self._rows)

    def made(self) -> int:
        """How many records are objects now (made when read, or set)."""
        return len(self._made)

    def row(self, key: str) -> int:
        """The row a key's record is made from (-1 for a key set later); KeyError for an unknown key."""
        return self._rows[key]

    def made_keys_view(self):
        """The keys whose records are objects now, as a live view (a set-like, for membership tests)."""
        return self._made.keys()

    def made_keys(self) -> list[str]:
        """The keys whose records are objects now (made when read, or set)."""
        return list(self._made)
