"""How a node, decision or edge is stored as Chroma metadata: one packed JSON key per record.

Chroma keeps every metadata key of every record as a row of its SQLite table, indexed twice (by record and
by value): at 100k nodes the ~14 keys per record were ~440 MB of an 845 MB space, and reading them back
was most of a full load's time. No query filters on a stored field (the weaver searches its own mirror, never
Chroma's ``where``), so a record is written as a single key, :data:`PACKED_KEY`: the JSON of its fields,
leaving out those equal to their plain default, with no document (a document costs a second row and
Chroma's full-text index; the content is in the JSON).

The JSON is a list, ``[mask, value, ...]``: bit ``i`` of ``mask`` says field ``i`` of the kind's
:data:`FIELD_ORDER` is there, and the values follow in that order. Chroma stores the string twice (its table
and its index on string values), so the field names an object would repeat in every record were a third of the
bytes of a node's record and half of an edge's or a decision's (~80 MB at 100k nodes).

Records written by earlier releases read as before: the previous release's packed JSON object and the one key
per field of the releases before it (``content`` also as the document). :func:`unpack` takes every form, so a
space of any layout opens and takes writes; what this release writes is not readable by an earlier one. A
record holding both forms (an older record updated by this code: Chroma merges metadata keys) reads its packed
key, the last written. ``python -m weaver compact`` rewrites an older space in this form.
"""

from __future__ import annotations

import json
from dataclasses import MISSING, fields
from typing import Any

from .models import Edge, FilterDecision, MemoryNode

__all__ = ["FIELD_ORDER", "PACKED_KEY", "LEGACY_VECTOR_KEY", "pack", "unpack"]

PACKED_KEY = "rec"
# Spaces written before layout 2 carry a base64 float32 copy of each vector in this metadata key (a workaround
# for Chroma's per-process vector cache, see weaver.store.vector_reader); it is never written now and never read.
LEGACY_VECTOR_KEY = "_vec"
_PLAIN = (str, int, float, bool)
_SPECS: dict[type, tuple[tuple[str, ...], dict[str, Any], frozenset[str]]] = {}
# Each kind's fields by their place in a packed list. APPEND ONLY: a stored record names its fields by position,
# so a field a later release adds goes at the end, whatever its place in the model (tests check every field of
# each model is here).
FIELD_ORDER: dict[type, tuple[str, ...]] = {
    MemoryNode: (
        "id", "content", "kind", "turn", "message_id", "timestamp", "language", "status", "importance", "meta",
        "access_count", "last_access", "embed_text",
    ),
    Edge: ("source", "target", "relation", "confidence", "origin", "rationale", "created_at", "status"),
    FilterDecision: (
        "message_id", "kind", "content", "turn", "coarse", "relevance", "novelty", "importance", "total",
        "coarse_threshold", "keep_threshold", "kept", "reason", "backend", "latency_ms", "llm_calls", "llm_tokens",
        "fallback", "node_id", "promoted", "timestamp", "language", "meta", "focus_shift_at", "audit",
    ),
}  # fmt: skip
_MASKS: dict[tuple[type, int], tuple[str | None, ...]] = {}  # (kind, mask) -> the names its values stand for


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
    """``{PACKED_KEY: JSON}`` of a record's fields, those at their plain default left out: ``[mask, values]``.

    >>> e = Edge("n_1", "n_2", "causal", 0.5, "rules", created_at=1.0)
    >>> pack(e)
    {'rec': '[95,"n_1","n_2","causal",0.5,"rules",1.0]'}
    >>> unpack(Edge, pack(e)) == e
    True
    """
    _, defaults, _ = _spec(type(record))
    mask, out = 0, []
    for i, name in enumerate(FIELD_ORDER[type(record)]):
        v = getattr(record, name)
        if name in defaults:
            d = defaults[name]
            if type(v) is type(d) and v == d:
                continue
        mask |= 1 << i
        out.append(v)
    return {PACKED_KEY: json.dumps([mask, *out], ensure_ascii=False, separators=(",", ":"))}


def _names(cls, mask: int) -> tuple[str | None, ...]:
    """The field names a packed list's values stand for, in order (None: a later release's field)."""
    got = _MASKS.get((cls, mask))
    if got is None:
        order = FIELD_ORDER[cls]
        got = tuple(order[i] if i < len(order) else None for i in range(mask.bit_length()) if mask >> i & 1)
        _MASKS[(cls, mask)] = got
    return got


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
    >>> old = n.to_record()  # how the releases before packing stored it
    >>> obj = {PACKED_KEY: '{"id":"n_1","content":"hi","kind":"user_input","turn":1,"message_id":"m_1",'
    ...        '"timestamp":2.0,"meta":{"a":[1]}}'}  # how the previous release packed it
    >>> unpack(MemoryNode, old) == unpack(MemoryNode, obj) == unpack(MemoryNode, pack(n)) == n
    True
    >>> unpack(MemoryNode, old | pack(n)) == n
    True
    """
    raw = meta.get(PACKED_KEY)
    if isinstance(raw, str) and raw.startswith("["):
        mask, *values = _loads(raw)
        held = _names(cls, mask)
        if len(held) != len(values):
            raise ValueError(f"a packed {cls.__name__} record holds {len(values)} values for {len(held)} fields")
        return cls(**{k: v for k, v in zip(held, values) if k is not None})
    if isinstance(raw, str):  # the previous release's packed form: a JSON object
        kwargs = _loads(raw)
        names = _spec(cls)[2]
        if not kwargs.keys() <= names:  # a field a later release added: not this code's to read
            kwargs = {k: v for k, v in kwargs.items() if k in names}
        return cls(**kwargs)
    if LEGACY_VECTOR_KEY in meta:
        meta = {k: v for k, v in meta.items() if k != LEGACY_VECTOR_KEY}
    return cls.from_record(meta)
