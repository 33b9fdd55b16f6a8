"""Shared pieces of the quality benchmarks: turns, packing, weaver runs, recall bookkeeping."""

from __future__ import annotations

import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterator

import numpy as np

from ..models import Message
from ..narrative import HEADERS, line_for
from ..settings import Settings, WeaverConfig
from ..text import count_tokens

__all__ = ["Turn", "pack", "recall", "RecallTable", "temp_runtime", "ingest_turns", "NO_FILTER", "weaver_picks",
           "percentiles"]

# the filter switched off: every message is kept (the coarse gate and the fine total can never fail)
NO_FILTER = dict(coarse_threshold=-2.0, keep_threshold=-1.0)


@dataclass
class Turn:
    """One source message with its provenance key (``key``: e.g. a LoCoMo dia_id)."""

    key: str
    content: str
    meta: dict = field(default_factory=dict)
    kind: str = "user_input"

    def attrs(self, language: str) -> dict:
        return {"content": self.content, "kind": self.kind, "language": language, "meta": self.meta}


def pack(turns: list[Turn], ranking: list[int], budget: int, language: str = "en") -> list[int]:
    """Indices of ``turns`` that fit ``budget`` taken in ``ranking`` order (skipping lines too long).

    Lines are rendered exactly as the weaver renders a memory without parents,
    under the same header, so every system pays the same tokens per memory.

    >>> ts = [Turn("a", "A: hi there"), Turn("b", "B: " + "word " * 300)]
    >>> pack(ts, [1, 0], 60)
    [0]
    """
    used = count_tokens(HEADERS[language])
    out = []
    for i in ranking:
        # the line number costs one token whatever its value (< 1000 lines)
        cost = count_tokens(line_for(turns[i].attrs(language), 1, []))
        if used + cost <= budget:
            out.append(i)
            used += cost
        if budget - used < 8:
            break
    return out


def recall(found: set[str], evidence: set[str]) -> float:
    return len(found & evidence) / len(evidence) if evidence else float("nan")


def percentiles(values: list[float]) -> dict:
    if not values:
        return {"p50": None, "p95": None, "mean": None}
    a = np.asarray(values, dtype=float)
    return {"p50": round(float(np.percentile(a, 50)), 2), "p95": round(float(np.percentile(a, 95)), 2),
            "mean": round(float(a.mean()), 2)}


class RecallTable:
    """Per-(system, budget, group) recall values, averaged over questions."""

    def __init__(self) -> None:
        self.values: dict[tuple[str, int, str], list[float]] = {}

    def add(self, system: str, budget: int, groups: list[str], value: float) -> None:
        for g in groups:
            self.values.setdefault((system, budget, g), []).append(value)

    def mean(self, system: str, budget: int, group: str) -> float | None:
        v = self.values.get((system, budget, group))
        return round(100 * float(np.mean(v)), 1) if v else None

    def count(self, system: str, budget: int, group: str) -> int:
        return len(self.values.get((system, budget, group), []))

    def to_dict(self, systems, budgets, groups) -> dict:
        return {s: {str(b): {g: self.mean(s, b, g) for g in groups} for b in budgets} for s in systems}


@contextmanager
def temp_runtime(embedder, config: WeaverConfig | None = None, settings: Settings | None = None) -> Iterator:
    """A Runtime over a throw-away Chroma directory (spaces never touch the user's data)."""
    from ..runtime import Runtime

    with tempfile.TemporaryDirectory(prefix="weaver-bench-") as tmp:
        base = settings or Settings.from_env(env={}, secrets_path=None)
        s = replace(base, data_dir=Path(tmp), config=config or base.config)
        rt = Runtime.from_settings(s, embedder=embedder)
        rt.tmp_dir = tmp
        yield rt


def ingest_turns(weaver, turns: list[Turn], id_prefix: str, batch: int = 64) -> float:
    """Feed turns in order through the real ``ingest_many`` (embeddings batched); returns seconds."""
    t0 = time.perf_counter()
    for start in range(0, len(turns), batch):
        chunk = turns[start : start + batch]
        weaver.ingest_many([Message(t.content, t.kind, dict(t.meta, key=t.key), f"{id_prefix}:{t.key}")
                            for t in chunk])
    return time.perf_counter() - t0


def weaver_picks(weaver, result) -> set[str]:
    """Provenance keys of the memories a retrieval result put in its context."""
    return {weaver.nodes[n.id].meta.get("key") for n in result.nodes if n.id in weaver.nodes}
