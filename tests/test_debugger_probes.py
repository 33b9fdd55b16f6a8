"""Saved probes (persisted, re-run after a review pass and after edge edits, diffed) and the debugger CLI."""

from __future__ import annotations

import json

import pytest

from cli_run import run_cli
from debugger_data import CONV, weave
from weaver.models import WeaverError
from weaver.probes import delete_probe, get_probe, list_probes, run_probes, save_probe

BUDGET_Q = {"en": "What is the total budget for the trip?", "zh": "这次旅行的总预算是多少？"}


@pytest.fixture(params=["en", "zh"])
def trip(request, runtime):
    w = runtime.open(f"probe-{request.param}")
    # the test decides when the review pass runs; the space predates supersede on arrival, so the pass finds it;
    # the probes here diff the narrative itself, so no constraint block is put before it
    w.config = w.config.with_(review_every=0, supersede_on_arrival=False, decision_context=False)
    tags = weave(w, request.param)
    return request.param, w, tags


def test_probe_diff_across_a_review_pass(trip, runtime):
    lang, w, tags = trip
    old = tags["budget"].node.id
    new = w.ingest(CONV[lang]["new_budget"], "user_input").node.id
    probe = save_probe(w, BUDGET_Q[lang], expect=[old], budget=120)
    assert probe.last["hits"] == [old] and probe.last["label"] == "saved"

    summary = w.curation.review(apply=True)  # the rules pass supersedes the old budget
    assert w.graph.nodes[old]["status"] == "superseded" and summary.applied

    # the pass re-ran the probe by itself; a fresh process sees the before/after pair
    again = get_probe(runtime.open(w.space.name), probe.id)
    assert len(again.history) == 2 and again.history[-1]["label"].startswith("after review pass")
    from weaver.probes import diff_snapshots

    d = diff_snapshots(again, again.history[0], again.history[1])
    assert d.lost == [old] or old in d.lost
    assert d.expected_lost == [old] and d.hits_after == []
    assert d.changed and new in again.history[1]["node_ids"]


def test_probe_diff_across_an_edge_edit(trip):
    lang, w, tags = trip
    q = CONV[lang]["query"]
    cfg = w.config.with_(seeds=1, adaptive_seeds=0.0, hops=1)  # one seed, really: what it reaches is the graph's
    w.config = cfg
    res = w.query(q, budget=150)
    seed = res.expanded_seeds[0]
    # reached over a dependency edge (a neighbouring turn is reached too, without one)
    reached = [n for n in res.nodes if n.hops == 1 and n.edge and w.graph.has_edge(*n.edge)]
    assert reached, res.to_dict()["trace"]
    probe = save_probe(w, q, expect=[n.id for n in reached], budget=150)
    assert sorted(probe.last["hits"]) == sorted(n.id for n in reached)
    # a curator removes the edges that brought those memories in
    for n in reached:
        w.curation.remove_edge(*n.edge, why="not a real dependency")
    [d] = run_probes(w, label="edge edits")
    assert d.after["label"] == "edge edits" and d.before["label"] == "saved"
    assert d.changed, d.to_dict()
    assert set(d.lost) <= {n.id for n in reached}
    # what stays in the context stays on its own relevance, no longer through a removed edge
    after = {n.id: n for n in w.query(q, budget=150).nodes}
    for n in reached:
        now = after.get(n.id)  # on its own relevance, or as a neighbouring turn: not over the removed edge
        assert now is None or now.relation == "adjacent" or tuple(now.edge or ()) != tuple(n.edge), (n.id, now)
    for n in d.expected_lost:
        assert n not in d.after["node_ids"]
    assert seed in d.after["node_ids"]
    # nothing changed since: the next run reports no change
    [d2] = run_probes(w, label="no-op")
    assert not d2.changed and d2.hits_before == d2.hits_after


def test_probe_bad_input_and_delete(trip):
    lang, w, tags = trip
    with pytest.raises(WeaverError, match="needs a query"):
        save_probe(w, "   ")
    with pytest.raises(WeaverError, match="not in this space"):
        save_probe(w, CONV[lang]["query"], expect=["n_nope"])
    with pytest.raises(WeaverError, match="budget"):
        save_probe(w, CONV[lang]["query"], budget=0)
    p = save_probe(w, CONV[lang]["query"])
    assert [x.id for x in list_probes(w)] == [p.id]
    with pytest.raises(WeaverError, match="no probe"):
        run_probes(w, ids=["p_missing"])
    delete_probe(w, p.id)
    assert list_probes(w) == []
    with pytest.raises(WeaverError, match="no probe"):
        delete_probe(w, p.id)


# --------------------------------------------------------------------- CLI
def cli(tmp_path, *args):
    """In-process (``main(argv)``): eleven commands in one embedder load, not eleven processes."""
    return run_cli("--data-dir", str(tmp_path / "data"), "--space", "trip", *args, cwd=tmp_path)


def test_cli_query_explain_why_trace_and_probe(tmp_path, embedder):
    from weaver import Runtime, Settings

    rt = Runtime.from_settings(
        Settings.from_env(env={}, secrets_path=None, data_dir=tmp_path / "data"), embedder=embedder
    )
    w = rt.open("trip")
    tags = weave(w, "en")
    q = CONV["en"]["query"]
    pleasantry = tags["pleasantry"].decision.message_id
    metro = tags["metro_result"].node.id
    del w, rt

    out = cli(tmp_path, "query", q, "--budget", "150", "--explain")
    assert out.returncode == 0, out.stderr
    for section in ("seeds (", "expansion steps (", "budget cuts (", "rank role"):
        assert section in out.stdout
    assert "Relevant memory" in out.stdout

    out = cli(tmp_path, "why", pleasantry, "--query", q, "--json")
    assert out.returncode == 0, out.stderr
    why = json.loads(out.stdout)
    assert why["reason"] == "filtered_at_ingest" and why["details"]["total"] < why["details"]["keep_threshold"]
    out = cli(tmp_path, "why", metro, "--query", q, "--budget", "100")
    assert out.returncode == 0 and out.stdout.startswith(f"{metro}: ")
    assert out.stdout.split(": ")[1].split()[0] in ("budget_cut", "not_reached", "expand_limit")

    out = cli(tmp_path, "trace", q, "--budget", "150", "--json")
    data = json.loads(out.stdout)
    assert set(data["explanations"]) == {n["id"] for n in data["trace"]["nodes"]}
    assert set(data["comparison"]["vector"]) == set(data["vector"])
    out = cli(tmp_path, "trace", q, "--budget", "150")
    assert "vs plain vector top-k" in out.stdout and "final context (" in out.stdout

    out = cli(tmp_path, "probe", "run")  # nothing saved yet: said, not an empty "all passed"
    assert out.returncode == 0 and out.stdout.startswith("no probes saved in space 'trip'")
    out = cli(tmp_path, "probe", "add", q, "--expect", metro, "--budget", "150")
    assert out.returncode == 0 and out.stdout.startswith("saved probe p_")
    out = cli(tmp_path, "probe", "run", "--json")
    diff = json.loads(out.stdout.splitlines()[0])
    assert diff["changed"] is False and diff["expected"] == [metro]

    for bad in (
        ["why", "n_nope", "--query", q],
        ["why", metro, "--query", "  "],
        ["probe", "rm", "p_nope"],
        ["probe", "run", "p_nope"],
        ["probe", "list", "extra"],
        ["trace", q, "--budget", "-3"],
    ):
        out = cli(tmp_path, *bad)
        assert out.returncode == 2 and out.stderr.startswith("error: ") and "Traceback" not in out.stderr
