"""One resolver for the library and the CLI: a node by id, an unambiguous id prefix or a message id; an
ambiguous prefix is refused in one line naming its candidates (real Chroma, rules backend, zh and en)."""

from __future__ import annotations

import pytest

from cli_run import run_cli
from test_curation import trip, weave  # noqa: F401  (trip: the fixture, zh and en)
from weaver import WeaverError


def test_library_edits_take_prefixes_and_message_ids_like_the_cli(trip):  # noqa: F811
    w, ids = trip
    cur = w.curation
    budget, allergy = w.nodes[ids["budget"]], w.nodes[ids["allergy"]]
    # an edge between two nodes the builder did not link, named by an id prefix and by a message id
    assert not w.graph.has_edge(budget.id, allergy.id)
    entry = cur.set_edge(budget.id[:9], allergy.message_id, "conditional", "the allergy holds within the budget")
    assert entry.key == f"{budget.id}->{allergy.id}" and w.graph.edges[budget.id, allergy.id]["origin"] == "human"
    cur.confirm_edge(budget.message_id, allergy.id[:9])
    cur.remove_edge(budget.id, allergy.message_id)
    assert not w.graph.has_edge(budget.id, allergy.id)
    # a status by message id, superseded by a prefix; undo by an entry prefix
    entry = cur.set_status(budget.message_id, "superseded", by=ids["allergy"][:9])
    assert w.nodes[budget.id].status == "superseded" and w.nodes[budget.id].meta["superseded_by"] == allergy.id
    cur.undo(entry.id[:12])
    assert w.nodes[budget.id].status == "active"
    cur.pin(budget.message_id)
    assert w.nodes[budget.id].meta.get("pinned") is True
    assert cur.verify() == []


def test_an_ambiguous_prefix_names_its_candidates_and_changes_nothing(trip):  # noqa: F811
    w, ids = trip
    cur = w.curation
    before = len(cur.log.entries)
    with pytest.raises(WeaverError) as err:
        cur.set_edge("n_", ids["allergy"], "causal")
    msg = str(err.value)
    assert msg.startswith(f"'n_' matches {len(w.nodes)} nodes (") and msg.endswith("give more of the id")
    assert "\n" not in msg and sorted(w.nodes)[0] in msg and f"and {len(w.nodes) - 5} more" in msg
    with pytest.raises(WeaverError, match="matches .* messages"):
        cur.set_status("msg_", "retracted")
    with pytest.raises(WeaverError, match="no node 'zz'"):
        cur.remove_edge("zz", ids["allergy"])
    with pytest.raises(WeaverError, match="empty node id"):
        cur.set_status("  ", "retracted")
    assert len(cur.log.entries) == before


def test_the_cli_says_the_same_in_one_line(runtime, tmp_path):
    w = runtime.open("trip")
    ids = weave(w, "zh")

    def cli(*args):
        return run_cli("--data-dir", str(tmp_path / "data"), "--space", "trip", *args, cwd=tmp_path)

    out = cli("edge", "set", "n_", ids["allergy"], "causal")
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert out.stderr.startswith("error: 'n_' matches 6 nodes (n_") and "Traceback" not in out.stderr
    out = cli("status", w.nodes[ids["budget"]].message_id, "retracted")
    assert out.returncode == 0, out.stderr
    out = cli("undo", "a")  # every entry id starts with "a"
    assert out.returncode == 2 and "matches" in out.stderr and "audit entries (a0" in out.stderr
