"""Disk left behind by Chroma's local store: segment folders of deleted collections.

chromadb 1.x removes a deleted collection's rows from ``chroma.sqlite3`` but not
its vector index folder (``<persist dir>/<segment uuid>/``; chroma-core/chroma
#5520, unfixed in the version we pin), so every ``compact``, ``reembed`` and
space delete left its old vectors on disk. After we drop a collection we remove
the folders no segment row names any more.

Safe beside other processes: Chroma inserts a segment's row when the collection
is created, before its first write makes the folder, so a folder listed *before*
the rows are read and named by no row belongs to a deleted collection.
"""

from __future__ import annotations

import shutil
import sqlite3
import uuid
from pathlib import Path


def persist_dir_of(client) -> Path | None:
    """The local folder of a ``PersistentClient`` (None for a Chroma server or a client without settings)."""
    raw = getattr(client, "raw", client)
    try:
        settings = raw.get_settings()
    except Exception:  # noqa: BLE001 - an HttpClient or a stand-in: nothing local to sweep
        return None
    if not getattr(settings, "is_persistent", False) or not settings.persist_directory:
        return None
    return Path(settings.persist_directory)


def _is_segment_name(name: str) -> bool:
    try:
        return str(uuid.UUID(name)) == name
    except ValueError:
        return False


def orphan_segment_dirs(persist_dir: str | Path) -> list[Path]:
    """Segment folders under ``persist_dir`` that no segment of ``chroma.sqlite3`` names.

    Empty when the database cannot be read (missing, busy, another schema): we only
    remove what we are sure is orphaned.
    """
    root = Path(persist_dir)
    db = root / "chroma.sqlite3"
    if not db.is_file():
        return []
    folders = [p for p in root.iterdir() if p.is_dir() and _is_segment_name(p.name)]  # listed first: see above
    if not folders:
        return []
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=2.0)
        try:
            live = {str(r[0]) for r in con.execute("SELECT id FROM segments")}
        finally:
            con.close()
    except sqlite3.Error:
        return []
    return [p for p in folders if p.name not in live]


def folder_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def sweep_orphan_segments(persist_dir: str | Path | None) -> int:
    """Remove the orphaned segment folders; the bytes freed (0 without a local folder)."""
    if persist_dir is None:
        return 0
    freed = 0
    for folder in orphan_segment_dirs(persist_dir):
        try:
            size = folder_bytes(folder)
            shutil.rmtree(folder)
        except OSError:  # vanished or busy: the next sweep tries again
            continue
        freed += size
    return freed
