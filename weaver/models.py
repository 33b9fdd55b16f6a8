"""Data models: memory nodes, dependency edges, filter decisions — all with provenance.

Every model converts to and from a flat dict of JSON scalars (``to_record`` /
``from_record``): the form earlier releases stored as Chroma metadata, one key per field, and the form
audit entries and exports use. The store now writes one packed key per record (:mod:`weaver.record_codec`).
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import Field, asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar

__all__ = [
    "NODE_KINDS",
    "RELATIONS",
    "ORIGINS",
    "NODE_STATUSES",
    "EDGE_STATUSES",
    "MemoryNode",
    "Edge",
    "Scores",
    "FilterDecision",
    "Message",
    "WeaverError",
    "error_line",
    "new_id",
    "dependency_parts",
    "check_dependencies",
]

NODE_KINDS = ("user_input", "agent_thought", "tool_result", "agent_response")
# supersedes: the later memory restates a slot of the earlier one with a new value (set on arrival from the
# slot reader, weaver.slots, never guessed by a relation model)
RELATIONS = ("causal", "temporal", "conditional", "elaborates", "supersedes")
ORIGINS = ("llm", "rules", "human", "review", "agent")  # agent: declared by the caller (depends_on)
# archived: set aside by the lifecycle pass (weaver.lifecycle); keeps its edges so undo restores it whole
NODE_STATUSES = ("active", "superseded", "retracted", "archived")
EDGE_STATUSES = ("proposed", "confirmed", "rejected")


class WeaverError(ValueError):
    """A clear, user-facing error (bad input, wrong configuration)."""


ERROR_LINE_CHARS = 1000  # an error quoting what it refused (a 100 kB id) is cut here: a line a person can read


def error_line(exc: BaseException) -> str:
    """An error as the faces show it: one line, at most ``ERROR_LINE_CHARS`` characters.

    >>> error_line(WeaverError("no node 'n_" + "x" * 2000 + "'"))[-30:]
    'xxxxxxxx... (2,012 characters)'
    """
    text = " ".join(str(exc).split())
    if len(text) > ERROR_LINE_CHARS:
        text = f"{text[: ERROR_LINE_CHARS - 30]}... ({len(text):,} characters)"
    return text


def new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:12]}"


_FIELDS: dict[type, tuple[tuple[str, ...], frozenset[str]]] = {}


def _json_fields(cls) -> frozenset[str]:
    return _fields_of(cls)[1]


def _field_names(cls) -> tuple[str, ...]:
    return _fields_of(cls)[0]


def _fields_of(cls) -> tuple[tuple[str, ...], frozenset[str]]:
    """A model's field names and its JSON-valued ones, computed once per class (``dataclasses.fields()`` per
    record was a fifth of reading 400k records from Chroma on open)."""
    got = _FIELDS.get(cls)
    if got is None:
        fs = fields(cls)
        got = _FIELDS[cls] = (
            tuple(f.name for f in fs),
            frozenset(f.name for f in fs if f.type in ("dict[str, Any]", "list[str]")),
        )
    return got


class _Record:
    """Flat-dict conversion shared by the models (dicts and lists become JSON)."""

    if TYPE_CHECKING:  # every subclass is a dataclass
        __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def to_record(self) -> dict[str, Any]:
        out = {}
        for k, v in asdict(self).items():
            if isinstance(v, (dict, list)):
                v = json.dumps(v, ensure_ascii=False)
            elif v is None:
                continue  # Chroma metadata takes no None
            out[k] = v
        return out

    @classmethod
    def from_record(cls, rec: dict[str, Any]):
        kwargs = {}
        json_fields = _json_fields(cls)
        for name in _field_names(cls):
            if name not in rec:
                continue
            v = rec[name]
            if name in json_fields and isinstance(v, str):
                v = json.loads(v)
            kwargs[name] = v
        return cls(**kwargs)


@dataclass
class MemoryNode(_Record):
    """A kept memory: one user message, agent thought, tool result or reply."""

    id: str
    content: str
    kind: str
    turn: int
    message_id: str
    timestamp: float = field(default_factory=time.time)
    language: str = "en"
    status: str = "active"
    importance: float = 3.0
    meta: dict[str, Any] = field(default_factory=dict)
    access_count: int = 0
    last_access: float = 0.0
    embed_text: str = ""


@dataclass
class Edge(_Record):
    """A dependency ``source -> target``: the target depends on the source.

    Edges always run from an earlier node to a later one, so the graph is a DAG.
    """

    source: str
    target: str
    relation: str
    confidence: float
    origin: str
    rationale: str = ""
    created_at: float = field(default_factory=time.time)
    status: str = "proposed"

    @property
    def id(self) -> str:
        return f"{self.source}->{self.target}"


@dataclass
class Scores:
    relevance: float
    novelty: float
    importance: float
    total: float = 0.0
    coarse: float = 0.0


@dataclass
class FilterDecision(_Record):
    """The filter's verdict on one message, stored whether it was kept or not."""

    message_id: str
    kind: str
    content: str
    turn: int
    coarse: float
    relevance: float
    novelty: float
    importance: float
    total: float
    coarse_threshold: float
    keep_threshold: float
    kept: bool
    reason: str
    backend: str
    latency_ms: float
    llm_calls: int = 0
    llm_tokens: int = 0
    fallback: str = ""
    node_id: str = ""
    promoted: bool = False
    timestamp: float = field(default_factory=time.time)
    language: str = "en"
    meta: dict[str, Any] = field(default_factory=dict)
    # when this message moved the task focus (0: it did not): on the commit marker, so a focus shift lands
    # with its message or not at all, and its section needs no meta write (no journal)
    focus_shift_at: float = 0.0
    # the builder's audit entry for the node (kept messages): on the commit marker for the same reason
    audit: dict[str, Any] = field(default_factory=dict)

    @property
    def scores(self) -> Scores:
        return Scores(self.relevance, self.novelty, self.importance, self.total, self.coarse)


@dataclass
class Message:
    """One interaction handed to the weaver."""

    content: str
    kind: str = "user_input"
    meta: dict[str, Any] = field(default_factory=dict)
    message_id: str | None = None
    timestamp: float | None = None
    # what the caller knows this message depends on: (node id or message id, relation[, why])
    depends_on: list = field(default_factory=list)

    def validate(self) -> None:
        if self.kind not in NODE_KINDS:
            raise WeaverError(f"unknown kind {self.kind!r}: expected one of {', '.join(NODE_KINDS)}")
        if not isinstance(self.content, str):
            raise WeaverError("content must be a string")
        if not isinstance(self.meta, dict):
            raise WeaverError("meta must be an object")
        check_dependencies(self.depends_on)


def check_dependencies(depends_on: Any) -> list:
    """The declared dependencies as a list, or WeaverError (not a list, a bad entry, an unknown relation)."""
    if not isinstance(depends_on, (list, tuple)):
        raise WeaverError("depends_on must be a list of (node id, relation) pairs")
    for dep in depends_on:
        ref, relation, _ = dependency_parts(dep)
        if relation not in RELATIONS:
            raise WeaverError(f"depends_on: unknown relation {relation!r}: expected one of {', '.join(RELATIONS)}")
        if not ref:
            raise WeaverError("depends_on: an empty node id")
        if relation == "supersedes":
            raise WeaverError("depends_on: 'supersedes' is set when a restated value arrives, not declared")
    return list(depends_on)


def dependency_parts(dep: Any) -> tuple[str, str, str]:
    """``(ref, relation[, why])`` or ``{"node_id", "relation", "why"}`` -> (ref, relation, why).

    >>> dependency_parts(("n_1", "causal")), dependency_parts({"node_id": "n_2", "relation": "temporal"})
    (('n_1', 'causal', ''), ('n_2', 'temporal', ''))
    """
    if isinstance(dep, dict):
        ref, relation, why = dep.get("node_id") or dep.get("id"), dep.get("relation"), dep.get("why", "")
    elif isinstance(dep, (list, tuple)) and len(dep) in (2, 3):
        ref, relation, why = dep[0], dep[1], dep[2] if len(dep) == 3 else ""
    else:
        raise WeaverError(f"depends_on: expected (node id, relation), not {str(dep)[:60]!r}")
    if not isinstance(ref, str) or not isinstance(relation, str) or not isinstance(why, str):
        raise WeaverError(f"depends_on: node id, relation and why must be strings, not {str(dep)[:60]!r}")
    return ref.strip(), relation.strip().lower(), why
