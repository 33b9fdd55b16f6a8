"""The offline review proposals: general heuristics over the window (``rules`` mode of the review pass).

- a relation the space's human corrections contradict (the learned pattern) -> relabel / prune;
- a low-confidence edge, or endpoints that are barely similar and share nothing -> prune;
- a temporal / elaborating edge implied by a longer path (transitively redundant) -> prune;
- two user statements about the same slot with different values -> the older is superseded (what supersede
  on arrival, :mod:`.arrival`, would have done and did not);
- a personal fact said again with another value and a change cue ("My favourite food is ramen" -> "Actually
  ... sushi now"), outside the slots, or where the speaker lives or works said again ("I live in Paris" ->
  "I moved to Berlin") -> the older is superseded, queued for a curator (:mod:`.fact_updates`);
- a strongly similar earlier node stating a value of the same slot (:func:`weaver.slots.read_slots`) with no
  path between them -> add the missing edge (``conditional`` only from a user's statement of the slot: the
  constraint the later node would hold under).

Edges a caller declared (origin ``agent``: the travel agent's provenance, ``ingest(depends_on=...)``) are what
it used, not a guess: similarity is no evidence against them, and a node whose parents were declared gets no
guessed parent beside them (the builder's rule too). Without this the pass proposed, after a 13-turn agent
chat, ``conditional`` edges between acknowledgements of different slots and the pruning of the agent's own
user -> thought links: proposals a curator rejects, every one.

The thresholds are here, next to the rules that read them; the pass (:mod:`.review`) filters and applies.
"""

from __future__ import annotations

import networkx as nx

from ..backends.base import Candidate, RelateRequest
from ..backends.rules import RulesReasoner
from ..builder import match_correction
from ..cues import features, picks
from ..relations.revisits import is_revisit
from ..relations.support import BACK_REFERENCE
from ..slots import read_slots
from .arrival import plan_supersedes
from .fact_updates import fact_update_proposals
from .queue import ReviewItem
from .review_window import ReviewWindow, proposal_item

__all__ = ["ADD_SIMILARITY", "LOW_CONFIDENCE", "WEAK_SIMILARITY", "declared_parents", "rules_proposals"]

LOW_CONFIDENCE = 0.5
WEAK_SIMILARITY = 0.12
ADD_SIMILARITY = 0.62


def rules_proposals(cur, size: int) -> tuple[list[ReviewItem], ReviewWindow]:
    """Heuristic proposals over the last ``size`` nodes (see the module docstring)."""
    win = ReviewWindow(cur, size)
    w, g = win.w, win.w.graph
    learner = RulesReasoner()  # a private copy: learning must not leak into the builder's reasoner
    corrections = w.corrections or []
    learner.learn(corrections)
    out: list[ReviewItem] = []
    for u, v in win.edges:
        d = g.edges[u, v]
        key = f"{u}->{v}"
        if d.get("origin") == "human" or key in win.human:
            win.skipped += 1
            continue
        rel, conf = d.get("relation"), float(d.get("confidence") or 0.0)
        declared = d.get("origin") == "agent"
        sim = win.sim(u, v)
        if corrections:  # the same bounded reach as the builder: only pairs like a corrected one
            c = match_correction(corrections, w.nodes[u].kind, w.nodes[v].kind, w.vector_of(u), w.vector_of(v))
            if c is not None and c.relation != rel:
                kind = "prune" if c.relation is None else "relabel"
                out.append(
                    proposal_item(
                        win,
                        kind,
                        u,
                        v,
                        relation=c.relation,
                        current=rel,
                        confidence=0.9,
                        rationale=f"curators corrected a similar pair (was {c.was or 'none'}, "
                        f"made {c.relation or 'none'})",
                    )
                )
                continue
        if declared:  # what the caller used: the heuristics below judge guesses, not declared provenance
            continue
        # a revisit's confidence is what it adds (1 - similarity: a near repeat adds little), not doubt
        if conf < LOW_CONFIDENCE and not is_revisit(d):
            out.append(
                proposal_item(
                    win,
                    "prune",
                    u,
                    v,
                    current=rel,
                    confidence=round(0.55 + (LOW_CONFIDENCE - conf) / 2, 2),
                    rationale=f"low confidence {conf:.2f} ({d.get('rationale', '')})",
                )
            )
            continue
        fu, fv = features(w.nodes[u].content), features(w.nodes[v].content)
        # "那就这家吧" after a list shares nothing with it and is barely similar, yet points right back at it
        points_back = BACK_REFERENCE.match(w.nodes[v].content) is not None or picks(w.nodes[v].content)
        if sim < WEAK_SIMILARITY and not (fu.words & fv.words) and not (fu.slots & fv.slots) and not points_back:
            out.append(
                proposal_item(
                    win,
                    "prune",
                    u,
                    v,
                    current=rel,
                    confidence=0.6,
                    rationale=f"endpoints barely similar ({sim:.2f}) and share nothing",
                )
            )
            continue
        if rel in ("temporal", "elaborates") and _redundant(g, u, v):
            out.append(
                proposal_item(
                    win,
                    "prune",
                    u,
                    v,
                    current=rel,
                    confidence=0.5,
                    rationale="implied by a longer path between the same memories (transitively redundant)",
                )
            )
    out += _supersede_proposals(win)
    out += fact_update_proposals(win)  # a fact said again with another value, outside the slots (.fact_updates)
    out += _missing_edges(win, learner)
    return out, win


def _redundant(g: nx.DiGraph, u: str, v: str, depth: int = 3) -> bool:
    """True when v is reachable from u within ``depth`` further hops without the direct edge."""
    return any(s != v and v in nx.single_source_shortest_path_length(g, s, cutoff=depth) for s in g.successors(u))


def _supersede_proposals(win: ReviewWindow) -> list[ReviewItem]:
    """What supersede on arrival would have done and did not (same reader, same decision)."""
    w = win.w
    log = win.cur.log
    # a supersede on arrival a curator undid is their decision: not proposed again
    undone = {e.key for e in log.undone_entries() if e.actor == "builder" and e.action != "build"}
    out = []
    for new in win.ids:
        for plan in plan_supersedes(w, new, across_sessions=True):  # another session's: queued, not applied
            if plan.full and plan.old not in undone and f"{plan.old}->{new}" not in undone:
                out.append(
                    proposal_item(win, "supersede", new, plan.old, confidence=plan.confidence, rationale=plan.rationale)
                )
    return out


def declared_parents(g: nx.DiGraph, nid: str) -> bool:
    """Whether ``nid``'s parents were declared by its caller (an incoming edge of origin ``agent``)."""
    return any(d.get("origin") == "agent" for d in g.pred[nid].values())


def _slot_keys(text: str) -> set[tuple[str, str]]:
    """The slots ``text`` states a value of (a question about the budget states none)."""
    return {v.key for v in read_slots(text) if v.value is not None}


def _missing_edges(win: ReviewWindow, learner: RulesReasoner) -> list[ReviewItem]:
    w, g = win.w, win.w.graph
    out = []
    # a node whose caller declared its parents has them all: nothing is guessed beside them; and only a node
    # stating a slot value can have a same-slot partner. Only these are searched for their nearest earlier
    # nodes (a search of the whole space each, on a pass's first reading of them)
    asked = [
        (v, keys)
        for v in win.ids
        if w.nodes[v].status == "active" and not declared_parents(g, v) and (keys := _slot_keys(w.nodes[v].content))
    ]
    among = [v for v, _ in asked]
    for v, keys in asked:
        best = None
        for sim, u in win.nearest_earlier(v, 5, among):
            if sim < ADD_SIMILARITY:
                break
            if w.nodes[u].status != "active" or g.has_edge(u, v) or f"{u}->{v}" in win.human:
                continue
            # the same slot means a value of it stated on both ends, not a topic word both mention
            if keys & _slot_keys(w.nodes[u].content):
                best = (sim, u)
                break
        if best is None or v in nx.single_source_shortest_path_length(g, best[1], cutoff=4):
            continue
        sim, u = best
        j = _judge(learner, w, u, v, sim)
        # "holds under the earlier constraint" needs a constraint there: a user's statement of the slot (what
        # the constraint records read), not an agent step that quotes it back ("Constraints from memory: ...")
        if j.relation is None or (j.relation == "conditional" and w.nodes[u].kind != "user_input"):
            continue
        out.append(
            proposal_item(
                win,
                "add",
                u,
                v,
                relation=j.relation,
                confidence=round(min(0.8, j.confidence), 2),
                # the wording rationale_words reads (the studio shows it in Chinese)
                rationale=f"similar ({sim:.2f}), same slot, no path between them: {j.rationale}",
            )
        )
    return out


def _judge(reasoner: RulesReasoner, w, parent: str, child: str, sim: float):
    p, c = w.nodes[parent], w.nodes[child]
    req = RelateRequest(c.content, c.kind, c.turn, c.meta, [Candidate(p.id, p.content, p.kind, p.turn, sim, p.meta)])
    return reasoner.relate(req).judgements[0]
