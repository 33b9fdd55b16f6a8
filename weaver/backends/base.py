"""The reasoning-backend protocol: fine filter scores and relation judgements, and the one LLM call.

Two implementations: :class:`~weaver.backends.rules.RulesReasoner` (offline
default) and :class:`~weaver.backends.openai_llm.OpenAIReasoner`. Every LLM task
(scores, relations, tool summaries, the review pass) goes through one public
call, :meth:`Completer.complete` ``(messages, schema) -> Completion``: another
model client plugs in by implementing it (see README, "Plugging in").
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
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
    "Completion",
    "Completer",
]


@dataclass
class ScoreRequest:
    content: str
    kind: str
    task: str
    coarse: float  # cosine to the task focus
    nearest_similarity: float  # max cosine to anything memory already holds
    nearest_content: str = ""
    # what memory already holds, read in place (the mirror's own sets: a copy per message is O(vocabulary))
    known_words: AbstractSet[str] = frozenset()
    known_numbers: AbstractSet[float] = frozenset()
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


@dataclass
class Completion:
    """One structured LLM call and its provenance: what answered, what it cost, what went wrong.

    ``parsed`` is the reply validated against the schema, or None when the call failed (``error`` says why,
    and the caller falls back); ``calls`` counts every request made, schema retries included.
    """

    parsed: Any
    backend: str
    model: str = ""
    calls: int = 0
    tokens: int = 0
    error: str = ""

    @property
    def ok(self) -> bool:
        return self.parsed is not None


class Completer(Protocol):
    """A model client the weaver can use: chat messages in, a reply validated against ``schema`` out."""

    name: str
    kind: str  # "llm": the origin recorded on what it produces
    model: str

    def complete(self, messages: list[dict], schema: type) -> Completion: ...


class Reasoner(Protocol):
    name: str
    kind: str  # "rules" or "llm": the origin recorded on the edges it judges

    def score(self, req: ScoreRequest) -> ScoreResult: ...

    def relate(self, req: RelateRequest, corrections: list[Correction] | None = None) -> RelateResult: ...
