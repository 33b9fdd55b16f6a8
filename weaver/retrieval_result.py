"""What a retrieval returns: each ranked node with every score component, and the result with its trace.

Typed results with their scores (house style): pages build their tables from these,
the debugger reads the trace, ``to_dict`` is what the CLI and exports print. Kept
apart from ``retrieval`` so readers of a result need not import the ranking.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING


if TYPE_CHECKING:  # decision_context builds on retrieval results: typing only
    from .decision_context import DecisionBlock

__all__ = ["RankedNode", "RetrievalResult"]


@dataclass
class RankedNode:
    id: str
    content: str
    kind: str
    turn: int
    role: str  # "seed" or "expanded"
    similarity: float
    lexical: float
    relevance: float  # fused similarity, speaker offset and episode context: what ranks it
    context: float  # the part of ``relevance`` its episode and dependency neighbours lent it
    centrality: float
    hops: int
    seed: str
    via: str | None
    edge: tuple[str, str] | None
    relation: str | None
    direction: str | None
    propagated: float  # what its episode and dependency neighbours lent (the score's share it did not earn alone)
    score: float
    rank: int = 0
    tokens: int = 0  # its line without connective or date
    date_tokens: int = 0  # what its date adds, paid by the first line of that date
    included: bool = False
    cut_reason: str = ""
    tier: str = ""  # working | long-term | summary (set by weaver.lifecycle.tiers.mark_tiers)

    def to_dict(self) -> dict:
        d = dict(self.__dict__)
        d["edge"] = list(self.edge) if self.edge else None
        return d


@dataclass
class RetrievalResult:
    query: str
    context: str
    tokens: int
    budget: int
    nodes: list[RankedNode]  # included, in narrative (causal) order
    ranked: list[RankedNode]  # every candidate considered, by rank
    edges: list[dict]  # edges among the included nodes
    seeds: list[str]
    config: dict = field(default_factory=dict)
    timings_ms: dict = field(default_factory=dict)
    # the seeds expansion walked from (later seeds only fill leftover room); the debugger's "why not"
    expanded_seeds: list[str] = field(default_factory=list)
    # the constraints in force put before the narrative (weaver.decision_context.DecisionBlock), when any
    decision: DecisionBlock | None = None

    @property
    def node_ids(self) -> list[str]:
        return [n.id for n in self.nodes]

    @property
    def cut(self) -> list[RankedNode]:
        return [n for n in self.ranked if not n.included]

    def to_dict(self) -> dict:
        return {
            "query": self.query,
            "context": self.context,
            "tokens": self.tokens,
            "budget": self.budget,
            "nodes": [
                {
                    "id": n.id,
                    "content": n.content,
                    "kind": n.kind,
                    "role": n.role,
                    "score": round(n.score, 4),
                    "hops": n.hops,
                    "turn": n.turn,
                    "tier": n.tier,
                }
                for n in self.nodes
            ],
            "edges": self.edges,
            "seeds": self.seeds,
            "trace": [n.to_dict() for n in self.ranked],
            "config": self.config,
            "timings_ms": self.timings_ms,
            "decision": self.decision.to_dict() if self.decision is not None else None,
        }
