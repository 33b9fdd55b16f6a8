"""How a node, decision or edge is stored as Chroma metadata: one packed JSON key per record.

Chroma keeps every metadata key of every record as a row of its SQLite table, indexed twice (by record and
by value): at 100k nodes the ~14 keys per record were ~440 MB of an 845 MB space, and reading them back
was most of a full load's time. No query filters on a stored field (the weaver searches its own mirror, never
Chroma's ``where``), so a record is written as a single key, :data:`PACKED_KEY`: the JSON of its fields,
leaving out those equal to their plain default, with no document (a document costs a second row and
Chroma's full-text index; the content is in the JSON).

Records written by earlier releases (one key per field, ``content`` also as the document) read as before:
:func:`unpack` takes either form, so a space of any layout opens and takes writes. A record holding both
forms (an older record updated by this code: Chroma merges metadata keys) reads its packed key, the last
written. ``python -m weaver compact`` rewrites an older space in this form.
"""

from __future__ import annotations

import json
from dataclasses import MISSING, fields
from typing import Any

from .models import Edge, FilterDecision, MemoryNode

__all__ = ["PACKED_KEY", "LEGACY_VECTOR_KEY", "pack", "unpack"]

PACKED_KEY = "rec"
# Spaces written before layout 2 carry a base64 float32 copy of each vector in this metadata key (a workaround
# for Chroma's per-process vector cache, see weaver.store.vector_reader); it is never written now and never read.
LEGACY_VECTOR_KEY = "_vec"
_PLAIN = (str, int, float, bool)
_SPECS: dict[type, tuple[tuple[str, ...], dict[str, Any], frozenset[str]]] = {}


def _spec(cls) -> tuple[tuple[str, ...], dict[str, Any], frozenset[str]]:
    """A model's field names, its plain defaults (left out when a value equals one, type included) and the
    names as a set; computed once per class."""
    got = _SPECS.get(cls)
    if got is None:
        fs = fields(cls)
        defaults: dict[str, Any] = {
            f.name: f.default for f in fs if f.default is not MISSING and isinstance(f.default, _PLAIN)
        }
        # an empty meta or audit is what the model's factory makes
        defaults |= {f.name: f.default_factory() for f in fs if f.default_factory in (dict, list)}
        got = _SPECS[cls] = (tuple(f.name for f in fs), defaults, frozenset(f.name for f in fs))
    return got


def pack(record: MemoryNode | FilterDecision | Edge) -> dict[str, str]:
    """``{PACKED_KEY: JSON}`` of a record's fields, those at their plain default left out.

    >>> e = Edge("n_1", "n_2", "causal", 0.5, "rules", created_at=1.0)
    >>> pack(e)
    {'rec': '{"source":"n_1","target":"n_2","relation":"causal","confidence":0.5,"origin":"rules","created_at":1.0}'}
    >>> unpack(Edge, pack(e)) == e
    True
    """
    names, defaults, _ = _spec(type(record))
    out = {}
    for name in names:
        v = getattr(record, name)
        if name in defaults:
            d = defaults[name]
            if type(v) is type(d) and v == d:
                continue
        out[name] = v
    return {PACKED_KEY: json.dumps(out, ensure_ascii=False, separators=(",", ":"))}


def _loads(raw: str):
    try:
        import orjson
    except ImportError:  # pragma: no cover - chromadb requires it
        return json.loads(raw)
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:  # e.g. a NaN, which the standard module writes and reads
        return json.loads(raw)


def unpack(cls, meta: dict[str, Any]):
    """A model record from its stored metadata, packed or one key per field (an earlier release's form).

    >>> n = MemoryNode("n_1", "hi", "user_input", 1, "m_1", timestamp=2.0, meta={"a": [1]})
    >>> old = n.to_record()  # how earlier releases stored it
    >>> unpack(MemoryNode, old) == unpack(MemoryNode, pack(n)) == unpack(MemoryNode, old | pack(n)) == n
    True
    """
    raw = meta.get(PACKED_KEY)
    if isinstance(raw, str):
        kwargs = _loads(raw)
        names = _spec(cls)[2]
        if not kwargs.keys() <= names:  # a field a later release added: not this code's to read
            kwargs = {k: v for k, v in kwargs.items() if k in names}
        return cls(**kwargs)
    if LEGACY_VECTOR_KEY in meta:
        meta = {k: v for k, v in meta.items() if k != LEGACY_VECTOR_KEY}
    return cls.from_record(meta)
