"""MADial-Bench (Chinese): memory recall R@5 / R@10 next to the published embedding baselines.

The memory records (``*-memory.json``: time, scene, emotion, event) are the
haystack, searched per user (one space each, as the shipped rankings search
only the dialogue's user's memories); the query is the dialogue history before the test turn, exactly as
the shipped baseline rankings used it (``dialog_history``). Recall@k is the
share of a dialogue's relevant memories in the top k, averaged over dialogues
(this reproduces the shipped rankings' OpenAI 69.4 / 82.4, in %). The records are
already curated memories, so the weaver ingests them with the filter off; its
ranking is the retrieval trace's rank order.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from .baselines import Baselines
from .common import NO_FILTER, Turn, ingest_turns, temp_runtime
from .report import markdown_table
from ..models import WeaverError

__all__ = ["load_madial", "madial_history", "run_madial", "madial_markdown", "plot_madial"]

KS = (5, 10)


def _jsonl(path: Path) -> list[dict]:
    text = path.read_text(encoding="utf-8").strip()
    if text.startswith("["):
        return json.loads(text)
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def load_madial(root: str | Path) -> tuple[dict[int, dict], list[dict], dict[str, dict[int, dict]]]:
    root = Path(root)
    try:
        memories: dict[int, dict] = {}
        for rec in _jsonl(root / "MADial-Bench-zh-memory.json"):
            for k, v in rec.items():
                memories[int(k)] = v
        dialogues = _jsonl(root / "MADial-Bench-zh-dialogue.json")
        published: dict[str, dict[int, dict]] = {}  # baseline name -> dialogue id -> its published record
        for p in sorted((root / "baselines_zh").glob("*_top_20_ids.json")):
            published[p.name.split("_zh_")[0]] = {int(x["id"]): x for x in _jsonl(p)}
    except (OSError, ValueError) as exc:
        raise WeaverError(f"cannot read MADial-Bench data under {root}: {exc}") from exc
    if not memories or not dialogues:
        raise WeaverError(f"no MADial-Bench memories or dialogues under {root}")
    return memories, dialogues, published


def madial_history(d: dict, published: dict) -> str:
    """The dialogue history before the test turn, as the shipped rankings embedded it."""
    for ranks in published.values():
        if int(d["id"]) in ranks:
            return ranks[int(d["id"])]["dialog_history"]
    return "".join(d["dialogue"][: d["test-turn"][0]])


def _recall_at(ranking: list[int], relevant: set[int], k: int) -> float:
    return len(set(ranking[:k]) & relevant) / len(relevant)


def run_madial(root: str | Path, embedder, limit: int | None = None, config=None, progress: bool = True) -> dict:
    from ..settings import WeaverConfig

    t_start = time.perf_counter()
    cfg = (config or WeaverConfig()).with_(**NO_FILTER)
    memories, dialogues, published = load_madial(root)
    dialogues = [d for d in dialogues if d.get("relevant-id")][:limit]
    # memory is per user, as the published rankings search it (each of their top 20 is the dialogue's user's):
    # one space and one set of baselines per user
    by_user: dict[int, list[int]] = {}
    for m in sorted(memories):
        by_user.setdefault(int(memories[m].get("user-id", 0)), []).append(m)
    scores: dict[str, dict[int, list[float]]] = {
        s: {k: [] for k in KS} for s in ("weaver", "weaver-no-expand", "dense", "bm25", "hybrid")
    }
    pub: dict[str, dict[int, list[float]]] = {name: {k: [] for k in KS} for name in published}
    ingest_s = 0.0
    with temp_runtime(embedder, cfg) as rt:
        spaces = {}
        for user, mids in by_user.items():
            turns = [
                Turn(str(m), f"{memories[m].get('event', '')}", {"date": memories[m].get("time", "")}) for m in mids
            ]
            w = rt.open(f"madial-zh-u{user}")
            ingest_s += ingest_turns(w, turns, "mem")
            spaces[user] = (w, mids, Baselines([t.content for t in turns], embedder.embed([t.content for t in turns])))
        for d in tqdm(dialogues, desc="madial dialogues", disable=not progress):
            rel = {int(x) for x in d["relevant-id"]}
            if int(d.get("user-id", 0)) not in spaces:
                continue
            w, mids, base = spaces[int(d.get("user-id", 0))]
            q = madial_history(d, published)
            qv = embedder.embed([q])[0]  # plain dense: one vector of the whole history, as a user would embed it
            ranks = {k: [mids[i] for i in v] for k, v in base.rankings(q, qv).items() if k != "recency"}
            for name, expand in (("weaver", True), ("weaver-no-expand", False)):
                res = w.query(q, budget=4096, expand=expand)
                ranks[name] = [int(w.nodes[n.id].meta["key"]) for n in res.ranked]
            for name, ranking in ranks.items():
                for k in KS:
                    scores[name][k].append(_recall_at(ranking, rel, k))
            for name, by_id in published.items():
                if int(d["id"]) in by_id:
                    for k in KS:
                        pub[name][k].append(_recall_at(by_id[int(d["id"])]["top_20_ids"], rel, k))
    mean = lambda v: round(100 * float(np.mean(v)), 1) if v else None  # noqa: E731
    return {
        "benchmark": "madial",
        "data": str(root),
        "dialogues": len(dialogues),
        "memories": len(memories),
        "users": len(by_user),
        "ours": {s: {f"R@{k}": mean(v[k]) for k in KS} for s, v in scores.items()},
        "published": {s: {f"R@{k}": mean(v[k]) for k in KS} for s, v in pub.items()},
        "ingest_s": round(ingest_s, 2),
        "wall_s": round(time.perf_counter() - t_start, 1),
    }


def madial_markdown(res: dict) -> str:
    rows = [[f"{s} (ours, USE)" if s != "bm25" else "bm25 (ours)", v["R@5"], v["R@10"]] for s, v in res["ours"].items()]
    rows += [[f"{s} (published ranking)", v["R@5"], v["R@10"]] for s, v in res["published"].items()]
    rows.sort(key=lambda r: -(r[2] or 0))
    return (
        f"# MADial-Bench (zh) memory retrieval\n\n{res['dialogues']} dialogues, {res['memories']} memories of "
        f"{res.get('users', 1)} users, each user's searched alone. "
        f"Wall time {res['wall_s']} s.\n\n" + markdown_table(["system", "R@5", "R@10"], rows) + "\n"
    )


def plot_madial(res: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [(f"{s}*", v) for s, v in res["ours"].items()] + list(res["published"].items())
    rows.sort(key=lambda r: r[1]["R@10"] or 0)
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    y = np.arange(len(rows))
    ax.barh(y - 0.2, [r[1]["R@5"] or 0 for r in rows], 0.4, label="R@5")
    ax.barh(y + 0.2, [r[1]["R@10"] or 0 for r in rows], 0.4, label="R@10")
    ax.set_yticks(y, [r[0] for r in rows], fontsize=8)
    ax.set_xlabel("recall % (* = ours, USE embedder)")
    ax.set_title("MADial-Bench zh: memory retrieval")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
