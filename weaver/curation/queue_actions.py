"""Review-queue actions of :class:`~weaver.curation.edits.Curation`: list, accept (optionally edited), reject."""

from __future__ import annotations

import functools
import time
from typing import TYPE_CHECKING

from ..models import RELATIONS, WeaverError
from ..validation import check_prefix
from .queue import ReviewItem

if TYPE_CHECKING:  # used in annotations only (this module never builds an entry itself)
    from .audit import AuditEntry

__all__ = ["QueueActions"]


def _writes(fn):
    """Run a public write inside the weaver's write section (lock, catch up with other writers, new revision)."""

    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        with self._section():
            return fn(self, *args, **kwargs)

    return wrapper


class QueueActions:
    """Mixed into ``Curation`` (which provides the edits, ``queue`` and ``save_items``)."""

    def items(self, status: str | None = "pending") -> list[ReviewItem]:
        out = [i for i in self.queue.values() if status is None or i.status == status]
        return sorted(out, key=lambda i: (-i.confidence, i.created_at) if status == "pending" else (i.created_at,))

    def flagged(self) -> set[str]:
        """Nodes with a pending "needs review" flag."""
        return {i.target for i in self.queue.values() if i.kind == "needs_review" and i.status == "pending"}

    def _item(self, item_id: str) -> ReviewItem:
        item_id = check_prefix(item_id, "review item id")  # "" prefixes every id: never a match
        item = self.queue.get(item_id) or next((i for i in self.queue.values() if i.id.startswith(item_id)), None)
        if item is None:
            raise WeaverError(f"no review item {item_id!r}")
        if item.status != "pending":
            raise WeaverError(f"review item {item.id} is already {item.status}")
        return item

    def apply_item(self, item: ReviewItem, actor: str, relation: str | None = None,
                   status: str | None = None) -> AuditEntry | None:
        """Carry out a proposal (a curator accepting it, or the review pass auto-applying it)."""
        why = f"review: {item.rationale}" if actor == "review" else f"accepted review item {item.id}"
        if item.kind == "prune":
            return self.remove_edge(item.source, item.target, why, actor, ref=item.id)
        if item.kind == "relabel" and not self.w.graph.has_edge(item.source, item.target):
            raise WeaverError(f"the edge {item.edge_key} is gone; reject this proposal")
        if item.kind in ("relabel", "add"):
            return self.set_edge(item.source, item.target, relation or item.relation, why, actor,
                                 confidence=item.confidence, ref=item.id)
        if item.kind == "supersede":
            return self.set_status(item.target, status or "superseded", why, actor,
                                   by=item.source if (status or "superseded") == "superseded" else "", ref=item.id)
        # needs_review: accepting the flag means the dependent falls with its cause
        cause = self.w.nodes.get(item.source)
        new = status or (cause.status if cause and cause.status != "active" else "retracted")
        return self.set_status(item.target, new, why, actor, ref=item.id)

    @_writes
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

    @_writes
    def reject(self, item_id: str) -> ReviewItem:
        """Reject a proposal (it is never proposed again) or dismiss a flag (the node stays as it is)."""
        item = self._item(item_id)
        item.status, item.resolved_at, item.resolved_by = "rejected", time.time(), "human"
        self.save_items([item])
        return item
