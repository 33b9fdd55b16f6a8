"""Supersede on arrival: a user statement that gives a slot a new value replaces the earlier one at once.

When a kept user message restates a slot (budget 5000 -> 8000, 每晚六百 -> 每晚八百,
五月一号 -> 五月二号, vegetarian -> no longer), the weaver links each earlier *active*
statement of that slot to it with a ``supersedes`` edge (origin ``rules``) and
marks the earlier one ``superseded`` — in the same write as the new node, before
its commit marker, as audit entries of actor ``builder`` that ``undo`` reverts
(both entries of a pair together). Slot values come from :mod:`weaver.slots`,
the one reader the review pass uses too, so the two never disagree.

An earlier statement that also holds other slots nobody restated ("预算五千，两个人"),
or more than a few words beyond its slots (:func:`weaver.slots.residue`), keeps its
status: the edge records the change, retrieval still needs the rest; what depended on it
is flagged for review all the same (it used the value that changed).
Statements of different speakers never supersede each other; human decisions stand.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass

from ..builder import same_episode
from ..graph_export import edge_from
from ..slot_index import SlotIndex, said_value
from ..models import WeaverError
from ..slot_restate import REACH, is_amount_change, restated_amount
from ..slots import SlotValue, asks_about, changes, is_another, is_change, may_restate, read_slots

__all__ = [
    "Supersede",
    "plan_supersedes",
    "restated_statement",
    "restated_values",
    "supersede_on_arrival",
    "slot_index",
    "uncommitted_edits",
    "linked_edits",
    "RELATION",
]

RELATION = "supersedes"
MAX_RESIDUE = 4  # content words beyond its slots an earlier statement may hold and still be superseded whole


@dataclass
class Supersede:
    old: str  # the earlier node whose value is replaced
    new: str  # the node that states the new value
    pairs: list[tuple[SlotValue, SlotValue]]
    full: bool  # every slot the old node states has been restated since: it is superseded as a whole
    confidence: float

    @property
    def rationale(self) -> str:
        parts = [
            f"{a.slot}{'/' + a.scope if a.scope and a.slot != 'diet' else ''}"
            f"{' ' + a.scope if a.slot == 'diet' else ''}: {_said(a)} -> {_said(b)}"
            for a, b in self.pairs
        ]
        tail = "" if self.full else "; its other slots still hold, so it stays active"
        return "restated with a new value: " + "; ".join(parts) + tail


def _said(v: SlotValue) -> str:
    return f"{v.bound} {v.shown()}" if v.slot in ("budget", "rating") or v.slot == "diet" else v.shown()


def _statements(w, nid: str) -> tuple[SlotValue, ...]:
    node = w.nodes[nid]
    return tuple(read_slots(node.content)) if node.kind == "user_input" else ()


def restated_statement(w, node_id: str) -> int:
    """The position of the statement a bare amount said as a change ("Make that 12000 yuan.", "改成一万二吧")
    answers: the newest of the same speaker's last :data:`~weaver.slot_restate.REACH` user statements whose slot
    the amount fits (-1 for any other message, or none)."""
    node = w.nodes[node_id]
    if node.kind != "user_input" or not is_amount_change(node.content):
        return -1
    order, speaker, seen = w.mirror.order, node.meta.get("speaker"), 0
    for j in range(w.position_of(node_id) - 1, -1, -1):
        other = w.nodes[order[j]]
        if other.kind != "user_input" or other.status not in ("active", "superseded"):
            continue
        if other.meta.get("speaker") != speaker:
            continue
        # "make that 12000" then "make that 15000": the one before restates a slot in turn
        if restated_amount(node.content, list(_statements(w, other.id)) or restated_values(w, other.id)):
            return j
        seen += 1
        if seen >= REACH:
            break
    return -1


def restated_values(w, node_id: str) -> list[SlotValue]:
    """The slot value a bare amount said as a change restates: the slot of the statement
    :func:`restated_statement` finds that the amount fits ([] for any other message)."""
    j = restated_statement(w, node_id)
    if j < 0:
        return []
    other = w.mirror.order[j]
    return restated_amount(w.nodes[node_id].content, list(_statements(w, other)) or restated_values(w, other))


# slots whose same_as is more than equal values (a place inside a longer name, a day inside a date range)
_LOOSE = ("location", "date")


_INDEXES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # a mirror swapped out takes its index along
# the index is brought up to date under a lock: a warm-up thread (ContextWeaver.warm) may build it beside an
# ingest, and two updates interleaved would index the same positions twice
_UPDATING = threading.Lock()


def slot_index(w) -> SlotIndex:
    """The weaver's supersede index, brought up to date with its mirror (built, or read from the cache file, on
    first use after an open: 0.25-2 s at 100k nodes)."""
    with _UPDATING:
        idx = _INDEXES.get(w.mirror)
        if idx is None:
            idx = _INDEXES[w.mirror] = SlotIndex()
        return idx.update(w.mirror.order, w.nodes, w.space)  # the order read in place: a copy is O(space)


CROSS_SESSION_PENALTY = 0.25  # another session's statement may belong to another trip: a person decides


def plan_supersedes(w, node_id: str, across_sessions: bool = False) -> list[Supersede]:
    """The earlier active statements the node ``node_id`` gives new values (newest first).

    Within the node's session (or date) only, unless ``across_sessions``: then statements of other sessions
    come too, their confidence lowered by :data:`CROSS_SESSION_PENALTY` (the review pass queues them for a
    curator; on arrival nothing crosses a session: a budget of another trip is not a revision of this one).
    """
    node = w.nodes[node_id]
    stated = _statements(w, node_id)
    new_vals = list(stated) or restated_values(w, node_id)
    # a bare amount after another one ("make that 12000", then "make that 15000"): the one before states nothing
    # by its text, so the index does not hold it; it is the candidate, with the values it restated
    chained = -1 if stated else restated_statement(w, node_id)
    if not new_vals or node.status != "active" or is_another(node.content) or asks_about(node.content):
        return []  # "another restaurant, 500-1000 per person": a second request; "它评分是5分吗？": a question
    order = w.mirror.order  # read in place: copying the node ids per plan was O(space)
    pos = w.position_of(node_id)
    speaker = node.meta.get("speaker")
    cue = is_change(node.content)
    keys = {v.key for v in new_vals if v.known}
    # the keys worth searching: a value that can restate nothing (a restaurant's place without a change cue)
    # would compare against every earlier active statement of its key to find no pair
    live = {v.key for v in new_vals if may_restate(v, cue)}
    index = slot_index(w)

    def states(j: int) -> bool:  # a user statement of the same speaker that still counts
        other = w.nodes[order[j]]
        return other.kind == "user_input" and other.status != "retracted" and other.meta.get("speaker") == speaker

    latest: dict[tuple[str, str], int] = {}

    def last_statement(k: tuple[str, str]) -> int:
        """The newest position before ``pos`` whose statement holds ``k`` and still counts (-1: none). "Some such
        statement lies between candidate i and the node" is then ``last_statement(k) > i``: one backward scan
        per key and plan, where a scan of every position between each candidate and the node was O(space) per
        candidate (minutes per review pass at 100k nodes)."""
        if k not in latest:
            at = index.rows(k, -1, pos)[0]
            latest[k] = next((int(j) for j in at[::-1] if states(int(j))), -1)
        return latest[k]

    # only earlier active statements sharing a slot key can be restated (newest first, as a scan would meet them)
    active = w.mirror.shown()
    found: set[int] = set()
    for k in live:
        at, said = index.rows(k, -1, pos)
        keep = active[at]
        mine = frozenset(said_value(v) for v in new_vals if v.key == k and v.known)
        if len(mine) == 1 and k[0] not in _LOOSE and mine in index.said_ids:
            # a statement that says just this value again (or no value) pairs with nothing on this key (changes()
            # skips a value the same as the new one): "I'm allergic to peanuts" restated leaves every earlier one be
            keep &= (said != 0) & (said != index.said_ids[mine])
        found.update(at[keep].tolist())
    if chained >= 0 and not _statements(w, order[chained]):
        found.add(chained)
    candidates = sorted(found, reverse=True)
    out = []
    for i in candidates:
        old = w.nodes[order[i]]
        if old.kind != "user_input" or old.status != "active" or old.meta.get("speaker") != speaker:
            continue
        other_session = not same_episode(old, node)
        if other_session and not across_sessions:
            continue
        old_vals = index.values_at(i) or (tuple(restated_values(w, old.id)) if i == chained else ())
        if not keys & {v.key for v in old_vals}:
            continue
        pairs = changes(list(old_vals), new_vals, cue)
        if not pairs:
            continue
        # restated since: by this node or any user statement of the same speaker between the two (only the old
        # statement's own keys matter for "full" below)
        restated = set(keys)
        for k in {v.key for v in old_vals} - restated:
            if last_statement(k) > i:
                restated.add(k)
        # superseded as a whole only when it says little beyond the slots restated since (nothing is lost)
        full = {v.key for v in old_vals} <= restated and len(
            index.residue(i, old.content) - index.residue(pos, node.content)
        ) <= MAX_RESIDUE
        explicit = all(a.explicit and b.explicit for a, b in pairs)
        conf = (
            0.8 + (0.1 if cue else 0.0) + (0.05 if explicit else 0.0) - (CROSS_SESSION_PENALTY if other_session else 0)
        )
        out.append(Supersede(old.id, node_id, pairs, full, round(conf, 2)))
    return out


def supersede_on_arrival(cur, node, edges: list) -> list:
    """Apply :func:`plan_supersedes` for a node just kept; returns its edges including the new ones.

    Runs inside the ingest's write section, so the audit entries, the edge and the
    status change land with the node, before its decision (the commit marker); on
    open, entries of a message whose decision never landed are rolled back.
    """
    w = cur.w
    if not getattr(w.config, "supersede_on_arrival", True):
        return edges
    human = cur.human_pairs()
    made = []
    for plan in plan_supersedes(w, node.id):
        key = f"{plan.old}->{plan.new}"
        why = f"on arrival: {plan.rationale}"
        try:
            entry = cur.set_edge(
                plan.old,
                plan.new,
                RELATION,
                why,
                actor="builder",
                confidence=plan.confidence,
                message_id=node.message_id,
            )
            if plan.full and plan.old not in human:
                cur.set_status(
                    plan.old, "superseded", why, actor="builder", by=plan.new, ref=entry.id, message_id=node.message_id
                )
            elif not plan.full:  # active for its other slots; what used the restated value is stale all the same
                cur.flag_restated(plan.old, entry.id)
        except WeaverError:  # a human decided this edge or node: it stands
            continue
        made.append(key)
    if not made:
        return edges
    kept = [e for e in edges if e.id not in made]
    for key in made:
        s, t = key.split("->", 1)
        kept.append(edge_from(s, t, w.graph.edges[s, t]))
    return kept


def uncommitted_edits(entries: list, node_of) -> list:
    """Builder edits (arrival supersedes) of a message whose ingest never committed (crash repair).

    ``node_of(message_id)``: the node the message's decision names ("" or None: none). The store removes the
    uncommitted node and its edges; the caller drops these entries and restores the status an entry changed.
    """
    out = []
    for e in entries:
        if e.actor != "builder" or e.action == "build" or not e.message_id:
            continue
        if not node_of(e.message_id):
            out.append(e)
    return out


def linked_edits(log, entry, undone: bool = False) -> list:
    """The edits made together with ``entry`` that are in force (``undone`` False) or undone (True): the other
    half of an arrival pair (the edge and the status change it justified), or what a memory taken back released
    (:meth:`~weaver.curation.status.StatusActions.release_superseded`: each statement it had superseded, with
    the deletion or retraction that released them). Such a consequence is the builder's and names the edit it
    follows (``ref``); naming either the edit or any of its consequences gives the whole group."""
    root = entry
    if entry.actor == "builder" and entry.ref:
        cause = log.by_id(entry.ref)
        if cause is not None and cause.id == entry.ref and cause.action in _LINKABLE:
            root = cause
    group = [root] if root is not entry else []
    group += [e for e in log.entries if e.actor == "builder" and e.ref == root.id and e.action in _LINKABLE]
    return [e for e in group if e.id != entry.id and log.undone(e.id) == undone]


_LINKABLE = ("edge.add", "edge.update", "node.status", "node.delete")
