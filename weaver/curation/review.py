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
- a strongly similar earlier node stating a value of the same slot with no path between them -> add the missing
  edge.

Edges a caller declared (origin ``agent``) and the parents of a node it declared them for are left as they
are: they record what it used, not a guess (:mod:`.review_rules`). Human decisions are never touched; a
proposal already rejected is not made again.

This module owns the pass (:func:`run_review`: pick the window, ask a proposer, drop what humans decided or
was proposed before, apply the sure ones, queue the rest) and its summary; the window is
:mod:`.review_window`'s, the proposers :mod:`.review_rules` and :mod:`.review_llm` (re-exported here).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

from ..models import WeaverError
from ..prompts.review import REVIEW_PROMPT_VERSION
from ..slots import CHANGE_CUES
from .queue import PROPOSAL_WORDS, ReviewItem
from .review_llm import llm_proposals
from .review_rules import ADD_SIMILARITY, LOW_CONFIDENCE, WEAK_SIMILARITY, rules_proposals  # thresholds: as before
from .review_window import ReviewWindow

__all__ = ["ReviewSummary", "run_review", "rules_proposals", "llm_proposals", "CHANGE_CUES"]

MAX_PER_PASS = 25  # the most confident proposals of a pass; the rest come back in later passes

# ReviewSummary.text's line in each language, part by part: one sentence, so the two cannot drift apart
_LINE = {
    "en": {
        "line": "review ({mode}{model}): {nodes} node{ns} / {edges} edge{es} reviewed; {kinds}; {applied} auto-applied, "
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
        "kind": "建议{k} {n} 项",
        "join": "、",
        "none": "没有建议",
        "human": "；{} 项是人工决定，未改动",
        "fallback": "；LLM 失败，改用规则（{}）",
    },
}
# a kind of proposal as a count's noun ("建议删除边 1 项"; the queue's own words are imperatives: "删除这条边")
_KIND_ZH = {
    "prune": "删除边",
    "relabel": "修改关系",
    "add": "补边",
    "supersede": "标记取代",
    "needs_review": "复查依赖",
}
# the pass's mode said in Chinese (English keeps the CLI's own names)
_MODE_ZH = {"rules": "规则", "llm": "LLM", "rules (fallback)": "规则（LLM 失败后）"}


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
        >>> ReviewSummary("rules", window_nodes=1, window_edges=1).text()
        'review (rules): 1 node / 1 edge reviewed; no proposals; 0 auto-applied, 0 queued'
        >>> s.text("zh")
        '审阅（规则）：检查了 3 个节点 / 2 条边；建议删除边 1 项；自动应用 0 项，排队 1 项'
        """
        zh = lang == "zh"
        words = _LINE["zh" if zh else "en"]
        # English names a kind as the CLI's queue listing does ("prune"); Chinese says it in words
        kinds = (
            words["join"].join(
                words["kind"].format(n=n, k=_KIND_ZH.get(k, PROPOSAL_WORDS.get(k, (k, k))[1]) if zh else k)
                for k, n in sorted(self.proposed.items())
            )
            or words["none"]
        )
        out = words["line"].format(
            mode=_MODE_ZH.get(self.mode, self.mode) if zh else self.mode,
            model=words["model"].format(self.model) if self.model else "",
            nodes=self.window_nodes,
            edges=self.window_edges,
            ns="" if self.window_nodes == 1 else "s",  # (the Chinese line names no plural)
            es="" if self.window_edges == 1 else "s",
            kinds=kinds,
            applied=len(self.applied),
            queued=len(self.queued),
        )
        if self.skipped_human:
            out += words["human"].format(self.skipped_human)
        if self.fallback:
            out += words["fallback"].format(self.fallback)
        return out


# ------------------------------------------------------------------ the pass
def _authorised(win: ReviewWindow, item: ReviewItem) -> bool:
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
