"""Tables derived from a file that ships with a dependency, kept on disk between processes.

A fresh process pays for each table it derives once: the token counter's vocabulary (100k base64 lines decoded,
~0.13-0.19 s) and the segmenter dictionary's proper-noun tags (a 5 MB file scanned with a regular expression,
~0.09 s). Those are a quarter of a fresh process's first batch of 300 messages. Read back from a marshal file they
cost 15-30 ms. The file is checked, not trusted:

- a **key** names the source it was derived from (the caller passes e.g. the source file's hash and the rule that
  derives the table; the Python and marshal versions are added); a different key, as after a dependency upgrade
  or a changed rule, rebuilds it;
- a **CRC-32 and length** of the payload catch a torn or damaged file (a crash mid-write, a full disk): it is
  rebuilt, never half-read. Files are written to a temporary name and renamed over the old one.

Where: ``$WEAVER_CACHE_DIR``, else ``$XDG_CACHE_HOME/weaver``, else ``~/.cache/weaver`` (read when a table is
first needed, not at import). ``WEAVER_CACHE_DIR=off`` disables it. A cache that cannot be read or written is
skipped: the table is derived as without one. Only plain data (dicts, strings, bytes, numbers) goes through
:mod:`marshal`, which builds values and runs no code; the CRC is checked before it reads anything.
"""

from __future__ import annotations

import logging
import marshal
import os
import struct
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any, Callable, TypeVar

__all__ = ["cache_dir", "cached_table"]

T = TypeVar("T")
_MAGIC = b"WVTABLE1"
_HEAD = struct.Struct("<IIQ")  # key length, payload CRC-32, payload length
_log = logging.getLogger(__name__)


def cache_dir() -> Path | None:
    """The directory cached tables live in, or None when caching is off."""
    env = os.environ.get("WEAVER_CACHE_DIR")
    if env is not None:
        return None if env.strip().lower() in ("", "off", "0", "none") else Path(env)
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root) / "weaver"


def _read(path: Path, key: bytes) -> Any:
    """The table stored at ``path`` for ``key``; raises ValueError / OSError when missing, stale or damaged."""
    data = path.read_bytes()
    if not data.startswith(_MAGIC):
        raise ValueError("not a table file")
    at = len(_MAGIC)
    klen, crc, plen = _HEAD.unpack_from(data, at)
    at += _HEAD.size
    if data[at : at + klen] != key:
        raise ValueError("derived from another source")
    payload = data[at + klen :]
    if len(payload) != plen or zlib.crc32(payload) != crc:
        raise ValueError("torn or damaged")
    return marshal.loads(payload)


def _write(path: Path, key: bytes, table: Any) -> None:
    payload = marshal.dumps(table)
    head = _MAGIC + _HEAD.pack(len(key), zlib.crc32(payload), len(payload)) + key
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(head + payload)
        os.replace(tmp, path)  # readers see the old file or the whole new one
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def cached_table(name: str, key: str, build: Callable[[], T]) -> T:
    """The table ``build()`` derives, read from the cache when a file for ``name`` holds one for ``key``, else built
    and stored. ``key`` must change whenever ``build`` would return another table (name the source file's hash and
    the deriving rule's version in it)."""
    where = cache_dir()
    if where is None:
        return build()
    path = where / f"{name}.table"
    # marshal's format may change between Python versions: a file written by another one is rebuilt
    kb = f"{key}|python {sys.version_info[0]}.{sys.version_info[1]}|marshal {marshal.version}".encode()
    try:
        return _read(path, kb)
    except FileNotFoundError:
        pass
    except (OSError, ValueError, EOFError, TypeError, struct.error) as exc:  # stale, torn or unreadable: rebuild
        _log.debug("table cache %s rebuilt: %s", path, exc)
    table = build()
    try:
        _write(path, kb, table)
    except (OSError, ValueError) as exc:  # a read-only home, a full disk: the process keeps its own copy
        _log.debug("table cache %s not written: %s", path, exc)
    return table
