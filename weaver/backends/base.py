"""The reasoning-backend protocol: fine filter scores and relation judgements.

Two implementations: :class:`~weaver.backends.rules.RulesReasoner` (offline
default) and :class:`~weaver.backends.openai_llm.OpenAIReasoner`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = [
    "ScoreRequest",
    "ScoreResult",
    "Candidate",
    "RelateRequest",
    "Judgement",
    "RelateResult",
    "Correction",
    "Reasoner",
]


@dataclass
class ScoreRequest:
    content: str
    kind: str
    task: str
    coarse: float  # cosine to the task focus
    nearest_similarity: float  # max cosine to anything memory already holds
    nearest_content: str = ""
    known_words: frozenset[str] = frozenset()
    known_numbers: frozenset[float] = frozenset()
    recent: list[str] = field(default_factory=list)


@dataclass
class ScoreResult:
    relevance: float
    novelty: float
    importance: float
    reason: str
    backend: str
    llm_calls: int = 0
    llm_tokens: int = 0
    fallback: str = ""


@dataclass
class Candidate:
    id: str
    content: str
    kind: str
    turn: int
    similarity: float
    meta: dict = field(default_factory=dict)


@dataclass
class RelateRequest:
    content: str
    kind: str
    turn: int
    meta: dict
    candidates: list[Candidate]


@dataclass
class Judgement:
    parent_id: str
    relation: str | None  # None: no dependency
    confidence: float
    rationale: str


@dataclass
class RelateResult:
    judgements: list[Judgement]
    backend: str
    llm_calls: int = 0
    llm_tokens: int = 0
    fallback: str = ""


@dataclass
class Correction:
    """A human correction the relation builder learns from (issue: curation)."""

    parent_kind: str
    child_kind: str
    parent_content: str
    child_content: str
    relation: str | None  # what the human said it is (None: no edge)
    was: str | None  # what the builder had said
    parent_vec: Any = None  # the corrected pair's unit vectors (the builder applies it only to similar pairs)
    child_vec: Any = None


class Reasoner(Protocol):
    name: str
    kind: str  # "rules" or "llm": the origin recorded on the edges it judges

    def score(self, req: ScoreRequest) -> ScoreResult: ...

    def relate(self, req: RelateRequest, corrections: list[Correction] | None = None) -> RelateResult: ...
