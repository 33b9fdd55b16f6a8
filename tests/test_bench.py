"""Smoke runs of every benchmark (a few questions each) plus the pieces they are built from."""

from __future__ import annotations

import json

import pytest

from weaver.bench.baselines import Baselines, bm25_tokens, rrf
from weaver.bench.common import Turn, pack
from weaver.models import WeaverError
from weaver.narrative import HEADERS, line_for
from weaver.text import count_tokens

from conftest import ROOT


def test_pack_respects_budget_and_rank_order():
    turns = [Turn(str(i), f"A: sentence number {i} " + "x" * (i * 10)) for i in range(20)]
    picked = pack(turns, list(range(19, -1, -1)), 200)
    assert picked and picked[0] == 19
    text = "\n".join([HEADERS["en"]] + [line_for(turns[i].attrs("en")) for i in picked])
    assert count_tokens(text) <= 200
    # a longer budget takes strictly more
    assert len(pack(turns, list(range(20)), 400)) > len(pack(turns, list(range(20)), 200))


def test_bm25_baseline_stems_and_segments(embedder):
    texts = ["Melanie went running with her dogs", "我对海鲜过敏", "We talked about the weather"]
    base = Baselines(texts, embedder.embed(texts))
    assert base.bm25("who runs with a dog?")[0] == 0  # stemmed: runs/running, dog/dogs
    assert base.bm25("海鲜")[0] == 1
    assert "run" in bm25_tokens("running") and "the" not in bm25_tokens("the weather")
    assert base.recency()[0] == 2
    assert sorted(rrf([[0, 1, 2], [2, 1, 0]])) == [0, 1, 2]


def test_locomo_smoke(shared_data, embedder, tmp_path):
    from weaver.bench.locomo import run_locomo
    from weaver.bench.report import locomo_markdown, plot_recall, write_result

    res = run_locomo(
        shared_data / "locomo" / "locomo7.json",
        embedder,
        budgets=(256, 1024),
        limit_conversations=1,
        limit_questions=6,
        progress=False,
    )
    assert set(res["recall"]) == {
        "weaver",
        "weaver-no-expand",
        "weaver-no-filter",
        "dense",
        "bm25",
        "hybrid",
        "recency",
    }
    assert res["questions"]["all"] == 6
    for s, by_budget in res["recall"].items():
        small, big = by_budget["256"]["all"], by_budget["1024"]["all"]
        assert 0 <= small <= 100 and 0 <= big <= 100
    # a bigger budget never loses evidence for the top-k style systems
    assert res["recall"]["bm25"]["1024"]["all"] >= res["recall"]["bm25"]["256"]["all"]
    assert res["recall"]["weaver"]["1024"]["all"] > res["recall"]["recency"]["1024"]["all"]
    assert 0 < res["filter"]["kept_share"] <= 100
    assert res["dense_recall_at_k"]["dragon_paper"]["10"] == 66.2
    paths = write_result(
        "locomo", res, tmp_path, locomo_markdown(res), {"locomo_recall.png": lambda p: plot_recall(res, p)}
    )
    assert all(p.stat().st_size > 0 for p in paths)
    assert json.loads((tmp_path / "locomo.json").read_text())["benchmark"] == "locomo"
    assert "| weaver |" in (tmp_path / "locomo.md").read_text()


def test_crosswoz_questions_identify_their_dialogue(shared_data):
    from weaver.bench.crosswoz import dialogue_questions, load_crosswoz

    items = load_crosswoz(shared_data / "crosswoz" / "val.json.zip")[:10]
    qs = [q for did, d in items for q in dialogue_questions(did, d)]
    assert qs
    assert len({q["question"] for q in qs}) > 0.9 * len(qs)  # not the same string over and over
    for did, d in items:
        for q in dialogue_questions(did, d):
            (key,) = q["evidence"]
            i = int(key.split(":")[1])
            assert key.startswith(f"{did}:") and d["messages"][i]["role"] == "usr"
            assert any(a[0] == "Inform" and a[2] == q["slot"] for a in d["messages"][i]["dialog_act"])


def test_crosswoz_smoke(shared_data, embedder):
    from weaver.bench.crosswoz import run_crosswoz

    res = run_crosswoz(
        shared_data / "crosswoz" / "val.json.zip", embedder, budgets=(512,), dialogues=2, per_haystack=2, progress=False
    )
    assert res["questions"]["all"] > 0
    assert res["recall"]["hybrid"]["512"]["all"] is not None
    assert res["filter"]["turns"] > 0


def test_madial_smoke(shared_data, embedder):
    from weaver.bench.madial import madial_markdown, run_madial

    res = run_madial(shared_data / "madial", embedder, limit=5, progress=False)
    assert res["dialogues"] == 5
    for name in ("weaver", "dense", "bm25", "hybrid"):
        assert 0 <= res["ours"][name]["R@10"] <= 100
        assert res["ours"][name]["R@10"] >= res["ours"][name]["R@5"]
    assert "openai" in res["published"]
    assert "R@5" in madial_markdown(res)


def test_madial_channels_scores_the_shipped_rule_as_the_weaver_ranks(shared_data, embedder):
    from weaver.bench.madial import run_madial
    from weaver.bench.madial_channels import PREVIOUS, SHIPPED, madial_channels_markdown, run_madial_channels

    zip_ = shared_data / "crosswoz" / "val.json.zip"
    res = run_madial_channels(shared_data / "madial", embedder, zip_, n_distractors=40, limit=24)
    ours = run_madial(shared_data / "madial", embedder, limit=24, progress=False)["ours"]["weaver-no-expand"]
    zh = res["sets"]["zh"]
    assert zh["dialogues"] == 24 and res["sets"]["en"]["dialogues"] == 24 and res["distractors"] == 40
    # the study's shipped rule is what the weaver ranks by (its memories, its fusion): the same recall
    assert (zh["rules"][SHIPPED]["R@5"], zh["rules"][SHIPPED]["R@10"]) == (ours["R@5"], ours["R@10"])
    assert zh["rules"][PREVIOUS]["vs previous R@5"] == 0.0
    for fam in zh["families"].values():
        assert 0 <= fam["CV R@5"] <= 100 and fam["CV picks"]
    assert "5-fold CV" in madial_channels_markdown(res)


def test_scale_smoke(embedder):
    from weaver.bench.scale import run_scale, scale_markdown

    res = run_scale((50,), embedder, queries=5, one_by_one=5, llm=True, progress=False, into=3)
    row = res["rows"][0]
    assert row["nodes"] == 50 and row["edges"] > 0 and row["disk_mb"] > 0
    w = row["weaver"]  # measured in a fresh process on a copy of the space
    assert w["query_ms"]["p95"] > 0 and w["open_s"] > 0 and w["into_turns_per_s"] > 0 and w["open_rss_mb"] > 0
    assert w["disk_mb_after"] >= row["disk_mb"]  # ingesting into the copy wrote to it
    # the warm-up ran in the child and is counted in the end-to-end figure; the next messages were ingested too
    assert w["warm_s"] is not None and 0 < w["into_with_warm_turns_per_s"] <= w["into_turns_per_s"]
    assert w["into_then_turns_per_s"] > 0
    assert res["throughput"]["weaver"]["batched_turns_per_s"] > 0
    assert res["throughput"]["weaver"]["one_by_one_turns_per_s"] > 0
    # the batch as a fresh process's first work (no warm-up), measured in a process of its own
    assert res["throughput"]["weaver"]["batched_first_work_turns_per_s"] > 0
    assert "first work" in scale_markdown(res)
    llm = res["llm_mode"]
    assert llm["requests_seen_by_server"] > 0 and llm["llm_calls_per_message"] >= 1
    assert "nodes" in scale_markdown(res)
    with pytest.raises(WeaverError):
        run_scale((1,), embedder)


def test_turns_bench_times_every_demo_turn(embedder):
    from weaver.bench.turns import run_turns, turns_markdown

    res = run_turns(["switch_en", "switch_zh"], rounds=1, progress=False, embedder=embedder)
    raw = res["raw"]
    assert [t["turn"] for t in raw["switch_en"]] == list(range(1, len(raw["switch_en"]) + 1))
    assert res["all"]["turns"] == len(raw["switch_en"]) + len(raw["switch_zh"])
    for rows in raw.values():
        for t in rows:  # each turn ingests (the user message at least) and retrieves, inside its own wall time
            assert 0 < t["ingest_ms"] < t["wall_ms"] and 0 < t["retrieval_ms"] < t["wall_ms"]
    assert 0 < res["all"]["ingest_share"] + res["all"]["retrieval_share"] < 100
    assert "switch_zh" in turns_markdown(res)
    with pytest.raises(WeaverError, match="no demo script"):
        run_turns(["no-such-demo"], progress=False, embedder=embedder)


def test_cli_bench_rejects_bad_input(tmp_path, capsys):
    from weaver.cli import main

    assert main(["bench", "locomo", "--data", str(tmp_path / "missing.json")]) == 2
    assert "not found" in capsys.readouterr().err
    assert main(["bench", "locomo", "--budgets", "12,abc"]) == 2


def test_benchmarks_page_renders_written_results(tmp_path):
    from streamlit.testing.v1 import AppTest

    from weaver.bench.report import write_json

    res = {
        "benchmark": "locomo",
        "budgets": [256],
        "systems": ["weaver", "bm25"],
        "recall": {"weaver": {"256": {"cats1-4": 55.5}}, "bm25": {"256": {"cats1-4": 44.4}}},
        "filter": {"kept_share": 70.0, "evidence_kept_share": 95.0},
        "latency_ms_1024": {"all": {"p95": 9.0}},
        "wall_s": 1.0,
        "dense_recall_at_k": {"all": {"5": 1.0}, "cats1-4": {"5": 2.0}, "dragon_paper": {"5": 56.7}},
    }
    write_json(res, tmp_path / "locomo.json")
    src = (ROOT / "pages" / "benchmarks.py").read_text(encoding="utf-8")
    page = tmp_path / "page.py"
    page.write_text(
        src.replace('Path(__file__).resolve().parents[1] / "docs" / "benchmarks"', f"Path({str(tmp_path)!r})"),
        encoding="utf-8",
    )
    at = AppTest.from_file(str(page), default_timeout=30)
    at.session_state["_cw_shell"] = True  # as if app.py's shell had run (this test runs the page alone)
    at.run()
    assert not at.exception
    assert any("55.5" in str(df.value.to_dict()) for df in at.dataframe)
