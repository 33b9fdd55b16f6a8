"""Derived tables kept on disk between processes (weaver.table_cache): read back only when whole and current."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from weaver.table_cache import cache_dir, cached_table


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("WEAVER_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _counting(table):
    calls = []

    def build():
        calls.append(1)
        return table

    return build, calls


def test_a_table_is_built_once_then_read_back(cache):
    table = {"慕田峪长城": "ns", "人民大会堂": "nt", b"\x00bytes": 7}
    build, calls = _counting(table)
    assert cached_table("t", "k1", build) == table
    assert cached_table("t", "k1", build) == table
    assert len(calls) == 1 and (cache / "t.table").is_file()


def test_another_key_rebuilds(cache):
    build, calls = _counting({"a": 1})
    cached_table("t", "source-v1", build)
    other, other_calls = _counting({"a": 2})
    assert cached_table("t", "source-v2", other) == {"a": 2}  # not the table of the old source
    assert len(other_calls) == 1
    assert cached_table("t", "source-v2", build) == {"a": 2}  # the file now holds the new one


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty", "garbage"])
def test_a_torn_or_damaged_file_is_rebuilt_not_read(cache, damage):
    table = {f"w{i}": i for i in range(2000)}
    build, calls = _counting(table)
    cached_table("t", "k", build)
    path = cache / "t.table"
    data = path.read_bytes()
    if damage == "truncate":  # a crash mid-write of a writer that did not rename (or a full disk)
        path.write_bytes(data[: len(data) // 2])
    elif damage == "flip":  # one bit of the payload changed: the CRC catches it
        path.write_bytes(data[:-10] + bytes([data[-10] ^ 1]) + data[-9:])
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        path.write_bytes(b"not a table at all")
    assert cached_table("t", "k", build) == table
    assert len(calls) == 2
    assert path.read_bytes() == data  # rewritten whole


def test_an_unwritable_cache_still_gives_the_table(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache directory would be")
    monkeypatch.setenv("WEAVER_CACHE_DIR", str(blocker / "cache"))
    build, calls = _counting({"x": 1})
    assert cached_table("t", "k", build) == {"x": 1}
    assert cached_table("t", "k", build) == {"x": 1} and len(calls) == 2


def test_off_means_no_file(tmp_path, monkeypatch):
    monkeypatch.setenv("WEAVER_CACHE_DIR", "off")
    assert cache_dir() is None
    build, calls = _counting({"x": 1})
    cached_table("t", "k", build)
    cached_table("t", "k", build)
    assert len(calls) == 2 and not any(tmp_path.iterdir())


def test_the_cached_tables_equal_the_derived_ones(tmp_path):
    """The token counter and the proper-noun table read from the cache give what deriving them gives, in a
    fresh process each time (the tables are loaded once a process)."""
    script = (
        "import json\n"
        "from weaver.text import count_tokens\n"
        "from weaver.relations.places import proper_noun_tags, place_names\n"
        "tags = proper_noun_tags()\n"
        "print(json.dumps([len(tags), tags.get('人民大会堂'), sorted(tags.items())[::5000],"
        " count_tokens('hello 我对海鲜过敏 Grand Hyatt 5000元'), place_names('我想去慕田峪长城看看')]))\n"
    )
    outs = []
    for env_dir in ("off", str(tmp_path / "c"), str(tmp_path / "c")):  # derived, then written, then read back
        env = dict(os.environ, WEAVER_CACHE_DIR=env_dir)
        proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
        outs.append(proc.stdout.strip().splitlines()[-1])
    assert outs[0] == outs[1] == outs[2]
    assert {p.name for p in (tmp_path / "c").iterdir()} == {"cl100k_base-ranks.table", "jieba-proper-nouns.table"}
