"""Answer "why ...?" from memory: find the event among the retrieved nodes, then walk its causes in the graph.

The event is the one the question names: an entity, else the kind of item ("why this hotel?" explains the
latest hotel result, even when a restaurant search came after it), else the latest result. The chain is the
event's ancestors over the weaver's dependency edges (causal, conditional and the thought -> result step), plus
the constraint memories the agent recorded as the premises of that tool call (``meta["because"]``, and
``meta["set_by"]``: those that set an argument but are linked through an earlier result).
"""

from __future__ import annotations

import re

from .memory import MemoryItem
from .reply_phrases import display_name
from .understanding import Parsed, parse

__all__ = ["explain_why"]

_FAIL = re.compile(r"失败|出错|超出|不够|没有|failed|error|exceed|not found|no price", re.IGNORECASE)


def _target(weaver, items: list[MemoryItem], p: Parsed, current_turn: int) -> MemoryItem | None:
    past = [i for i in items if i.kind in ("tool_result", "agent_response") and i.turn < current_turn]
    if p.failure:
        failed = [i for i in past if i.kind == "tool_result" and (i.meta.get("ok") is False or _FAIL.search(i.content))]
        if failed:
            return max(failed, key=lambda i: i.turn)
    named = [i for i in past if any(e[0] in i.content for e in p.entities)]
    pool = named or _of_domain(weaver, past, p.domain, current_turn) or [i for i in past if i.kind == "tool_result"]
    pool = pool or past
    # the latest result: within a turn, the last call (a widened retry is what the reply showed)
    stamp = {i.id: getattr(weaver.nodes.get(i.id), "timestamp", 0.0) for i in pool}
    return max(pool, key=lambda i: (i.turn, i.kind == "tool_result", stamp[i.id])) if pool else None


def _of_domain(weaver, past: list[MemoryItem], domain: str | None, current_turn: int) -> list[MemoryItem]:
    """The results about the kind of item the question names ("why this hotel?"): the retrieved ones, else any in
    memory (retrieval may have surfaced only a later search of another kind, which is not what is asked about)."""
    if not domain:
        return []
    # what was chosen of that kind is in the plan: its booking in force, else the searches that offered some (a
    # lookup of one item by name, "what's the rating of the first one?", chose nothing)
    in_plan = [
        MemoryItem(n.id, n.content, n.kind, n.turn, dict(n.meta), n.timestamp)
        for n in weaver.nodes.values()
        if n.kind == "tool_result"
        and n.turn < current_turn
        and (n.meta or {}).get("plan_item", {}).get("kind") == domain
        and n.status == "active"
    ]
    if in_plan:
        return in_plan
    hits = [i for i in past if i.kind == "tool_result" and i.meta.get("domain") == domain and _offered(i.meta)]
    if hits:
        return hits
    return [
        MemoryItem(n.id, n.content, n.kind, n.turn, dict(n.meta), n.timestamp)
        for n in weaver.nodes.values()
        if n.kind == "tool_result" and n.turn < current_turn and (n.meta or {}).get("domain") == domain
    ]


def _offered(meta: dict) -> bool:
    """A result that offered places to choose from: a search, not a lookup of one item by its name."""
    return not (meta.get("arguments") or {}).get("name")


def _causes(weaver, node_id: str, depth: int = 3) -> list[str]:
    """The event's ancestors over the dependency edges, ``depth`` hops out; a hop from one tool result to another
    (a widened retry, a lookup of an item a search listed, a booking redone when the party grew) spends none of
    them, so a booking still reaches the search that offered it and the statements that search applied."""
    g = weaver.graph
    seen: list[str] = []
    frontier = [(node_id, 0)]
    while frontier:
        n, spent = frontier.pop(0)
        for parent in g.predecessors(n):
            edge = g.edges[parent, n]
            rel, kind = edge.get("relation"), g.nodes[parent].get("kind")
            if edge.get("status") == "rejected" or parent in seen or parent == node_id:
                continue
            among_results = kind == "tool_result" and g.nodes[n].get("kind") == "tool_result"
            followed = rel in ("causal", "conditional") or kind == "agent_thought"
            if among_results and rel in ("causal", "supersedes", "elaborates"):
                followed, cost = True, 0
            else:
                cost = 1
            if followed and spent + cost <= depth:
                seen.append(parent)
                frontier.append((parent, spent + cost))
    return seen


def _updated_by(weaver, node_id: str) -> list:
    """The later statements that superseded this one (wholly, or one of its values), oldest first."""
    g = weaver.graph
    later = [
        weaver.nodes[v]
        for v in g.successors(node_id)
        if v in weaver.nodes
        and g.edges[node_id, v].get("relation") == "supersedes"
        and g.edges[node_id, v].get("status") != "rejected"
    ]
    return sorted(later, key=lambda n: (n.turn, n.timestamp))


def explain_why(
    weaver, p: Parsed, items: list[MemoryItem], current_turn: int, lang: str
) -> tuple[str | None, list[str]]:
    """(reply text, node ids of the chain); (None, []) when memory holds nothing to explain."""
    target = _target(weaver, items, p, current_turn)
    if target is None:
        return None, []
    chain = set(_causes(weaver, target.id))
    node = weaver.nodes.get(target.id)
    # its premises: the constraints linked to the call, and those that set an argument through an earlier result
    # (recorded, not linked again, to keep the graph sparse)
    said = [*(node.meta.get("because") or []), *(node.meta.get("set_by") or [])] if node else []
    for nid in said:
        if nid in weaver.nodes:
            chain.add(nid)
    # what the user said that set the result: the requests of the searches and bookings that led to it, the
    # statements the call recorded as its premises, and any message stating a constraint; a question on the way
    # ("它门票多少？", "what was my budget?") is linked in the graph but set nothing
    nodes = [weaver.nodes[i] for i in chain]
    acted = {target.turn} | {
        n.turn for n in nodes if n.kind == "tool_result" and ((n.meta or {}).get("plan_item") or _offered(n.meta or {}))
    }
    premises = sorted(
        (
            n
            for n in nodes
            if n.kind == "user_input" and (n.turn in acted or n.id in said or parse(n.content).constraints)
        ),
        key=lambda n: (n.turn, n.timestamp),
    )
    zh = lang == "zh"
    lines = ["根据记忆里的经过：" if zh else "From memory, this is what happened:"]
    for n in premises:
        line = f"- 第{n.turn}轮你说：“{n.content}”" if zh else f'- Turn {n.turn}, you said: "{n.content}"'
        for later in _updated_by(weaver, n.id):  # a premise changed since: say so, or the old value reads as current
            line += (
                f"（后来第{later.turn}轮改为：“{later.content}”）"
                if zh
                else f' (updated in turn {later.turn}: "{later.content}")'
            )
        lines.append(line)
    lines.append(_result_line(target, zh))
    if p.failure and premises:
        lines.append("所以：上面的条件导致了这次失败。" if zh else "So the conditions above led to this failure.")
    elif premises:
        lines.append(
            "所以这个结果是按上面的条件得出的。" if zh else "So that result follows from the conditions above."
        )
    ids = [n.id for n in premises] + [target.id]
    return "\n".join(lines), ids


_KIND_WORDS = {"hotel": ("酒店", "hotel"), "restaurant": ("餐厅", "restaurant"), "attraction": ("景点", "attraction")}


def _result_line(target: MemoryItem, zh: bool) -> str:
    """The result in words ("第5轮搜索酒店：找到6个，推荐了北京崇文门饭店"): a user asking why reads what was found and
    offered, not the call's arguments, which the premises above already say in the user's own words.

    >>> item = MemoryItem("r1", "search_hotels(near=天坛)：共6个结果", "tool_result", 5,
    ...                   {"count": 6, "names": ["北京崇文门饭店", "北京饭店"], "domain": "hotel",
    ...                    "arguments": {"limit": 1}, "ok": True})
    >>> _result_line(item, True), _result_line(item, False)
    ('- 第5轮搜索酒店：找到6个，推荐了北京崇文门饭店', '- Turn 5, hotel search: 6 found; recommended 北京崇文门饭店 (Beijing Chongwenmen Hotel)')
    """
    meta = target.meta or {}
    names = [str(n) for n in meta.get("names") or []]
    if target.kind != "tool_result" or not names or meta.get("ok") is False:
        return (
            f"- 第{target.turn}轮的结果：{target.content}" if zh else f"- Turn {target.turn}, result: {target.content}"
        )
    if meta.get("plan_item"):  # a booking is no search: what was added to the plan
        what = "、".join(names) if zh else ", ".join(display_name(n, "en") for n in names)
        return f"- 第{target.turn}轮加入行程：{what}" if zh else f"- Turn {target.turn}, added to your plan: {what}"
    shown = names[: max(1, int((meta.get("arguments") or {}).get("limit") or 3))]
    kind_zh, kind_en = _KIND_WORDS.get(str(meta.get("domain")), ("", ""))
    count = int(meta.get("count") or len(names))
    if zh:
        return f"- 第{target.turn}轮搜索{kind_zh}：找到{count}个，推荐了{'、'.join(shown)}"
    search = f"{kind_en} search" if kind_en else "search"
    return (
        f"- Turn {target.turn}, {search}: {count} found; recommended {', '.join(display_name(n, 'en') for n in shown)}"
    )
