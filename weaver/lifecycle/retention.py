"""Retention: how much each memory is worth keeping, and which old, weak ones a pass may archive.

Pure functions over the weaver's ``networkx.DiGraph`` (node attributes as the
weaver stores them: ``turn, kind, content, status, importance, meta``; plus
``access_count`` / ``last_access`` passed in, since retrieval records those on the
node records, not the graph).

A memory is **protected** (never archived) when a human pinned or decided it,
when it is in working memory, when it states a constraint in force or is a cause of
one, when it is a reflection summary or was promoted to long-term memory. A constraint
is in force when it holds the current value of a constraint record (``in_force``,
from :func:`weaver.constraints.constraint_records`) or states a hard limit (an
allergy, "never", a maximum) the slot readers record nothing from: a value the user replaced later, and a soft cue with
nothing the slot readers record ("I don't know", "I want to see it"), constrain
nothing any more and age like any memory (the cold tier still finds them). An
unprotected memory scoring below ``archive_below`` is archived only when no
active memory depends on it (causal or conditional edge) after the pass:
decided latest-first, so a chain of weak memories goes from its end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import networkx as nx

from ..constraints import statement_values
from ..cues import features
from ..curation.cascade import DEPENDENCY_RELATIONS
from ..slots import read_slots
from .config import LifecycleConfig

__all__ = ["Retention", "dependency_parents", "is_constraint", "plan_archive", "retention_scores"]


@dataclass
class Retention:
    id: str
    score: float
    parts: dict[str, float] = field(default_factory=dict)
    protected: str = ""  # why it is never archived ("" = it may be)

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "score": round(self.score, 4),
            "parts": {k: round(v, 4) for k, v in self.parts.items()},
            "protected": self.protected,
        }


@lru_cache(maxsize=65536)
def is_constraint(content: str) -> bool:
    """A user statement of a constraint (a limit, a need, an allergy) or of a slot value (budget, dates...).

    >>> is_constraint("我对海鲜过敏"), is_constraint("My budget is 800 per night"), is_constraint("ok thanks!")
    (True, True, False)
    """
    return features(content).constraint or any(v.explicit for v in read_slots(content))


def _unrecorded_hard_limit(content: str) -> bool:
    """A hard limit (an allergy, "never", a maximum) the slot readers record nothing from: no record can say
    whether it still holds, so it is kept as in force. One they read is in force while its record says so.

    >>> _unrecorded_hard_limit("Never schedule calls before 9"), _unrecorded_hard_limit("at most 500 a night")
    (True, False)
    """
    return features(content).hard and not statement_values(content)


def dependency_parents(g: nx.DiGraph, nid: str) -> list[str]:
    """The memories ``nid`` depends on through causal / conditional edges (not rejected)."""
    return [
        p
        for p in g.predecessors(nid)
        if g.edges[p, nid].get("relation") in DEPENDENCY_RELATIONS and g.edges[p, nid].get("status") != "rejected"
    ]


def _protected_causes(g: nx.DiGraph, constraints: list[str]) -> set[str]:
    """Every active memory an active constraint depends on, transitively (a dependency of a constraint)."""
    out: set[str] = set()
    stack = list(constraints)
    while stack:
        for p in dependency_parents(g, stack.pop()):
            if p not in out:
                out.add(p)
                stack.append(p)
    return out


def retention_scores(
    g: nx.DiGraph,
    now_turn: int,
    now: float,
    cfg: LifecycleConfig,
    access: dict[str, tuple[int, float]] | None = None,
    human: set[str] | frozenset = frozenset(),
    in_force: set[str] | frozenset | None = None,
) -> dict[str, Retention]:
    """The retention of every active memory.

    ``access``: node id -> (access count, last access time); ``human``: node ids a human edit decided;
    ``in_force``: the statements holding a current constraint record's value (None: every user statement with
    a constraint cue or a slot value counts as a constraint).

    >>> g = nx.DiGraph()
    >>> g.add_node("a", turn=1, kind="user_input", content="hello there", status="active", importance=1, meta={})
    >>> g.add_node("b", turn=1, kind="user_input", content="我对海鲜过敏", status="active", importance=5, meta={})
    >>> r = retention_scores(g, 400, 0.0, LifecycleConfig())
    >>> r["a"].protected, r["b"].protected, r["a"].score < r["b"].score
    ('', 'constraint', True)
    >>> g.add_node("c", turn=2, kind="user_input", content="I want a budget of 500", status="active", meta={})
    >>> g.add_node("d", turn=3, kind="user_input", content="Make the budget 700", status="active", meta={})
    >>> g.add_node("e", turn=4, kind="user_input", content="Never schedule calls before 9", status="active", meta={})
    >>> r = retention_scores(g, 400, 0.0, LifecycleConfig(), in_force={"b", "d"})
    >>> r["b"].protected, r["c"].protected, r["d"].protected, r["e"].protected
    ('constraint', '', 'constraint', 'constraint')
    """
    access = access or {}
    active = [n for n, a in g.nodes(data=True) if a.get("status", "active") == "active"]
    constraints = [
        n
        for n in active
        if g.nodes[n].get("kind") == "user_input"
        and not (g.nodes[n].get("meta") or {}).get("lifecycle")
        and (
            is_constraint(g.nodes[n].get("content", ""))
            if in_force is None
            else n in in_force or _unrecorded_hard_limit(g.nodes[n].get("content", ""))
        )
    ]
    causes = _protected_causes(g, constraints)
    constraint_set = set(constraints)
    out: dict[str, Retention] = {}
    for n in active:
        a = g.nodes[n]
        meta = a.get("meta") or {}
        age = max(0, now_turn - int(a.get("turn", 0)))
        count, last = access.get(n, (0, 0.0))
        recency = 0.5 ** (max(0.0, now - last) / cfg.access_half_life_s) if last else 0.0
        parts = {
            "age": 0.5 ** (age / cfg.half_life_turns),
            "access": 0.5 * min(1.0, math.log1p(count) / math.log1p(10)) + 0.5 * recency,
            "importance": (float(a.get("importance", 3.0)) - 1.0) / 4.0,
            "degree": min(1.0, g.degree(n) / 4.0),
        }
        score = (
            cfg.w_age * parts["age"]
            + cfg.w_access * parts["access"]
            + cfg.w_importance * parts["importance"]
            + cfg.w_degree * parts["degree"]
        )
        if meta.get("pinned") or n in human:
            why = "pinned"
        elif age < cfg.working_turns:
            why = "working memory"
        elif meta.get("lifecycle") == "summary":
            why = "summary"
        elif meta.get("tier") == "long-term":
            why = "long-term"
        elif n in constraint_set:
            why = "constraint"
        elif n in causes:
            why = "dependency of a constraint"
        else:
            why = ""
        out[n] = Retention(n, score, parts, why)
    return out


def plan_archive(
    g: nx.DiGraph,
    order: list[str],
    scores: dict[str, Retention],
    cfg: LifecycleConfig,
    gone: set[str] | frozenset = frozenset(),
    covered: set[str] | frozenset = frozenset(),
    carried: dict[str, list[str]] | None = None,
) -> list[tuple[str, str]]:
    """``(node id, why)`` of the memories to archive, latest first.

    ``gone``: memories this pass already sets aside (merged duplicates); ``covered``: members of a reflection
    summary (their score counts ``covered_factor``); ``carried``: node -> the new summaries that will depend on it.

    >>> g = nx.DiGraph()
    >>> for n, t in (("a", 1), ("b", 2), ("c", 3)):
    ...     g.add_node(n, turn=t, kind="agent_thought", content=n, status="active", importance=1, meta={})
    >>> g.add_edge("a", "b", relation="causal"); g.add_edge("b", "c", relation="causal")
    >>> cfg = LifecycleConfig(working_turns=0)
    >>> s = retention_scores(g, 900, 0.0, cfg); s["c"].protected = "pinned"
    >>> [n for n, _ in plan_archive(g, ["a", "b", "c"], s, cfg)]
    []
    >>> s["c"].protected = ""; [n for n, _ in plan_archive(g, ["a", "b", "c"], s, cfg)]
    ['c', 'b', 'a']
    """
    carried = carried or {}
    out: list[tuple[str, str]] = []
    archived = set(gone)
    for n in reversed(order):
        r = scores.get(n)
        if r is None or r.protected or n in archived:
            continue
        score = r.score * (cfg.covered_factor if n in covered else 1.0)
        if score >= cfg.archive_below:
            continue
        live = [
            c
            for c in g.successors(n)
            if g.edges[n, c].get("relation") in DEPENDENCY_RELATIONS
            and g.edges[n, c].get("status") != "rejected"
            and g.nodes[c].get("status", "active") == "active"
            and c not in archived
        ]
        if live or carried.get(n):
            continue  # an active memory still depends on it
        archived.add(n)
        out.append((n, f"retention {score:.2f} < {cfg.archive_below:g}" + (" (summarised)" if n in covered else "")))
    return out
