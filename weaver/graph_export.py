"""A space's memory graph as portable data: edge records, node-link JSON, GraphML.

Pure reads of the facade's mirror (:class:`~weaver.core.ContextWeaver` keeps the methods ``edges``,
``export_node_link`` and ``export_graphml`` and calls these): what a tool outside the weaver (a graph
viewer, a notebook) gets, with every node's and edge's provenance.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import networkx as nx

from .models import Edge

if TYPE_CHECKING:
    from .core import ContextWeaver

__all__ = ["edge_from", "edge_records", "graphml", "node_link"]


def edge_records(graph: nx.DiGraph) -> list[Edge]:
    """Every edge of the memory graph as an :class:`~weaver.models.Edge`.

    >>> g = nx.DiGraph()
    >>> g.add_edge("a", "b", relation="temporal", confidence=0.5, origin="rules")
    >>> [(e.source, e.target, e.relation, e.status) for e in edge_records(g)]
    [('a', 'b', 'temporal', 'proposed')]
    """
    return [edge_from(u, v, d) for u, v, d in graph.edges(data=True)]


def edge_from(source: str, target: str, data: dict) -> Edge:
    """The :class:`~weaver.models.Edge` a graph edge's attributes describe (defaults for what older edges lack)."""
    return Edge(
        source,
        target,
        data["relation"],
        data["confidence"],
        data["origin"],
        data.get("rationale", ""),
        data.get("created_at", 0.0),
        data.get("status", "proposed"),
    )


def node_link(w: ContextWeaver) -> dict:
    """The space as one JSON-ready dict: nodes, edges and filter decisions with their meta."""
    return {
        "space": w.space.name,
        "embedder": w.meta.get("embedder"),
        "task": w.meta.get("task"),
        "nodes": [w.nodes[i].to_record() | {"meta": w.nodes[i].meta} for i in w.mirror.order],
        "edges": [e.to_record() for e in w.edges()],
        "decisions": [d.to_record() | {"meta": d.meta} for d in w.decisions.values()],
    }


def graphml(w: ContextWeaver) -> str:
    """The memory graph as GraphML text (nodes in arrival order)."""
    g = nx.DiGraph()
    for i in w.mirror.order:
        n = w.nodes[i]
        g.add_node(
            i,
            content=n.content,
            kind=n.kind,
            turn=n.turn,
            status=n.status,
            language=n.language,
            timestamp=n.timestamp,
            message_id=n.message_id,
        )
    for e in w.edges():
        g.add_edge(
            e.source,
            e.target,
            relation=e.relation,
            origin=e.origin,
            confidence=e.confidence,
            status=e.status,
            rationale=e.rationale,
            created_at=e.created_at,
        )
    # written as UTF-8 with its declaration: generate_graphml spelled every CJK character as a character
    # reference (我 as &#25105;), unreadable in an editor and ~3x the bytes
    buf = io.BytesIO()
    nx.write_graphml(g, buf, encoding="utf-8")
    return buf.getvalue().decode("utf-8")
