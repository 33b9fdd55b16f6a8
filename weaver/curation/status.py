"""Node status edits of :class:`~weaver.curation.edits.Curation`: active / superseded / retracted / archived.

A status change is one audited edit (with the lifecycle's marks, :data:`.nodes.NODE_META_KEYS`, when it
carries them). Making a memory superseded or retracted flags its causal and conditional dependents for
review (:mod:`.cascade`): what was built on it may be wrong now; restoring it withdraws those flags. An
archived memory flags nothing: it was set aside as weak, not found wrong.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable

from ..graph import would_create_cycle
from ..models import NODE_STATUSES, WeaverError
from .audit import AuditEntry
from .cascade import dependents
from .nodes import NODE_META_KEYS
from .queue import ReviewItem, evidence_for
from .writing import in_write_section

if TYPE_CHECKING:  # annotations only
    from .audit import AuditLog

__all__ = ["StatusActions"]


class StatusActions:
    """Mixed into ``Curation`` (which provides the log, the records, the edit counter and the node lookup)."""

    # what Curation provides, declared for the type checker (bare annotations: nothing is set here)
    w: Any
    log: AuditLog
    queue: dict[str, ReviewItem]
    _record: Callable[[AuditEntry], AuditEntry]
    _node: Callable[[str], Any]
    resolve_node: Callable[[str], str]
    _guard: Callable[[str, str], None]
    _edited: Callable[[], None]
    _write_edge: Callable[[str, str, dict | None], None]
    save_items: Callable[[list[ReviewItem]], None]

    @in_write_section
    def set_status(
        self,
        node_id: str,
        status: str,
        why: str = "",
        actor: str = "human",
        by: str = "",
        ref: str = "",
        message_id: str = "",
        marks: dict | None = None,
    ) -> AuditEntry:
        """Mark a node active / superseded / retracted / archived; flags its causal and conditional dependents
        (not for archived: an archived memory was set aside as weak, not found wrong). ``marks``: lifecycle
        meta (``NODE_META_KEYS``: pinned, tier, merged_into, core, archived_access) changed in the same audited edit."""
        node_id = self.resolve_node(node_id)  # an id, an unambiguous prefix or a message id, as the CLI takes
        node = self._node(node_id)
        if status not in NODE_STATUSES:
            raise WeaverError(f"unknown status {status!r}: expected one of {', '.join(NODE_STATUSES)}")
        if by:
            by = self.resolve_node(by)
            if by == node_id:
                raise WeaverError(f"{node_id} cannot be superseded by itself: name the later memory that replaces it")
        self._guard(node_id, actor)
        before = {"status": node.status, "superseded_by": node.meta.get("superseded_by", "")}
        after = {"status": status, "superseded_by": by if status == "superseded" else ""}
        for k, mark in (marks or {}).items():
            if k not in NODE_META_KEYS:
                raise WeaverError(f"unknown node mark {k!r}: expected one of {', '.join(NODE_META_KEYS)}")
            before[k], after[k] = node.meta.get(k, ""), mark
        entry = self._record(
            self.log.new(actor, "node.status", node_id, before, after, why, ref=ref, message_id=message_id)
        )
        heir = self.heir(node_id)  # read before the status changes: a retracted memory names no successor
        self._write_status(node_id, after)
        if status == "active":
            self._withdraw_flags(node_id)
        elif status != "archived" and not (marks and before["status"] == status):  # a mark alone flags nothing
            self._flag_dependents(node_id, status, entry.id)
        if status == "retracted" and before["status"] != "retracted":
            self.release_superseded(node_id, entry, "retracted", heir)
        elif status == "active" and before["status"] == "retracted":
            self.reclaim_released(node_id, entry)
        return entry

    def reclaim_released(self, node_id: str, entry: AuditEntry) -> list[AuditEntry]:
        """The memories ``node_id``'s retraction released (made active again), superseded by it again once it is
        set active by hand (an undo of the retraction reverts the release itself): else the budget said first
        stood active beside the one that replaced it. Only a memory the release left as it was (active, with no
        later successor) is taken; each change is a builder entry naming ``entry``, undone with it."""
        out = []
        for e in list(self.log.entries):
            if not (
                e.actor == "builder"
                and e.action == "node.status"
                and (e.before or {}).get("superseded_by") == node_id
                and (e.after or {}).get("status") == "active"
                and not self.log.undone(e.id)
            ):
                continue
            n = self.w.nodes.get(e.key)
            if n is None or n.status != "active" or n.meta.get("superseded_by"):
                continue
            before = {"status": "active", "superseded_by": ""}
            after = {"status": "superseded", "superseded_by": node_id}
            why = f"{node_id}, which had superseded it, is active again"
            out.append(self._record(self.log.new("builder", "node.status", n.id, before, after, why, ref=entry.id)))
            self._write_status(n.id, after)
        return out

    def release_superseded(self, node_id: str, entry: AuditEntry, how: str, heir: str) -> list[AuditEntry]:
        """The memories ``node_id`` superseded, once it is taken back (``how``: "deleted", "retracted"): each is
        handed to what superseded ``node_id`` in turn (a memory that stands, with a ``supersedes`` edge), or else
        is active again, so its status says what the constraint records read ("预算五千" -> "改成八千", the
        8,000 deleted: the budget is 5,000 again, in the records and in retrieval alike). ``heir``: what
        :meth:`heir` named before ``node_id`` was taken back. Each change is an audit entry of the builder that
        names ``entry`` (``ref``): undoing ``entry`` undoes them with it (:func:`.arrival.linked_edits`), and no
        human decision is recorded for the memories released."""
        held = [
            n.id
            for n in self.w.nodes.values()
            if n.status == "superseded" and n.meta.get("superseded_by") == node_id and n.id != node_id
        ]
        if not held:
            return []
        out = []
        for nid in held:
            before = {"status": "superseded", "superseded_by": node_id}
            to = heir or self._standing_successor(nid, node_id)
            if to and not self.w.graph.has_edge(nid, to) and not would_create_cycle(self.w.graph, nid, to):
                why = f"handed on: {node_id}, which superseded it, was {how}"
                edge = {
                    "relation": "supersedes",
                    "confidence": 1.0,
                    "origin": "rules",
                    "rationale": why,
                    "created_at": time.time(),
                    "status": "proposed",
                }
                out.append(
                    self._record(self.log.new("builder", "edge.add", f"{nid}->{to}", None, edge, why, ref=entry.id))
                )
                self._write_edge(nid, to, edge)
            after = {"status": "superseded", "superseded_by": to} if to else {"status": "active", "superseded_by": ""}
            why = f"{node_id}, which superseded it, was {how}" + (f"; superseded by {to} in turn" if to else "")
            out.append(self._record(self.log.new("builder", "node.status", nid, before, after, why, ref=entry.id)))
            self._write_status(nid, after)
            if not to:
                self._withdraw_flags(nid)
        return out

    def _standing_successor(self, nid: str, gone: str) -> str:
        """Another memory that superseded ``nid`` and stands (a ``supersedes`` edge to an active memory other than
        ``gone``, the latest said): "5000" superseded by "8000" and by "12000" (an undo put the 8,000 back after the
        12,000 came), the 8,000 taken back again: the 5,000 is the 12,000's, not active beside it."""
        found = [
            x
            for x in self.w.graph.successors(nid)
            if x != gone
            and self.w.graph.edges[nid, x].get("relation") == "supersedes"
            and x in self.w.nodes
            and self.w.nodes[x].status == "active"
        ]
        return max(found, key=self.w.position_of, default="")

    def heir(self, node_id: str) -> str:
        """The memory that stands at the end of ``node_id``'s chain of supersedes: what superseded it, or what
        superseded that in turn ("" when ``node_id`` is not superseded or nothing at the end stands)."""
        seen = {node_id}
        node = self.w.nodes.get(node_id)
        while node is not None and node.status == "superseded":
            nxt = str(node.meta.get("superseded_by") or "")
            if not nxt or nxt in seen:
                return ""
            seen.add(nxt)
            node = self.w.nodes.get(nxt)
        return node.id if node is not None and node.id != node_id and node.status == "active" else ""

    def flag_restated(self, node_id: str, entry_id: str) -> list[ReviewItem]:
        """Flag what depended on a statement a later one gave a new value while it stays active for its other
        slots ("two people, 6000 yuan, May 2-4" after "three of us, 9000"): its old value is as stale as a
        superseded statement's. ``entry_id``: the audit entry of the ``supersedes`` edge that raised the flags."""
        return self._flag_dependents(node_id, "restated", entry_id)

    def _flag_dependents(self, node_id: str, status: str, entry_id: str) -> list[ReviewItem]:
        pending = {
            (i.target, i.source) for i in self.queue.values() if i.kind == "needs_review" and i.status == "pending"
        }
        items = []
        for dep, path in dependents(self.w.graph, node_id).items():
            if (dep, node_id) in pending or self.w.nodes[dep].status != "active":
                continue
            items.append(
                ReviewItem.make(
                    "needs_review",
                    source=node_id,
                    target=dep,
                    confidence=1.0,
                    origin="cascade",
                    rationale=f"depends on {status} {node_id} via " + " -> ".join(path),
                    evidence=evidence_for(self.w, node_id, dep),
                    cause_entry=entry_id,
                )
            )
        self.save_items(items)
        return items

    def _withdraw_flags(self, node_id: str) -> None:
        """A cause restored to active: its pending flags no longer apply."""
        items = [
            i for i in self.queue.values() if i.kind == "needs_review" and i.status == "pending" and i.source == node_id
        ]
        for i in items:
            i.status, i.resolved_at, i.resolved_by = "withdrawn", time.time(), "cause restored"
        self.save_items(items)

    def _withdraw_flags_of(self, entry_id: str) -> None:
        """The pending flags an edit raised (``cause_entry``), withdrawn when the edit is undone."""
        items = [
            i
            for i in self.queue.values()
            if i.kind == "needs_review" and i.status == "pending" and i.cause_entry == entry_id
        ]
        for i in items:
            i.status, i.resolved_at, i.resolved_by = "withdrawn", time.time(), "its cause was undone"
        self.save_items(items)

    def _write_status(self, nid: str, state: dict) -> None:
        self._edited()
        meta = dict(self.w.nodes[nid].meta)
        if state.get("superseded_by"):
            meta["superseded_by"] = state["superseded_by"]
        else:
            meta.pop("superseded_by", None)
        for k in NODE_META_KEYS:  # the lifecycle's marks, only where the state names them (older states do not)
            if k in state:
                if state[k]:
                    meta[k] = state[k]
                else:
                    meta.pop(k, None)
        self.w.set_node_status(nid, state["status"], meta)  # node, graph and the query mask together
        # metadata only (Chroma merges it; the vector and document stay): re-writing the vector of an existing
        # record made Chroma repair its HNSW neighbourhood, 13-30 ms a node in a 10k space against ~0.1 ms
        self.w.space.put_nodes([self.w.nodes[nid]])
