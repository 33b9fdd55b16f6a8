"""The agent's events: the library's transcript records (:mod:`weaver.transcript`), re-exported where the agent's
callers import them."""

from __future__ import annotations

from ..transcript import EVENT_TYPES, AgentEvent, events_for, load_transcript, save_events

__all__ = ["AgentEvent", "EVENT_TYPES", "load_transcript", "save_events", "events_for"]
