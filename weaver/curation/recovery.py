"""Opening a space's curation state, and the write-ahead repair that keeps the audit log and the graph agreeing.

Every curation edit lands in the audit log *before* the graph changes. On open
(:meth:`RecoveryActions._load`, mixed into :class:`~weaver.curation.edits.Curation`)
an entry whose change did not land is rolled forward, and builder entries of a
message whose decision (the ingest commit marker) never landed are dropped;
:meth:`RecoveryActions.verify` lists any remaining disagreement.
"""

from __future__ import annotations

from typing import Any, Callable

from .arrival import uncommitted_edits
from .audit import AuditEntry, AuditLog, replay
from .queue import ReviewItem

__all__ = ["RecoveryActions"]


class RecoveryActions:
    """Mixed into ``Curation`` (which provides ``w``, ``edge_state``, ``_write_edge``, ``_write_status``,
    ``_roll_item_forward`` and ``corrections``)."""

    # what Curation provides, declared for the type checker (bare annotations: nothing is set here)
    w: Any
    log: AuditLog
    queue: dict[str, ReviewItem]
    state: dict[str, Any]
    repaired: list[str]
    edge_state: Callable[[str, str], dict[str, Any] | None]
    _write_edge: Callable[[str, str, dict | None], None]
    _write_status: Callable[[str, dict], None]
    _roll_item_forward: Callable[[AuditEntry], bool]
    corrections: Callable[[], list]

    def _load(self) -> None:
        space = self.w.space
        records = space.get_records("audit")
        # build entries ride on their decisions; older releases wrote them as audit records
        records.update((a["id"], a) for a in self.w.build_audits())
        entries = [AuditEntry.from_dict(d) for d in records.values()]
        entries.sort(key=lambda e: (e.seq, e.at, e.id))
        # an older release's build record is committed when its message's decision names its node (a promote
        # that crashed before its decision update left a "rejected" decision: the store removed that node)
        # (each decision's node read without making the decision an object: weaver.lazy_records)
        node_of = self.w.decision_node
        dropped = [e.id for e in entries if e.action == "build" and node_of(e.message_id) != e.key]
        for e in uncommitted_edits(entries, node_of):  # a supersede on arrival of that ingest: roll it back
            dropped.append(e.id)
            node = self.w.nodes.get(e.key)
            if node is not None and e.before and node.status == (e.after or {}).get("status"):
                self._write_status(e.key, e.before)
        if dropped:  # the ingest crashed before its decision: the store removed its node, drop its record
            space.delete_records("audit", dropped)
            self.repaired += [f"dropped audit entry {x} of an uncommitted ingest" for x in dropped]
        self.log = AuditLog([e for e in entries if e.id not in set(dropped)])
        self.queue = {k: ReviewItem.from_dict(v) for k, v in space.get_records("queue").items()}
        self._roll_forward()  # after the queue: a curator's reject rolls forward onto its item
        self.state = space.get_records("review").get("state", {})
        self.w.corrections = self.corrections()

    def _roll_forward(self) -> None:
        """Apply logged edits whose graph write did not land (a crash between the two writes)."""
        latest: dict[str, AuditEntry] = {}
        for e in self.log.entries:
            if e.action != "build":
                latest[e.key] = e
        for key, e in latest.items():
            if e.is_item:
                if self._roll_item_forward(e):
                    self.repaired.append(f"rolled forward {e.action} of review item {key}")
            elif e.is_edge:
                s, t = key.split("->", 1)
                if s not in self.w.graph or t not in self.w.graph:
                    continue
                cur = self.edge_state(s, t)
                want = e.after
                if (cur is None) != (want is None) or (cur and want and cur["relation"] != want["relation"]):
                    self._write_edge(s, t, want)
                    self.repaired.append(f"rolled forward {e.action} {key}")
            elif (
                e.key in self.w.nodes
                and e.after
                and "status" in e.after
                and self.w.nodes[e.key].status != e.after["status"]
            ):
                self._write_status(e.key, e.after)
                self.repaired.append(f"rolled forward status of {e.key}")

    def verify(self) -> list[str]:
        """Differences between the graph the log describes and the graph (empty when they agree)."""
        edges, nodes = replay(self.log.entries)
        problems = []
        actual = {f"{u}->{v}": d["relation"] for u, v, d in self.w.graph.edges(data=True)}
        for k in sorted(set(edges) | set(actual)):
            if edges.get(k) != actual.get(k):
                problems.append(f"edge {k}: log says {edges.get(k)}, graph has {actual.get(k)}")
        for nid, status in nodes.items():
            node = self.w.nodes.get(nid)
            if node is None:
                problems.append(f"node {nid}: in the log, not in the graph")
            elif node.status != status:
                problems.append(f"node {nid}: log says {status}, graph has {node.status}")
        return problems
