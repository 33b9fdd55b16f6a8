"""Undo and redo of curation edits (mixed into :class:`~weaver.curation.edits.Curation`).

An undo or redo is an audit entry of its own (action ``undo`` / ``redo``, ``ref``:
the entry it reverts) that puts back the state the reverted entry recorded
(``before`` for undo, ``after`` for redo), so the log stays append-only and a
replay of it still gives the graph.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, cast

from ..graph import would_create_cycle
from ..models import WeaverError
from .arrival import linked_edits
from .audit import EDIT_ACTIONS, AuditEntry
from .nodes import NODE_META_KEYS
from .refs import one_of
from .writing import in_write_section

if TYPE_CHECKING:  # annotations only
    from .audit import AuditLog

__all__ = ["UndoActions"]


class UndoActions:
    """Mixed into ``Curation`` (which provides the log, the graph writes, the flag cascade and the mixins'
    ``_revert_item`` and ``_set_presence``)."""

    # what Curation provides, declared for the type checker (bare annotations: nothing is set here)
    w: Any
    log: AuditLog
    _record: Callable[[AuditEntry], AuditEntry]
    _node: Callable[[str], Any]
    edge_state: Callable[[str, str], dict[str, Any] | None]
    _write_edge: Callable[[str, str, dict | None], None]
    _write_status: Callable[[str, dict], None]
    _withdraw_flags: Callable[[str], None]
    _flag_dependents: Callable[[str, str, str], list]
    _withdraw_flags_of: Callable[[str], None]
    queue: dict
    flag_restated: Callable[[str, str], list]
    _corrections_changed: Callable[..., None]
    _revert_item: Callable[[AuditEntry, dict, str], AuditEntry]
    _set_presence: Callable[[AuditEntry, dict | None, str], AuditEntry]

    def _revert_to(self, entry: AuditEntry, state: dict | None, action: str) -> AuditEntry:
        if entry.is_item:  # a rejected proposal: only the queue changes
            return self._revert_item(entry, state or {}, action)
        if entry.action in ("node.add", "node.delete"):
            rec = self._set_presence(entry, state, action)
            self._corrections_changed("human")
            return rec
        if entry.is_edge:
            s, t = entry.key.split("->", 1)
            if s not in self.w.nodes or t not in self.w.nodes:
                raise WeaverError(f"cannot {action} {entry.id}: an endpoint is gone")
            if state is not None and not self.w.graph.has_edge(s, t) and would_create_cycle(self.w.graph, s, t):
                raise WeaverError(f"cannot {action} {entry.id}: restoring {entry.key} would create a cycle")
            rec = self._record(
                self.log.new(
                    entry.actor if action == "redo" else "human",
                    action,
                    entry.key,
                    self.edge_state(s, t),
                    state,
                    f"{action} of {entry.id}",
                    ref=entry.id,
                )
            )
            self._write_edge(s, t, state)
            # an arrival edge that restated a value of a still active statement raised flags of its own: withdrawn
            # with it, raised again when it comes back (under the same entry, so a second undo finds them)
            if action == "undo":
                self._withdraw_flags_of(entry.id)
            elif any(i.cause_entry == entry.id for i in self.queue.values()):
                self.flag_restated(s, entry.id)
        else:
            state = cast(dict, state)  # a node.status entry always records both states
            node = self._node(entry.key)
            cur = {"status": node.status, "superseded_by": node.meta.get("superseded_by", "")}
            rec = self._record(
                self.log.new("human", action, entry.key, cur, state, f"{action} of {entry.id}", ref=entry.id)
            )
            self._write_status(entry.key, state)
            if state["status"] == "active":
                self._withdraw_flags(entry.key)
            elif state["status"] != "archived" and not (
                set(state) & set(NODE_META_KEYS) and cur["status"] == state["status"]
            ):
                self._flag_dependents(entry.key, state["status"], rec.id)
        self._corrections_changed("human")
        return rec

    @in_write_section
    def undo(self, entry_id: str | None = None) -> AuditEntry:
        """Revert the latest human edit (or the named entry: a human, review or arrival edit); returns the undo entry.

        Undoing either half of a supersede on arrival (its edge, its status change) undoes both.
        """
        entry = (  # the id or an unambiguous prefix of it
            self.log.by_id(one_of(entry_id, (e.id for e in self.log.entries), "audit entry"))
            if entry_id is not None
            else self.log.undo_target()
        )
        if entry is None:
            raise WeaverError(self._nothing_to_undo())
        if entry.action not in EDIT_ACTIONS:
            raise WeaverError(f"entry {entry.id} ({entry.actor} {entry.action}) cannot be undone")
        if self.log.undone(entry.id):
            raise WeaverError(f"entry {entry.id} is already undone")
        # the status first, then the edge: the edge's undo then restores what the builder had guessed
        pair = sorted([entry] + linked_edits(self.log, entry), key=lambda e: e.action != "node.status")
        recs = [self._revert_to(e, e.before, "undo") for e in pair]
        return next(r for r, e in zip(recs, pair) if e.id == entry.id)

    def _nothing_to_undo(self) -> str:
        """Why a bare undo has nothing to revert, naming the latest automatic edit in force (a review pass's, an
        arrival's) a curator may have meant: those are undone by name, never by a bare undo."""
        auto = next(
            (
                e
                for e in reversed(self.log.entries)
                if e.actor in ("review", "builder") and e.action in EDIT_ACTIONS and not self.log.undone(e.id)
            ),
            None,
        )
        if auto is None:
            return "nothing to undo"
        return (
            f"nothing to undo: no human edit is in force; the latest automatic one ({auto.actor} {auto.action} "
            f"{auto.key}) is undone by naming it: undo {auto.id}"
        )

    @in_write_section
    def redo(self) -> AuditEntry:
        entry = self.log.redo_target()
        if entry is None:
            raise WeaverError("nothing to redo")
        # an arrival pair comes back whole: the edge first, then the status it justified
        pair = sorted([entry] + linked_edits(self.log, entry, undone=True), key=lambda e: e.action == "node.status")
        recs = [self._revert_to(e, e.after, "redo") for e in pair]
        return next(r for r, e in zip(recs, pair) if e.id == entry.id)
