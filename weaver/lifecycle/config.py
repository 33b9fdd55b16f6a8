"""The lifecycle's knobs (one frozen object; the pass, the CLI and the bench pass a copy down)."""

from __future__ import annotations

from dataclasses import dataclass, replace

__all__ = ["LifecycleConfig"]


@dataclass(frozen=True)
class LifecycleConfig:
    # working memory: the latest user turns, kept in full detail and never touched by a pass
    working_turns: int = 50
    # retention = w_age * age decay + w_access * use + w_importance * importance + w_degree * degree
    half_life_turns: float = 150.0  # a memory's age weight halves every this many user turns
    access_half_life_s: float = 7 * 86400.0  # a retrieval's weight halves every week
    w_age: float = 0.35
    w_access: float = 0.2
    w_importance: float = 0.25
    w_degree: float = 0.2
    archive_below: float = 0.4  # an old, unprotected memory scoring below this is archived
    covered_factor: float = 0.8  # a member of a reflection summary keeps this share of its score (its gist stays)
    # merge: same kind and speaker, the same numbers, cosine at least this
    duplicate_cosine: float = 0.93
    # promotion into long-term memory: retrieved this often (or confirmed by a human)
    promote_accesses: int = 3
    # reflection: an old episode (session / date / agent turn) of at least this many memories gets a summary
    region_min: int = 5
    summary_lines: int = 4
    summary_line_chars: int = 120

    def with_(self, **changes) -> LifecycleConfig:
        return replace(self, **changes)
