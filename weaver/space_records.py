"""Record kinds of a Chroma space: small JSON records by kind (audit log, review queue, probes...).

Mixed into :class:`~weaver.chroma_space.ChromaSpace`. A kind ``k`` lives in collection ``<prefix>-x-<k>``;
writes are deferred into the open write section like every other write, and a read sees the section's
pending writes and the write-behind log laid over Chroma. A small kind is kept as read until the space's
revision token moves (``_records_seen``, owned by the space: every raw write and reload drops it), because
the review pass re-reads its probes every few messages and a Chroma read cost 1-10 ms each time.
"""

from __future__ import annotations

import json
import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .models import WeaverError
from .chroma_access import PLACEHOLDER_VECTOR, chunked, get_all_records
from .write_log import overlay_documents

__all__ = ["RecordKinds", "RECORD_KEY", "record_text"]

_SEEN_MAX = 64  # records of a kind kept as read between two reads (see RecordKinds.get_records)
# the metadata key a record's JSON is written in (releases before it wrote the JSON as the document)
RECORD_KEY = "json"


def record_text(meta: dict | None, document: str | None) -> str:
    """A record's JSON as stored: its metadata key (written last, when a record has both) or its document.

    >>> record_text({RECORD_KEY: '{"a": 2}'}, '{"a": 1}'), record_text(None, '{"a": 1}')
    ('{"a": 2}', '{"a": 1}')
    """
    got = (meta or {}).get(RECORD_KEY)
    return got if isinstance(got, str) else (document or "null")


class RecordKinds:
    if TYPE_CHECKING:  # provided by ChromaSpace, the class this one is mixed into (and its WriteSections)
        prefix: str
        lock_path: Path | None
        _buffer: list | None
        _records_seen: dict[str, tuple[str, str]]

        def _col(self, name: str, vectors: bool = False) -> Any: ...
        def _write(self, collection: str, op: str, **kwargs) -> None: ...
        def _defer(self, group: str, op: str, *args) -> bool: ...
        def _logged_view(self, collection: str) -> contextlib.AbstractContextManager: ...
        def revision(self) -> str: ...

    def _records(self, kind: str) -> str:
        if not (kind.isascii() and kind.isalpha() and kind.islower() and 2 <= len(kind) <= 20) or kind in (
            "meta",
            "nodes",
            "edges",
            "decisions",
            "journal",
        ):
            raise WeaverError(f"bad record kind {kind!r}")
        return f"{self.prefix}-x-{kind}"

    def put_records(self, kind: str, records: dict[str, dict]) -> None:
        self._records_seen.pop(self._records(kind), None)
        if self._defer("records", "put_records", kind, json.loads(json.dumps(records))):
            return
        name = self._records(kind)
        for batch in chunked(list(records.items())):
            self._write(
                name,
                "upsert",
                ids=[k for k, _ in batch],
                embeddings=[PLACEHOLDER_VECTOR] * len(batch),
                # a metadata key, not a document: Chroma puts every document in its full-text index, which cost
                # twice the rest of the write (~0.15 ms a record; an ingest writes ~1 audit record a message)
                metadatas=[{RECORD_KEY: json.dumps(v, ensure_ascii=False)} for _, v in batch],
            )

    def get_records(self, kind: str) -> dict[str, dict]:
        col = self._col(self._records(kind))
        # a small kind (the probes a review pass re-runs every few messages, an empty one most often) is read
        # once per revision of the space: a Chroma read was 1-10 ms a pass (see _records_seen)
        rev = self.revision() if self.lock_path is not None else None
        seen = self._records_seen.get(col.name)
        if rev is not None and seen is not None and seen[0] == rev:
            out = json.loads(seen[1])
        else:
            with self._logged_view(col.name) as logged:
                got = get_all_records(col, ["documents", "metadatas"])
                docs = {i: record_text(m, d) for i, m, d in zip(got["ids"], got["metadatas"], got["documents"])}
                overlay_documents(docs, logged, RECORD_KEY)
            out = {i: json.loads(doc) for i, doc in docs.items()}
            if rev is not None and len(out) <= _SEEN_MAX:
                self._records_seen[col.name] = (rev, json.dumps(out))
        for _, op, args in self._buffer or ():
            if op == "put_records" and args[0] == kind:
                out.update(json.loads(json.dumps(args[1])))
            elif op == "delete_records" and args[0] == kind:
                for i in args[1]:
                    out.pop(i, None)
        return out

    def delete_records(self, kind: str, ids: list[str]) -> None:
        self._records_seen.pop(self._records(kind), None)
        if self._defer("records", "delete_records", kind, list(ids)):
            return
        name = self._records(kind)
        for batch in chunked(ids):
            self._write(name, "delete", ids=batch)
