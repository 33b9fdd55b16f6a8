"""Curation from the command line, each command a fresh runtime over the store: edits persist between commands.

Commands call ``main(argv)`` in-process (tests/cli_run.py): each builds its own runtime and reads the space
back from Chroma, as a separate process would, without reloading the embedder every time.
"""

from __future__ import annotations

import json

from cli_run import run_cli
from test_curation import weave
from test_curation_review import CHANGED


def cli(tmp_path, *args):
    return run_cli("--data-dir", str(tmp_path / "data"), "--space", "trip", *args, cwd=tmp_path)


def test_edge_set_rm_undo_log_review_from_the_cli(runtime, tmp_path):
    w = runtime.open("trip")
    w.config = w.config.with_(
        review_every=0, supersede_on_arrival=False
    )  # a space woven before supersede on arrival: the review pass finds the change
    ids = weave(w, "en")
    w.ingest(CHANGED["en"], "user_input")
    u, v = next(iter(w.graph.in_edges(ids["plan"])))
    was = w.graph.edges[u, v]["relation"]
    new = "elaborates" if was != "elaborates" else "temporal"

    out = cli(tmp_path, "edge", "set", u, v, new, "--why", "fixed by hand")
    assert out.returncode == 0, out.stderr
    assert "human edge.update" in out.stdout
    out = cli(tmp_path, "edge", "set", u, v, new)  # the same again: nothing changes, nothing is audited
    assert out.returncode == 0 and out.stdout.startswith("unchanged:"), (out.stdout, out.stderr)
    # node ids may be given by prefix; a cycle is refused with a clear one-line error
    out = cli(tmp_path, "edge", "set", ids["plan"][:10], ids["budget"], "causal")
    assert out.returncode == 2 and "cycle" in out.stderr and "Traceback" not in out.stderr
    out = cli(tmp_path, "edge", "set", u, v, "because")
    assert out.returncode == 2 and "invalid choice" in out.stderr
    x, y = next(e for e in w.graph.edges if e != (u, v))
    out = cli(tmp_path, "edge", "rm", x, y)
    assert out.returncode == 0, out.stderr

    again = runtime.open("trip")  # what the other processes wrote
    assert again.graph.edges[u, v]["relation"] == new and again.graph.edges[u, v]["origin"] == "human"
    assert not again.graph.has_edge(x, y)

    out = cli(tmp_path, "undo")  # the latest human edit: the removal
    assert out.returncode == 0, out.stderr
    assert runtime.open("trip").graph.has_edge(x, y)

    out = cli(tmp_path, "review", "--json")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["mode"] == "rules" and summary["proposed"].get("supersede") == 1

    out = cli(tmp_path, "log", "--json")
    assert out.returncode == 0, out.stderr
    entries = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(e["actor"], e["action"]) for e in entries][:3] == [
        ("human", "edge.update"),
        ("human", "edge.remove"),
        ("human", "undo"),
    ]
    assert entries[0]["undone"] is False and entries[0]["after"]["relation"] == new
    assert entries[0]["why"] == "fixed by hand" and entries[1]["undone"] is True
    final = runtime.open("trip")
    assert final.curation.verify() == []
    sup = [i for i in final.curation.items(None) if i.kind == "supersede"]
    assert len(sup) == 1 and sup[0].target == ids["budget"]
    # applied at or above the auto-apply threshold, queued below it
    assert (final.nodes[ids["budget"]].status == "superseded") == (sup[0].status == "applied")


def test_reject_undo_redo_from_the_cli(runtime, tmp_path):
    w = runtime.open("trip")
    w.config = w.config.with_(review_every=0, supersede_on_arrival=False)
    weave(w, "en")
    w.ingest(CHANGED["en"], "user_input")
    w.curation.review(apply=False)
    item = next(i for i in w.curation.items() if i.kind == "supersede")

    out = cli(tmp_path, "reject", item.id)
    assert out.returncode == 0 and out.stdout.startswith(f"rejected {item.id}"), (out.stdout, out.stderr)
    out = cli(tmp_path, "log", "--json", "--limit", "1")
    last = json.loads(out.stdout)
    assert (last["actor"], last["action"], last["key"], last["after"]) == (
        "human",
        "item.reject",
        item.id,
        {"review_item": "rejected"},
    )
    out = cli(tmp_path, "undo")  # each command a fresh runtime: the reject is read back from the log
    assert out.returncode == 0 and f"(reverted {last['id']})" in out.stdout, (out.stdout, out.stderr)
    assert runtime.open("trip").curation.queue[item.id].status == "pending"
    out = cli(tmp_path, "log", "--limit", "2")
    assert "item.reject" in out.stdout and "pending -> rejected (undone)" in out.stdout, out.stdout
    out = cli(tmp_path, "redo")
    assert out.returncode == 0, out.stderr
    final = runtime.open("trip")
    assert final.curation.queue[item.id].status == "rejected" and final.curation.verify() == []
