"""The review pass: audit a window of the graph, queue proposals with evidence, auto-apply the sure ones.

Two modes. ``llm``: the review model (``Settings.review_model``, a stronger one
than the builder's) reads the window and proposes fixes. ``rules`` (offline):
general heuristics —

- a relation the space's human corrections contradict (the learned pattern) -> relabel / prune;
- a low-confidence edge, or endpoints that are barely similar and share nothing -> prune;
- a temporal / elaborating edge implied by a longer path (transitively redundant) -> prune;
- two user statements about the same slot with different values -> the older is superseded (the slot
  reader of :mod:`weaver.slots`, as on arrival: the pass proposes only what arrival did not do, e.g. in a
  space woven before it or with ``supersede_on_arrival`` off);
- a strongly similar earlier node on the same slot with no path between them -> add the missing edge.

Human decisions are never touched; a proposal already rejected is not made again.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

import networkx as nx
import numpy as np

from ..backends.base import Candidate, RelateRequest
from ..backends.rules import RulesReasoner
from ..builder import match_correction
from ..cues import features
from ..graph import would_create_cycle
from ..models import WeaverError
from ..prompts.review import REVIEW_PROMPT_VERSION, ReviewReply, review_messages
from ..slots import CHANGE_CUES
from .arrival import plan_supersedes
from .queue import PROPOSAL_WORDS, ReviewItem, evidence_for

__all__ = ["ReviewSummary", "run_review", "rules_proposals", "llm_proposals", "CHANGE_CUES"]

LOW_CONFIDENCE = 0.5
WEAK_SIMILARITY = 0.12
ADD_SIMILARITY = 0.62
MAX_PER_PASS = 25  # the most confident proposals of a pass; the rest come back in later passes

# ReviewSummary.text's line in each language, part by part: one sentence, so the two cannot drift apart
_LINE = {
    "en": {
        "line": "review ({mode}{model}): {nodes} nodes / {edges} edges reviewed; {kinds}; {applied} auto-applied, "
        "{queued} queued",
        "model": ", {}",
        "kind": "{n} {k}",
        "join": ", ",
        "none": "no proposals",
        "human": "; {} left alone (human decisions)",
        "fallback": "; LLM failed, rules used ({})",
    },
    "zh": {
        "line": "审阅（{mode}{model}）：检查了 {nodes} 个节点 / {edges} 条边；{kinds}；"
        "自动应用 {applied} 项，排队 {queued} 项",
        "model": "，{}",
        "kind": "{n} 项{k}",
        "join": "、",
        "none": "没有建议",
        "human": "；{} 项是人工决定，未改动",
        "fallback": "；LLM 失败，改用规则（{}）",
    },
}


@dataclass
class ReviewSummary:
    mode: str
    at: float = field(default_factory=time.time)
    window_nodes: int = 0
    window_edges: int = 0
    proposed: dict[str, int] = field(default_factory=dict)
    queued: list[str] = field(default_factory=list)
    applied: list[str] = field(default_factory=list)  # audit entry ids
    skipped_human: int = 0
    duplicates: int = 0
    invalid: int = 0
    llm_calls: int = 0
    llm_tokens: int = 0
    fallback: str = ""
    model: str = ""
    prompt_version: str = ""
    reviewed_upto: int = 0

    def to_dict(self) -> dict:
        return asdict(self)

    def text(self, lang: str = "en") -> str:
        """One line about the pass: English (the CLI's), or Chinese for ``lang="zh"`` (the Review page's).

        >>> s = ReviewSummary("rules", window_nodes=3, window_edges=2, proposed={"prune": 1}, queued=["q1"])
        >>> s.text()
        'review (rules): 3 nodes / 2 edges reviewed; 1 prune; 0 auto-applied, 1 queued'
        >>> s.text("zh")
        '审阅（rules）：检查了 3 个节点 / 2 条边；1 项删除这条边；自动应用 0 项，排队 1 项'
        """
        zh = lang == "zh"
        words = _LINE["zh" if zh else "en"]
        # English names a kind as the CLI's queue listing does ("prune"); Chinese says it in words
        kinds = (
            words["join"].join(
                words["kind"].format(n=n, k=PROPOSAL_WORDS.get(k, (k, k))[1] if zh else k)
                for k, n in sorted(self.proposed.items())
            )
            or words["none"]
        )
        out = words["line"].format(
            mode=self.mode,
            model=words["model"].format(self.model) if self.model else "",
            nodes=self.window_nodes,
            edges=self.window_edges,
            kinds=kinds,
            applied=len(self.applied),
            queued=len(self.queued),
        )
        if self.skipped_human:
            out += words["human"].format(self.skipped_human)
        if self.fallback:
            out += words["fallback"].format(self.fallback)
        return out


# ------------------------------------------------------------------ context
class _Window:
    """The newest ``size`` nodes a pass reviews, read without a pass over the whole space: a pass every few
    messages must cost what its window holds, not what the space holds (10k-100k nodes)."""

    def __init__(self, cur, size: int):
        w = cur.w
        self.cur, self.w = cur, w
        order = w.mirror.order
        self.ids = order[-size:] if 0 < size < len(order) else list(order)
        self.matrix = w.matrix
        ids = set(self.ids)
        g = w.graph
        # the edges touching the window, in the graph's order (by source, in node order): the window's own
        # nodes and their parents are the only sources such an edge can have
        sources = ids.union(*(g.pred[v] for v in self.ids))
        self.edges = [(u, v) for u in sorted(sources, key=w.position_of) for v in g.succ[u] if u in ids or v in ids]
        self.human = cur.human_pairs()
        self.skipped = 0  # candidates left alone because a human decided them
        self._near: dict[str, list[tuple[float, str]]] = {}
        self._near_k = 0

    def sim(self, a: str, b: str) -> float:
        if self.matrix is None:
            return 0.0
        return float(self.matrix[self.w.position_of(a)] @ self.matrix[self.w.position_of(b)])

    def nearest_earlier(self, nid: str, k: int) -> list[tuple[float, str]]:
        """The ``k`` earlier nodes most similar to ``nid``, most similar first.

        One matrix product for the whole window, on first use (the earlier rows read once, not once per
        window node), and a partial sort: a pass stays cheap on a big space.
        """
        if k > self._near_k:
            self._near, self._near_k = self._nearest(k), k
        return self._near.get(nid, [])[:k]

    def _nearest(self, k: int) -> dict[str, list[tuple[float, str]]]:
        w, m = self.w, self.matrix
        if m is None or not len(self.ids):
            return {}
        rows = np.array([w.position_of(n) for n in self.ids])
        sims = m[: rows.max()] @ m[rows].T  # earlier rows x window nodes
        order = w.mirror.order
        out: dict[str, list[tuple[float, str]]] = {}
        for c, (nid, i) in enumerate(zip(self.ids, rows)):
            col = sims[:i, c]
            if not len(col):
                continue
            top = np.argpartition(-col, k - 1)[:k] if len(col) > k else np.arange(len(col))
            top = top[np.lexsort((top, -col[top]))]  # most similar first, ties by position (as a stable sort)
            out[nid] = [(float(col[j]), order[j]) for j in top]
        return out


def _item(win: _Window, kind: str, source: str, target: str, **kw) -> ReviewItem:
    return ReviewItem.make(kind, source=source, target=target, evidence=evidence_for(win.w, source, target), **kw)


def _judge(reasoner: RulesReasoner, w, parent: str, child: str, sim: float):
    p, c = w.nodes[parent], w.nodes[child]
    req = RelateRequest(c.content, c.kind, c.turn, c.meta, [Candidate(p.id, p.content, p.kind, p.turn, sim, p.meta)])
    return reasoner.relate(req).judgements[0]


# -------------------------------------------------------------------- rules
def rules_proposals(cur, size: int) -> tuple[list[ReviewItem], _Window]:
    """Heuristic proposals over the last ``size`` nodes (see the module docstring)."""
    win = _Window(cur, size)
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
        sim = win.sim(u, v)
        if corrections:  # the same bounded reach as the builder: only pairs like a corrected one
            c = match_correction(corrections, w.nodes[u].kind, w.nodes[v].kind, w.vector_of(u), w.vector_of(v))
            if c is not None and c.relation != rel:
                kind = "prune" if c.relation is None else "relabel"
                out.append(
                    _item(
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
        if conf < LOW_CONFIDENCE:
            out.append(
                _item(
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
        if sim < WEAK_SIMILARITY and not (fu.words & fv.words) and not (fu.slots & fv.slots):
            out.append(
                _item(
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
                _item(
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
    out += _missing_edges(win, learner)
    return out, win


def _redundant(g: nx.DiGraph, u: str, v: str, depth: int = 3) -> bool:
    """True when v is reachable from u within ``depth`` further hops without the direct edge."""
    return any(s != v and v in nx.single_source_shortest_path_length(g, s, cutoff=depth) for s in g.successors(u))


def _supersede_proposals(win: _Window) -> list[ReviewItem]:
    """What supersede on arrival would have done and did not (same reader, same decision)."""
    w = win.w
    log = win.cur.log
    # a supersede on arrival a curator undid is their decision: not proposed again
    undone = {e.key for e in log.undone_entries() if e.actor == "builder" and e.action != "build"}
    out = []
    for new in win.ids:
        for plan in plan_supersedes(w, new, across_sessions=True):  # another session's: queued, not applied
            if plan.full and plan.old not in undone and f"{plan.old}->{new}" not in undone:
                out.append(_item(win, "supersede", new, plan.old, confidence=plan.confidence, rationale=plan.rationale))
    return out


def _missing_edges(win: _Window, learner: RulesReasoner) -> list[ReviewItem]:
    w, g = win.w, win.w.graph
    out = []
    for v in win.ids:
        if w.nodes[v].status != "active":
            continue
        fv = features(w.nodes[v].content)
        best = None
        for sim, u in win.nearest_earlier(v, 5):
            if sim < ADD_SIMILARITY:
                break
            if w.nodes[u].status != "active" or g.has_edge(u, v) or f"{u}->{v}" in win.human:
                continue
            if fv.slots & features(w.nodes[u].content).slots:
                best = (sim, u)
                break
        if best is None or v in nx.single_source_shortest_path_length(g, best[1], cutoff=4):
            continue
        sim, u = best
        j = _judge(learner, w, u, v, sim)
        if j.relation is None:
            continue
        out.append(
            _item(
                win,
                "add",
                u,
                v,
                relation=j.relation,
                confidence=round(min(0.8, j.confidence), 2),
                rationale=f"similar ({sim:.2f}), same slot, no path between them: {j.rationale}",
            )
        )
    return out


# ---------------------------------------------------------------------- llm
def llm_proposals(cur, size: int, reasoner) -> tuple[list[ReviewItem], _Window, dict]:
    """Ask the review model; returns (proposals, window, {calls, tokens, error, invalid})."""
    win = _Window(cur, size)
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


def _from_llm(win: _Window, p, edge_of: dict, node_of: dict) -> ReviewItem | None:
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
        return _item(win, p.action, u, v, relation=p.relation if p.action == "relabel" else None, current=cur, **kw)
    if p.action == "add":
        u, v = node_of.get(p.source or ""), node_of.get(p.target or "")
        if u is None or v is None or p.relation is None or g.has_edge(u, v) or would_create_cycle(g, u, v):
            return None
        return _item(win, "add", u, v, relation=p.relation, **kw)
    old, new = node_of.get(p.node or ""), node_of.get(p.by or "")
    if old is None or new is None or old == new or win.w.nodes[old].status != "active":
        return None
    return _item(win, "supersede", new, old, **kw)


# ------------------------------------------------------------------ the pass
def _authorised(win: _Window, item: ReviewItem) -> bool:
    """Human decisions stand: no proposal on an edge or node a human set."""
    if item.kind == "supersede":
        return item.target not in win.human
    g = win.w.graph
    if item.edge_key in win.human:
        return False
    return not (g.has_edge(item.source, item.target) and g.edges[item.source, item.target].get("origin") == "human")


MAX_REVIEW_WINDOW = 300  # newest nodes one pass reads at most


def run_review(cur, apply: bool | None = None, mode: str | None = None) -> ReviewSummary:
    """One review pass over the newest nodes.

    ``apply``: None auto-applies proposals at or above ``config.review_auto_apply``;
    True applies every proposal of this pass; False only queues. Applied changes
    are audit entries of actor ``review`` (undoable); flags are never auto-applied.
    """
    w = cur.w
    cfg = w.config
    window = int(getattr(cfg, "review_window", 30) or 30)
    # at least what arrived since the last pass, but never the whole of a large space (a 10k space built in
    # bulk once reviewed all of itself on its first ingest: 155 s); older nodes stay reviewable on demand
    size = min(max(window, cur.pending_review()), max(window, MAX_REVIEW_WINDOW))
    reasoner = getattr(w, "review_reasoner", None) or w.reasoner
    use_llm = (mode or ("llm" if getattr(reasoner, "kind", "") == "llm" else "rules")) == "llm"
    if use_llm and not callable(getattr(reasoner, "complete", None)):
        raise WeaverError("LLM review needs an OpenAI-compatible endpoint (set OPENAI_BASE_URL / OPENAI_API_KEY)")
    summary = ReviewSummary("llm" if use_llm else "rules")
    if use_llm:
        summary.model, summary.prompt_version = getattr(reasoner, "model", ""), REVIEW_PROMPT_VERSION
        items, win, info = llm_proposals(cur, size, reasoner)
        summary.llm_calls, summary.llm_tokens, summary.invalid = info["calls"], info["tokens"], info["invalid"]
        if info["error"]:
            summary.fallback = info["error"]
            summary.mode = "rules (fallback)"
            items, win = rules_proposals(cur, size)
    else:
        items, win = rules_proposals(cur, size)
    summary.window_nodes, summary.window_edges = len(win.ids), len(win.edges)
    summary.skipped_human = win.skipped

    seen = {i.signature for i in cur.queue.values() if i.status != "withdrawn"}
    best: dict[tuple, ReviewItem] = {}
    for item in items:
        if not _authorised(win, item):
            summary.skipped_human += 1
            continue
        if item.signature in seen:
            summary.duplicates += 1
            continue
        slot = (item.kind == "supersede", item.source, item.target)
        if slot not in best or item.confidence > best[slot].confidence:
            best[slot] = item
    threshold = float(getattr(cfg, "review_auto_apply", 0.9))
    ranked = sorted(best.values(), key=lambda i: -i.confidence)[:MAX_PER_PASS]
    fresh = sorted(ranked, key=lambda i: (i.kind == "supersede", -i.confidence))  # edges first, then statuses
    for item in fresh:
        summary.proposed[item.kind] = summary.proposed.get(item.kind, 0) + 1
        if apply is True or (apply is None and item.confidence >= threshold):
            try:
                entry = cur.apply_item(item, "review")
            except WeaverError as exc:  # e.g. an earlier change of this pass made it a cycle
                item.rationale += f" (not auto-applied: {exc})"
            else:
                item.status, item.resolved_at, item.resolved_by = "applied", time.time(), "review"
                item.audit_id = entry.id if entry else ""
                summary.applied.append(item.audit_id)
                continue
        summary.queued.append(item.id)
    cur.save_items(fresh)
    summary.reviewed_upto = len(w.node_ids)
    cur.state["reviewed_upto"] = summary.reviewed_upto
    cur.state["runs"] = (cur.state.get("runs", []) + [summary.to_dict()])[-20:]
    cur.save_state()
    return summary
