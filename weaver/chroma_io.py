"""The one door to Chroma: clear errors for a lost server, a crash point for tests, the write journal.

Every Chroma client the store uses is wrapped in :class:`Guarded`, so every
call (client or collection) passes here:

* a transport failure (the Chroma server died or went away mid-command) becomes
  one ``WeaverError`` line instead of an ``httpx`` traceback;
* each *write* call (``add`` / ``upsert`` / ``update`` / ``delete`` of records,
  creating or deleting a collection) is counted, and ``WEAVER_CRASH_AT=N`` (read
  once by ``store.connect``) SIGKILLs the process just before the N-th one
  (``N:after``: just after it). The crash harness uses it to kill every writing
  command at each of its store writes.

The journal (:func:`encode_journal` / :func:`decode_journal`) holds the raw Chroma
calls of one write section, so a section whose calls cannot be repaired from the
commit markers alone is applied all or nothing (see ``ChromaSpace._flush``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import signal
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .models import WeaverError

__all__ = [
    "Guarded",
    "CrashPoint",
    "SimulatedCrash",
    "Call",
    "encode_journal",
    "decode_journal",
    "is_missing_collection",
]

_RECORD_WRITES = frozenset({"add", "upsert", "update", "delete"})
_CLIENT_WRITES = frozenset({"create_collection", "get_or_create_collection", "delete_collection"})
_RETURNS_COLLECTION = frozenset({"create_collection", "get_or_create_collection", "get_collection"})
_JOURNAL_PART = 4_000_000  # characters per journal record (a batch of big messages spans several)


class SimulatedCrash(BaseException):
    """Raised instead of SIGKILL by an in-process crash point (``CrashPoint.simulate``)."""


@dataclass
class CrashPoint:
    """Kill the process at the N-th Chroma write of this process (a test hook; off unless configured).

    ``simulate``: raise :class:`SimulatedCrash` instead, and refuse every later write
    too (the "dead" process writes nothing more), so in-process tests can reopen the
    store and check what a kill at that write would leave.
    """

    at: int = 0
    after: bool = False
    writes: int = 0
    simulate: bool = False
    dead: bool = False

    def arm(self, at: int, after: bool = False, simulate: bool = True) -> None:
        self.at, self.after, self.simulate, self.dead, self.writes = at, after, simulate, False, 0

    def _die(self):
        if not self.simulate:
            os.kill(os.getpid(), signal.SIGKILL)
        self.dead = True
        raise SimulatedCrash(f"crash at write {self.at}{' (after)' if self.after else ''}")

    @classmethod
    def parse(cls, value: str | None) -> "CrashPoint":
        if not value:
            return cls()
        n, _, when = value.partition(":")
        try:
            at = int(n)
        except ValueError:
            raise WeaverError(f"WEAVER_CRASH_AT must be N or N:after, not {value!r}") from None
        return cls(at, when == "after")

    def write(self, run):
        if self.dead:
            raise SimulatedCrash("the process is dead")
        self.writes += 1
        hit = self.at > 0 and self.writes == self.at
        if hit and not self.after:
            self._die()
        out = run()
        if hit:
            self._die()
        return out


def _is_transport_error(exc: BaseException) -> bool:
    if isinstance(exc, (ConnectionError, TimeoutError)):
        return True
    try:
        import httpx
    except ImportError:  # pragma: no cover - chromadb depends on httpx
        return False
    return isinstance(exc, httpx.TransportError)


def is_missing_collection(exc: BaseException) -> bool:
    """Chroma's "no such collection" (its exception type changed between releases)."""
    return not _is_transport_error(exc) and (
        "does not exist" in str(exc) or type(exc).__name__ in ("NotFoundError", "InvalidCollectionException")
    )


class Guarded:
    """A proxy over a Chroma client or collection: translates transport errors, counts writes."""

    def __init__(self, target, where: str, crash: CrashPoint):
        self.raw = target
        self._where = where
        self._crash = crash

    @property
    def name(self) -> str:
        return self.raw.name

    @property
    def crash_point(self) -> CrashPoint:
        """The crash point counting this client's writes (a write the store makes outside Chroma counts too)."""
        return self._crash

    def __getattr__(self, attr: str) -> Any:
        value = getattr(self.raw, attr)
        if not callable(value):
            return value

        def call(*args, **kwargs):
            run = lambda: value(*args, **kwargs)  # noqa: E731
            try:
                is_write = attr in _CLIENT_WRITES or (attr in _RECORD_WRITES and hasattr(self.raw, "upsert"))
                out = self._crash.write(run) if is_write else run()
            except WeaverError:
                raise
            except Exception as exc:
                if _is_transport_error(exc):
                    raise WeaverError(
                        f"lost the connection to the {self._where} ({type(exc).__name__}: "
                        f"{str(exc)[:200]}); acknowledged memory is safe, retry when it is back"
                    ) from exc
                raise
            return Guarded(out, self._where, self._crash) if attr in _RETURNS_COLLECTION else out

        return call


# ---------------------------------------------------------------- journal
@dataclass
class Call:
    """One raw Chroma write: ``collection.op(**kwargs)``."""

    collection: str
    op: str  # upsert | update | delete
    kwargs: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict:
        kw = dict(self.kwargs)
        if kw.get("embeddings") is not None:
            arr = np.asarray(kw["embeddings"], dtype=np.float32)
            kw["embeddings"] = {"shape": list(arr.shape), "f32": base64.b64encode(arr.tobytes()).decode("ascii")}
        return {"collection": self.collection, "op": self.op, "kwargs": kw}

    @classmethod
    def from_dict(cls, d: dict) -> "Call":
        kw = dict(d["kwargs"])
        emb = kw.get("embeddings")
        if isinstance(emb, dict):
            arr = np.frombuffer(base64.b64decode(emb["f32"]), dtype=np.float32).reshape(emb["shape"])
            kw["embeddings"] = arr.tolist()
        return cls(d["collection"], d["op"], kw)


def encode_journal(txn: str, calls: list[Call]) -> tuple[list[str], list[str]]:
    """(ids, documents) of the journal records of one section: its parts, then a header naming them."""
    text = json.dumps([c.to_dict() for c in calls], ensure_ascii=False)
    parts = [text[i : i + _JOURNAL_PART] for i in range(0, len(text), _JOURNAL_PART)] or [""]
    ids = [f"{txn}.{i:04d}" for i in range(len(parts))]
    header = json.dumps({"txn": txn, "parts": ids, "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()})
    return ids + [txn], parts + [header]


def decode_journal(ids: list[str], docs: list[str]) -> tuple[list[list[Call]], list[str]]:
    """The complete sections found in journal records (in order) and every record id (to clear).

    A section whose header or any part is missing, or whose checksum fails, never
    started its writes (the journal is written first): it is dropped.
    """
    by_id = dict(zip(ids, docs))
    sections = []
    for rid, doc in sorted(by_id.items()):
        if "." in rid:
            continue  # a part
        try:
            head = json.loads(doc)
            text = "".join(by_id[p] for p in head["parts"])
        except (ValueError, KeyError, TypeError):
            continue
        if hashlib.sha256(text.encode("utf-8")).hexdigest() == head.get("sha256"):
            sections.append([Call.from_dict(c) for c in json.loads(text)])
    return sections, list(by_id)
