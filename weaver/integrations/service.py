"""The weaver as a service: spaces by name, one lock, JSON-ready results.

An MCP server or a LangGraph store calls from worker threads and speaks JSON; a
:class:`~weaver.core.ContextWeaver` is one space, not thread-safe, and returns
dataclasses. This module bridges the two and nothing more: every answer comes
from the library's public API (ingest, query, the debugger's ``why_not``, the
curation edits, the slot reader).

>>> from weaver import Runtime, Settings                                  # doctest: +SKIP
>>> svc = MemoryService(Runtime.from_settings(Settings.from_env()))       # doctest: +SKIP
>>> svc.remember("我对海鲜过敏", space="trip")["kept"]                      # doctest: +SKIP
True
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any, Iterator

import networkx as nx

from ..core import ContextWeaver
from ..debugger import why_not
from ..models import NODE_STATUSES, WeaverError
from ..validation import check_space_name
from ..querying import nothing_recalled
from ..retrieval import RetrievalResult
from ..runtime import Runtime
from ..warming import warm_in_background
from ..slots import read_slots

__all__ = ["MemoryService", "trace_summary", "MAX_GRAPH_NODES"]

MAX_GRAPH_NODES = 200  # a neighbourhood larger than this is cut (nearest first): a tool reply stays readable


def _node(w: ContextWeaver, nid: str) -> dict[str, Any]:
    n = w.nodes[nid]
    return {
        "id": n.id,
        "content": n.content,
        "kind": n.kind,
        "turn": n.turn,
        "status": n.status,
        "message_id": n.message_id,
    }


def trace_summary(res: RetrievalResult, limit: int = 10) -> dict[str, Any]:
    """The trace in brief: seeds with their similarity, what expansion added and over which edge, what the
    budget cut (the first ``limit`` of each), and which signals were on."""
    seeds = [
        {"id": n.id, "similarity": round(n.similarity, 4), "score": round(n.score, 4)}
        for n in res.ranked
        if n.role == "seed" and n.included
    ][:limit]
    expanded = [
        {
            "id": n.id,
            "hops": n.hops,
            "via": n.via,
            "relation": n.relation,
            "direction": n.direction,
            "score": round(n.score, 4),
        }
        for n in res.ranked
        if n.role == "expanded" and n.included
    ][:limit]
    cut = [{"id": n.id, "reason": n.cut_reason} for n in res.ranked if not n.included and n.cut_reason][:limit]
    return {
        "seeds": seeds,
        "expanded": expanded,
        "cut": cut,
        "candidates": len(res.ranked),
        "included": len(res.nodes),
        "signals": res.config,
    }


class MemoryService:
    """Spaces of one :class:`~weaver.runtime.Runtime`, opened once each and shared by every caller.

    ``space`` defaults to ``default_space`` on every method. Bad input raises
    :class:`~weaver.models.WeaverError` with a one-line message (the faces turn it
    into a tool error); nothing is written unless the whole call is valid.
    """

    def __init__(self, runtime: Runtime, default_space: str = "default"):
        self.runtime = runtime
        self.default_space = default_space
        self._open: dict[str, ContextWeaver] = {}
        # one lock for all spaces: callers arrive on worker threads, and the embedder and Chroma client are shared
        self.lock = threading.RLock()

    # ------------------------------------------------------------------ spaces
    def weaver(self, space: str | None = None, create: bool = True) -> ContextWeaver:
        """The open space (caught up with any other writer, e.g. the studio or a CLI ingest)."""
        name = check_space_name(space or self.default_space)  # before it keys the dict of open spaces
        with self.lock:
            w = self._open.get(name)
            if w is None:
                w = self.runtime.open(name, create=create)
                self._open[name] = w
                # the once-a-process loads (store indexes, supersede index) behind this call, not in the next
                warm_in_background(w)
            else:
                w.refresh()
            return w

    @contextmanager
    def writing(self, space: str | None = None, create: bool = False) -> Iterator[ContextWeaver]:
        """The open space for a call that writes, under the lock. A write section that fails part-way (the Chroma
        server went away) leaves the in-memory mirror holding what the store never got: a failed ``remember``
        was then recalled, and its budget listed as a constraint, by every later call. So such a space is
        closed, and the next call reopens it from the store. Bad input, refused before any write section, keeps
        the space open."""
        name = check_space_name(space or self.default_space)
        with self.lock:
            w = self.weaver(name, create=create)
            before = w.space.revision()  # every write section leaves a new token, also one that fails
            try:
                yield w
            except BaseException:
                if w.space.revision() != before and self._open.get(name) is w:
                    del self._open[name]
                raise

    def spaces(self) -> list[str]:
        with self.lock:
            return list(self.runtime.store.list_spaces())

    def _resolve(self, w: ContextWeaver, ref: str) -> str:
        if not isinstance(ref, str) or not ref.strip():
            raise WeaverError("a node is named by its id, a unique id prefix or its message id")
        return w.curation.resolve_node(ref.strip())

    # ------------------------------------------------------------------ memory
    def remember(
        self,
        content: str,
        kind: str = "user_input",
        space: str | None = None,
        message_id: str | None = None,
        depends_on: list | tuple | None = None,
        meta: dict | None = None,
    ) -> dict[str, Any]:
        """Ingest one message; ``depends_on``: ``[node or message id, relation(, why)]`` pairs it depends on."""
        # as given: the library reads [id, relation(, why)] lists and {"node_id", "relation"} objects and refuses
        # anything else in one line (tuple() of an object took its keys; of a number, a TypeError)
        deps = list(depends_on) if isinstance(depends_on, (list, tuple)) else depends_on
        with self.writing(space, create=True) as w:
            return w.ingest(content, kind, meta=meta, message_id=message_id, depends_on=deps).to_dict()

    def missing(self, space: str | None = None) -> str:
        """A note when ``space`` does not exist yet ("" when it does): a read of it has nothing to read, and is
        answered empty with this note; only a write (``remember``, a put) creates a space."""
        name = check_space_name(space or self.default_space)
        with self.lock:
            if name in self._open or self.runtime.has_space(name):
                return ""
        return f"space {name!r} does not exist yet: nothing is remembered there (remembering something creates it)"

    def recall(self, query: str, budget: int | None = None, space: str | None = None) -> dict[str, Any]:
        """The context for ``query`` within ``budget`` tokens, with its nodes and the trace in brief (of a space
        not made yet: nothing, with a ``note`` saying so)."""
        with self.lock:
            note = self.missing(space)
            res = (
                nothing_recalled(query, budget, self.runtime.settings.config)
                if note
                else self.weaver(space, create=False).query(query, budget=budget)
            )
            out = res.to_dict()
            out.pop("trace")
            out["trace"] = trace_summary(res)
            return out | ({"note": note} if note else {})

    def why(self, node: str, query: str, budget: int | None = None, space: str | None = None) -> dict[str, Any]:
        """Why ``node`` (an id, prefix or message id) is or is not in the context of ``query``."""
        with self.lock:
            w = self.weaver(space, create=False)
            res = w.query(query, budget=budget)
            return why_not(w, res, node.strip() if isinstance(node, str) else node).to_dict()

    def graph(self, node: str, hops: int = 1, space: str | None = None) -> dict[str, Any]:
        """The neighbourhood of a node: every node within ``hops`` edges (either direction) and their edges."""
        if isinstance(hops, bool) or not isinstance(hops, int) or not 1 <= hops <= 3:
            raise WeaverError("hops must be 1, 2 or 3")
        with self.lock:
            w = self.weaver(space, create=False)
            nid = self._resolve(w, node)
            dist = nx.single_source_shortest_path_length(w.graph.to_undirected(as_view=True), nid, cutoff=hops)
            keep = sorted(dist, key=lambda n: (dist[n], w.nodes[n].turn))[:MAX_GRAPH_NODES]
            edges = [
                e.to_record()
                for e in w.edges()
                if e.source in dist and e.target in dist and e.source in keep and e.target in keep
            ]
            return {
                "center": nid,
                "hops": hops,
                "nodes": [_node(w, n) | {"distance": dist[n]} for n in keep],
                "edges": edges,
                "truncated": len(dist) > len(keep),
            }

    def constraints(self, space: str | None = None) -> dict[str, Any]:
        """What the user's active messages say about each slot (budget, dates, party, diet, rating, place):
        the latest statement per slot wins; superseded and retracted memories say nothing."""
        with self.lock:
            note = self.missing(space)
            if note:
                return {"space": space or self.default_space, "constraints": [], "note": note}
            w = self.weaver(space, create=False)
            latest: dict[tuple[str, str, str], dict[str, Any]] = {}
            for nid in w.node_ids:  # turn order: a later statement of a slot replaces an earlier one
                n = w.nodes[nid]
                if n.kind != "user_input" or n.status != "active":
                    continue
                for v in read_slots(n.content):
                    # diet items are independent statements: each keeps its own entry
                    key = (v.slot, v.scope, str(v.value) if v.slot == "diet" else "")
                    latest[key] = {
                        "slot": v.slot,
                        "scope": v.scope,
                        "bound": v.bound,
                        "value": v.value,
                        "high": v.high,
                        "unit": v.unit,
                        "text": v.text,
                        "describe": v.describe(),
                        "node_id": n.id,
                        "turn": n.turn,
                    }
            return {"space": w.space.name, "constraints": sorted(latest.values(), key=lambda c: c["turn"])}

    # ---------------------------------------------------------------- curation
    def set_edge(
        self, source: str, target: str, relation: str, why: str = "", space: str | None = None
    ) -> dict[str, Any]:
        """Add or relabel the edge ``source -> target`` (a curator's edit: audited, undoable, cycles refused)."""
        with self.writing(space) as w:
            s, t = self._resolve(w, source), self._resolve(w, target)
            return w.curation.set_edge(s, t, relation, why or "set over the MCP server").to_dict()

    def remove_edge(self, source: str, target: str, why: str = "", space: str | None = None) -> dict[str, Any]:
        with self.writing(space) as w:
            s, t = self._resolve(w, source), self._resolve(w, target)
            return w.curation.remove_edge(s, t, why or "removed over the MCP server").to_dict()

    def set_status(
        self, node: str, status: str, why: str = "", by: str = "", space: str | None = None
    ) -> dict[str, Any]:
        """``retracted`` forgets a memory (retrieval skips it; undoable); ``superseded`` with ``by`` names the
        memory that replaces it; ``active`` restores it."""
        if status not in NODE_STATUSES:
            raise WeaverError(f"status must be one of {', '.join(NODE_STATUSES)}, not {status!r}")
        with self.writing(space) as w:
            nid = self._resolve(w, node)
            by_id = self._resolve(w, by) if by else ""
            return w.curation.set_status(nid, status, why or f"{status} over the MCP server", by=by_id).to_dict()
