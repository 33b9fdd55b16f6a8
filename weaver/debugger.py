"""The retrieval debugger: what the agent got, why, what plain vector search would have given, and why not X.

Past agent turns (found in the transcript, replayed over the memory as it stood
then) are :mod:`weaver.turn_replay`. This module pairs a query's graph retrieval with
its vector baseline (:class:`DebugTrace`); reading the trace is :mod:`weaver.trace_views`,
"why not X?" is :mod:`weaver.why_not` (both re-exported here, their import path before
the split).

Pure library code over a :class:`~weaver.core.ContextWeaver` and the trace that
:func:`weaver.retrieval.retrieve` records (every candidate with its score
components and cut reason). Nothing here changes how retrieval ranks; when the
trace does not say something (a node that never became a candidate), it is
reconstructed from the same inputs retrieval used.

>>> t = debug_query(weaver, "why this restaurant?", budget=300)      # doctest: +SKIP
>>> t.explain(t.result.node_ids[0])                                # doctest: +SKIP
'seed #1 of 6: similarity 0.331, lexical 1.00 ...'
>>> why_not(weaver, t.result, "n_1234").reason                     # doctest: +SKIP
'budget_cut'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from .retrieval import RetrievalResult
from .settings import WeaverConfig
from .trace_views import config_of, expansion_path, expansion_steps, explain_included, graph_styles, node_roles
from .why_not import WHY_NOT_REASONS, Why, why_not

__all__ = [
    "WHY_NOT_REASONS",
    "Why",
    "Comparison",
    "DebugTrace",
    "debug_query",
    "explain_included",
    "expansion_path",
    "expansion_steps",
    "why_not",
    "compare_with_vector",
    "node_roles",
    "graph_styles",
    "config_of",
]


@dataclass
class Comparison:
    """The graph context against plain vector top-k at the same budget (node ids, each in its context order)."""

    graph: list[str]
    vector: list[str]
    added: list[str]  # in the graph's context, not in vector top-k's
    displaced: list[str]  # in vector top-k's context, not in the graph's
    shared: list[str]

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class DebugTrace:
    """A query's graph retrieval and its vector top-k baseline, with every node and cut explained."""

    query: str
    result: RetrievalResult
    vector: RetrievalResult
    comparison: Comparison
    graph: nx.DiGraph = field(repr=False)

    def explain(self, node_id: str) -> str:
        return explain_included(self.graph, self.result, node_id)

    @property
    def explanations(self) -> dict[str, str]:
        """node id -> how it got in, for every node of the final context."""
        return {n.id: self.explain(n.id) for n in self.result.nodes}

    @property
    def cuts(self) -> dict[str, str]:
        """node id -> why it was cut, for every candidate left out."""
        return {n.id: n.cut_reason for n in self.result.cut}

    @property
    def steps(self) -> list[dict[str, Any]]:
        return expansion_steps(self.result)


def compare_with_vector(res: RetrievalResult, vector: RetrievalResult) -> Comparison:
    g_ids, v_ids = res.node_ids, vector.node_ids
    gs, vs = set(g_ids), set(v_ids)
    return Comparison(
        graph=g_ids,
        vector=v_ids,
        added=[n for n in g_ids if n not in vs],
        displaced=[n for n in v_ids if n not in gs],
        shared=[n for n in g_ids if n in vs],
    )


def debug_query(w, query: str, budget: int | None = None, config: WeaverConfig | None = None) -> DebugTrace:
    """Run the graph retrieval and plain vector top-k at the same budget, and pair them up."""
    cfg = config or w.config
    res = w.query(query, budget=budget, config=cfg)
    vec = w.vector_top_k(res.query, res.budget)
    return DebugTrace(res.query, res, vec, compare_with_vector(res, vec), w.graph)
