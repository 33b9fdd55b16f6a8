"""Render ordered memories as a cause-before-effect narrative with relation connectives.

Each node is one line in its own language; a line that depends on an earlier
line says how (因为 / 在…前提下 / 随后 / 具体来说; because / provided that / then /
specifically), naming it by its ``[n]`` label.

>>> import networkx as nx
>>> g = nx.DiGraph()
>>> g.add_node("a", content="我的预算是5000元", kind="user_input", language="zh")
>>> g.add_node("b", content="需要按预算找酒店", kind="agent_thought", language="zh")
>>> g.add_edge("a", "b", relation="conditional", confidence=0.9)
>>> print(render(g, ["a", "b"]))
相关记忆（原因在前，结果在后）：
[1] 用户：我的预算是5000元
在[1]的前提下，思考：需要按预算找酒店
"""

from __future__ import annotations

import networkx as nx

from .text import count_tokens

__all__ = [
    "render",
    "line_for",
    "estimate_line_tokens",
    "LineCosts",
    "date_tokens",
    "date_of",
    "HEADERS",
    "CONNECTIVE_LEVELS",
    "MAX_REFS",
]

HEADERS = {"zh": "相关记忆（原因在前，结果在后）：", "en": "Relevant memory (causes first):"}
CONNECTIVE_LEVELS = ("all", "logic", "none")
_LOGIC = {"causal", "conditional", "supersedes"}
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
        "supersedes": "更新{refs}：",
    },
    "en": {
        "causal": "Because of {refs}, ",
        "conditional": "Provided that {refs}, ",
        "temporal": "Then (after {refs}), ",
        "elaborates": "Specifically (on {refs}), ",
        "supersedes": "Updating {refs}: ",
    },
}
_THEN = {"zh": "随后，", "en": "Then, "}
_PRIORITY = {"supersedes": 0, "causal": 1, "conditional": 2, "elaborates": 3, "temporal": 4}
# a superseded memory is shown only to a question about history, and then says it is no longer current
_EARLIER = {"zh": "（已更新前）", "en": "(earlier, superseded) "}


def _who(attrs: dict, lang: str) -> tuple[str, str]:
    """The speaker label and its separator ("" when the content names its speaker already)."""
    kind = attrs.get("kind", "user_input")
    who = _WHO[lang].get(kind, kind)
    meta = attrs.get("meta") or {}
    if kind == "tool_result" and meta.get("tool"):
        who += f"({meta['tool']})"
    speaker = meta.get("speaker")
    content = str(attrs.get("content", ""))
    if speaker and kind == "user_input":
        if content.startswith((f"{speaker}:", f"{speaker}：")):
            return "", ""  # "Caroline: …" names its speaker already; "User: Caroline: …" wastes tokens
        who = f"{who} {speaker}"
    return who, "：" if lang == "zh" else ": "


def line_for(attrs: dict, label: int | None = None, link: str = "", show_date: bool = True) -> str:
    """One narrative line: ``[label]`` (only on lines a later line refers to), date, link, speaker, content.

    ``show_date``: prefix the memory's ``meta["date"]``; :func:`render` shows a date
    once, on the first of a run of lines that share it.

    >>> line_for({"content": "Ann: I adopted a dog.", "meta": {"speaker": "Ann", "date": "8 May 2023"}}, 2)
    '[2] (8 May 2023) Ann: I adopted a dog.'
    >>> line_for({"content": "预算五千", "language": "zh", "status": "superseded"}, 1)
    '[1] （已更新前）用户：预算五千'
    >>> line_for({"content": "预算再加两千", "language": "zh", "meta": {"now": "总预算≤7000元"}})
    '用户：预算再加两千（即总预算≤7000元）'
    """
    lang = str(attrs["language"]) if attrs.get("language") in _WHO else "en"
    who, sep = _who(attrs, lang)
    when = date_of(attrs)
    date = f"({when}) " if when and show_date else ""
    anchor = f"[{label}] " if label is not None else ""
    earlier = _EARLIER[lang] if attrs.get("status") == "superseded" else ""
    now = (attrs.get("meta") or {}).get("now")  # a change by an amount, with the value it made (at ingest)
    made = (f"（即{now}）" if lang == "zh" else f" (now {now})") if now else ""
    return f"{anchor}{date}{link}{earlier}{who}{sep}{attrs.get('content', '')}{made}"


def _links(g: nx.DiGraph, ordered: list[str], connectives: str) -> list[tuple[str | None, list[int]]]:
    """Per line, the relation it is rendered with and the earlier lines (positions) it names."""
    position = {n: i for i, n in enumerate(ordered)}
    out: list[tuple[str | None, list[int]]] = []
    for n in ordered:
        parents = [  # (each predecessor with its edge's attributes in one step, in predecessors() order)
            (position[p], d.get("relation", "temporal"))
            for p, d in g.pred[n].items()
            if p in position
            and position[p] < position[n]
            and d.get("status") != "rejected"
            and (connectives == "all" or (connectives == "logic" and d.get("relation") in _LOGIC))
        ]
        if not parents:
            out.append((None, []))
            continue
        # one connective, for the strongest relation, naming its nearest lines: listing every
        # parent cost up to half of a Chinese budget in references (CrossWOZ bench)
        relation = min((r for _, r in parents), key=lambda r: _PRIORITY.get(r, 9))
        refs = sorted((i for i, r in parents if r == relation), reverse=True)[:MAX_REFS]
        if relation == "temporal" and refs == [position[n] - 1]:
            refs = []  # "then" after the line just above needs no reference
        out.append((relation, sorted(refs)))
    return out


def render(g: nx.DiGraph, ordered: list[str], language: str | None = None, connectives: str = "all") -> str:
    """The context text for nodes already in causal order.

    A line carries a ``[n]`` label only when a later line refers to it: labels are
    part of what a link costs. ``connectives``: "all", "logic" (only causal and
    conditional links) or "none" — retrieval picks the richest level that fits the
    budget, so a link never costs a memory its place.
    """
    if not ordered:
        return ""
    if language not in HEADERS:
        langs = [g.nodes[n].get("language", "en") for n in ordered]
        language = "zh" if langs.count("zh") * 2 >= len(langs) else "en"
    links = _links(g, ordered, connectives)
    referenced = sorted({i for _, refs in links for i in refs})
    label = {pos: k + 1 for k, pos in enumerate(referenced)}
    lines = [HEADERS[language]]
    shown_date = None
    for pos, (n, (relation, refs)) in enumerate(zip(ordered, links)):
        attrs = g.nodes[n]
        lang = attrs.get("language") if attrs.get("language") in _WHO else "en"
        link = ""
        if relation == "temporal" and not refs:
            link = _THEN[lang]
        elif relation:
            joiner = "、" if lang == "zh" else ", "
            link = _CONNECTIVE[lang][relation].format(refs=joiner.join(f"[{label[i]}]" for i in refs))
        when = date_of(attrs)
        lines.append(line_for(attrs, label.get(pos), link, show_date=when != shown_date))
        shown_date = when or shown_date
    return "\n".join(lines)


def estimate_line_tokens(attrs: dict) -> int:
    """Tokens of the node's bare line (no label, link or date), with the newline before it."""
    return count_tokens(line_for(attrs, show_date=False)) + 1


def date_tokens(attrs: dict) -> int:
    """What showing the node's date adds to its line (paid once per run of lines sharing a date)."""
    if not date_of(attrs):
        return 0
    return count_tokens(line_for(attrs)) - count_tokens(line_for(attrs, show_date=False))


class LineCosts:
    """Each node's :func:`estimate_line_tokens` and :func:`date_tokens`, kept per node id.

    Retrieval prices every candidate (hundreds per query when memories are short): building and counting each
    line again was a fifth of a query's time at 10k nodes. An entry holds while the node's content, status and
    meta are the ones it was priced with (a status change replaces the meta dict): no write has to invalidate it.
    ``store``: the dict to keep entries in (the weaver's mirror keeps one per space).

    >>> costs = LineCosts()
    >>> a = {"content": "预算五千", "language": "zh", "meta": {}}
    >>> costs("n1", a) == (estimate_line_tokens(a), 0)
    True
    >>> a["status"] = "superseded"; costs("n1", a)[0] > estimate_line_tokens({"content": "预算五千", "language": "zh"})
    True
    """

    def __init__(self, store: dict | None = None) -> None:
        self._got: dict = {} if store is None else store

    def __call__(self, nid: str, attrs: dict) -> tuple[int, int]:
        content, meta, status = attrs.get("content"), attrs.get("meta"), attrs.get("status")
        got = self._got.get(nid)
        if got is None or got[0] is not content or got[1] is not meta or got[2] != status:
            got = self._got[nid] = (content, meta, status, estimate_line_tokens(attrs), date_tokens(attrs))
        return got[3], got[4]


def date_of(attrs: dict) -> str | None:
    return (attrs.get("meta") or {}).get("date") or None
