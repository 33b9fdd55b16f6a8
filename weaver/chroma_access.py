"""How the weaver talks to Chroma collections: no embedding function, paged reads, vectors read fresh.

Shared by the store (:mod:`weaver.store`), a space's mixins (:mod:`weaver.chroma_space` and its
``space_*`` modules) and the write sections: Chroma's default embedding function downloads a model, so
every collection is created with :class:`NoEmbeddingFunction` and every record carries a vector (a
placeholder where none is searched); a large ``get`` overruns SQLite's variable limit, so every read is
paged; a long-lived local client misses other processes' vectors, so :func:`vector_reader` reads them
through a fresh system.
"""

from __future__ import annotations

import contextlib
from typing import Iterable

import numpy as np

from .models import WeaverError
from .record_codec import LEGACY_VECTOR_KEY

__all__ = [
    "CHROMA_BATCH",
    "PLACEHOLDER_VECTOR",
    "NoEmbeddingFunction",
    "chunked",
    "get_all_records",
    "get_with_vectors",
    "register_no_embedding_function",
    "vector_reader",
]

CHROMA_BATCH = 1000
PLACEHOLDER_VECTOR = [1.0]  # edges, meta and (layout 2) decisions need a vector in Chroma; never searched by it


@contextlib.contextmanager
def vector_reader(client):
    """``name -> collection`` for reading stored vectors as every process wrote them.

    Chroma's local mode keeps a per-process cache of each collection's vector
    index: once another process has written the collection, a long-lived client's
    ``get(include=["embeddings"])`` fails ("Error finding id") or misses the new
    records. A fresh Chroma system on the same directory, started for the read
    and stopped after it, loads the index from disk and applies the log, so it
    sees every process's writes (tests/test_vectors_once.py checks it against a
    killed writer). With a Chroma server there is one process: the client reads directly.
    """
    raw = getattr(client, "raw", client)
    try:
        settings = raw.get_settings()
    except Exception:  # noqa: BLE001 - a client without settings: read through it
        settings = None
    if settings is None or not getattr(settings, "is_persistent", False) or not settings.persist_directory:
        yield lambda name: raw.get_collection(name, embedding_function=NoEmbeddingFunction())
        return
    from chromadb.api import ServerAPI
    from chromadb.api.models.Collection import Collection
    from chromadb.config import System

    system = System(settings)
    api = system.instance(ServerAPI)
    system.start()
    try:
        yield lambda name: Collection(client=api, model=api.get_collection(name), embedding_function=None)
    finally:
        system.stop()  # frees the index it loaded (200 MB at 100k nodes)


class NoEmbeddingFunction:
    """Registered with Chroma so it never falls back to its downloading default."""

    def __init__(self, *args, **kwargs) -> None:
        pass

    def __call__(self, input):  # noqa: A002 - Chroma's signature
        raise WeaverError("ContextWeaver always passes vectors; Chroma must not embed")

    @staticmethod
    def name() -> str:
        return "contextweaver-external"

    def get_config(self) -> dict:
        return {}

    @staticmethod
    def build_from_config(config: dict) -> "NoEmbeddingFunction":
        return NoEmbeddingFunction()

    def default_space(self) -> str:
        return "cosine"

    def supported_spaces(self) -> list[str]:
        return ["cosine", "l2", "ip"]

    def is_legacy(self) -> bool:
        return False


_registered = False  # once per process: Chroma refuses a second registration of the name


def register_no_embedding_function() -> None:
    """Register :class:`NoEmbeddingFunction` with Chroma (once per process), so a collection that names it opens."""
    global _registered
    if not _registered:
        from chromadb.utils.embedding_functions import register_embedding_function

        try:
            register_embedding_function(NoEmbeddingFunction)
        except ValueError:
            pass  # already registered in this process
        _registered = True


def get_all_records(col, include: list[str], page: int = 5000) -> dict:
    """Every record of a collection, read in pages (one huge get overruns SQLite's variable limit)."""
    out: dict = {"ids": [], **{k: [] for k in include}}
    offset = 0
    while True:
        got = col.get(include=include, limit=page, offset=offset)
        out["ids"] += got["ids"]
        for k in include:
            out[k] += got[k] or []
        if len(got["ids"]) < page:
            return out
        offset += page


def get_with_vectors(col, from_record, vectors: bool = True, page: int = 5000) -> tuple[list, np.ndarray | None]:
    """Every record of a collection (opened by :func:`vector_reader`), parsed, with its vectors (``vectors``)
    as one float32 array aligned with the records; read a page at a time, never every raw row at once."""
    records: list = []
    blocks: list[np.ndarray] = []
    include = ["metadatas", "embeddings"] if vectors else ["metadatas"]
    offset = 0
    while True:
        got = col.get(include=include, limit=page, offset=offset)
        metas = got["metadatas"] or []
        for m in metas:
            m.pop(LEGACY_VECTOR_KEY, None)
        records += [from_record(m) for m in metas]
        if vectors and metas:
            blocks.append(np.asarray(got["embeddings"], dtype=np.float32))
        n = len(got["ids"])
        del got, metas
        if n < page:
            break
        offset += page
    return records, (np.concatenate(blocks) if blocks else None)


def chunked(seq: list, n: int = CHROMA_BATCH) -> Iterable[list]:
    for i in range(0, len(seq), n):
        yield seq[i : i + n]
