"""The bench's peer (mem0 in its own venv): id mapping and packing, start-up errors, and a real ranking.

The real-peer tests run only where the peer venv exists: ``WEAVER_MEM0_PYTHON`` names its python
(docs/benchmarks/README.md has the commands that make it); elsewhere they skip.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

from weaver.bench.common import RecallTable, Turn, pack, recall
from weaver.bench.peer import PeerProcess, ranking_from_ids
from weaver.models import WeaverError

PEER_PYTHON = os.environ.get("WEAVER_MEM0_PYTHON", "")
needs_peer = pytest.mark.skipif(
    not (PEER_PYTHON and Path(PEER_PYTHON).is_file()), reason="no mem0 peer venv (set WEAVER_MEM0_PYTHON to its python)"
)

TURNS = [
    Turn(
        "D1:1", "Caroline: I went to the LGBTQ support group yesterday and it was so powerful.", {"date": "8 May 2023"}
    ),
    Turn("D1:2", "Melanie: I painted a lake sunrise last year, it is my favourite painting.", {"date": "8 May 2023"}),
    Turn("D1:3", "Caroline: My grandmother gave me a necklace from Sweden.", {"date": "8 May 2023"}),
    Turn("D2:1", "Melanie: We took the kids camping at the beach in June.", {"date": "20 June 2023"}),
    Turn("D2:2", "我对海鲜过敏，酒店要有免费停车。", {"date": "20 June 2023"}),
]


def test_peer_ranking_maps_to_turns_and_packs_like_a_baseline():
    # a peer that returns fewer ids than turns (mem0 drops memories under its score threshold), repeats
    # or unknown ids: the ranking keeps the known ones in order, and pack fills the budget from them only
    ranking = ranking_from_ids(["3", "1", "3", "17", "", None], len(TURNS))
    assert ranking == [3, 1]
    picked = pack(TURNS, ranking, 2048)
    assert picked == [3, 1]
    assert recall({TURNS[i].key for i in picked}, {"D2:1", "D1:3"}) == 0.5
    # smaller budgets take fewer, always in the peer's order
    sizes = [len(pack(TURNS, ranking, b)) for b in (20, 40, 2048)]
    assert sizes == sorted(sizes) and sizes[0] < 2 and pack(TURNS, ranking, 40) == [3]
    assert pack(TURNS, ranking_from_ids([], len(TURNS)), 2048) == []


def test_missing_peer_python_is_one_clear_line(tmp_path, capsys):
    from weaver.cli import main

    with pytest.raises(WeaverError, match="no python at"):
        PeerProcess("mem0", tmp_path / "bin" / "python")
    assert (
        main(
            [
                "bench",
                "locomo",
                "--peer",
                "mem0",
                "--peer-python",
                str(tmp_path / "python"),
                "--out",
                str(tmp_path / "out"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err.startswith("error: peer mem0: no python at") and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "out").exists()  # nothing ran


@pytest.mark.skipif(importlib.util.find_spec("mem0") is not None, reason="mem0 is importable here")
def test_peer_without_mem0_reports_why_it_did_not_start():
    # the project's own python has no mem0: the driver dies on import and the bench says so in one line
    with pytest.raises(WeaverError, match=r"did not start: exited .*No module named"):
        PeerProcess("mem0", sys.executable)


@needs_peer
def test_mem0_peer_ranks_the_exact_turn_first():
    with PeerProcess("mem0", PEER_PYTHON) as peer:
        assert peer.describe()["version"] == "2.2.1"
        peer.load("tiny", TURNS)
        for i, turn in enumerate(TURNS):
            text = turn.content.split(": ", 1)[-1]
            ranking = peer.ranking(text)
            assert ranking[0] == i, (text, ranking)
        # a second haystack is a fresh store: nothing of the first is ranked
        peer.load("second", TURNS[:2])
        assert set(peer.ranking("necklace from Sweden")) <= {0, 1}


@needs_peer
def test_mem0_peer_counts_as_a_system_of_a_haystack_run(embedder):
    from weaver.bench.common import run_haystack
    from weaver.settings import WeaverConfig

    qs = [
        {"question": "Who gave Caroline a necklace from Sweden?", "evidence": {"D1:3"}},
        {"question": "我对海鲜过敏", "evidence": {"D2:2"}},
    ]
    table = RecallTable()
    with PeerProcess("mem0", PEER_PYTHON) as peer:
        stats = run_haystack(
            "tiny", TURNS, qs, embedder, WeaverConfig(), (256,), table, lambda q: ["all"], progress=False, peer=peer
        )
    assert stats["mem0_add_s"] > 0
    assert table.count("mem0", 256, "all") == 2 == table.count("dense", 256, "all")
    assert table.mean("mem0", 256, "all") == 100.0
