"""Review-queue actions of :class:`~weaver.curation.edits.Curation`: list, accept (optionally edited), reject.

A reject is an audit entry of its own (``item.reject``, key: the item id, state
``{"review_item": status}``), written before the item changes, so the log shows
it and undo brings the item back to pending (redo rejects it again).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable

from ..models import RELATIONS, WeaverError
from .queue import FlagGroup, ReviewItem
from .refs import one_of
from .writing import in_write_section

if TYPE_CHECKING:  # used in annotations only (entries are built by the log: ``self.log.new``)
    from .audit import AuditEntry, AuditLog

__all__ = ["QueueActions"]


class QueueActions:
    """Mixed into ``Curation`` (which provides the edits, ``queue`` and ``save_items``)."""

    # what Curation provides, declared for the type checker (bare annotations: nothing is set here)
    w: Any
    log: AuditLog
    queue: dict[str, ReviewItem]
    save_items: Callable[[list[ReviewItem]], None]
    _record: Callable[[AuditEntry], AuditEntry]
    set_edge: Callable[..., AuditEntry]
    remove_edge: Callable[..., AuditEntry]
    set_status: Callable[..., AuditEntry]

    def items(self, status: str | None = "pending") -> list[ReviewItem]:
        """The queue's items of ``status`` (None: all). A pending item naming a memory deleted since is on hold,
        not listed as pending: nothing can be decided about it, and undoing the deletion lists it again."""
        out = [
            i
            for i in self.queue.values()
            if status is None or (i.status == status and (status != "pending" or self._decidable(i)))
        ]
        return sorted(out, key=lambda i: (-i.confidence, i.created_at) if status == "pending" else (i.created_at,))

    def _decidable(self, item: ReviewItem) -> bool:
        """Every memory the item names is still in the space."""
        return all(n in self.w.nodes for n in (item.source, item.target) if n)

    def _pending_flags(self) -> list[ReviewItem]:
        return [
            i for i in self.queue.values() if i.kind == "needs_review" and i.status == "pending" and self._decidable(i)
        ]

    def flagged(self) -> set[str]:
        """Nodes with a pending "needs review" flag."""
        return {i.target for i in self._pending_flags()}

    def flag_groups(self) -> list[FlagGroup]:
        """Pending "needs review" flags grouped by the change that raised them, oldest change first: a budget
        changed once is one group (one line for the user), however many results and replies used the old value."""
        groups: dict[str, list[ReviewItem]] = {}
        pending = self._pending_flags()
        for i in sorted(pending, key=lambda i: i.created_at):
            groups.setdefault(i.source, []).append(i)
        out = []
        for src, items in groups.items():
            node = self.w.nodes.get(src)
            status = node.status if node else ""
            by = str(node.meta.get("superseded_by", "")) if node else ""
            if node and not by and status == "active":  # one of its values restated, the rest still holds
                by = self._restated_by(src)
            out.append(FlagGroup(src, status, by, [i.target for i in items], [i.id for i in items]))
        return out

    def _restated_by(self, node_id: str) -> str:
        """The newest statement a live ``supersedes`` edge from ``node_id`` leads to ("" when none)."""
        g = self.w.graph
        later = [
            v
            for v in g.successors(node_id)
            if v in self.w.nodes
            and g.edges[node_id, v].get("relation") == "supersedes"
            and g.edges[node_id, v].get("status") != "rejected"
        ]
        return max(later, key=lambda v: (self.w.nodes[v].turn, self.w.nodes[v].timestamp), default="")

    @in_write_section
    def resolve_flags(self, source: str, accept: bool) -> int:
        """Every pending flag one change raised, resolved at once (each an audited, undoable edit): accepted (the
        memories fall with the old value) or dismissed (they stay as they are). How many were resolved."""
        group = next((g for g in self.flag_groups() if g.source == source), None)
        if group is None:
            return 0
        for item_id in group.item_ids:
            if accept:
                self.accept(item_id)
            else:
                self.reject(item_id)
        if accept:  # each memory that fell flagged the others after it, which fell in the same stroke: no news
            fell = set(group.targets)
            echoes = [
                i
                for i in self.queue.values()
                if i.kind == "needs_review" and i.status == "pending" and i.source in fell and i.target in fell
            ]
            for i in echoes:
                i.status, i.resolved_at, i.resolved_by = "withdrawn", time.time(), "fell with its group"
            self.save_items(echoes)
        return len(group.item_ids)

    def _item(self, item_id: str) -> ReviewItem:
        item = self.queue[one_of(item_id, self.queue, "review item")]  # the id or an unambiguous prefix of it
        if item.status != "pending":
            raise WeaverError(f"review item {item.id} is already {item.status}")
        if not self._decidable(item):
            gone = next(n for n in (item.source, item.target) if n and n not in self.w.nodes)
            raise WeaverError(
                f"review item {item.id} is on hold: its memory {gone} was deleted (undo that to decide it)"
            )
        return item

    def apply_item(
        self, item: ReviewItem, actor: str, relation: str | None = None, status: str | None = None
    ) -> AuditEntry | None:
        """Carry out a proposal (a curator accepting it, or the review pass auto-applying it)."""
        why = f"review: {item.rationale}" if actor == "review" else f"accepted review item {item.id}"
        if item.kind == "prune":
            return self.remove_edge(item.source, item.target, why, actor, ref=item.id)
        if item.kind == "relabel" and not self.w.graph.has_edge(item.source, item.target):
            raise WeaverError(f"the edge {item.edge_key} is gone; reject this proposal")
        if item.kind in ("relabel", "add"):
            return self.set_edge(
                item.source, item.target, relation or item.relation, why, actor, confidence=item.confidence, ref=item.id
            )
        if item.kind == "supersede":
            return self.set_status(
                item.target,
                status or "superseded",
                why,
                actor,
                by=item.source if (status or "superseded") == "superseded" else "",
                ref=item.id,
            )
        # needs_review: accepting the flag means the dependent falls with its cause
        cause = self.w.nodes.get(item.source)
        if cause is not None and cause.status == "active" and self._restated_by(item.source):
            new = status or "superseded"  # a value of the cause was restated: what used it is replaced, not wrong
        else:
            new = status or (cause.status if cause and cause.status != "active" else "retracted")
        return self.set_status(item.target, new, why, actor, ref=item.id)

    @in_write_section
    def accept(self, item_id: str, relation: str | None = None, status: str | None = None) -> AuditEntry | None:
        """Accept (optionally edited: another relation or status) a pending item; applied as a human edit."""
        item = self._item(item_id)
        if relation is not None and relation not in RELATIONS:
            raise WeaverError(f"unknown relation {relation!r}: expected one of {', '.join(RELATIONS)}")
        if relation is not None and item.kind == "prune":
            item.kind = "relabel"  # the curator kept the edge but fixed its label
        entry = self.apply_item(item, "human", relation, status)
        item.status, item.resolved_at, item.resolved_by = "accepted", time.time(), "human"
        item.audit_id = entry.id if entry else ""
        self.save_items([item])
        return entry

    @in_write_section
    def reject(self, item_id: str) -> ReviewItem:
        """Reject a proposal (it is never proposed again) or dismiss a flag (the node stays as it is).

        Audited (``item.reject``, actor human) and undoable: undo makes the item pending again.
        """
        item = self._item(item_id)
        entry = self._record(
            self.log.new(
                "human",
                "item.reject",
                item.id,
                {"review_item": "pending"},
                {"review_item": "rejected"},
                f"rejected review item {item.id}",
                ref=item.id,
            )
        )
        self._set_item_status(item, "rejected", entry.id)
        return item

    def _set_item_status(self, item: ReviewItem, status: str, audit_id: str = "") -> None:
        if status == "pending":
            item.status, item.resolved_at, item.resolved_by, item.audit_id = "pending", 0.0, "", ""
        else:
            item.status, item.resolved_at, item.resolved_by, item.audit_id = status, time.time(), "human", audit_id
        self.save_items([item])

    def _revert_item(self, entry: AuditEntry, state: dict, action: str) -> AuditEntry:
        """Undo / redo of ``item.reject``: the item back to ``state["review_item"]`` (pending / rejected)."""
        item = self.queue.get(entry.key)
        if item is None:
            raise WeaverError(f"cannot {action} {entry.id}: review item {entry.key} is gone")
        want, was = state["review_item"], "rejected" if state["review_item"] == "pending" else "pending"
        if item.status != was:  # e.g. applied by a review pass, or withdrawn, since
            raise WeaverError(f"cannot {action} {entry.id}: review item {item.id} is {item.status} now")
        if want == "pending":
            for nid in (item.source, item.target):
                if nid and nid not in self.w.nodes:
                    raise WeaverError(f"cannot {action} {entry.id}: node {nid} of review item {item.id} is gone")
            cause = self.w.nodes.get(item.source)
            if item.kind == "needs_review" and cause is not None and cause.status == "active":
                # a restored cause withdraws its flags: one back in the queue would flag nothing
                raise WeaverError(f"cannot {action} {entry.id}: the cause {item.source} is active again")
            twin = next(
                (i for i in self.queue.values() if i.status == "pending" and i.signature == item.signature), None
            )
            if twin is not None:  # raised again since (a flag of a second retraction): one in the queue is enough
                raise WeaverError(f"cannot {action} {entry.id}: review item {twin.id} already asks the same")
        rec = self._record(
            self.log.new(
                "human",
                action,
                item.id,
                {"review_item": item.status},
                {"review_item": want},
                f"{action} of {entry.id}",
                ref=entry.id,
            )
        )
        self._set_item_status(item, want, entry.id)
        return rec

    def _roll_item_forward(self, entry: AuditEntry) -> bool:
        """An item decision whose queue write did not land (a crash between the two): apply it. Only from the
        state the entry started from: an item resolved since (accepted, applied) is left alone."""
        item = self.queue.get(entry.key)
        want, was = (entry.after or {}).get("review_item"), (entry.before or {}).get("review_item")
        if item is None or want is None or item.status != was:
            return False
        self._set_item_status(item, want, entry.id if want != "pending" else "")
        return True
