"""Layered memory: working memory (the latest user turns, in full detail), long-term memory (older material
that survived forgetting, promoted memories and reflection summaries) and the cold tier (archived memories).

A memory's tier is computed from its age, except that a **promoted** memory
(retrieved ``promote_accesses`` times, or confirmed by a human) is long-term
from then on, with its compressed core (``meta.core``) recorded by the pass.
An **archived** memory is in the cold tier: retrieval may still seed on it by
vector and words, but alone (no edges or neighbours; only its turn before or after), and a pass
restores it to long-term memory when it is retrieved ``promote_accesses`` times
after it was archived. Retrieval searches every tier; :func:`mark_tiers` labels
each retrieved memory.
"""

from __future__ import annotations

from .config import LifecycleConfig
from .reflection import first_sentence

__all__ = ["TIERS", "core_of", "mark_tiers", "promotion_candidates", "tier_counts", "tier_of"]

TIERS = ("working", "long-term", "summary")


def tier_of(attrs: dict, now_turn: int, working_turns: int) -> str:
    """``working`` | ``long-term`` | ``summary`` | ``archived`` (the cold tier) for a node's attributes.

    >>> tier_of({"turn": 98, "meta": {}}, 100, 50), tier_of({"turn": 10, "meta": {}}, 100, 50)
    ('working', 'long-term')
    >>> tier_of({"turn": 98, "meta": {"tier": "long-term"}}, 100, 50), tier_of({"meta": {"lifecycle": "summary"}}, 1, 50)
    ('long-term', 'summary')
    >>> tier_of({"turn": 98, "status": "archived", "meta": {}}, 100, 50)
    'archived'
    """
    meta = attrs.get("meta") or {}
    if attrs.get("status") == "archived":
        return "archived"
    if meta.get("lifecycle") == "summary":
        return "summary"
    if meta.get("tier") == "long-term":
        return "long-term"
    return "working" if now_turn - int(attrs.get("turn", 0)) < working_turns else "long-term"


def mark_tiers(w, result, cfg: LifecycleConfig | None = None) -> None:
    """Label every ranked memory of a retrieval result with the tier it came from."""
    working = (cfg or LifecycleConfig()).working_turns
    nodes, turn = w.graph.nodes, w.turn  # read once: both are properties of the weaver
    for rn in result.ranked:
        if rn.id in nodes:
            rn.tier = tier_of(nodes[rn.id], turn, working)


def tier_counts(w, cfg: LifecycleConfig | None = None) -> dict[str, int]:
    """Active memories per tier, plus how many are archived."""
    working = (cfg or LifecycleConfig()).working_turns
    out = {t: 0 for t in TIERS} | {"archived": 0}
    for _, a in w.graph.nodes(data=True):
        if a.get("status") == "archived":
            out["archived"] += 1
        elif a.get("status", "active") == "active":
            out[tier_of(a, w.turn, working)] += 1
    return out


def core_of(content: str, limit: int = 160) -> str:
    """A memory compressed to its core: its first sentence, clipped."""
    return first_sentence(content, limit)  # one sentence splitter for summaries and cores


def promotion_candidates(w, cfg: LifecycleConfig, human_confirmed: set[str]) -> list[tuple[str, str]]:
    """``(node id, why)``: active memories referenced repeatedly (retrieved ``promote_accesses`` times) or
    confirmed by a human, not yet long-term; and cold-tier memories retrieved ``promote_accesses`` times since
    they were archived (the pass restores those to long-term memory)."""
    out = []
    for nid in w.node_ids:
        node = w.nodes[nid]
        if node.status == "archived" and not node.meta.get("merged_into"):
            since = node.access_count - int(node.meta.get("archived_access") or 0)
            if since >= cfg.promote_accesses:
                out.append((nid, f"retrieved {since} times since it was archived"))
            continue
        if node.status != "active" or node.meta.get("tier") == "long-term" or node.meta.get("lifecycle"):
            continue
        if node.access_count >= cfg.promote_accesses:
            out.append((nid, f"retrieved {node.access_count} times"))
        elif nid in human_confirmed:
            out.append((nid, "confirmed by a human"))
    return out
