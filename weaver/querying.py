"""The read path of :class:`~weaver.core.ContextWeaver`: a query over the facade's mirror -> a context.

Owns how the facade's parts meet for one query: a decision's constraints in force are placed first with
their tokens reserved (:mod:`weaver.decision_context`), the rest of the budget goes to
:func:`weaver.retrieval.retrieve` over the mirror's graph, vectors, BM25 and edge index, each memory is
marked with its tier, and a query that records access writes the access counts back. Retrieval itself
stays pure (:mod:`weaver.retrieval`); this module only gathers its inputs from the mirror.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np

from .constraints import known_statement_values
from .decision_context import apply_block, constraint_boost, decision_for, revision_count
from .graph import Neighbours
from .lifecycle.tiers import mark_tiers
from .models import WeaverError
from .narrative import LineCosts
from .retrieval import NodeScores, RetrievalResult, retrieve, score_nodes
from .settings import WeaverConfig
from .slots import asks_history
from .text import clean_text
from .validation import check_budget, check_query

if TYPE_CHECKING:
    from .core import ContextWeaver

__all__ = ["run_query", "node_scores", "nothing_recalled"]


def _checked(text, budget) -> tuple[str, int | None]:
    text = clean_text(text or "")
    if not text:
        raise WeaverError("the query is empty")
    return text, check_budget(budget)


def nothing_recalled(text, budget: int | None, config: WeaverConfig) -> RetrievalResult:
    """What a query of a space that does not exist yet gets: no memory, after the same checks of the query and
    the budget as :func:`run_query` (a bad query is refused alike, whether or not the space exists).

    >>> from weaver.settings import WeaverConfig
    >>> r = nothing_recalled(" 预算是多少？ ", None, WeaverConfig())
    >>> (r.query, r.context, r.tokens, r.nodes, r.budget == WeaverConfig().budget)
    ('预算是多少？', '', 0, [], True)
    """
    text, budget = _checked(check_query(text), budget)
    return RetrievalResult(text, "", 0, config.budget if budget is None else budget, [], [], [], [])


def run_query(
    w: ContextWeaver,
    text: str,
    budget: int | None = None,
    expand: bool = True,
    record_access: bool = False,
    config: WeaverConfig | None = None,
) -> RetrievalResult:
    """The context for ``text`` within ``budget`` tokens (see :meth:`ContextWeaver.query`)."""
    text, budget = _checked(text, budget)
    cfg = config or w.config
    qvec = w.query_vector(text)
    # a decision's constraints in force come first, their tokens reserved (weaver/decision_context.py)
    budget = cfg.budget if budget is None else budget
    block = decision_for(w, text, cfg, budget) if expand and cfg.decision_context else None
    boost = constraint_boost(w, cfg) if expand else None  # a user who revises often: constraints weigh more
    m = w.mirror
    result = retrieve(
        m.graph,
        m.order,
        m.matrix,
        m.lexical,
        text,
        qvec,
        cfg,
        budget - block.tokens if block else budget,
        expand_graph=expand,
        facts=m.facts,
        edges=m.usable_edges(),
        shown=m.shown(asks_history(text)),
        position=m.position,
        boost=boost,
        cold=m.cold(),
        line_costs=LineCosts(m.per_node("line_costs")[0]),  # kept while the mirror lives: see LineCosts
        neighbours=m.memo("neighbours", lambda: Neighbours(m.graph)),  # kept until a node or edge changes
    )
    result.config["revisions"] = block.revisions if block else (revision_count(w) if boost else 0)
    if block is not None:
        result = apply_block(m.graph, result, block, budget, lambda sts: known_statement_values(w, sts))
    mark_tiers(w, result)  # which memory tier each memory came from (weaver.lifecycle.tiers)
    if record_access and result.nodes:
        now = time.time()
        touched = []
        for rn in result.nodes:
            node = w.nodes[rn.id]
            node.access_count += 1
            node.last_access = now
            touched.append(node)
        w.space.put_nodes(touched)
    return result


def node_scores(
    w: ContextWeaver, query: str, config: WeaverConfig | None = None, query_vec: np.ndarray | None = None
) -> NodeScores:
    """Every node's scores for a query, as retrieval computes them (aligned with ``node_ids``)."""
    m = w.mirror
    qvec = w.query_vector(query) if query_vec is None else query_vec
    return score_nodes(
        m.graph,
        m.order,
        m.matrix,
        m.lexical,
        query,
        qvec,
        config or w.config,
        m.facts,
        m.usable_edges(),
        shown=m.shown(asks_history(query)),
        cold=m.cold(),
    )
