"""The review queue: proposals (from the review pass) and flags (from cascades) awaiting a curator.

Each item carries its evidence: both endpoints' text, kind and source message,
the rationale and the confidence. Items are persisted as records of kind
``queue``; resolved items stay (status ``accepted`` / ``rejected`` / ``applied``
/ ``withdrawn``) so a rejected proposal is never proposed again.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["ReviewItem", "FlagGroup", "PROPOSAL_KINDS", "PROPOSAL_WORDS", "ITEM_STATUSES", "evidence_for"]

# prune: delete the edge; relabel: change its relation; add: a missing edge; supersede: the node's
# value was replaced by a later one; needs_review: a cause of the node was retracted or superseded
PROPOSAL_KINDS = ("prune", "relabel", "add", "supersede", "needs_review")
# each kind said to a curator (English, Chinese): one owner for the Review page's labels and the pass's Chinese line
PROPOSAL_WORDS = {
    "prune": ("Delete the edge", "删除这条边"),
    "relabel": ("Change the relation", "修改关系"),
    "add": ("Add a missing edge", "补上缺失的边"),
    "supersede": ("Mark as superseded", "标记为已被取代"),
    "needs_review": ("Check a dependent memory", "复查依赖的记忆"),
}
ITEM_STATUSES = ("pending", "accepted", "rejected", "applied", "withdrawn")


@dataclass
class ReviewItem:
    id: str
    kind: str
    source: str = ""  # edge proposals: the edge's endpoints; supersede: source = new node
    target: str = ""  # edge proposals; supersede / needs_review: the node concerned
    relation: str | None = None  # proposed relation (relabel / add)
    current: str | None = None  # the edge's relation when proposed
    confidence: float = 0.5
    rationale: str = ""
    origin: str = "review-rules"  # review-rules | review-llm | cascade
    evidence: dict[str, Any] = field(default_factory=dict)
    status: str = "pending"
    created_at: float = field(default_factory=time.time)
    resolved_at: float = 0.0
    resolved_by: str = ""
    audit_id: str = ""  # the audit entry that applied it
    cause_entry: str = ""  # needs_review: the status change that raised the flag

    @staticmethod
    def make(kind: str, **kw) -> "ReviewItem":
        return ReviewItem(id=f"q{int(time.time() * 1000):013d}-{uuid.uuid4().hex[:6]}", kind=kind, **kw)

    @property
    def signature(self) -> tuple:
        """What makes two proposals the same (a rejected one is not proposed again)."""
        return (self.kind, self.source, self.target, self.relation if self.kind in ("relabel", "add") else None)

    @property
    def edge_key(self) -> str:
        return f"{self.source}->{self.target}"

    def summary(self) -> str:
        if self.kind == "prune":
            return f"prune {self.current} edge {self.edge_key}"
        if self.kind == "relabel":
            return f"relabel {self.edge_key}: {self.current} -> {self.relation}"
        if self.kind == "add":
            return f"add {self.relation} edge {self.edge_key}"
        if self.kind == "supersede":
            return f"mark {self.target} superseded by {self.source}"
        return f"{self.target} needs review ({self.rationale})"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "ReviewItem":
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


@dataclass
class FlagGroup:
    """The pending "needs review" flags one change raised: the fact that changed (``source``, now ``status``,
    superseded ``by`` a later memory) and every memory that depended on its old value, in the order flagged."""

    source: str
    status: str
    by: str
    targets: list[str]
    item_ids: list[str]


def evidence_for(weaver, *node_ids: str) -> dict[str, Any]:
    """Both endpoints' text, kind, status and source message (what a curator needs to judge)."""
    out = {}
    for role, nid in zip(("source", "target", "other"), node_ids):
        node = weaver.nodes.get(nid)
        if node is None:
            continue
        out[role] = {
            "id": nid,
            "kind": node.kind,
            "text": node.content[:1000],
            "turn": node.turn,
            "status": node.status,
            "message_id": node.message_id,
        }
    return out
