"""The graph drawing (ui/graph_render.py: escaping, offline HTML, colours, legend) and the pure views it draws
(weaver/viz.py: layout, subgraphs, filters, search, paths)."""

from __future__ import annotations

import json
import re

import networkx as nx
import pytest

from ui import graph_render
from weaver import viz

XSS = [
    "<script>alert('x')</script>",
    "<img src=x onerror=alert(1)>",
    "</script><script>alert(2)</script>",
    '<a href="javascript:alert(3)">click</a>',
]


def _graph(n_turns: int = 3) -> nx.DiGraph:
    g = nx.DiGraph()
    prev = None
    for t in range(1, n_turns + 1):
        for i, kind in enumerate(("user_input", "agent_thought", "tool_result", "agent_response")):
            nid = f"n{t}_{i}"
            g.add_node(
                nid, content=f"turn {t} {kind} 北京 预算", kind=kind, turn=t, timestamp=t * 10 + i, status="active"
            )
            if prev:
                g.add_edge(
                    prev,
                    nid,
                    relation=("causal", "temporal", "conditional", "elaborates")[i],
                    confidence=0.8,
                    origin="rules",
                    rationale="because",
                )
            prev = nid
    return g


def _script_blocks(page: str) -> str:
    return "".join(re.findall(r"<script[^>]*>(.*?)</script>", page, flags=re.S))


def test_html_is_offline_no_cdn_and_inlines_vis_network():
    page = graph_render.render_graph_html(_graph())
    assert "vis.Network" in page and "new vis.DataSet" in page  # vis-network inlined, not linked
    assert not re.search(r"<(script|link)[^>]+(src|href)\s*=\s*[\"']?https?://", page, re.I)
    assert "bootstrap" not in page.lower().replace("bootstrap.", "")  # the Bootstrap CDN tags are gone
    assert "cdn.jsdelivr" not in page and "cdnjs.cloudflare" not in page


@pytest.mark.parametrize("payload", XSS)
def test_untrusted_text_never_appears_as_markup(payload):
    g = nx.DiGraph()
    g.add_node("a", content=payload + " 内容", kind="tool_result", turn=1)
    g.add_node("b", content="ok", kind="agent_response", turn=1)
    g.add_edge("a", "b", relation="causal", confidence=0.9, origin="llm", rationale=payload)
    page = graph_render.render_graph_html(g, title=payload)
    # the raw payload is nowhere in the page: not in the JSON, not in the heading
    assert payload not in page
    body = page.split("</head>", 1)[1]
    assert "<img" not in body and "<a href" not in body and "alert('x')</script>" not in body
    # but the text is still there, decoded, for the tooltip (shown with innerText)
    data = re.search(r"nodes = new vis.DataSet\((.*?)\);", page, flags=re.S).group(1)
    nodes = json.loads(data)
    assert any(payload in n["title"] for n in nodes)
    # the "href in a title -> innerHTML popup" mode of pyvis is never switched on
    assert "popup.innerHTML" not in page


def test_payload_json_escapes_script_end():
    s = graph_render.payload_json({"t": "</script><b>&"})
    assert "</script>" not in s and "<b>" not in s and json.loads(s) == {"t": "</script><b>&"}


def test_colours_follow_kind_and_relation():
    p = graph_render.vis_payload(_graph(1))
    by_id = {n["id"]: n for n in p["nodes"]}
    for kind, colour in graph_render.KIND_COLORS.items():
        node = next(n for n in by_id.values() if n["kind"] == kind)
        assert node["color"]["background"] == colour
        assert node["shape"] == graph_render.KIND_SHAPES[kind]
    for e in p["edges"]:
        assert e["color"]["color"] == graph_render.RELATION_COLORS[e["relation"]]
        assert e["arrows"] == "to"
    assert len({n["color"]["background"] for n in p["nodes"]}) == 4


def test_inactive_nodes_and_rejected_edges_are_drawn_muted():
    g = _graph(1)
    g.nodes["n1_0"]["status"] = "superseded"
    g.edges["n1_0", "n1_1"]["status"] = "rejected"
    p = graph_render.vis_payload(g)
    node = next(n for n in p["nodes"] if n["id"] == "n1_0")
    edge = next(e for e in p["edges"] if e["from"] == "n1_0")
    assert (
        node["color"]["background"] != graph_render.KIND_COLORS["user_input"]
        and "borderDashes" in node["shapeProperties"]
    )
    assert edge["dashes"] is True


def test_styles_apply_and_unknown_style_is_refused():
    g = _graph(1)
    p = graph_render.vis_payload(
        g,
        node_styles={"n1_0": "seed", "n1_1": ["cut"], "n1_2": {"size": 40}},
        edge_styles={("n1_0", "n1_1"): "path"},
        selected="n1_3",
    )
    by_id = {n["id"]: n for n in p["nodes"]}
    assert by_id["n1_0"]["color"]["border"] == graph_render.NODE_STYLES["seed"]["color"]["border"]
    assert by_id["n1_0"]["color"]["background"] == graph_render.KIND_COLORS["user_input"]  # merged, not replaced
    assert by_id["n1_1"]["opacity"] < 1
    assert by_id["n1_2"]["size"] == 40
    assert by_id["n1_3"]["borderWidth"] == graph_render.NODE_STYLES["selected"]["borderWidth"]
    edge = next(e for e in p["edges"] if (e["from"], e["to"]) == ("n1_0", "n1_1"))
    assert edge["width"] == 5
    with pytest.raises(ValueError):
        graph_render.vis_payload(g, node_styles={"n1_0": "sparkly"})


def test_layout_is_seeded_stable_and_does_not_move_old_nodes():
    g = _graph(3)
    first = viz.layout_positions(g)
    assert first == viz.layout_positions(g.copy())
    g.add_node("late", content="x", kind="agent_thought", turn=4, timestamp=99)
    after = viz.layout_positions(g)
    assert all(after[n] == first[n] for n in first)  # new nodes never make old ones jump
    assert len(set(after.values())) == len(after)  # no two nodes on one spot
    spring = viz.layout_positions(g, layout="spring")
    assert spring == viz.layout_positions(g, layout="spring")
    p = graph_render.vis_payload(g)
    assert p["options"]["physics"]["enabled"] is False
    assert all("x" in n and "y" in n for n in p["nodes"])


def test_large_graph_renders_a_focused_subgraph():
    g = nx.DiGraph()
    for i in range(1000):
        g.add_node(i, content=f"m{i}", kind="user_input", turn=i)
        if i:
            g.add_edge(i - 1, i, relation="temporal", confidence=1.0)
    p = graph_render.vis_payload(g, max_nodes=50, focus=500)
    ids = {int(n["id"]) for n in p["nodes"]}
    assert p["shown"] == 50 and p["total"] == 1000 and 500 in ids
    assert max(ids) - min(ids) < 60  # the neighbourhood of the focus, not random nodes
    assert "50" in p["note"] and "1000" in p["note"]
    recent = graph_render.vis_payload(g, max_nodes=50)
    assert {int(n["id"]) for n in recent["nodes"]} == set(range(950, 1000))
    small = graph_render.vis_payload(_graph(2), max_nodes=300)
    assert small["note"] == "" and small["shown"] == small["total"] == 8


def test_filters_search_and_paths():
    g = _graph(3)
    only = viz.filter_graph(g, kinds=["user_input", "agent_response"], upto_turn=2)
    assert {g.nodes[n]["turn"] for n in only} == {1, 2} and len(only) == 4
    no_causal = viz.filter_graph(g, relations=["temporal", "conditional", "elaborates"])
    assert all(d["relation"] != "causal" for _, _, d in no_causal.edges(data=True))
    assert no_causal.number_of_nodes() == g.number_of_nodes()
    assert set(viz.search_nodes(g, "TURN 2 tool")) == {"n2_2"}
    assert len(viz.search_nodes(g, "北京")) == 12
    path = viz.path_between(g, "n1_0", "n1_3")
    assert path == ["n1_0", "n1_1", "n1_2", "n1_3"]
    assert viz.path_between(g, "n1_3", "n1_0") == path[::-1]  # against the arrows when needed


def test_legend_lists_kinds_and_relations_in_both_languages():
    en, zh = graph_render.legend_html("en", styles=["seed", "cut"]), graph_render.legend_html("zh", styles=["seed"])
    for colour in list(graph_render.KIND_COLORS.values()) + list(graph_render.RELATION_COLORS.values()):
        assert colour in en and colour in zh
    assert "tool result" in en and "conditional" in en and "seed" in en and "cut" in en
    assert "工具结果" in zh and "因果" in zh and "种子" in zh
    assert "<script" not in en
