"""Past agent turns replayed for the retrieval debugger: what a turn was given, re-run over the memory then.

:mod:`weaver.debugger` explains one retrieval; this module finds the agent's past
retrievals in its transcript (:func:`agent_turns`) and re-runs one over the memory
as it stood at that turn (:func:`replay_turn`), paired with its vector baseline
like a live query (:func:`debug_replay`).

>>> turn = agent_turns(weaver)[-1]                                  # doctest: +SKIP
>>> debug_replay(weaver, turn).result.node_ids == turn.node_ids    # doctest: +SKIP
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .debugger import DebugTrace, compare_with_vector
from .decision_context import apply_block, constraint_boost, decision_for
from .lexical import LexicalIndex
from .models import WeaverError
from .neighbourhood import EdgeIndex, NodeFacts
from .retrieval import PLAIN_DENSE, RetrievalResult, retrieve
from .settings import WeaverConfig
from .text import clean_text
from .transcript import load_transcript

__all__ = ["AgentTurn", "agent_turns", "replay_turn", "debug_replay"]


@dataclass
class AgentTurn:
    """What the agent was given for one user turn (as its memory event recorded it)."""

    turn: int
    query: str
    context: str
    tokens: int
    node_ids: list[str]
    budget: int | None = None  # None: the agent used the space's budget
    said: str = ""  # the user's message (the query may add words the agent searched with: "原因 失败 because")

    @property
    def label(self) -> str:
        return f"turn {self.turn}: {' '.join((self.said or self.query).split())[:60]}"


def agent_turns(w) -> list[AgentTurn]:
    """The space's past agent turns that retrieved memory, oldest first (empty without an agent transcript)."""
    users: dict[int, str] = {}
    out = []
    for ev in load_transcript(w):
        if ev.type == "user":
            users[ev.turn] = ev.text
        elif ev.type == "memory":
            data = ev.data or {}
            budget = data.get("budget")
            out.append(
                AgentTurn(
                    int(ev.turn),
                    str(data.get("query") or users.get(ev.turn, "")),
                    str(data.get("context", "")),
                    int(data.get("tokens", 0) or 0),
                    list(data.get("node_ids", [])),
                    int(budget) if budget else None,
                    users.get(ev.turn, ""),
                )
            )
    return out


def replay_turn(
    w, turn: AgentTurn, budget: int | None = None, config: WeaverConfig | None = None, expand_graph: bool = True
) -> RetrievalResult:
    """Re-run a past turn's retrieval over the memory as it stood then.

    The agent writes the user's message, then retrieves: so the memory it saw is
    every node of earlier turns plus that turn's user input. Graph edits made since
    (review passes, curator edits) do apply, which is how a curator sees what a
    correction would have changed; compare with ``turn.node_ids`` for what it got.
    """
    if not turn.query.strip():
        raise WeaverError(f"turn {turn.turn} has no recorded query to replay")
    cfg = config or w.config
    ids = [
        n
        for n in w.node_ids
        if w.nodes[n].turn < turn.turn or (w.nodes[n].turn == turn.turn and w.nodes[n].kind == "user_input")
    ]
    pos = {n: i for i, n in enumerate(w.node_ids)}
    rows = [pos[n] for n in ids]
    matrix = w.matrix[rows] if rows else np.zeros((0, w.embedder.dim), dtype=np.float32)
    lexical = LexicalIndex()
    lexical.add(ids, [w.nodes[n].content for n in ids])
    query = clean_text(turn.query)
    qvec = w.query_vector(query)
    budget = budget if budget is not None else turn.budget
    facts = NodeFacts.of([(w.nodes[n].meta, w.nodes[n].turn) for n in ids])
    sub = w.graph.subgraph(ids)
    budget = cfg.budget if budget is None else budget
    # the constraints in force then, as the live query put them first (weaver/decision_context.py)
    block = decision_for(w, query, cfg, budget, ids) if expand_graph and cfg.decision_context else None
    res = retrieve(
        sub,
        ids,
        matrix,
        lexical,
        query,
        qvec,
        cfg,
        budget - block.tokens if block else budget,
        expand_graph=expand_graph,
        facts=facts,
        edges=EdgeIndex.of(sub, ids),
        boost=constraint_boost(w, cfg, ids) if expand_graph else None,
    )
    return apply_block(sub, res, block, budget) if block is not None else res


def debug_replay(w, turn: AgentTurn, budget: int | None = None, config: WeaverConfig | None = None) -> DebugTrace:
    """:func:`debug_query` for a past agent turn, over the memory as it stood then."""
    cfg = config or w.config
    res = replay_turn(w, turn, budget, cfg)
    # the same baseline as ContextWeaver.vector_top_k: dense similarity only, no expansion
    vec = replay_turn(w, turn, res.budget, cfg.with_(**PLAIN_DENSE), expand_graph=False)
    return DebugTrace(res.query, res, vec, compare_with_vector(res, vec), w.graph)
