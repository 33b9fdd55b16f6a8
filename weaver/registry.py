"""Space name -> collections: an exact mapping kept in Chroma (the ``cwx-registry`` collection).

Each space has one registry record, keyed by the SHA-256 of its exact name, holding
the name and the *prefix* of its collections: ``cwx-<random hex>`` for a space made
by this release, ``cw-<legacy slug>`` for a space made before (registered on first
use, its collections untouched). Two names never share a record or a prefix, so
``delete-space a`` cannot touch ``a-x-trip`` and "北京 trip" cannot open a space
literally named ``trip-50e43d579d``.

A space's collections (see :func:`space_collections`): ``<prefix>-meta``,
``<prefix>-edges``, the node and decision collections the meta's ``vectors``
pointer names (``<prefix>-nodes`` / ``-decisions`` until a ``reembed`` switches
them to a new generation), and its record collections ``<prefix>-x-<kind>``.

Deletion is a tombstone: the record's ``state`` becomes ``deleting`` first, then
the collections go, then the record. A tombstoned space is gone for listing and
opening; whoever meets it next finishes the removal.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
import uuid

from .chroma_io import is_missing_collection
from .models import WeaverError

__all__ = ["REGISTRY", "legacy_slug", "name_key", "Registry", "space_collections", "validate_name", "new_vector_names"]

REGISTRY = "cwx-registry"
_BASE = ("meta", "nodes", "edges", "decisions")
_UNIT = [1.0]


def validate_name(name) -> str:
    if not isinstance(name, str) or not name.strip():
        raise WeaverError("a space needs a non-empty name")
    if len(name) > 200:
        raise WeaverError("space names are limited to 200 characters")
    return name


def name_key(name: str) -> str:
    """The registry id of a space name (exact: any two different names differ)."""
    return hashlib.sha256(validate_name(name).encode("utf-8", "surrogatepass")).hexdigest()


def legacy_slug(name: str) -> str:
    """The collection stem releases before the registry derived from a name (lossy: kept to find old spaces).

    >>> legacy_slug("beijing-trip")
    'beijing-trip'
    >>> legacy_slug("北京 三日游")[:6]
    'space-'
    """
    validate_name(name)
    if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]{0,62}", name):
        return name
    ascii_part = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-_")[:40]
    digest = hashlib.sha1(name.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{ascii_part}-{digest}" if ascii_part else f"space-{digest}"


def new_vector_names() -> dict[str, str]:
    """Collection names for a new generation of node and decision vectors and edges (never used before)."""
    token = uuid.uuid4().hex[:16]
    names = ("nodes", "decisions", "held", "edges")
    return {k: f"cwx-{token}-{k}" for k in names}


def _names(client) -> set[str]:
    return {c if isinstance(c, str) else c.name for c in client.list_collections()}


def _doc(col, rid: str) -> dict | None:
    got = col.get(ids=[rid], include=["documents"])
    return json.loads(got["documents"][0]) if got["ids"] else None


class Registry:
    def __init__(self, client, ef):
        self.client = client
        self._ef = ef
        self._col = None

    def _collection(self):
        if self._col is None:
            self._col = self.client.get_or_create_collection(REGISTRY, embedding_function=self._ef)
        return self._col

    def get(self, name: str) -> dict | None:
        rec = _doc(self._collection(), name_key(name))
        if rec is not None and rec.get("name") != name:  # a SHA-256 collision: refuse rather than mix spaces
            raise WeaverError(f"space name {name!r} collides with {rec.get('name')!r}")
        return rec

    def put(self, rec: dict) -> dict:
        rec = dict(rec, at=time.time())
        self._collection().upsert(
            ids=[name_key(rec["name"])], embeddings=[_UNIT], documents=[json.dumps(rec, ensure_ascii=False)]
        )
        return rec

    def drop(self, name: str) -> None:
        self._collection().delete(ids=[name_key(name)])

    def records(self) -> list[dict]:
        got = self._collection().get(include=["documents"])
        return [json.loads(d) for d in got["documents"]]

    # ------------------------------------------------------------- lookup
    def legacy(self, name: str) -> dict | None:
        """A space made before the registry, if its meta collection names exactly this space."""
        prefix = f"cw-{legacy_slug(name)}"
        try:
            meta = self.client.get_collection(f"{prefix}-meta", embedding_function=self._ef)
        except Exception as exc:
            if is_missing_collection(exc):
                return None
            raise
        rec = _doc(meta, "space")
        if rec is None or rec.get("name") != name:
            return None
        return {"name": name, "prefix": prefix, "state": "live", "legacy": True}

    def new(self, name: str) -> dict:
        return self.put({"name": name, "prefix": f"cwx-{uuid.uuid4().hex[:16]}", "state": "live"})

    def legacy_names(self, claimed: set[str]) -> list[str]:
        """Names of unregistered spaces made before the registry (``claimed``: registered names)."""
        out = []
        for cname in sorted(_names(self.client)):
            m = re.fullmatch(r"cw-(.+)-meta", cname)
            if not m:
                continue
            rec = _doc(self.client.get_collection(cname, embedding_function=self._ef), "space")
            name = (rec or {}).get("name")
            if isinstance(name, str) and name not in claimed and legacy_slug(name) == m.group(1):
                out.append(name)
        return out


def space_collections(client, ef, rec: dict) -> list[str]:
    """The existing collections of the space ``rec`` (exact names; nothing of another space)."""
    prefix = rec["prefix"]
    wanted = {f"{prefix}-{b}" for b in _BASE}
    try:
        meta = client.get_collection(f"{prefix}-meta", embedding_function=ef)
    except Exception as exc:
        if not is_missing_collection(exc):
            raise
    else:
        for rid in ("vectors", "building"):
            ptr = _doc(meta, rid) or {}
            for v in (ptr, ptr.get("old") or {}):
                wanted |= {v[k] for k in ("nodes", "decisions", "held", "edges") if isinstance(v.get(k), str)}
    records = re.compile(re.escape(prefix) + r"-x-([a-z]{2,20})")
    out = []
    for cname in sorted(_names(client)):
        m = records.fullmatch(cname)
        if cname in wanted or (m and m.group(1) not in _BASE):
            out.append(cname)
    return out
