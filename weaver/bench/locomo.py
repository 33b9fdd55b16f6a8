"""LoCoMo: evidence recall of long conversations under token budgets, all systems in one run.

Each conversation is ingested turn by turn (``Speaker: text``, an image turn
adds its caption), with the session date and the turn's ``dia_id`` in the node
meta. For every question each system fills each budget; recall is the share of
the question's evidence turns whose ``dia_id`` is among the context's memories.
Evidence ids that do not exist in their conversation are dropped (3 in the
data); questions left without evidence are skipped (4).
"""

from __future__ import annotations

import json
import re
import time
from datetime import datetime
from pathlib import Path

from tqdm import tqdm

from . import BUDGETS
from .common import RecallTable, Turn, filter_summary, percentiles, recall, run_haystack
from ..models import WeaverError

__all__ = ["load_locomo", "conversation_turns", "questions", "run_locomo", "SYSTEMS", "DRAGON"]

SYSTEMS = ("weaver", "weaver-no-expand", "weaver-no-filter", "dense", "bm25", "hybrid", "recency")
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
DRAGON = {"5": 56.7, "10": 66.2, "25": 76.7, "50": 82.7}  # LoCoMo paper, Table 3 (overall)
_EVIDENCE = re.compile(r"D(\d+):(\d+)")


def load_locomo(path: str | Path) -> list[dict]:
    p = Path(path)
    if not p.is_file():
        raise WeaverError(f"LoCoMo data not found at {p}")
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise WeaverError(f"{p} is not a LoCoMo JSON file: {exc}") from exc
    if not isinstance(data, list) or not all(isinstance(s, dict) and "conversation" in s for s in data):
        raise WeaverError(f"{p}: expected a list of LoCoMo samples with a 'conversation'")
    return data


def session_date(raw: str) -> str:
    """A compact session date: '1:56 pm on 8 May, 2023' -> '8 May 2023'.

    >>> session_date("1:56 pm on 8 May, 2023"), session_date("??")
    ('8 May 2023', '??')
    """
    m = re.search(r"(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})", raw or "")
    if not m:
        return (raw or "").strip()
    try:
        d = datetime.strptime(f"{m.group(1)} {m.group(2)[:3]} {m.group(3)}", "%d %b %Y")
    except ValueError:
        return raw.strip()
    return f"{d.day} {d.strftime('%B')} {d.year}"


def conversation_turns(sample: dict) -> list[Turn]:
    conv = sample["conversation"]
    sessions = sorted((int(k.split("_")[1]), k) for k in conv if re.fullmatch(r"session_\d+", k))
    turns = []
    for n, key in sessions:
        date = session_date(conv.get(f"{key}_date_time", ""))
        for t in conv[key]:
            text = t.get("text", "").strip()
            if t.get("blip_caption"):
                text += f" [shares {t['blip_caption']}]"
            turns.append(
                Turn(t["dia_id"], f"{t['speaker']}: {text}", {"speaker": t["speaker"], "date": date, "session": n})
            )
    return turns


def questions(sample: dict, keys: set[str]) -> list[dict]:
    out = []
    for q in sample.get("qa", []):
        ev = set()
        for e in q.get("evidence", []):
            ev |= {f"D{a}:{b}" for a, b in _EVIDENCE.findall(str(e))}
        ev &= keys
        if ev:
            out.append({"question": q["question"], "category": int(q["category"]), "evidence": ev})
    return out


def _groups(cat: int) -> list[str]:
    g = [f"cat{cat}"]
    if cat in (1, 2, 3, 4):
        g.append("cats1-4")
    return g + ["all"]


def run_locomo(
    data: str | Path,
    embedder,
    budgets=BUDGETS,
    limit_conversations: int | None = None,
    limit_questions: int | None = None,
    config=None,
    progress: bool = True,
    peer=None,
) -> dict:
    """Run every system over the conversations; returns the results dict (see ``report.locomo_tables``).

    ``peer``: a ``peer.PeerProcess`` ranked beside the baselines (a system named after it)."""
    from ..settings import WeaverConfig

    cfg = config or WeaverConfig()
    samples = load_locomo(data)[:limit_conversations]
    table = RecallTable()
    ranks_at: dict[int, list[float]] = {k: [] for k in (5, 10, 25, 50)}  # k -> dense recall@k per question
    ranks_at_14: dict[int, list[float]] = {k: [] for k in (5, 10, 25, 50)}
    per_conv: list[dict] = []  # run_haystack's stats, one per conversation
    latency_all: list[float] = []
    t_start = time.perf_counter()
    for sample in tqdm(samples, desc="locomo conversations", disable=not progress):
        turns = conversation_turns(sample)
        qs = questions(sample, {t.key for t in turns})[:limit_questions]
        for q in qs:
            q["scored"] = q["category"] != 5  # adversarial evidence stays out of the filter statistics

        def dense_recall_at_k(q, ranks, turns=turns):
            for k in ranks_at:
                r = recall({turns[i].key for i in ranks["dense"][:k]}, q["evidence"])
                ranks_at[k].append(r)
                if q["scored"]:
                    ranks_at_14[k].append(r)

        sid = sample.get("sample_id", f"conv{len(per_conv)}")
        stats = run_haystack(
            sid,
            turns,
            qs,
            embedder,
            cfg,
            budgets,
            table,
            lambda q: _groups(q["category"]),
            progress=progress,
            on_question=dense_recall_at_k,
            peer=peer,
        )
        latency_all += stats.pop("_latencies")
        per_conv.append(stats)
    filt = filter_summary(per_conv)
    groups = ["cats1-4", "all"] + [f"cat{c}" for c in CATEGORIES]
    largest = max(per_conv, key=lambda c: c["turns"]) if per_conv else None
    systems = SYSTEMS + ((peer.name,) if peer is not None else ())
    mean = lambda xs: round(100 * sum(xs) / len(xs), 1) if xs else None  # noqa: E731
    return {
        "benchmark": "locomo",
        "data": str(data),
        "budgets": list(budgets),
        "systems": list(systems),
        "categories": CATEGORIES,
        "recall": table.to_dict(systems, budgets, groups),
        "questions": {g: table.count("recency", budgets[0], g) for g in groups},
        "dense_recall_at_k": {
            "cats1-4": {str(k): mean(v) for k, v in ranks_at_14.items()},
            "all": {str(k): mean(v) for k, v in ranks_at.items()},
            "dragon_paper": DRAGON,
        },
        "filter": filt,
        "latency_ms_1024": {
            "all": percentiles(latency_all),
            "largest": largest and {"id": largest["id"], "turns": largest["turns"], **largest["query_ms_1024"]},
        },
        "conversations": per_conv,
        "config": cfg.__dict__,
        **({"peer": peer.describe()} if peer is not None else {}),
        "wall_s": round(time.perf_counter() - t_start, 1),
    }
