"""Render ordered memories as a cause-before-effect narrative with relation connectives.

Each node is one numbered line in its own language; a line that depends on an
earlier line says how (因为 / 在…前提下 / 随后 / 具体来说; because / provided
that / then / specifically).

>>> import networkx as nx
>>> g = nx.DiGraph()
>>> g.add_node("a", content="我的预算是5000元", kind="user_input", language="zh")
>>> g.add_node("b", content="需要按预算找酒店", kind="agent_thought", language="zh")
>>> g.add_edge("a", "b", relation="conditional", confidence=0.9)
>>> print(render(g, ["a", "b"]))
相关记忆（原因在前，结果在后）：
[1] 用户：我的预算是5000元
[2] 在[1]的前提下，思考：需要按预算找酒店
"""

from __future__ import annotations

import networkx as nx

from .text import count_tokens

__all__ = ["render", "line_for", "estimate_line_tokens", "HEADERS", "CONNECTIVE_LEVELS", "MAX_REFS"]

HEADERS = {"zh": "相关记忆（原因在前，结果在后）：", "en": "Relevant memory (causes first):"}
CONNECTIVE_LEVELS = ("all", "logic", "none")
_LOGIC = {"causal", "conditional"}
MAX_REFS = 2  # earlier lines a line refers to, at most (the nearest of its strongest relation)

_WHO = {
    "zh": {"user_input": "用户", "agent_thought": "思考", "tool_result": "工具结果", "agent_response": "回复"},
    "en": {"user_input": "User", "agent_thought": "Thought", "tool_result": "Tool result", "agent_response": "Reply"},
}
_CONNECTIVE = {
    "zh": {
        "causal": "因为{refs}，",
        "conditional": "在{refs}的前提下，",
        "temporal": "随后（接{refs}），",
        "elaborates": "具体来说（补充{refs}），",
    },
    "en": {
        "causal": "Because of {refs}, ",
        "conditional": "Provided that {refs}, ",
        "temporal": "Then (after {refs}), ",
        "elaborates": "Specifically (on {refs}), ",
    },
}
_THEN = {"zh": "随后，", "en": "Then, "}
_PRIORITY = {"causal": 0, "conditional": 1, "elaborates": 2, "temporal": 3}


def line_for(attrs: dict, number: int, parents: list[tuple[int, str]]) -> str:
    """One narrative line; ``parents`` are (line number, relation) of earlier lines it depends on."""
    lang = attrs.get("language") if attrs.get("language") in _WHO else "en"
    kind = attrs.get("kind", "user_input")
    who = _WHO[lang].get(kind, kind)
    meta = attrs.get("meta") or {}
    if kind == "tool_result" and meta.get("tool"):
        who += f"({meta['tool']})"
    speaker = meta.get("speaker")
    if speaker and kind == "user_input" and not str(attrs.get("content", "")).startswith(f"{speaker}:"):
        who = f"{who} {speaker}"
    when = meta.get("date")
    prefix = ""
    if parents:
        # one connective, for the strongest relation, naming its nearest lines: listing every
        # parent cost up to half of a Chinese budget in references (CrossWOZ bench)
        relation = min((r for _, r in parents), key=lambda r: _PRIORITY.get(r, 9))
        refs = sorted((n for n, r in parents if r == relation), reverse=True)[:MAX_REFS]
        if relation == "temporal" and refs == [number - 1]:
            prefix = _THEN[lang]  # "then" after the line just above needs no reference
        else:
            joiner = "、" if lang == "zh" else ", "
            prefix = _CONNECTIVE[lang][relation].format(refs=joiner.join(f"[{n}]" for n in sorted(refs)))
    sep = "：" if lang == "zh" else ": "
    date = f"({when}) " if when else ""
    return f"[{number}] {date}{prefix}{who}{sep}{attrs.get('content', '')}"


def render(g: nx.DiGraph, ordered: list[str], language: str | None = None, connectives: str = "all") -> str:
    """The context text for nodes already in causal order.

    ``connectives``: "all", "logic" (only causal and conditional links) or "none" — retrieval
    picks the richest level that fits the budget, so a link never costs a memory its place.
    """
    if not ordered:
        return ""
    if language not in HEADERS:
        langs = [g.nodes[n].get("language", "en") for n in ordered]
        language = "zh" if langs.count("zh") * 2 >= len(langs) else "en"
    number = {n: i + 1 for i, n in enumerate(ordered)}
    lines = [HEADERS[language]]
    for n in ordered:
        parents = [
            (number[p], g.edges[p, n].get("relation", "temporal"))
            for p in g.predecessors(n)
            if p in number and number[p] < number[n] and g.edges[p, n].get("status") != "rejected"
            and (connectives == "all" or (connectives == "logic" and g.edges[p, n].get("relation") in _LOGIC))
        ]
        lines.append(line_for(g.nodes[n], number[n], sorted(parents)))
    return "\n".join(lines)


def estimate_line_tokens(attrs: dict) -> int:
    """Tokens of the node's line without a connective (exact for line numbers up to 999)."""
    return count_tokens(line_for(attrs, 10, []))
