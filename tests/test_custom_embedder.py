"""A plugged-in embedder (the ``Embedder`` protocol: ``name``, ``dim``, ``embed``), as the README describes it.

``Runtime(settings, store=..., embedder=...)`` and ``Runtime.from_settings(settings, embedder=...)`` take any
object with those three parts; the runtime puts the cache in front of it and checks what it returns.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from weaver import Runtime
from weaver.embedding import CachedEmbedder
from weaver.models import WeaverError
from weaver.store import connect


def bigrams(text: str, dim: int) -> np.ndarray:
    v = np.zeros(dim)
    for a, b in zip(text, text[1:]):
        v[int(hashlib.md5((a + b).encode()).hexdigest()[:8], 16) % dim] += 1.0
    return v


class HashEmbedder:
    """Character bigrams hashed into 256 buckets: the README's protocol and nothing else."""

    name = "hash-bigram-256"
    dim = 256

    def embed(self, texts):
        rows = np.array([bigrams(t, self.dim) for t in texts], dtype=np.float32).reshape(len(texts), self.dim)
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        return rows / np.where(norms == 0, 1, norms)


def test_the_readme_s_custom_embedder_weaves_and_recalls(settings):
    rt = Runtime(settings, store=connect(settings), embedder=HashEmbedder())
    assert isinstance(rt.embedder, CachedEmbedder) and rt.embedder.name == "hash-bigram-256"
    w = rt.open("custom")
    w.ingest("我的预算总共是5000元。", "user_input")
    w.ingest("I am allergic to peanuts and shellfish.", "user_input")
    res = w.query("I am allergic to what?", budget=256)
    assert "peanuts" in res.context
    assert all(0 <= n.similarity <= 1.0001 for n in res.ranked)
    # the space records its embedder: the default one is refused in one line
    with pytest.raises(WeaverError, match="hash-bigram-256"):
        Runtime.from_settings(settings).open("custom", create=False)


class Loose:
    """An embedder a user might write: rows as lists, float64, of any length; ``broken`` picks a fault."""

    dim = 64

    def __init__(self, name, broken=""):
        self.name, self.broken = name, broken

    def embed(self, texts):
        rows = [bigrams(t, 32 if self.broken == "dim" else 64) * 7 for t in texts]
        if self.broken == "nan":
            rows = [r * np.nan for r in rows]
        if self.broken == "count":
            rows = rows + rows
        return [list(r) for r in rows]  # a list of lists of float64, not normalised


def test_loose_output_is_fixed_and_bad_output_is_one_line(settings):
    # lists and unnormalised float64 rows are what a quick embedder returns: taken, as unit float32 rows
    # (they were a TypeError deep in the mirror, and similarities of 98)
    rt = Runtime.from_settings(settings, embedder=Loose("loose"))
    w = rt.open("loose")
    w.ingest("I am allergic to peanuts and shellfish.", "user_input")
    res = w.query("allergic to peanuts", budget=256)
    assert "peanuts" in res.context and 0.5 < res.ranked[0].similarity <= 1.0001
    v = rt.embedder.embed(["hello there"])
    assert v.dtype == np.float32 and v.shape == (1, 64) and abs(float(np.linalg.norm(v[0])) - 1) < 1e-5

    for broken, words in (("dim", "returned shape (1, 32) for 1 texts; expected (1, 64)"), ("nan", "NaN")):
        rt = Runtime.from_settings(settings, embedder=Loose(f"loose-{broken}", broken))
        w = rt.open(f"loose-{broken}")
        with pytest.raises(WeaverError) as err:
            w.ingest("I am allergic to peanuts and shellfish.", "user_input")
        assert words in str(err.value) and "\n" not in str(err.value)
        assert w.node_count == 0 and rt.open(f"loose-{broken}", create=False).node_count == 0
    with pytest.raises(WeaverError, match=r"returned shape \(4, 64\) for 2 texts"):
        Runtime.from_settings(settings, embedder=Loose("loose-count", "count")).embedder.embed(["a b", "c d"])


@pytest.mark.parametrize(
    "parts, words",
    [
        ({"dim": 8, "embed": lambda t: t}, "needs a `name`"),
        ({"name": "", "dim": 8, "embed": lambda t: t}, "needs a `name`"),
        ({"name": "x", "embed": lambda t: t}, "needs a `dim`"),
        ({"name": "x", "dim": True, "embed": lambda t: t}, "needs a `dim`"),
        ({"name": "x", "dim": "512", "embed": lambda t: t}, "needs a `dim`"),
        ({"name": "x", "dim": 8}, "needs an `embed(texts)` method"),
    ],
)
def test_an_embedder_missing_a_part_is_refused_at_construction(settings, parts, words):
    emb = type("Partial", (), parts)()
    with pytest.raises(WeaverError, match=words.replace("(", r"\(").replace(")", r"\)")):
        Runtime(settings, store=connect(settings), embedder=emb)
