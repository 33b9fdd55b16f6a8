"""The review model's proposals (``llm`` mode of the review pass): the window as a prompt, the reply checked.

The window's nodes and edges are named ``N1..``/``E1..`` in the prompt (:mod:`weaver.prompts.review`), with
the space's human corrections as examples; every proposal in the reply is mapped back to real nodes and
edges and dropped when it names none, changes nothing or would close a cycle (counted as ``invalid``).
"""

from __future__ import annotations

from ..graph import would_create_cycle
from ..prompts.review import REVIEW_PROMPT_VERSION, ReviewReply, review_messages
from .queue import ReviewItem
from .review_window import ReviewWindow, proposal_item

__all__ = ["llm_proposals"]


def llm_proposals(cur, size: int, reasoner) -> tuple[list[ReviewItem], ReviewWindow, dict]:
    """Ask the review model; returns (proposals, window, {calls, tokens, error, invalid})."""
    win = ReviewWindow(cur, size)
    w, g = win.w, win.w.graph
    ids = list(dict.fromkeys([u for u, _ in win.edges if u not in win.ids] + list(win.ids)))
    label = {nid: f"N{i + 1}" for i, nid in enumerate(ids)}
    node_of = {v: k for k, v in label.items()}
    nodes = {
        label[n]: {
            "kind": w.nodes[n].kind,
            "text": w.nodes[n].content[:600],
            "turn": w.nodes[n].turn,
            "status": w.nodes[n].status,
        }
        for n in ids
    }
    edge_of = {f"E{i + 1}": e for i, e in enumerate(win.edges)}
    edges = {
        k: {
            "source": label[u],
            "target": label[v],
            "relation": g.edges[u, v].get("relation"),
            "confidence": round(float(g.edges[u, v].get("confidence") or 0), 2),
            "origin": g.edges[u, v].get("origin"),
        }
        for k, (u, v) in edge_of.items()
    }
    examples = [
        {
            "earlier": {"kind": c.parent_kind, "text": c.parent_content[:200]},
            "later": {"kind": c.child_kind, "text": c.child_content[:200]},
            "was": c.was or "none",
            "corrected_to": c.relation or "none",
        }
        for c in (w.corrections or [])
    ]
    c = reasoner.complete(review_messages(nodes, edges, examples), ReviewReply)
    parsed = c.parsed
    info = {"calls": c.calls, "tokens": c.tokens, "error": c.error, "invalid": 0}
    if parsed is None:
        return [], win, info
    out = []
    for p in parsed.proposals:
        item = _from_llm(win, p, edge_of, node_of)
        if item is None:
            info["invalid"] += 1
        else:
            out.append(item)
    return out, win, info


def _from_llm(win: ReviewWindow, p, edge_of: dict, node_of: dict) -> ReviewItem | None:
    g = win.w.graph
    why = (p.rationale or "review model") + f" [{REVIEW_PROMPT_VERSION}]"
    kw = dict(confidence=p.confidence, rationale=why, origin="review-llm")
    if p.action in ("prune", "relabel"):
        u, v = edge_of.get(p.edge or "", (node_of.get(p.source or ""), node_of.get(p.target or "")))
        if u is None or v is None or not g.has_edge(u, v):
            return None
        cur = g.edges[u, v].get("relation")
        if p.action == "relabel" and (p.relation is None or p.relation == cur):
            return None
        return proposal_item(
            win, p.action, u, v, relation=p.relation if p.action == "relabel" else None, current=cur, **kw
        )
    if p.action == "add":
        u, v = node_of.get(p.source or ""), node_of.get(p.target or "")
        if u is None or v is None or p.relation is None or g.has_edge(u, v) or would_create_cycle(g, u, v):
            return None
        return proposal_item(win, "add", u, v, relation=p.relation, **kw)
    old, new = node_of.get(p.node or ""), node_of.get(p.by or "")
    if old is None or new is None or old == new or win.w.nodes[old].status != "active":
        return None
    return proposal_item(win, "supersede", new, old, **kw)
