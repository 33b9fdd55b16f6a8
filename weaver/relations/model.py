"""The fitted scorers behind the offline dependency builder: two small logistic models.

* the **link model** gives P(candidate is the memory this one depends on) from
  :data:`~weaver.relations.features.LINK_FEATURES`;
* the **type model** gives P(relation | linked pair) over our four relations from
  :data:`~weaver.relations.features.TYPE_FEATURES`.

Both are plain weight vectors in ``weights.json`` (written by
``python -m weaver.relations.train``, data card in docs/relations-model.md), read
with numpy: nothing to download, every weight inspectable.

>>> X = np.array([[0.0, 1.0], [1.0, 1.0], [2.0, 1.0], [3.0, 1.0]]); y = np.array([0, 0, 1, 1])
>>> w = fit_logistic(X, y, l2=0.01)
>>> bool(sigmoid(X @ w)[3] > 0.5 > sigmoid(X @ w)[0])
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .features import LINK_FEATURES, TYPE_FEATURES

__all__ = [
    "LinkModel",
    "fit_logistic",
    "fit_softmax",
    "sigmoid",
    "confidence_features",
    "default_model",
    "WEIGHTS_PATH",
    "TYPES",
]

WEIGHTS_PATH = Path(__file__).with_name("weights.json")
TYPES = ("causal", "conditional", "elaborates", "temporal")


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


def fit_logistic(X: np.ndarray, y: np.ndarray, l2: float = 1.0, iters: int = 50) -> np.ndarray:
    """L2-regularised logistic regression by Newton's method (the last column is an unpenalised bias)."""
    n, k = X.shape
    w = np.zeros(k)
    reg = np.full(k, l2)
    reg[-1] = 0.0
    for _ in range(iters):
        p = sigmoid(X @ w)
        grad = X.T @ (p - y) + reg * w
        hess = (X * (p * (1 - p))[:, None]).T @ X + np.diag(reg) + 1e-9 * np.eye(k)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def fit_softmax(
    X: np.ndarray, y: np.ndarray, classes: int, l2: float = 1.0, iters: int = 500, lr: float = 0.5
) -> np.ndarray:
    """Multinomial logistic regression by gradient descent; returns (features, classes) weights."""
    n, k = X.shape
    W = np.zeros((k, classes))
    Y = np.eye(classes)[y]
    reg = np.full((k, 1), l2)
    reg[-1] = 0.0
    for _ in range(iters):
        Z = X @ W
        Z -= Z.max(axis=1, keepdims=True)
        P = np.exp(Z)
        P /= P.sum(axis=1, keepdims=True)
        W -= lr * ((X.T @ (P - Y)) / n + reg * W / n)
    return W


def confidence_features(p_best: float, share: float) -> np.ndarray:
    """What the confidence calibration reads: the best candidate's log-odds and log share, plus a bias."""
    p = min(max(p_best, 1e-6), 1 - 1e-6)
    return np.array([np.log(p / (1 - p)), np.log(max(share, 1e-6)), 1.0])


@dataclass(frozen=True)
class LinkModel:
    link: np.ndarray  # (len(LINK_FEATURES),)
    types: np.ndarray  # (len(TYPE_FEATURES), len(TYPES))
    threshold: float  # attach the best candidate only at or above this confidence
    card: dict
    calibration: np.ndarray | None = None  # confidence = sigmoid(confidence_features @ calibration)

    def link_probability(self, X: np.ndarray) -> np.ndarray:
        return sigmoid(X @ self.link)

    def confidence(self, p_best: float, share: float) -> float:
        """P(the best candidate is the right parent), calibrated on held-out dialogues."""
        if self.calibration is None:
            return share
        return float(sigmoid(confidence_features(p_best, share) @ self.calibration))

    def type_probabilities(self, x: np.ndarray) -> np.ndarray:
        z = x @ self.types
        z = np.exp(z - z.max())
        return z / z.sum()

    def to_json(self) -> dict:
        return {
            "link_features": list(LINK_FEATURES),
            "link": self.link.round(6).tolist(),
            "type_features": list(TYPE_FEATURES),
            "types": list(TYPES),
            "type_weights": self.types.round(6).tolist(),
            "threshold": self.threshold,
            "card": self.card,
            "calibration": None if self.calibration is None else self.calibration.round(6).tolist(),
        }

    @classmethod
    def from_json(cls, data: dict) -> "LinkModel":
        if list(data["link_features"]) != list(LINK_FEATURES) or list(data["type_features"]) != list(TYPE_FEATURES):
            raise ValueError("weights.json was fitted on other features: rerun python -m weaver.relations.train")
        return cls(
            np.asarray(data["link"], dtype=np.float64),
            np.asarray(data["type_weights"], dtype=np.float64),
            float(data["threshold"]),
            dict(data.get("card", {})),
            None if data.get("calibration") is None else np.asarray(data["calibration"], dtype=np.float64),
        )


@lru_cache(maxsize=1)
def default_model() -> LinkModel:
    """The shipped model (fitted on Molweni dev; see docs/relations-model.md)."""
    return LinkModel.from_json(json.loads(WEIGHTS_PATH.read_text(encoding="utf-8")))
