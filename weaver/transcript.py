"""An agent's transcript in a space: the events a caller (studio, CLI) saw of each step, persisted as records.

A library concept (the retrieval debugger replays past turns from it, a reload restores the chat from it);
the travel agent writes it through :func:`save_events` and re-exports it as ``weaver.agent.events``.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["AgentEvent", "EVENT_TYPES", "load_transcript", "save_events", "events_for"]

EVENT_TYPES = ("user", "memory", "thought", "tool_call", "tool_result", "reply", "error")
_KIND = "events"


@dataclass
class AgentEvent:
    type: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    turn: int = 0
    message_id: str = ""
    seq: int = 0
    started: float = 0.0  # when the run this event belongs to began (orders runs)
    at: float = field(default_factory=time.time)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "AgentEvent":
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})

    @property
    def record_id(self) -> str:
        return f"{self.message_id}#{self.seq:03d}"


def save_events(weaver, events: list[AgentEvent]) -> None:
    # a write section like any other: under the single-writer lock, and other processes see a new revision
    with weaver.writing():
        weaver.space.put_records(_KIND, {ev.record_id: ev.to_dict() for ev in events})


def _all(weaver) -> list[AgentEvent]:
    evs = [AgentEvent.from_dict(d) for d in weaver.space.get_records(_KIND).values()]
    return sorted(evs, key=lambda e: (e.started, e.message_id, e.seq))


def events_for(weaver, message_id: str) -> list[AgentEvent]:
    return [e for e in _all(weaver) if e.message_id == message_id]


def load_transcript(weaver) -> list[AgentEvent]:
    """Every event of every past turn in the space, in order."""
    return _all(weaver)
