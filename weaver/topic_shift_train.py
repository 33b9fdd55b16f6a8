"""Fit the topic-shift model (:mod:`weaver.topic_shift`) on CrossWOZ val: ``python -m weaver.topic_shift_train``.

Each val dialogue is replayed through a :class:`~weaver.filtering.TaskFocus` as ingest feeds it (every turn
observed, user turns as ``user_input``, system turns as ``agent_response``, vectors of the texts ingest embeds);
each user turn with a topic and a previous one (:func:`weaver.bench.switches.gold_switches`) gives one example.
The focus restarts at the gold switches, as it does at the detected ones when the model runs. The threshold
maximises F1 on val; CrossWOZ test stays held out for ``python -m weaver bench switches``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from .bench.crosswoz import dialogue_turns, load_crosswoz
from .bench.switches import gold_switches
from .embedding import embed_text_for
from .filtering import TaskFocus
from .relations.model import fit_logistic, sigmoid
from .topic_shift import FEATURES, WEIGHTS_PATH, ShiftModel

__all__ = ["examples", "fit_model", "main"]


def examples(data: str | Path, embedder, limit: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(features, gold) for every judged user turn of the first ``limit`` dialogues that have one."""
    X, y = [], []
    items = [(did, d) for did, d in load_crosswoz(data) if gold_switches(d)][:limit]
    for did, d in items:
        turns = dialogue_turns(did, d)
        vecs = embedder.embed([embed_text_for(t.content, t.kind, t.meta) for t in turns])
        gold = gold_switches(d)
        focus = TaskFocus()
        for i, (t, v) in enumerate(zip(turns, vecs)):
            if i in gold:
                X.append(focus.shift_features(v, t.content))
                y.append(float(gold[i]))
                if gold[i]:
                    focus.begin_topic()
            focus.observe(v, 1.0, t.kind, t.content)
    return np.array(X), np.array(y)


def _f1(p: np.ndarray, g: np.ndarray) -> float:
    tp, fp, fn = float((p & g).sum()), float((p & ~g).sum()), float((~p & g).sum())
    return 2 * tp / max(2 * tp + fp + fn, 1.0)


def fit_model(X: np.ndarray, y: np.ndarray, source: str) -> ShiftModel:
    w = fit_logistic(X, y, l2=1.0, iters=100)
    p, g = sigmoid(X @ w), y > 0
    grid = np.round(np.arange(0.2, 0.81, 0.05), 2)
    threshold = float(max(grid, key=lambda t: (_f1(p >= t, g), -abs(t - 0.5))))
    pred = p >= threshold
    tp = int((pred & g).sum())
    card = {
        "data": source,
        "examples": int(len(y)),
        "switches": int(g.sum()),
        "val_precision": round(100 * tp / max(int(pred.sum()), 1), 1),
        "val_recall": round(100 * tp / max(int(g.sum()), 1), 1),
        "fitted_by": "python -m weaver.topic_shift_train",
    }
    return ShiftModel(w, threshold, card)


def main(argv: list[str] | None = None) -> int:
    from .embedding import CachedEmbedder, USEEmbedder

    ap = argparse.ArgumentParser(prog="python -m weaver.topic_shift_train", description=__doc__)
    here = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "crosswoz" / "val.json.zip"
    ap.add_argument("--data", default=str(here), help="CrossWOZ val (zip or json)")
    ap.add_argument("--out", default=str(WEIGHTS_PATH))
    args = ap.parse_args(argv)
    X, y = examples(args.data, CachedEmbedder(USEEmbedder()))
    model = fit_model(X, y, "CrossWOZ val (Apache-2.0), dialogues with a judged user turn")
    Path(args.out).write_text(json.dumps(model.to_json(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(dict(zip(FEATURES, np.round(model.weights, 2).tolist())), "threshold", model.threshold, model.card)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
