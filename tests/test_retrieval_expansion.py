"""Graph expansion is a pure gain: a memory reached over an edge ranks by its own relevance plus what the
edge lends it, counted once, on one scale with the seeds; it never pushes out a memory that matches the
query better than that (issue #12 item 6: expansion lost to no expansion on LoCoMo at every budget)."""

from __future__ import annotations

import networkx as nx
import numpy as np

from weaver.narrative import estimate_line_tokens
from weaver.neighbourhood import EdgeIndex, NodeFacts
from weaver.retrieval import retrieve
from weaver.settings import WeaverConfig
from weaver.text import count_tokens

# two seeds, no adaptive seeding: "s" (the query's own words) and the next best memory
CFG = WeaverConfig(seeds=2, adaptive_seeds=0.0, w_centrality=0.0)
TEXTS = {"s": "Ann: I adopted a puppy named Rex", "n": "Bo: what a lovely surprise", "m": "Ann: Rex loves the park"}


def _space(sessions: dict[str, int], match_m: float):
    """``s`` matches the query fully, ``n`` not at all (its edge to ``s`` is all it has), ``m`` by ``match_m``."""
    g = nx.DiGraph()
    ids = list(TEXTS)
    for i, nid in enumerate(ids):
        g.add_node(nid, content=TEXTS[nid], kind="user_input", turn=i, meta={"session": sessions[nid]})
    g.add_edge("s", "n", relation="causal", confidence=1.0, origin="rules")
    matrix = np.array([[1, 0, 0], [0, 1, 0], [match_m, 0, (1 - match_m**2) ** 0.5]], dtype=np.float32)
    facts = NodeFacts.of([(g.nodes[nid]["meta"], g.nodes[nid]["turn"]) for nid in ids])
    return g, ids, matrix, facts, EdgeIndex.of(g, ids)


def _two_lines() -> int:
    """A budget that holds the header and two of the three (equally long) lines, not three."""
    line = max(estimate_line_tokens({"content": t, "kind": "user_input"}) for t in TEXTS.values())
    return count_tokens("相关记忆（原因在前，结果在后）：") + 1 + 2 * line + line // 2


def _picked(space, expand_graph: bool) -> tuple[set[str], object]:
    g, ids, matrix, facts, edges = space
    res = retrieve(g, ids, matrix, None, "puppy", matrix[0], CFG, _two_lines(), expand_graph, facts, edges)
    return set(res.node_ids), res


def test_a_seed_does_not_hand_its_score_down_an_edge():
    # "n" sits in another session: only the edge joins it to "s". Until this release it ranked at
    # hop_decay (0.6) times the seed's score, above "m", whose own words match the query by 0.5.
    space = _space({"s": 1, "n": 2, "m": 3}, match_m=0.5)
    picked, res = _picked(space, expand_graph=True)
    assert picked == {"s", "m"} == _picked(space, expand_graph=False)[0]
    reached = next(c for c in res.ranked if c.id == "n")
    assert reached.role == "expanded" and reached.hops == 1 and not reached.included
    # what it has is what the edge lent it: edge_lift times the edge's confidence times the seed's relevance
    assert np.isclose(reached.score, CFG.edge_lift * 1.0 * 1.0, atol=1e-5)
    assert np.isclose(reached.propagated, reached.score, atol=1e-5)


def test_an_edge_inside_the_episode_context_lends_once():
    # "n" answers "s" in the same session: the episode context already lends it half of the seed's
    # relevance. The edge used to add its own share on top (0.5 + 0.15 = 0.65 > 0.55), so a reply that
    # shares no word with the query pushed out "m", which matches it by 0.55.
    space = _space({"s": 1, "n": 1, "m": 2}, match_m=0.55)
    picked, res = _picked(space, expand_graph=True)
    assert picked == {"s", "m"} == _picked(space, expand_graph=False)[0]
    reached = next(c for c in res.ranked if c.id == "n")
    assert np.isclose(reached.score, CFG.context_decay * 1.0, atol=1e-5)


def test_an_edge_still_lends_what_the_seed_ranking_lacks():
    # the same edge reaching across sessions, against a weaker "m": the edge's share lifts "n" above it
    space = _space({"s": 1, "n": 2, "m": 3}, match_m=0.1)
    picked, _ = _picked(space, expand_graph=True)
    assert picked == {"s", "n"}
    assert _picked(space, expand_graph=False)[0] == {"s", "m"}  # without the graph, the edge lends nothing
