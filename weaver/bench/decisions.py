"""``bench decisions``: are the constraints in force in the context when a decision is made?

Chats come from :mod:`weaver.bench.decision_chats` (CrossWOZ test goals, zh and en).
Each chat is one user's space; it is ingested turn by turn through the real
``ingest_many`` up to each decision point, where every system retrieves for the
decision question at each budget:

- ``weaver``: ``ContextWeaver.query`` (the decision block of the constraints in force, then the narrative);
- ``weaver-no-block``: the same with ``decision_context`` off (the narrative alone);
- ``dense`` / ``bm25`` / ``hybrid`` / ``recency``: the baselines of :mod:`weaver.bench.baselines` over the
  turns so far, packed by :func:`weaver.bench.common.pack` at the same cost per line.

Scores (micro-averaged over every constraint of every decision point):

- **active**: the share of the constraints then in force (and bearing on the decision's domain) present in
  the context — the turn that stated it is in the context, or the weaver's block states its value;
- **stale**: the share of values updated away before the decision present the same way (lower is better).
"""

from __future__ import annotations

import time
from pathlib import Path

from tqdm import tqdm

from .common import Turn, ingest_turns, pack, temp_runtime, weaver_picks
from .crosswoz import load_crosswoz
from ..models import WeaverError

__all__ = ["run_decisions", "decisions_markdown", "SYSTEMS", "BUDGETS"]

SYSTEMS = ("weaver", "weaver-no-block", "dense", "bm25", "hybrid", "recency")
BUDGETS = (256, 512, 1024)
_TASK = {
    "zh": "为用户规划北京旅行：酒店、餐厅、景点、交通和预算",
    "en": "Plan the user's Beijing trip: hotels, restaurants, attractions, metro and budget",
}


def _same(rec, g) -> bool:
    return rec.key == g.key and (rec.value, rec.bound, rec.high) == (g.value, g.bound, g.high)


class _Tally:
    def __init__(self) -> None:
        self.hit: dict[tuple, int] = {}
        self.n: dict[tuple, int] = {}

    def add(self, key: tuple, hits: int, n: int) -> None:
        self.hit[key] = self.hit.get(key, 0) + hits
        self.n[key] = self.n.get(key, 0) + n

    def share(self, key: tuple) -> float | None:
        return round(100 * self.hit[key] / self.n[key], 1) if self.n.get(key) else None


def _score(tally: _Tally, system: str, lang: str, budget: int, dec, turn_keys: set[str], block) -> None:
    recs = list(block.records) if block is not None else []
    present = [g.turn in turn_keys or any(_same(r, g) for r in recs) for g in dec.active]
    stale = [g.turn in turn_keys or any(_same(r, g) for r in recs) for g in dec.stale]
    for lg in (lang, "all"):
        tally.add((system, budget, lg, "active"), sum(present), len(present))
        tally.add((system, budget, lg, "stale"), sum(stale), len(stale))
        tally.add((system, budget, lg, "complete"), int(all(present)), 1)


def run_decisions(
    data: str | Path,
    embedder,
    budgets=BUDGETS,
    dialogues: int = 100,
    languages=("zh", "en"),
    config=None,
    progress: bool = True,
) -> dict:
    from ..agent.db import load_database
    from ..settings import WeaverConfig
    from .baselines import Baselines
    from .decision_chats import make_chat

    if dialogues < 1:
        raise WeaverError("--dialogues must be at least 1")
    cfg = config or WeaverConfig()
    db = load_database()
    items = load_crosswoz(data)[:dialogues]
    chats = [c for did, d in items for lang in languages if (c := make_chat(did, d.get("goal") or [], lang, db))]
    tally, t0 = _Tally(), time.perf_counter()
    n_turns = n_dec = 0
    lat: list[float] = []
    with temp_runtime(embedder, cfg) as rt:
        for i, chat in enumerate(tqdm(chats, desc="decision chats", disable=not progress)):
            turns = [Turn(k, text, {"session": chat.id}, kind) for k, kind, text in chat.turns]
            vecs = embedder.embed([t.content for t in turns])
            qvecs = embedder.embed([d.question for d in chat.decisions])
            w = rt.open(f"dc{i}")
            w.set_task(_TASK[chat.language])
            plain = cfg.with_(decision_context=False)
            done = 0
            for dec, qv in zip(chat.decisions, qvecs):
                ingest_turns(w, turns[done : dec.at], chat.id)
                done = dec.at
                base = Baselines([t.content for t in turns[: dec.at]], vecs[: dec.at])
                ranks = base.rankings(dec.question, qv)
                for b in budgets:
                    for name, ranking in ranks.items():
                        keys = {turns[j].key for j in pack(turns[: dec.at], ranking, b, chat.language)}
                        _score(tally, name, chat.language, b, dec, keys, None)
                    t1 = time.perf_counter()
                    res = w.query(dec.question, budget=b)
                    lat.append((time.perf_counter() - t1) * 1e3)
                    if res.tokens > b:
                        raise WeaverError(f"weaver context over budget: {res.tokens} > {b}")
                    _score(tally, "weaver", chat.language, b, dec, weaver_picks(w, res, with_block=False), res.decision)
                    res = w.query(dec.question, budget=b, config=plain)
                    _score(tally, "weaver-no-block", chat.language, b, dec, weaver_picks(w, res), None)
                n_dec += 1
            n_turns += len(turns)
    groups = list(languages) + ["all"]
    table = {
        s: {
            str(b): {g: {m: tally.share((s, b, g, m)) for m in ("active", "stale", "complete")} for g in groups}
            for b in budgets
        }
        for s in SYSTEMS
    }
    counts = {
        g: {
            "active": tally.n.get(("weaver", budgets[0], g, "active"), 0),
            "stale": tally.n.get(("weaver", budgets[0], g, "stale"), 0),
            "decisions": tally.n.get(("weaver", budgets[0], g, "complete"), 0),
        }
        for g in groups
    }
    import numpy as np

    return {
        "benchmark": "decisions",
        "data": str(data),
        "description": f"{len(chats)} chats ({', '.join(languages)}) from the goals of the first {len(items)} "
        f"CrossWOZ test dialogues; {n_turns} turns, {n_dec} decision points "
        f"(~{n_turns // max(1, len(chats))} turns a chat).",
        "budgets": list(budgets),
        "systems": list(SYSTEMS),
        "languages": list(languages),
        "scores": table,
        "counts": counts,
        "weaver_query_ms": {
            "p50": round(float(np.percentile(lat, 50)), 1) if lat else None,
            "p95": round(float(np.percentile(lat, 95)), 1) if lat else None,
        },
        "wall_s": round(time.perf_counter() - t0, 1),
    }


def decisions_markdown(res: dict) -> str:
    """The result as Markdown: per language, active / stale shares for each system and budget."""
    budgets = res["budgets"]
    out = [
        "# Decision-context completeness (`bench decisions`)",
        "",
        res["description"],
        "",
        "**active**: share of the constraints in force (bearing on the decision) present in the context; "
        "**stale**: share of updated-away values present (lower is better); **complete**: decision points "
        "with every active constraint present.",
        "",
    ]
    for g in res["languages"] + ["all"]:
        c = res["counts"][g]
        out += [
            f"## {g} ({c['decisions']} decisions, {c['active']} active constraints, {c['stale']} stale values)",
            "",
            "| system | "
            + " | ".join(f"active@{b}" for b in budgets)
            + " | "
            + " | ".join(f"stale@{b}" for b in budgets)
            + " | "
            + " | ".join(f"complete@{b}" for b in budgets)
            + " |",
            "|---" * (1 + 3 * len(budgets)) + "|",
        ]
        for s in res["systems"]:
            row = res["scores"][s]
            cells = (
                [row[str(b)][g]["active"] for b in budgets]
                + [row[str(b)][g]["stale"] for b in budgets]
                + [row[str(b)][g]["complete"] for b in budgets]
            )
            out.append(f"| {s} | " + " | ".join("–" if v is None else f"{v:.1f}" for v in cells) + " |")
        out.append("")
    out.append(
        f"Weaver query latency p50 {res['weaver_query_ms']['p50']} ms, p95 {res['weaver_query_ms']['p95']} ms; "
        f"wall time {res['wall_s']} s."
    )
    return "\n".join(out) + "\n"
