"""Human-readable retrieval traces (the CLI's ``query --explain``)."""

from __future__ import annotations

from .retrieval import RetrievalResult

__all__ = ["format_trace"]


def format_trace(res: RetrievalResult) -> str:
    lines = [f"query: {res.query}", f"seeds: {len(res.seeds)}  budget: {res.tokens}/{res.budget} tokens", ""]
    lines.append(f"{'rank':>4} {'role':8} {'in':3} {'score':>6} {'sim':>6} {'lex':>5} {'cent':>5} hop via")
    for n in res.ranked:
        via = ""
        if n.edge:
            arrow = "<-" if n.direction == "cause" else "->"
            via = f"{n.via} {arrow}[{n.relation}]"
        lines.append(
            f"{n.rank:>4} {n.role:8} {'yes' if n.included else 'no':3} {n.score:6.3f} {n.similarity:6.3f} "
            f"{n.lexical:5.2f} {n.centrality:5.2f} {n.hops:>3} {via}  {n.content[:50]}"
            + (f"  [cut: {n.cut_reason}]" if n.cut_reason else "")
        )
    return "\n".join(lines)
