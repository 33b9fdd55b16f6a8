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
from ..narrative import HEADERS, date_of, date_tokens, estimate_line_tokens
from ..settings import Settings, WeaverConfig
from ..text import count_tokens

__all__ = [
    "Turn",
    "pack",
    "recall",
    "RecallTable",
    "temp_runtime",
    "ingest_turns",
    "NO_FILTER",
    "weaver_picks",
    "run_haystack",
    "filter_summary",
    "percentiles",
    "finish_line_plot",
]

# the filter switched off: every message is kept (the coarse gate and the fine total can never fail)
NO_FILTER = dict(coarse_threshold=-2.0, keep_threshold=-1.0, filler_own_words=-1)


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

    Lines cost exactly what the weaver's rendering of a memory without parents
    costs, under the same header, a date paid once per date (the memories are
    shown in time order), so every system pays the same tokens per memory.

    >>> ts = [Turn("a", "A: hi there"), Turn("b", "B: " + "word " * 300)]
    >>> pack(ts, [1, 0], 60)
    [0]
    """
    used = count_tokens(HEADERS[language])
    out, dates = [], set()
    for i in ranking:
        attrs = turns[i].attrs(language)
        date = date_of(attrs)
        cost = estimate_line_tokens(attrs) + (date_tokens(attrs) if date not in dates else 0)
        if used + cost <= budget:
            out.append(i)
            used += cost
            dates.add(date)
        if budget - used < 8:
            break
    return out


def recall(found: set[str], evidence: set[str]) -> float:
    return len(found & evidence) / len(evidence) if evidence else float("nan")


def percentiles(values: list[float]) -> dict:
    if not values:
        return {"p50": None, "p95": None, "mean": None}
    a = np.asarray(values, dtype=float)
    return {
        "p50": round(float(np.percentile(a, 50)), 2),
        "p95": round(float(np.percentile(a, 95)), 2),
        "mean": round(float(a.mean()), 2),
    }


def finish_line_plot(fig, ax, path: Path, xlabel: str, ylabel: str, title: str) -> None:
    """Label a benchmark's line plot (axes, title, light grid, legend), write it to ``path`` and close it.

    Closed because pyplot keeps every open figure alive, and a benchmark run draws several.
    """
    import matplotlib.pyplot as plt

    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


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
    """A Runtime over a throw-away Chroma directory (spaces never touch the user's data): ``rt.settings.data_dir``."""
    from ..runtime import Runtime

    with tempfile.TemporaryDirectory(prefix="weaver-bench-") as tmp:
        base = settings or Settings.from_env(env={}, secrets_path=None)
        s = replace(base, data_dir=Path(tmp), config=config or base.config)
        yield Runtime.from_settings(s, embedder=embedder)


def ingest_turns(weaver, turns: list[Turn], id_prefix: str, batch: int = 64) -> float:
    """Feed turns in order through the real ``ingest_many`` (embeddings batched); returns seconds."""
    t0 = time.perf_counter()
    for start in range(0, len(turns), batch):
        chunk = turns[start : start + batch]
        weaver.ingest_many([Message(t.content, t.kind, dict(t.meta, key=t.key), f"{id_prefix}:{t.key}") for t in chunk])
    return time.perf_counter() - t0


def weaver_picks(weaver, result, with_block: bool = True) -> set[str]:
    """Provenance keys of the memories a retrieval result put in its context: the narrative's, and (``with_block``)
    the statements whose current values the constraint block before it carries (weaver/decision_context.py).
    A scorer that reads the block's values itself (bench decisions) passes ``with_block=False``."""
    block = result.decision.node_ids if with_block and result.decision is not None else []
    ids = [n.id for n in result.nodes] + block
    return {weaver.nodes[i].meta.get("key") for i in ids if i in weaver.nodes}


def run_haystack(
    sid: str,
    turns: list[Turn],
    qs: list[dict],
    embedder,
    cfg: WeaverConfig,
    budgets,
    table: RecallTable,
    groups_of,
    language: str = "en",
    progress: bool = True,
    on_question=None,
    peer=None,
) -> dict:
    """Ingest one haystack into a filtered and an unfiltered weaver, then ask every question of every system.

    ``qs``: dicts with ``question`` and ``evidence`` (a set of turn keys);
    ``groups_of(q)`` names the table groups the question counts in;
    ``on_question(q, rankings)`` sees the baselines' full rankings (for R@k);
    ``peer`` (a ``peer.PeerProcess``) is another memory system: its ranking is packed like a baseline's.
    Returns this haystack's filter counts, ingest times and weaver latencies.
    """
    from tqdm import tqdm

    from .baselines import Baselines

    with temp_runtime(embedder, cfg) as rt:
        full = rt.open(f"{sid}-full")
        unfiltered = rt.open(f"{sid}-nofilter", config=cfg.with_(**NO_FILTER))
        ingest_s = ingest_turns(full, turns, sid)
        ingest_all_s = ingest_turns(unfiltered, turns, sid)
        kept = {d.meta.get("key") for d in full.decisions.values() if d.kept}
        evidence = set().union(*(q["evidence"] for q in qs if q.get("scored", True))) if qs else set()
        base = Baselines([t.content for t in turns], embedder.embed([t.content for t in turns]))
        qvecs = embedder.embed([q["question"] for q in qs]) if qs else []
        peer_add_s = peer.load(sid, turns) if peer is not None else None
        lat: list[float] = []
        for q, qv in tqdm(list(zip(qs, qvecs)), desc=f"{sid} questions", leave=False, disable=not progress):
            groups, ev = groups_of(q), q["evidence"]
            ranks = base.rankings(q["question"], qv)
            if on_question:
                on_question(q, ranks)
            if peer is not None:
                ranks = dict(ranks, **{peer.name: peer.ranking(q["question"])})
            for b in budgets:
                for name, ranking in ranks.items():
                    table.add(name, b, groups, recall({turns[i].key for i in pack(turns, ranking, b, language)}, ev))
                t0 = time.perf_counter()
                res = full.query(q["question"], budget=b)
                if b == 1024:
                    lat.append((time.perf_counter() - t0) * 1e3)
                table.add("weaver", b, groups, recall(weaver_picks(full, res), ev))
                res = full.query(q["question"], budget=b, expand=False)
                table.add("weaver-no-expand", b, groups, recall(weaver_picks(full, res), ev))
                res = unfiltered.query(q["question"], budget=b)
                table.add("weaver-no-filter", b, groups, recall(weaver_picks(unfiltered, res), ev))
        return {
            "id": sid,
            "turns": len(turns),
            "kept": len(kept),
            "questions": len(qs),
            "evidence": len(evidence),
            "evidence_kept": len(evidence & kept),
            "edges": full.graph.number_of_edges(),
            "ingest_s": round(ingest_s, 2),
            "ingest_all_s": round(ingest_all_s, 2),
            "query_ms_1024": percentiles(lat),
            "_latencies": lat,
            **({f"{peer.name}_add_s": peer_add_s} if peer is not None else {}),
        }


def filter_summary(per: list[dict]) -> dict:
    t = sum(p["turns"] for p in per)
    k = sum(p["kept"] for p in per)
    e = sum(p["evidence"] for p in per)
    ek = sum(p["evidence_kept"] for p in per)
    return {
        "turns": t,
        "kept": k,
        "evidence": e,
        "evidence_kept": ek,
        "kept_share": round(100 * k / max(1, t), 1),
        "evidence_kept_share": round(100 * ek / max(1, e), 1),
    }
