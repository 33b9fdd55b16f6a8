"""Issue #12, session 15: can a causal-plausibility scorer fitted on English COPA train be moved to XCOPA zh through the
multilingual USE space? Measured, not shipped (docs/benchmarks/findings.md, "Relations").

usage: PYTHONPATH=<tree> python copa_transfer.py COPA_TRAIN_JSONL [xcopa_val_zh_jsonl]

COPA_TRAIN_JSONL: SuperGLUE COPA ``train`` in its jsonl form (premise, choice1, choice2, question, label, idx; COPA is
BSD-2-Clause). Only items with idx < 400 are read: SuperGLUE's val and COPA test are the sources of XCOPA val and
test, so nothing else may be fitted on. The scorer: pairwise logistic regression (no bias) on
``[c * e, |c - e|]`` of the unit USE vectors of (cause, effect) in time order, the right pair against the wrong one.
The L2 weight is chosen by 10-fold cross-validation on COPA train alone; XCOPA zh is read once, with that weight.
"""

import json
import sys
from pathlib import Path

import numpy as np

from weaver.embedding import USEEmbedder

COPA = Path(sys.argv[1])
XCOPA = Path(sys.argv[2] if len(sys.argv) > 2 else "/work/shared/data/xcopa/val.zh.jsonl")
L2S = (0.01, 0.1, 1.0, 10.0, 100.0)
FOLDS = 10


def load(path: Path, train: bool) -> list[dict]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in rows if r.get("idx", 0) < 400] if train else rows


def pairs(items: list[dict], vecs: np.ndarray) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """(cause, effect) vectors of the right and of the wrong alternative, in time order."""
    cause = np.array([x["question"] == "cause" for x in items])[:, None]
    label = np.array([x["label"] for x in items])
    n = np.arange(len(items))
    premise, right, wrong = vecs[:, 0], vecs[n, 1 + label], vecs[n, 2 - label]
    return (
        (np.where(cause, right, premise), np.where(cause, premise, right)),
        (np.where(cause, wrong, premise), np.where(cause, premise, wrong)),
    )


def features(c: np.ndarray, e: np.ndarray) -> np.ndarray:
    return np.hstack([c * e, np.abs(c - e)])


def fit_pairwise(diff: np.ndarray, l2: float) -> np.ndarray:
    """Logistic regression on right-minus-wrong feature rows (both signs), by Newton's method."""
    X = np.vstack([diff, -diff])
    y = np.r_[np.ones(len(diff)), np.zeros(len(diff))]
    w = np.zeros(X.shape[1])
    for _ in range(15):
        p = 1.0 / (1.0 + np.exp(-X @ w))
        step = np.linalg.solve((X * (p * (1 - p))[:, None]).T @ X + l2 * np.eye(len(w)), X.T @ (p - y) + l2 * w)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return w


def accuracy(margin: np.ndarray) -> float:
    return round(100 * float(np.mean(margin > 0) + 0.5 * np.mean(margin == 0)), 1)


def main() -> None:
    emb = USEEmbedder()
    train, held = load(COPA, True), load(XCOPA, False)
    V = emb.embed([t for x in train for t in (x["premise"], x["choice1"], x["choice2"])]).reshape(len(train), 3, -1)
    Z = emb.embed([t for x in held for t in (x["premise"], x["choice1"], x["choice2"])]).reshape(len(held), 3, -1)
    (rc, re_), (wc, we) = pairs(train, V.astype(np.float64))
    (zrc, zre), (zwc, zwe) = pairs(held, Z.astype(np.float64))
    diff = features(rc, re_) - features(wc, we)
    zdiff = features(zrc, zre) - features(zwc, zwe)
    cos = accuracy((rc * re_).sum(1) - (wc * we).sum(1)), accuracy((zrc * zre).sum(1) - (zwc * zwe).sum(1))
    print(f"COPA train items {len(train)}; XCOPA zh items {len(held)}")
    print(f"cosine(premise, alternative): en {cos[0]}, zh {cos[1]}")
    fold = np.arange(len(train)) % FOLDS
    cv = {}
    for l2 in L2S:
        margin = np.zeros(len(train))
        for f in range(FOLDS):
            w = fit_pairwise(diff[fold != f], l2)
            margin[fold == f] = diff[fold == f] @ w
        cv[l2] = accuracy(margin)
        print(f"l2 {l2:>6}: {FOLDS}-fold CV on COPA train (en) {cv[l2]}")
    best = max(L2S, key=lambda k: cv[k])
    w = fit_pairwise(diff, best)
    print(f"chosen by CV: l2 {best}; train {accuracy(diff @ w)}; XCOPA zh (held out) {accuracy(zdiff @ w)}")


if __name__ == "__main__":
    main()
