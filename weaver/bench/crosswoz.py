"""CrossWOZ: does the memory still hold what the user required, deep in a long Chinese haystack?

Consecutive dialogues are concatenated into haystacks (user turns as
``user_input``, system turns as ``agent_response``; one session per dialogue).
Each user turn that first informs a constraint slot (dialog act ``Inform``) is
the evidence of one question asked after the whole haystack was ingested:
"在去<place>的那次行程里，我对<domain>的<slot>有什么要求？" — the place is
a name the system offered in that dialogue (preferring the same domain), so
the question identifies its own dialogue and no two questions are the same
string. Dialogues without any offered name yield no questions.
"""

from __future__ import annotations

import json
import time
import zipfile
from pathlib import Path

from tqdm import tqdm

from . import BUDGETS
from .common import RecallTable, Turn, filter_summary, percentiles, run_haystack
from ..models import WeaverError

__all__ = ["load_crosswoz", "dialogue_turns", "dialogue_questions", "run_crosswoz", "SYSTEMS"]

SYSTEMS = ("weaver", "weaver-no-expand", "weaver-no-filter", "dense", "bm25", "hybrid", "recency")
# slots that state what the user wants (not what they ask about)
_NOT_CONSTRAINTS = {"名称", "none", ""}


def load_crosswoz(path: str | Path) -> list[tuple[str, dict]]:
    p = Path(path)
    if not p.is_file():
        raise WeaverError(f"CrossWOZ data not found at {p}")
    try:
        if p.suffix == ".zip":
            with zipfile.ZipFile(p) as z:
                data = json.loads(z.read(z.namelist()[0]))
        else:
            data = json.loads(p.read_text(encoding="utf-8"))
    except (ValueError, zipfile.BadZipFile, KeyError, IndexError) as exc:
        raise WeaverError(f"{p} is not a CrossWOZ file: {exc}") from exc
    if not isinstance(data, dict):
        raise WeaverError(f"{p}: expected an object of dialogues by id")
    return sorted(data.items(), key=lambda kv: int(kv[0]) if str(kv[0]).isdigit() else 0)


def dialogue_turns(did: str, dialogue: dict) -> list[Turn]:
    out = []
    for i, m in enumerate(dialogue.get("messages", [])):
        kind = "user_input" if m.get("role") == "usr" else "agent_response"
        out.append(Turn(f"{did}:{i}", m.get("content", "").strip() or "…", {"session": did}, kind))
    return out


def dialogue_questions(did: str, dialogue: dict) -> list[dict]:
    names: dict[str, str] = {}
    for m in dialogue.get("messages", []):
        if m.get("role") == "sys":
            for intent, domain, slot, value in m.get("dialog_act", []):
                if intent == "Inform" and slot == "名称" and value and domain not in names:
                    names[domain] = value
    if not names:
        return []
    seen, out = set(), []
    for i, m in enumerate(dialogue.get("messages", [])):
        if m.get("role") != "usr":
            continue
        for intent, domain, slot, value in m.get("dialog_act", []):
            if intent != "Inform" or slot in _NOT_CONSTRAINTS or (domain, slot) in seen:
                continue
            seen.add((domain, slot))
            place = names.get(domain) or next(iter(names.values()))
            out.append(
                {
                    "question": f"在去{place}的那次行程里，我对{domain}的{slot}有什么要求？",
                    "evidence": {f"{did}:{i}"},
                    "domain": domain,
                    "slot": slot,
                }
            )
    return out


def run_crosswoz(
    data: str | Path,
    embedder,
    budgets=BUDGETS,
    dialogues: int = 100,
    per_haystack: int = 10,
    config=None,
    progress: bool = True,
    peer=None,
) -> dict:
    from ..settings import WeaverConfig

    if dialogues < 1 or per_haystack < 1:
        raise WeaverError("--dialogues and --per-haystack must be at least 1")
    cfg = config or WeaverConfig()
    items = load_crosswoz(data)[:dialogues]
    table, per, lat = RecallTable(), [], []
    t_start = time.perf_counter()
    stacks = [items[i : i + per_haystack] for i in range(0, len(items), per_haystack)]
    for h, stack in enumerate(tqdm(stacks, desc="crosswoz haystacks", disable=not progress)):
        turns = [t for did, d in stack for t in dialogue_turns(did, d)]
        qs = [q for did, d in stack for q in dialogue_questions(did, d)]
        stats = run_haystack(
            f"cw{h}",
            turns,
            qs,
            embedder,
            cfg,
            budgets,
            table,
            lambda q: ["all", q["domain"]],
            language="zh",
            progress=progress,
            peer=peer,
        )
        lat += stats.pop("_latencies")
        per.append(stats)
    systems = SYSTEMS + ((peer.name,) if peer is not None else ())
    domains = sorted({k[2] for k in table.values} - {"all"})
    return {
        "benchmark": "crosswoz",
        "data": str(data),
        "description": f"{len(items)} dialogues in haystacks of {per_haystack} "
        f"(~{sum(p['turns'] for p in per) // max(1, len(per))} turns each); "
        f"{table.count('recency', budgets[0], 'all')} constraint questions.",
        "budgets": list(budgets),
        "systems": list(systems),
        "recall": table.to_dict(systems, budgets, ["all"] + domains),
        "questions": {g: table.count("recency", budgets[0], g) for g in ["all"] + domains},
        "filter": filter_summary(per),
        "latency_ms_1024": percentiles(lat),
        "haystacks": per,
        **({"peer": peer.describe()} if peer is not None else {}),
        "wall_s": round(time.perf_counter() - t_start, 1),
    }
