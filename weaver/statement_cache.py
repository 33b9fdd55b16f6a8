"""The slot values of a space's user statements as the constraint records read them, kept across processes in
the store's local ``statements`` cache (:func:`weaver.constraints.statement_values`: both slot readers).

The file holds each statement's node id, the crc of its text and its values' rows (:func:`weaver.slot_cache.slot_row`)
as one ASCII JSON text with an end offset per statement; a statement's rows are parsed when it is read, one at a
time. The file was a JSON object of every statement's rows, parsed whole: at 100k statements ~65 MB of lists and
strings at once on the first constraint query, most of that query's peak memory (and the process's). A file of
the earlier layout is still read. A cache only: a missing, torn or stale entry means the readers run again.
"""

from __future__ import annotations

import contextlib
import json
import zlib

from .slot_cache import slot_row, slot_value
from .slots import SlotValue
from .snapshot import json_loads

__all__ = ["KIND", "read_values", "write_values"]

KIND = "statements"
_FORMAT = 2


def read_values(space, wanted: list[tuple[str, str]]) -> tuple[dict[str, list[SlotValue]], bool]:
    """``{node id: slot values}`` from the cache file for the ``(node id, text)`` statements it holds with the
    same text (checked by the text's crc), and whether the file has this layout (else the caller rewrites it)."""
    disk = space.read_cache(KIND)
    out: dict[str, list[SlotValue]] = {}
    if disk.get("format") != _FORMAT:  # the earlier layout: node id -> [crc, rows]
        for nid, text in wanted:
            got = disk.pop(nid, None)  # freed as it is read: the values made next reuse its memory
            if isinstance(got, list) and len(got) == 2 and got[0] == zlib.crc32(text.encode("utf-8")):
                with contextlib.suppress(TypeError, ValueError):
                    out[nid] = [slot_value(row) for row in got[1]]
        return out, not out
    try:
        ids, crcs, ends, blob = disk["ids"], disk["crcs"], disk["ends"], disk["rows"]
        if not (isinstance(blob, str) and len(ids) == len(crcs) == len(ends) and (not ends or ends[-1] == len(blob))):
            return out, False
        at = dict(zip(ids, range(len(ids))))
    except (KeyError, TypeError):
        return out, False  # of another shape: read again
    for nid, text in wanted:
        i = at.get(nid)
        if i is None or crcs[i] != zlib.crc32(text.encode("utf-8")):
            continue
        with contextlib.suppress(TypeError, ValueError):
            out[nid] = [slot_value(row) for row in json_loads(blob[ends[i - 1] if i else 0 : ends[i]].encode())]
    return out, True


def write_values(space, known: dict, nodes) -> None:
    """Write ``known`` (node id -> slot values) for the nodes still in ``nodes`` (id -> node)."""
    ids, crcs, ends, parts, total = [], [], [], [], 0
    for nid, vals in known.items():
        node = nodes.get(nid)
        if node is None:
            continue
        text = json.dumps([slot_row(v) for v in vals], separators=(",", ":"))  # ASCII: one byte a character
        ids.append(nid)
        crcs.append(zlib.crc32(node.content.encode("utf-8")))
        parts.append(text)
        total += len(text)
        ends.append(total)
    space.write_cache(KIND, {"format": _FORMAT, "ids": ids, "crcs": crcs, "ends": ends, "rows": "".join(parts)})
