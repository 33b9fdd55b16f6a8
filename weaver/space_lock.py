"""The single-writer lock and revision token of one space name, and the files kept beside the lock.

A :class:`SpaceLock` is what makes a space single-writer across processes: in local mode a file lock and a
revision file under ``<data_dir>/locks/`` (every process writing the space bumps the token after a write
section, so a reader knows its mirror is stale by comparing one small file); with a Chroma server, where no
local file is shared, a lock and a token per process. :class:`~weaver.chroma_space.ChromaSpace` holds one
per space and :class:`~weaver.store.ChromaStore` one for its registry. Kept apart from the space's Chroma
I/O because it touches no collection: it is the only part of a space both stores and spaces share.
"""

from __future__ import annotations

import contextlib
import os
import threading
import uuid
from pathlib import Path

from .models import WeaverError

__all__ = ["LOCK_TIMEOUT", "SpaceLock", "write_log_path"]

LOCK_TIMEOUT = 120.0  # seconds a writer waits for another writer before a clear error
# server mode: writer locks and revisions shared by every space object of this process
_PROCESS_LOCKS: dict[tuple, threading.RLock] = {}
_PROCESS_REVS: dict[tuple, str] = {}
_REGISTRY_LOCK = threading.Lock()


class SpaceLock:
    """The writer lock and revision token of one space name (files under the lock directory, or per process)."""

    def __init__(self, key: tuple, label: str, lock_dir: Path | None):
        self.key, self.label = key, label
        self.path = self._rev_path = None
        if lock_dir is None:
            with _REGISTRY_LOCK:
                self._plock = _PROCESS_LOCKS.setdefault(key, threading.RLock())
            self._lock = None
            return
        from filelock import FileLock

        Path(lock_dir).mkdir(parents=True, exist_ok=True)
        self.path = Path(lock_dir) / f"{key[1]}.lock"
        self._rev_path = Path(lock_dir) / f"{key[1]}.rev"
        # one lock object per path per process; each thread holds it through its own descriptor
        self._lock = FileLock(str(self.path), is_singleton=True)  # the timeout is given per acquire
        self._held = threading.local()  # depth: this thread's holds of the file lock in progress

    @contextlib.contextmanager
    def hold(self, timeout: float | None = None):
        if self._lock is None:
            if not self._plock.acquire(timeout=LOCK_TIMEOUT if timeout is None else timeout):
                raise WeaverError(f"space {self.label!r} is busy: another writer held it for over {LOCK_TIMEOUT:.0f} s")
            try:
                yield
            finally:
                self._plock.release()
            return
        if getattr(self._held, "depth", 0):
            # this thread holds it already (a write section inside another: a curation edit, a supersede on
            # arrival inside ingest's section): filelock's re-entrant acquire cost ~30 us a call, ~500 calls in
            # a batch of 300 messages; the outer hold releases it
            self._held.depth += 1
            try:
                yield
            finally:
                self._held.depth -= 1
            return
        from filelock import Timeout

        try:
            self._lock.acquire(timeout=LOCK_TIMEOUT if timeout is None else timeout)
        except Timeout as exc:
            raise WeaverError(
                f"space {self.label!r} is busy: another writer has held {self.path} for over {LOCK_TIMEOUT:.0f} s"
            ) from exc
        self._held.depth = 1
        try:
            yield
        finally:
            self._held.depth = 0
            self._lock.release()

    def revision(self) -> str:
        if self._lock is None:
            return _PROCESS_REVS.get(self.key, "")
        assert self._rev_path is not None  # set with the file lock
        try:
            # bytes, not text: a token overwritten by junk (a crash, a careless edit) reads as "changed", and the
            # next write section writes a clean one; decoding it as UTF-8 would stop every open with a traceback
            return self._rev_path.read_bytes().decode("ascii", "replace")
        except FileNotFoundError:
            return ""

    def bump(self) -> str:
        """A new token, written over the old one in place.

        Readers only compare a token with the one they hold, so a read torn by a write in progress (half old, half
        new) reads as "changed", as the whole new token would: at worst one reload more. A temporary file renamed
        over the token cost 2-3 ms a write section on a busy disk (ext4 flushes a file renamed over another).
        """
        token = uuid.uuid4().hex
        if self._lock is None:
            _PROCESS_REVS[self.key] = token
            return token
        assert self._rev_path is not None  # set with the file lock
        data = token.encode("ascii")
        fd = os.open(self._rev_path, os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            os.pwrite(fd, data, 0)
            if os.fstat(fd).st_size > len(data):  # a longer token of another writer's making: cut what is past it
                os.ftruncate(fd, len(data))
        finally:
            os.close(fd)
        return token


def write_log_path(lock_path: Path | str, prefix: str) -> Path:
    """``<data_dir>/locks/<space key>-<prefix>.wal``: the space's write-behind log, beside its lock."""
    return Path(lock_path).with_name(f"{Path(lock_path).stem}-{prefix}.wal")
