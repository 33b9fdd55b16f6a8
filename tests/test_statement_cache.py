"""The statements cache (each user statement's slot values as the constraint records read them) read back as
written, one statement at a time: a stale text (its crc differs), a torn file and the earlier layout (a JSON
object of every statement's rows) are handled as before, never served wrong values."""

from __future__ import annotations

import json

from weaver import statement_cache
from weaver.constraints import statement_values
from weaver.models import MemoryNode
from weaver.slot_cache import slot_row

TEXTS = [
    "预算总共8000元",
    "我对花生过敏",
    "I need a hotel near Sanlitun under 800 yuan",
    "hello there",
    "第3天去故宫参观",
]


class _Space:
    """The two cache calls of a space store, on a dict (as JSON on disk: written and parsed again)."""

    def __init__(self) -> None:
        self.files: dict[str, str] = {}

    def read_cache(self, kind: str) -> dict:
        try:
            return json.loads(self.files.get(kind, "{}"))
        except ValueError:
            return {}

    def write_cache(self, kind: str, data: dict) -> None:
        self.files[kind] = json.dumps(data, ensure_ascii=False)


def _nodes():
    return {f"n{i}": MemoryNode(f"n{i}", t, "user_input", i, f"m{i}") for i, t in enumerate(TEXTS)}


def test_values_read_back_as_written_and_stale_or_torn_entries_are_not_served():
    space, nodes = _Space(), _nodes()
    known = {nid: statement_values(n.content) for nid, n in nodes.items()}
    assert any(known.values())  # something to store
    statement_cache.write_values(space, known | {"gone": known["n0"]}, nodes)  # a node no longer there: left out
    wanted = [(nid, n.content) for nid, n in nodes.items()]
    assert statement_cache.read_values(space, wanted) == (known, True)
    assert "gone" not in json.loads(space.files["statements"])["ids"]
    # another text under the same id: its crc differs, so it is not served
    got = statement_cache.read_values(space, [("n0", "预算总共9000元"), ("n1", TEXTS[1])])
    assert got == ({"n1": known["n1"]}, True)
    # a torn file, or one whose columns do not fit: nothing served
    space.files["statements"] = space.files["statements"][:40]
    assert statement_cache.read_values(space, wanted)[0] == {}
    statement_cache.write_values(space, known, nodes)
    data = json.loads(space.files["statements"])
    data["ends"] = data["ends"][:-1]
    space.files["statements"] = json.dumps(data)
    assert statement_cache.read_values(space, wanted)[0] == {}


def test_the_earlier_layout_is_still_read():
    import zlib

    space, nodes = _Space(), _nodes()
    known = {nid: statement_values(n.content) for nid, n in nodes.items()}
    old = {
        nid: [zlib.crc32(nodes[nid].content.encode("utf-8")), [slot_row(v) for v in vals]]
        for nid, vals in known.items()
    }
    old["n2"][0] += 1  # a stale entry
    space.write_cache("statements", old)
    got = statement_cache.read_values(space, [(nid, n.content) for nid, n in nodes.items()])
    assert got == ({nid: v for nid, v in known.items() if nid != "n2"}, False)  # the caller rewrites it
