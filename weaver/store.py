"""Persistence in Chroma: one *space* = one memory, held in a few collections.

The registry (:mod:`weaver.registry`) maps each space name exactly to a
collection prefix; :class:`~weaver.chroma_space.ChromaSpace` holds the space's
collections: the space record and vector pointer (``-meta``), kept nodes with
their embeddings, every filter decision (kept or not: the per-message commit
marker), the held vectors of rejected messages (``held``, for a promote), edges,
and auxiliary records (``-x-<kind>``:
audit log, review queue, probes, chat events, the write journal). Write order
for one message: node, then edges, then decision; on open, a node whose decision
never landed is removed with its edges (``repair``). Write sections that the
commit markers cannot repair go through a journal (all or nothing).

Writers are serialised per space by a file lock under ``<data_dir>/locks``
(one writer at a time across processes and threads; a crashed writer's lock is
released by the kernel). With a Chroma server nothing is written locally: the
lock and revision are per process only (see docs/reliability.md). Each write
section leaves a new revision token next to the lock so another process's weaver
knows to reload its in-memory mirror. Repair runs only under that lock, so it
never undoes a live writer's message.

Each vector is stored once (layout 2, spaces made or compacted since): a kept
message's vector is its node's, so its decision carries a one-number placeholder;
a rejected message's vector is held by message id. Older spaces (layout 1: a
vector on every decision, a base64 copy in metadata) open and write as before;
``weaver compact`` rewrites one in layout 2. Since this release every node, decision and edge is one packed
metadata key (:mod:`weaver.record_codec`; records of earlier releases read as before). Vectors are read through
:func:`vector_reader` (correct across processes).

Chroma's default embedding function downloads a model, so every collection is
created with :class:`NoEmbeddingFunction` and every record carries a vector.

This module owns the store (:class:`ChromaStore`: the registry, locks, delete) and the one client per
process (:func:`connect`); the interfaces are in :mod:`weaver.store_api`, the shared Chroma helpers in
:mod:`weaver.chroma_access`, both re-exported here (their import path before the split).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

from .chroma_access import (
    CHROMA_BATCH,
    PLACEHOLDER_VECTOR,
    NoEmbeddingFunction,
    chunked,
    get_all_records,
    get_with_vectors,
    register_no_embedding_function,
    vector_reader,
)
from .chroma_disk import persist_dir_of, sweep_orphan_segments
from .chroma_io import CrashPoint, Guarded
from .models import WeaverError
from .record_codec import LEGACY_VECTOR_KEY
from .registry import Registry, legacy_slug, name_key, space_collections, validate_name
from .space_lock import SpaceLock, write_log_path
from .store_api import SpaceData, SpaceStore, Store

__all__ = [
    "SpaceData",
    "SpaceStore",
    "Store",
    "ChromaStore",
    "connect",
    "space_slug",
    "NoEmbeddingFunction",
    # Chroma helpers (weaver.chroma_access), importable from here as before the split
    "CHROMA_BATCH",
    "PLACEHOLDER_VECTOR",
    "chunked",
    "get_all_records",
    "get_with_vectors",
    "LEGACY_VECTOR_KEY",
    "vector_reader",
]

space_slug = legacy_slug  # a file-name-safe stem for a space name (validates it); not its collections


class ChromaStore(Store):
    """The spaces of one Chroma client: the registry, per-space writer locks, delete with a tombstone."""

    def __init__(self, client, lock_dir: Path | None = None, write_behind: int = 0, shared: tuple | None = None):
        """``write_behind``: write sections per group applied to Chroma from the local write-behind log
        (:mod:`weaver.write_log`; 0 or a Chroma server: every section at once). ``shared``: the key of the
        process-wide client (see :func:`connect`) this store is one user of, released by :meth:`close`."""
        register_no_embedding_function()
        self._shared = shared
        self.write_behind = write_behind if lock_dir is not None else 0
        if not isinstance(client, Guarded):
            client = Guarded(client, "Chroma store", CrashPoint())
        self.client = client
        self.lock_dir = lock_dir
        self._ef = NoEmbeddingFunction()
        self.registry = Registry(client, self._ef)
        self._registry_lock = self._lock(("registry", "registry"), "the space registry")

    @property
    def closed(self) -> bool:
        return self.client is None

    def close(self) -> None:
        """Stop using the Chroma client (idempotent). The last store of a location to close it closes the client:
        Chroma's system for a data folder (its worker threads, SQLite pool and index caches, ~8-12 MB) stays
        alive until then, so a process that opens many data folders (a test suite, a batch job) keeps every one
        it does not close. Spaces opened from this store can no longer read or write."""
        if self.client is None:
            return
        self.client = None
        if self._shared is not None:  # a client passed in by the caller stays the caller's to close
            _release_client(self._shared)

    def _lock(self, key: tuple, label: str):
        return SpaceLock((id(self.client.raw),) + key[1:] if self.lock_dir is None else key, label, self.lock_dir)

    def space_lock(self, name: str):
        """The writer lock and revision token of a space name (files named by the name's hash)."""
        return self._lock(("space", f"space-{name_key(name)[:32]}"), name)

    # -------------------------------------------------------------- lookup
    def resolve(self, name: str, create: bool) -> dict:
        """The registry record of ``name``: registering a pre-registry space, or creating one when asked."""
        validate_name(name)
        rec = self.registry.get(name)
        if rec is not None and rec.get("state") == "deleting":
            self._finish_delete(name, rec, wait=True)
            rec = None
        if rec is not None:
            return rec
        with self._registry_lock.hold():
            rec = self.registry.get(name)
            if rec is not None and rec.get("state") != "deleting":
                return rec
            legacy = self.registry.legacy(name)
            if legacy is not None:
                return self.registry.put(legacy) if create else legacy
            if not create:
                raise WeaverError(f"space {name!r} does not exist")
            return self.registry.new(name)

    def list_spaces(self) -> list[str]:
        names, claimed = [], set()
        for rec in self.registry.records():
            claimed.add(rec["name"])
            if rec.get("state") == "deleting":
                self._finish_delete(rec["name"], rec, wait=False)
            else:
                names.append(rec["name"])
        return sorted(names + self.registry.legacy_names(claimed))

    def open_space(self, name: str, create: bool = True):
        from .chroma_space import ChromaSpace

        return ChromaSpace(self, name, create)

    # -------------------------------------------------------------- delete
    def delete_space(self, name: str) -> None:
        """Tombstone the space, then remove its collections, then its record (a kill anywhere: gone)."""
        lock = self.space_lock(name)
        with lock.hold():
            rec = self.registry.get(name)
            if rec is not None and rec.get("state") == "deleting":
                self._purge(name, rec)
                raise WeaverError(f"space {name!r} does not exist")
            rec = rec or self.registry.legacy(name)
            if rec is None:
                raise WeaverError(f"space {name!r} does not exist")
            with self._registry_lock.hold():
                self.registry.put(dict(rec, state="deleting"))
            self._purge(name, rec)
            lock.bump()  # another process's weaver on this space reloads and finds it gone

    def _finish_delete(self, name: str, rec: dict, wait: bool) -> None:
        """Complete a delete that was killed (skipped when ``not wait`` and the space is busy: its deleter lives)."""
        try:
            with self.space_lock(name).hold(timeout=None if wait else 0):
                fresh = self.registry.get(name)
                if fresh is not None and fresh.get("state") == "deleting":
                    self._purge(name, fresh)
        except WeaverError:
            if wait:
                raise

    def _purge(self, name: str, rec: dict) -> None:
        from .chroma_io import is_missing_collection

        lock = self.space_lock(name)
        if lock.path is not None and rec.get("prefix"):  # what the deleted space had not yet applied goes too
            write_log_path(lock.path, rec["prefix"]).unlink(missing_ok=True)

        for cname in space_collections(self.client, self._ef, rec):
            try:
                self.client.delete_collection(cname)
            except Exception as exc:
                if not is_missing_collection(exc):
                    raise
        sweep_orphan_segments(persist_dir_of(self.client))  # Chroma keeps a dropped collection's index folder
        self.registry.drop(name)


_CLIENTS: dict[tuple, Any] = {}  # one Chroma client per location per process
_USERS: dict[tuple, int] = {}  # the open stores using each of them: the last one to close closes the client
_CLIENTS_LOCK = threading.Lock()


def _release_client(key: tuple) -> None:
    with _CLIENTS_LOCK:
        _USERS[key] = _USERS.get(key, 1) - 1
        if _USERS[key] > 0:
            return
        del _USERS[key]
        client = _CLIENTS.pop(key, None)
    if client is not None and hasattr(client.raw, "close"):
        client.raw.close()  # Chroma stops the folder's system: threads and native memory released


SERVER_ANSWER_TIMEOUT = 10.0  # seconds a Chroma server has to answer its first request


def _check_server_answers(host: str, port: int, where: str) -> None:
    """WeaverError when something at ``host:port`` accepts a connection but sends nothing back in time.

    Chroma's HTTP client waits without a timeout, so a hung server (or a service that never speaks first
    and ignores HTTP) would hang the CLI forever; a refused connection or an unknown host is left to
    Chroma's client, which reports it at once.
    """
    import socket

    try:
        with socket.create_connection((host, port), timeout=SERVER_ANSWER_TIMEOUT) as sock:
            sock.sendall(f"GET /api/v2/heartbeat HTTP/1.0\r\nHost: {host}\r\n\r\n".encode("ascii", "replace"))
            sock.recv(1)
    except TimeoutError:
        raise WeaverError(f"cannot open the {where}: no answer within {SERVER_ANSWER_TIMEOUT:g} s") from None
    except (OSError, ValueError):  # refused, unresolvable, a malformed host: Chroma's client says which
        return


def _brief(exc: Exception, limit: int = 200) -> str:
    """An exception as one short line (a foreign web server's reply is a whole HTML page)."""
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def connect(settings) -> ChromaStore:
    """PersistentClient under ``settings.data_dir``, or HttpClient when a Chroma server is configured.

    The client is created once per process and location (Chroma refuses two
    clients with different settings on one path); every call shares it.
    ``WEAVER_CRASH_AT`` (a test hook, see :mod:`weaver.chroma_io`) is read here.
    """
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    chroma_settings = ChromaSettings(anonymized_telemetry=False, allow_reset=False)
    lock_dir = None if settings.chroma_host else Path(settings.data_dir).resolve() / "locks"
    if settings.chroma_host:
        key: tuple = ("http", settings.chroma_host, int(settings.chroma_port))
    else:
        key = ("path", str(Path(settings.data_dir).resolve() / "chroma"))
    where = (
        f"Chroma server at {settings.chroma_host}:{settings.chroma_port}"
        if settings.chroma_host
        else f"Chroma data directory {settings.data_dir}"
    )
    with _CLIENTS_LOCK:
        client = _CLIENTS.get(key)
    try:
        if client is not None:
            pass
        elif settings.chroma_host:
            _check_server_answers(settings.chroma_host, int(settings.chroma_port), where)
            client = chromadb.HttpClient(host=settings.chroma_host, port=settings.chroma_port, settings=chroma_settings)
            client.heartbeat()
        else:
            path = Path(key[1])
            path.mkdir(parents=True, exist_ok=True)
            client = chromadb.PersistentClient(path=str(path), settings=chroma_settings)
            sweep_orphan_segments(path)  # what earlier releases' drops left (see weaver.chroma_disk)
    except WeaverError:
        raise
    except Exception as exc:
        raise WeaverError(f"cannot open the {where}: {type(exc).__name__}: {_brief(exc)}") from exc
    if not isinstance(client, Guarded):
        client = Guarded(client, where, CrashPoint.parse(os.environ.get("WEAVER_CRASH_AT")))
    with _CLIENTS_LOCK:
        _CLIENTS[key] = client
        _USERS[key] = _USERS.get(key, 0) + 1
    return ChromaStore(client, lock_dir, write_behind=getattr(settings, "write_behind", 0), shared=key)
