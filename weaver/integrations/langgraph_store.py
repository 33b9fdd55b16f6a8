"""A LangGraph ``BaseStore`` backed by a weaver space (``pip install contextweaver[langgraph]``).

Each ``put(namespace, key, value)`` is woven as a memory (its text is ``value["content"]``
or ``value["text"]``, else the value as JSON; ``value["kind"]`` picks the message kind)
with the namespace, key and whole value on its meta. A put is an explicit write, so the
filter's "not worth remembering" is overridden (the message is promoted, the decision
recorded). Putting a key again supersedes its earlier memory; ``delete`` retracts it:
both audited and undoable in the studio, never erased. ``search(..., query=...)`` ranks by
the weaver's own retrieval (dense + BM25, episode and dependency context), so a LangGraph
agent gets the same recall as the studio.

>>> from langgraph.graph import StateGraph                                   # doctest: +SKIP
>>> store = WeaverStore(MemoryService(runtime, "agent"))                      # doctest: +SKIP
>>> graph = builder.compile(store=store)                                      # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from datetime import datetime, timezone
from typing import Any, Iterable

from ..core import ContextWeaver
from ..models import WeaverError
from .service import MemoryService

try:
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        Item,
        ListNamespacesOp,
        MatchCondition,
        PutOp,
        SearchItem,
        SearchOp,
    )
except ImportError as exc:  # the extra is missing: say how to get it, in one line
    raise WeaverError("the LangGraph store needs the langgraph extra: pip install 'contextweaver[langgraph]'") from exc

__all__ = ["WeaverStore", "META_KEY"]

META_KEY = "store"  # node.meta["store"] = {"namespace": [...], "key": ..., "value": {...}}
_OPS = {
    "$eq": lambda a, b: a == b,
    "$ne": lambda a, b: a != b,
    "$gt": lambda a, b: a > b,
    "$gte": lambda a, b: a >= b,
    "$lt": lambda a, b: a < b,
    "$lte": lambda a, b: a <= b,
}


def _text(value: dict[str, Any]) -> str:
    for field in ("content", "text"):
        if isinstance(value.get(field), str) and value[field].strip():
            return value[field]
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _when(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, tz=timezone.utc)


def _matches(value: dict[str, Any], flt: dict[str, Any] | None) -> bool:
    """LangGraph's filter: exact values, or ``{"$gt": x, ...}`` comparisons (a missing or incomparable field
    does not match)."""
    for field, want in (flt or {}).items():
        have = value.get(field)
        if isinstance(want, dict) and want and all(k in _OPS for k in want):
            try:
                if have is None or not all(_OPS[op](have, arg) for op, arg in want.items()):
                    return False
            except TypeError:
                return False
        elif have != want:
            return False
    return True


def _ns_matches(ns: tuple[str, ...], cond: MatchCondition) -> bool:
    path = tuple(cond.path)
    if len(path) > len(ns):
        return False
    part = ns[: len(path)] if cond.match_type == "prefix" else ns[len(ns) - len(path) :]
    return all(p == "*" or p == n for p, n in zip(path, part))


class WeaverStore(BaseStore):
    """LangGraph's long-term memory store over one space of a :class:`MemoryService`."""

    def __init__(self, service: MemoryService, space: str | None = None):
        self.service = service
        self.space = space or service.default_space

    # ------------------------------------------------------------------ the index
    def _weaver(self) -> ContextWeaver:
        return self.service.weaver(self.space)

    def _records(self, w: ContextWeaver) -> dict[tuple[tuple[str, ...], str], list]:
        """(namespace, key) -> its memories in turn order (every status)."""
        out: dict[tuple[tuple[str, ...], str], list] = {}
        for nid in w.node_ids:
            n = w.nodes[nid]
            rec = n.meta.get(META_KEY)
            if isinstance(rec, dict) and isinstance(rec.get("key"), str):
                out.setdefault((tuple(rec.get("namespace", ())), rec["key"]), []).append(n)
        return out

    def _current(self, nodes: list):
        active = [n for n in nodes if n.status == "active"]
        return active[-1] if active else None

    def _item(self, ns: tuple[str, ...], key: str, nodes: list, cls=Item, **extra):
        cur = self._current(nodes)
        return cls(
            namespace=ns,
            key=key,
            value=cur.meta[META_KEY]["value"],
            created_at=_when(nodes[0].timestamp),
            updated_at=_when(cur.timestamp),
            **extra,
        )

    # ------------------------------------------------------------------ operations
    def _get(self, w: ContextWeaver, op: GetOp) -> Item | None:
        nodes = self._records(w).get((tuple(op.namespace), op.key))
        return self._item(tuple(op.namespace), op.key, nodes) if nodes and self._current(nodes) else None

    def _put(self, w: ContextWeaver, op: PutOp) -> None:
        ns = tuple(op.namespace)
        if not ns or not all(isinstance(p, str) and p and "." not in p for p in ns):
            raise WeaverError(f"namespace must be a non-empty tuple of non-empty strings without '.', not {ns!r}")
        before = [n for n in self._records(w).get((ns, op.key), []) if n.status == "active"]
        with w.writing():  # the new value, its promotion and the supersede land together
            if op.value is None:  # LangGraph's delete
                for n in before:
                    w.curation.set_status(n.id, "retracted", f"deleted from the LangGraph store ({op.key})")
                return
            if not isinstance(op.value, dict):
                raise WeaverError(f"a store value must be a dict, not {type(op.value).__name__}")
            value = dict(op.value)
            kind = value.get("kind")
            if kind not in ("user_input", "agent_thought", "tool_result", "agent_response"):
                kind = "user_input"  # a value's own "kind" field may mean something else: only a message kind counts
            meta = {META_KEY: {"namespace": list(ns), "key": op.key, "value": value}}
            seed = json.dumps([list(ns), op.key, value], ensure_ascii=False, sort_keys=True, default=str)
            mid = "lg_" + hashlib.sha1(seed.encode("utf-8", "surrogatepass")).hexdigest()[:20]
            res = w.ingest(_text(value), kind, meta=meta, message_id=mid)
            if not res.kept:  # an explicit write: kept even when the filter would not have kept it
                res = w.promote(mid)
            node = res.node
            if node is None:
                raise WeaverError(f"the store could not weave {op.key!r}")
            if node.status != "active":  # the same value put again after a delete or a newer value
                w.curation.set_status(node.id, "active", f"put again into the LangGraph store ({op.key})")
            for old in before:
                if old.id != node.id:
                    w.curation.set_status(
                        old.id, "superseded", f"new value for {op.key} in the LangGraph store", by=node.id
                    )

    def _search(self, w: ContextWeaver, op: SearchOp) -> list[SearchItem]:
        prefix = tuple(op.namespace_prefix)
        found = [
            (ns, key, nodes)
            for (ns, key), nodes in self._records(w).items()
            if ns[: len(prefix)] == prefix
            and self._current(nodes) is not None
            and _matches(self._current(nodes).meta[META_KEY]["value"], op.filter)
        ]
        if not op.query:
            found.sort(key=lambda f: -self._current(f[2]).timestamp)  # newest first
            return [
                self._item(ns, key, nodes, SearchItem) for ns, key, nodes in found[op.offset : op.offset + op.limit]
            ]
        # the weaver's own ranking; memories it did not consider follow by plain cosine
        res = w.query(op.query, budget=max(w.config.budget, 4096))
        ranked = {n.id: n.score for n in res.ranked}
        qvec = self.service.runtime.embedder.embed([op.query])[0]

        def score(nodes) -> tuple[int, float]:
            cur = self._current(nodes)
            if cur.id in ranked:
                return (1, float(ranked[cur.id]))
            return (0, float(w.vector_of(cur.id) @ qvec))

        scored = sorted(((score(nodes), ns, key, nodes) for ns, key, nodes in found), key=lambda s: s[0], reverse=True)
        page = scored[op.offset : op.offset + op.limit]
        return [self._item(ns, key, nodes, SearchItem, score=round(s[1], 4)) for s, ns, key, nodes in page]

    def _list_namespaces(self, w: ContextWeaver, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        spaces = {ns for (ns, _), nodes in self._records(w).items() if self._current(nodes) is not None}
        if op.match_conditions:
            spaces = {ns for ns in spaces if all(_ns_matches(ns, c) for c in op.match_conditions)}
        if op.max_depth is not None:
            spaces = {ns[: op.max_depth] for ns in spaces}
        return sorted(spaces)[op.offset : op.offset + op.limit]

    def batch(self, ops: Iterable[Any]) -> list[Any]:
        """Run LangGraph's operations in order against the space (one lock: graph nodes may run in threads)."""
        with self.service.lock:
            w = self._weaver()
            out: list[Any] = []
            for op in ops:
                if isinstance(op, GetOp):
                    out.append(self._get(w, op))
                elif isinstance(op, SearchOp):
                    out.append(self._search(w, op))
                elif isinstance(op, PutOp):
                    self._put(w, op)
                    out.append(None)  # LangGraph's result for a put
                elif isinstance(op, ListNamespacesOp):
                    out.append(self._list_namespaces(w, op))
                else:
                    raise WeaverError(f"unknown store operation {type(op).__name__}")
            return out

    async def abatch(self, ops: Iterable[Any]) -> list[Any]:
        """``batch`` on a worker thread: embedding and Chroma writes never block the event loop."""
        return await asyncio.to_thread(self.batch, list(ops))
