"""Human-readable retrieval traces (the CLI's ``query --explain`` and ``why``).

``format_trace`` prints the seeds with their similarity, each expansion step
(hop, via which edge, relation, direction), the ranking table with every score
component, the budget cuts with their reasons and, with ``context=True``, the
exact context the LLM sees with its token count.
"""

from __future__ import annotations

from .retrieval import RetrievalResult

__all__ = ["format_trace", "format_why", "format_comparison"]


def _clip(text: str, n: int = 50) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


def format_trace(res: RetrievalResult, context: bool = False, comparison=None) -> str:
    cfg = res.config
    lines = [
        f"query: {res.query}",
        f"context: {res.tokens}/{res.budget} tokens, {len(res.nodes)} memories from {len(res.ranked)} candidates"
        f"  (seeds {cfg.get('seeds')}, hops {cfg.get('hops')}, expand_limit {cfg.get('expand_limit')}, "
        f"w_similarity {cfg.get('w_similarity')}, w_lexical {cfg.get('w_lexical')}, "
        f"w_centrality {cfg.get('w_centrality')}, edge_lift {cfg.get('edge_lift')}, sibling_lift {cfg.get('sibling_lift')}, "
        f"context_decay {cfg.get('context_decay')}, w_speaker {cfg.get('w_speaker')})",
        "",
        f"seeds ({len(res.seeds)}):",
    ]
    by_id = {n.id: n for n in res.ranked}
    for k, s in enumerate(res.seeds, 1):
        n = by_id.get(s)
        if n is not None:
            lines.append(f"  {k:>2}. {s}  sim {n.similarity:.3f}  lex {n.lexical:.2f}  {_clip(n.content)}")
    steps = sorted((n for n in res.ranked if n.hops > 0), key=lambda n: (n.hops, n.rank))
    lines += ["", f"expansion steps ({len(steps)}):"]
    for n in steps:
        arrow = "<-" if n.direction == "cause" else "->"
        edge = f"{n.edge[0]}->{n.edge[1]}" if n.edge else "?"
        lines.append(
            f"  hop {n.hops}: {n.via} {arrow}[{n.relation}] {n.id}  ({n.direction}, edge {edge}, "
            f"seed {n.seed})  {_clip(n.content, 40)}"
        )
    lines += [
        "",
        f"{'rank':>4} {'role':8} {'in':3} {'score':>6} {'sim':>6} {'lex':>5} {'rel':>6} {'prop':>6} "
        f"{'cent':>5} {'tok':>4} hop via",
    ]
    for n in res.ranked:
        via = ""
        if n.edge:
            arrow = "<-" if n.direction == "cause" else "->"
            via = f"{n.via} {arrow}[{n.relation}]"
        lines.append(
            f"{n.rank:>4} {n.role:8} {'yes' if n.included else 'no':3} {n.score:6.3f} {n.similarity:6.3f} "
            f"{n.lexical:5.2f} {n.relevance:6.3f} {n.propagated:6.3f} {n.centrality:5.2f} {n.tokens:>4} "
            f"{n.hops:>3} {via}  {_clip(n.content)}" + (f"  [cut: {n.cut_reason}]" if n.cut_reason else "")
        )
    cuts = res.cut
    lines += ["", f"budget cuts ({len(cuts)}):"]
    lines += [f"  rank {n.rank:>3} {n.id}: {n.cut_reason}" for n in cuts] or ["  (none)"]
    if comparison is not None:
        lines += ["", format_comparison(comparison, {n.id: n.content for n in res.ranked})]
    if context:
        lines += ["", f"final context ({res.tokens} tokens, exactly as the LLM sees it):", res.context or "(empty)"]
    return "\n".join(lines)


def format_comparison(cmp, contents: dict[str, str] | None = None) -> str:
    """The graph context against vector top-k at the same budget."""
    contents = contents or {}
    lines = [
        f"vs plain vector top-k: {len(cmp.shared)} shared, {len(cmp.added)} added by the graph, "
        f"{len(cmp.displaced)} displaced"
    ]
    lines += [f"  + {n}  {_clip(contents.get(n, ''), 60)}" for n in cmp.added]
    lines += [f"  - {n}  {_clip(contents.get(n, ''), 60)}" for n in cmp.displaced]
    return "\n".join(lines)


def format_why(why) -> str:
    head = f"{why.node_id}: {why.reason}"
    body = [head, f"  {why.summary}"]
    if why.content:
        body.append(f"  content: {_clip(why.content, 120)}")
    return "\n".join(body)
