"""How a dialogue-history query should be heard: the variants measured on MADial-Bench, with cross-validation.

``python -m weaver bench madial-channels`` scores each memory of the dialogue's user on channels computed once
per dialogue: similarity to the whole history (W), to its best-matching turn (Tmax), to its latest turn (Tlast),
to the latest turn with the earlier ones fading (Tfade, ``query_turns.latest_similarity``), BM25 over the whole
(L, the weaver's own index), and a few others, then ranks by each rule below. The same rules
run on the English translation of the set (a check in another language and tokeniser, chosen on neither), and
with each user's memories among CrossWOZ chat turns (distractors: a bigger space, where a weight fitted to 85
memories is tested). A rule with a knob is also scored by 5-fold cross-validation over dialogues (the knob
chosen on 4/5 by R@5, scored on the other 1/5; three shuffles), beside its in-sample best. Rankings are the
scores' order over the user's memories the weaver keeps (near-duplicates merged at ingest are left out here
too), so the shipped rule reproduces ``bench madial``'s weaver-no-expand.
"""

from __future__ import annotations

import json
import re
import time
import zipfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..lexical import LexicalIndex
from ..models import WeaverError
from ..query_turns import LATEST_FADE, fused_relevance, latest_similarity, query_turns
from ..retrieval import lexical_weight
from ..settings import WeaverConfig
from .madial import load_madial, madial_history

__all__ = ["run_madial_channels", "madial_channels_markdown", "SHIPPED", "PREVIOUS"]

_TAG = re.compile(r"^\s*<([^<>]{1,30})>\s*[:：]")
_FRAME = re.compile(r"^<[^<>\s]{1,20}>$")  # <BOD>, <EOD>: as weaver.query_turns drops them
_CJK = re.compile(r"[\u4e00-\u9fff]+")


def _z(x: np.ndarray) -> np.ndarray:
    sd = float(x.std())
    return (x - x.mean()) / sd if sd > 0 else np.zeros_like(x)


def _rrf(*chans: np.ndarray, k: int = 60) -> np.ndarray:
    out = np.zeros(len(chans[0]))
    for c in chans:
        r = np.empty(len(c))
        r[np.argsort(-c, kind="stable")] = np.arange(len(c))
        out += 1.0 / (k + 1 + r)
    return out


def _unibigrams(text: str) -> list[str]:
    """Chinese runs as characters and character pairs (what a CJK bigram analyser indexes).

    >>> _unibigrams("冰淇淋店, ok")
    ['冰', '淇', '淋', '店', '冰淇', '淇淋', '淋店']
    """
    out: list[str] = []
    for run in _CJK.findall(text):
        out += list(run) + [run[i : i + 2] for i in range(len(run) - 1)]
    return out


def _speakers(q: str, n: int) -> list[str]:
    """The speaker tag of each of the query's last ``n`` turns ("" when untagged).

    >>> _speakers('<BOD>\\n<Bart>:"hi"\\n<Assistant>:"hello"\\n<Bart>:"the cake!"', 2)
    ['Assistant', 'Bart']
    """
    lines = [ln.strip() for ln in q.splitlines()]
    lines = [ln for ln in lines if ln and not _FRAME.match(ln)]
    return [m.group(1) if (m := _TAG.match(ln)) else "" for ln in lines][-n:]


def _channels(q: str, vecs: np.ndarray, fields: dict, embed, lex: LexicalIndex, lex_ub: LexicalIndex) -> dict:
    turns = query_turns(q)
    qv = embed([q, *turns])
    sims = (vecs @ qv.T).astype(np.float64)
    who = _speakers(q, len(turns))
    own = [i for i, s in enumerate(who) if s and s == who[-1]]  # the turns of whoever spoke last
    ub = lex_ub.raw_scores(_unibigrams(q)).astype(np.float64)
    c = {
        "sims": sims,
        "W": sims[:, 0],
        "Tmax": sims[:, 1:].max(1),
        "Tlast": sims[:, -1],
        "Tfade": latest_similarity(sims),
        **{f"Tfade{g}": latest_similarity(sims, g) for g in FADES},
        "Town": sims[:, 1:][:, own].max(1) if own else sims[:, 1:].max(1),
        "L": lex.scores(q).astype(np.float64),
        "Lub": ub / ub.max() if ub.max() > 0 else ub,
        "lw": lexical_weight(q, WeaverConfig()),
    }
    c["emo"] = (fields["emo"] @ qv[0]).astype(np.float64)
    c["ev+emo"] = (fields["ev+emo"] @ qv.T).astype(np.float64)
    return c


def _equal(c: dict, lexical: str = "L", fade: float = LATEST_FADE) -> np.ndarray:
    return fused_relevance(c["sims"], c[lexical], 1.0, 1.0, fade).astype(np.float64)


def _prf(c: dict, mem_vecs: np.ndarray, k: int = 3) -> np.ndarray:
    s = _equal(c)
    top = np.argsort(-s, kind="stable")[:k]
    return _z(s) + _z(mem_vecs @ mem_vecs[top].mean(0))


FADES = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5)  # the latest turn's fade: what cross-validation chooses among
PREVIOUS = "previous rule: mean(whole, best turn) + fixed BM25 weight"
LATEST_ALONE = "equal say: whole, best, latest turn alone, BM25 (the previous release)"
SHIPPED = f"**equal say: whole, best, latest with earlier turns fading x{LATEST_FADE}, BM25 (shipped)**"
RULES: dict[str, Callable[..., np.ndarray]] = {
    "whole history only (plain dense)": lambda c, m: c["W"],
    "best turn only": lambda c, m: c["Tmax"],
    "latest turn only": lambda c, m: c["Tlast"],
    "BM25 only (jieba)": lambda c, m: c["L"],
    "BM25 only (characters + pairs)": lambda c, m: c["Lub"],
    PREVIOUS: lambda c, m: (c["W"] + c["Tmax"]) / 2 + c["lw"] * c["L"],
    "mean(whole, best, latest) + fixed BM25 weight": lambda c, m: (
        (c["W"] + c["Tmax"] + c["Tlast"]) / 3 + c["lw"] * c["L"]
    ),
    "mean(whole, best, latest) + BM25 weight 0.075 (the best fixed weight on zh)": lambda c, m: (
        (c["W"] + c["Tmax"] + c["Tlast"]) / 3 + 0.075 * c["L"]
    ),
    LATEST_ALONE: lambda c, m: _equal(c, fade=0.0),
    SHIPPED: lambda c, m: _equal(c),
    "equal say, latest turn and the one before at an equal say (fade 1, two turns)": lambda c, m: (
        _z(c["W"]) + _z(c["Tmax"]) + _z(c["sims"][:, -2:].mean(1)) + _z(c["L"])
    ),
    "equal say, latest-turn channel a mean over all turns fading x0.7": lambda c, m: _equal(c, fade=0.7),
    "equal say without the latest turn": lambda c, m: _z(c["W"]) + _z(c["Tmax"]) + _z(c["L"]),
    "equal say without BM25": lambda c, m: _z(c["W"]) + _z(c["Tmax"]) + _z(c["Tlast"]),
    "RRF of the four channels (k 60)": lambda c, m: _rrf(c["W"], c["Tmax"], c["Tlast"], c["L"]),
    "equal say, BM25 z-score clipped at 3": lambda c, m: (
        _z(c["W"]) + _z(c["Tmax"]) + _z(c["Tlast"]) + np.clip(_z(c["L"]), -3, 3)
    ),
    "equal say, best turn of the latest speaker only": lambda c, m: (
        _z(c["W"]) + _z(c["Town"]) + _z(c["Tlast"]) + _z(c["L"])
    ),
    "equal say + pseudo-relevance feedback (top 3)": lambda c, m: _prf(c, m),
    "equal say + the memory's emotion field as a fifth channel": lambda c, m: (
        _z(c["W"]) + _z(c["Tmax"]) + _z(c["Tlast"]) + _z(c["L"]) + _z(c["emo"])
    ),
    "equal say, memory embedded as event + emotion": lambda c, m: fused_relevance(c["ev+emo"], c["L"]),
    "equal say, BM25 on characters + pairs": lambda c, m: _equal(c, "Lub"),
}
FAMILIES: dict[str, dict[str, Callable[..., np.ndarray]]] = {
    "fixed BM25 weight w on mean(whole, best, latest)": {
        f"w={w}": (lambda w: lambda c, m: (c["W"] + c["Tmax"] + c["Tlast"]) / 3 + w * c["L"])(w)
        for w in (0, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5)
    },
    "fixed BM25 weight w on mean(whole, best turn)": {
        f"w={w}": (lambda w: lambda c, m: (c["W"] + c["Tmax"]) / 2 + w * c["L"])(w)
        for w in (0, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5)
    },
    "equal say, weights a (latest turn alone), b (BM25): the previous release": {
        f"a={a},b={b}": (lambda a, b: lambda c, m: _z(c["W"]) + _z(c["Tmax"]) + a * _z(c["Tlast"]) + b * _z(c["L"]))(
            a, b
        )
        for a in (0, 0.5, 1, 1.5, 2)
        for b in (0, 0.5, 1, 1.5, 2)
    },
    "equal say, the latest turn's fade g (0-0.5)": {
        f"g={g}": (lambda g: lambda c, m: _z(c["W"]) + _z(c["Tmax"]) + _z(c[f"Tfade{g}"]) + _z(c["L"]))(g)
        for g in FADES
    },
    f"equal say, weights a (latest, fading x{LATEST_FADE}), b (BM25)": {
        f"a={a},b={b}": (lambda a, b: lambda c, m: _z(c["W"]) + _z(c["Tmax"]) + a * _z(c["Tfade"]) + b * _z(c["L"]))(
            a, b
        )
        for a in (0, 0.5, 1, 1.5, 2)
        for b in (0, 0.5, 1, 1.5, 2)
    },
    "equal say, fade g (0-0.5) x weights a, b (all three chosen)": {
        f"g={g},a={a},b={b}": (
            lambda g, a, b: lambda c, m: _z(c["W"]) + _z(c["Tmax"]) + a * _z(c[f"Tfade{g}"]) + b * _z(c["L"])
        )(g, a, b)
        for g in FADES
        for a in (0, 0.5, 1, 1.5, 2)
        for b in (0, 0.5, 1, 1.5, 2)
    },
}


def _recalls(scores: np.ndarray, mids: list[int], rel: set[int]) -> tuple[float, float]:
    order = np.argsort(-scores, kind="stable")[:10]
    top = [mids[i] if i < len(mids) else -1 for i in order]
    return len(set(top[:5]) & rel) / len(rel), len(set(top[:10]) & rel) / len(rel)


def _cv(per: dict[str, np.ndarray], folds: int = 5, seeds: tuple[int, ...] = (0, 1, 2)) -> tuple[float, float, str]:
    """Mean R@5 / R@10 over held-out folds, each scored with the member best on the other folds; the picks."""
    n = len(next(iter(per.values())))
    got5: list[float] = []
    got10: list[float] = []
    picks: Counter[str] = Counter()
    for seed in seeds:
        idx = np.random.default_rng(seed).permutation(n)
        f5, f10 = np.zeros(n), np.zeros(n)
        for i in range(folds):
            test = idx[i::folds]
            train = np.setdiff1d(np.arange(n), test)
            best = max(per, key=lambda k: (per[k][train, 0].mean(), per[k][train, 1].mean()))
            picks[best] += 1
            f5[test], f10[test] = per[best][test, 0], per[best][test, 1]
        got5.append(f5.mean())
        got10.append(f10.mean())
    return (
        100 * float(np.mean(got5)),
        100 * float(np.mean(got10)),
        ", ".join(f"{k} ×{v}" for k, v in picks.most_common(3)),
    )


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _language_set(root: Path, lang: str, limit: int | None = None) -> tuple[dict[int, dict], list[dict], list[str]]:
    """Memories, dialogues with gold and their history queries; ``en``: the English translation (same ids,
    users and gold, its own text)."""
    memories, dialogues, published = load_madial(root)
    dialogues = [d for d in dialogues if d.get("relevant-id")][:limit]
    if lang == "zh":
        return memories, dialogues, [madial_history(d, published) for d in dialogues]
    users = {m: memories[m].get("user-id") for m in memories}
    memories = {
        int(k): dict(v, **{"user-id": users[int(k)]})
        for rec in _lines(root / "MADial-Bench-en-memory.json")
        for k, v in rec.items()
    }
    dialogues = [d for d in _lines(root / "MADial-Bench-en-dialogue.json") if d.get("relevant-id")][:limit]
    return memories, dialogues, ["".join(d["dialogue"][: d["test-turn"][0]]) for d in dialogues]


def _kept(memories: dict[int, dict], embedder) -> dict[int, list[int]]:
    """Each user's memories as the weaver keeps them: ingested as ``bench madial`` does (a repeated record is
    merged at ingest), read back in node order."""
    from .common import NO_FILTER, Turn, ingest_turns, temp_runtime

    by_user: dict[int, list[int]] = {}
    for m in sorted(memories):
        by_user.setdefault(int(memories[m].get("user-id", 0)), []).append(m)
    kept = {}
    with temp_runtime(embedder, WeaverConfig().with_(**NO_FILTER)) as rt:
        for u, mids in by_user.items():
            w = rt.open(f"madial-u{u}")
            ingest_turns(
                w,
                [Turn(str(m), memories[m].get("event", ""), {"date": memories[m].get("time", "")}) for m in mids],
                "mem",
            )
            shown = w.mirror.shown(False)
            kept[u] = [int(w.nodes[n].meta["key"]) for n, ok in zip(w.mirror.order, shown) if ok]
    return kept


def _distractors(data: Path, n: int) -> list[str]:
    try:
        with zipfile.ZipFile(data) as z:
            dialogues = json.loads(z.read(z.namelist()[0]))
        texts = [m["content"] for d in dialogues.values() for m in d["messages"]]
    except (OSError, ValueError, zipfile.BadZipFile, KeyError, IndexError, TypeError, AttributeError) as exc:
        # a missing or foreign --crosswoz file: one line naming it, as every other bench's data reader says
        raise WeaverError(f"cannot read CrossWOZ distractors from {data}: {exc}") from exc
    return list(dict.fromkeys(texts))[:n]


def _score_set(memories, dialogues, histories, embedder, extra: list[str], extra_vecs) -> dict:
    space = {}
    for u, mids in _kept(memories, embedder).items():
        texts = [memories[m].get("event", "") for m in mids]
        vecs = embedder.embed(texts)
        emo = embedder.embed([memories[m].get("emotion", "") for m in mids])
        evemo = embedder.embed([f"{memories[m].get('event', '')}（{memories[m].get('emotion', '')}）" for m in mids])
        if extra:  # a distractor has no emotion field: its emotion channel is 0
            vecs, evemo = np.vstack([vecs, extra_vecs]), np.vstack([evemo, extra_vecs])
            emo = np.vstack([emo, np.zeros_like(extra_vecs)])
        lex, lex_ub = LexicalIndex(), LexicalIndex()
        keys = [str(i) for i in range(len(texts) + len(extra))]
        lex.add(keys, texts + extra)
        lex_ub.add_tokens(keys, [_unibigrams(t) or ["<empty>"] for t in texts + extra])
        space[u] = (mids, vecs, {"emo": emo, "ev+emo": evemo}, lex, lex_ub)
    chans = []
    for d, q in zip(dialogues, histories):
        mids, vecs, fields, lex, lex_ub = space[int(d.get("user-id", 0))]
        chans.append(
            (_channels(q, vecs, fields, embedder.embed, lex, lex_ub), vecs, mids, {int(x) for x in d["relevant-id"]})
        )

    def per_dialogue(rule) -> np.ndarray:
        return np.array([_recalls(rule(c, v), mids, rel) for c, v, mids, rel in chans])

    rows = {}
    base = per_dialogue(RULES[PREVIOUS])
    for name, rule in RULES.items():
        r = per_dialogue(rule)
        diff = r[:, 0] - base[:, 0]
        rows[name] = {
            "R@5": round(100 * r[:, 0].mean(), 1),
            "R@10": round(100 * r[:, 1].mean(), 1),
            "vs previous R@5": round(100 * diff.mean(), 1),
            "wins / losses": f"{int((diff > 0).sum())} / {int((diff < 0).sum())}",
        }
    fams = {}
    for fname, members in FAMILIES.items():
        per = {k: per_dialogue(f) for k, f in members.items()}
        best = max(per, key=lambda k: per[k][:, 0].mean())
        cv5, cv10, picks = _cv(per)
        fams[fname] = {
            "in-sample best": best,
            "in-sample R@5": round(100 * per[best][:, 0].mean(), 1),
            "in-sample R@10": round(100 * per[best][:, 1].mean(), 1),
            "CV R@5": round(cv5, 1),
            "CV R@10": round(cv10, 1),
            "CV picks": picks,
        }
    return {"dialogues": len(chans), "rules": rows, "families": fams}


def run_madial_channels(
    root: str | Path, embedder, distractor_data: str | Path | None, n_distractors: int = 3000, limit: int | None = None
) -> dict:
    t0 = time.perf_counter()
    root = Path(root)
    out: dict = {"benchmark": "madial-channels", "data": str(root), "sets": {}}
    extra = _distractors(Path(distractor_data), n_distractors) if distractor_data and n_distractors else []
    for lang in ("zh", "en"):
        out["sets"][lang] = _score_set(*_language_set(root, lang, limit), embedder, [], None)
    if extra:
        out["sets"]["zh+distractors"] = _score_set(
            *_language_set(root, "zh", limit), embedder, extra, embedder.embed(extra)
        )
    out["distractors"] = len(extra)
    out["wall_s"] = round(time.perf_counter() - t0, 1)
    return out


def madial_channels_markdown(res: dict) -> str:
    parts = ["# MADial-Bench: hearing a dialogue-history query\n"]
    for lang, s in res["sets"].items():
        title = {"zh": "Chinese (the benchmark)", "en": "English translation (a check: chosen on neither)"}.get(
            lang, f"Chinese, each user's memories among {res['distractors']} CrossWOZ chat turns"
        )
        parts.append(f"## {title}, {s['dialogues']} dialogues\n")
        parts.append("| rule | R@5 | R@10 | R@5 vs previous rule | wins / losses |\n|---|---|---|---|---|")
        for name, r in s["rules"].items():
            parts.append(f"| {name} | {r['R@5']} | {r['R@10']} | {r['vs previous R@5']:+.1f} | {r['wins / losses']} |")
        parts.append(
            "\n| rule with a knob | in-sample best | R@5 / R@10 | 5-fold CV R@5 / R@10 | CV picks |\n|---|---|---|---|---|"
        )
        for name, f in s["families"].items():
            parts.append(
                f"| {name} | {f['in-sample best']} | {f['in-sample R@5']} / {f['in-sample R@10']} | "
                f"{f['CV R@5']} / {f['CV R@10']} | {f['CV picks']} |"
            )
        parts.append("")
    parts.append(f"Wall time {res['wall_s']} s.\n")
    return "\n".join(parts)
