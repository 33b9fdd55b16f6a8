"""Edges are drawn around the nodes between their ends: a supersedes edge from turn 1's message to turn 3's ran
down the message column, straight through turn 2's message (the default curve bows only slightly). The curve
checked here is the one vis-network draws for the payload's smooth type and roundness.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ui.graph_payload import _CLEAR, _curve, vis_payload  # noqa: PLC2701 - the drawing's own geometry under test


def _chat_graph() -> nx.DiGraph:
    g = nx.DiGraph()
    for turn in (1, 2, 3):
        g.add_node(f"u{turn}", kind="user_input", turn=turn, content=f"budget {turn}000", timestamp=turn)
        g.add_node(f"r{turn}", kind="agent_response", turn=turn, content=f"noted {turn}", timestamp=turn + 0.5)
        g.add_edge(f"u{turn}", f"r{turn}", relation="causal", confidence=1.0, origin="agent")
    g.add_edge("u1", "u3", relation="supersedes", confidence=1.0, origin="rules")
    return g


def test_an_edge_skipping_a_turn_bends_around_the_node_between():
    payload = vis_payload(_chat_graph(), lang="en")
    pos = {n["id"]: (n["x"], n["y"]) for n in payload["nodes"]}
    default = payload["options"]["edges"]["smooth"]
    for e in payload["edges"]:
        smooth = e.get("smooth", default)
        pts = _curve(pos[e["from"]], pos[e["to"]], smooth["type"], smooth["roundness"])
        others = np.array([p for n, p in pos.items() if n not in (e["from"], e["to"])])
        gap = np.sqrt(((pts[:, None, :] - others[None, :, :]) ** 2).sum(-1)).min()
        assert gap >= _CLEAR, (e["id"], smooth, gap)
    skip = next(e for e in payload["edges"] if e["id"] == "u1->u3")
    assert skip["smooth"]["roundness"] > default["roundness"]  # bent, not the default bow
    # the straight default would have crossed u2: the test would fail without the bend
    straight = _curve(pos["u1"], pos["u3"], default["type"], default["roundness"])
    assert np.sqrt(((straight - np.array(pos["u2"])) ** 2).sum(-1)).min() < _CLEAR


def test_edges_between_neighbours_keep_the_default_curve():
    payload = vis_payload(_chat_graph(), lang="zh")
    assert all("smooth" not in e for e in payload["edges"] if e["id"] != "u1->u3")
