"""Agent steps within one turn: what a thought, a tool call's result or a reply follows (no guess needed).

An agent loop is a chain of steps inside the turn a user message opens; which step follows which, and how, is
known from the steps' kinds and order, so the builder links them before it asks the link model anything.
"""

from __future__ import annotations

from ..models import MemoryNode

__all__ = ["KIND_RELATIONS", "process_parent", "steps_of_one_turn"]

_STEPS = ("agent_thought", "tool_result", "agent_response")  # what an agent does in a turn, after the message

# the relation between agent steps follows from what the steps are (no guess needed)
KIND_RELATIONS: dict[tuple[str, str], str] = {
    ("agent_thought", "tool_result"): "temporal",  # the result of the call the thought made
    ("tool_result", "agent_response"): "causal",  # the reply reports the result
    ("tool_result", "agent_thought"): "causal",  # the next step reacts to the result
    ("user_input", "agent_thought"): "causal",  # the agent thinks because the user asked
    ("agent_thought", "agent_response"): "temporal",
    ("agent_thought", "agent_thought"): "temporal",
    ("tool_result", "tool_result"): "temporal",
}


def process_parent(node: MemoryNode, window: list[MemoryNode]) -> tuple[int, str, str] | None:
    """The step an agent's thought, tool result or reply follows within its turn: (window index, relation, why).

    An agent loop is a chain: a thought or a call follows the step just before it (a thought reacts to the tool
    result it read), and the first step follows the user message that opened the turn. A reply's first step is
    left to the link model (in a plain dialogue it may answer an older turn). None across turns. The builder
    takes it only when the content backs the pair: an agent may turn to another task within one turn.

    >>> n = lambda i, kind, turn: MemoryNode(f"n{i}", "", kind, turn, f"m{i}")
    >>> w = [n(0, "user_input", 1), n(1, "agent_thought", 1), n(2, "tool_result", 1)]
    >>> process_parent(n(3, "agent_thought", 1), w), process_parent(w[1], w[:1])
    ((2, 'causal', 'reasons from the tool result just before it in this turn'), (0, 'causal', 'the request that opened this turn'))
    >>> process_parent(n(3, "agent_response", 1), w[:1]) is None, process_parent(n(3, "agent_thought", 2), w) is None
    (True, True)
    """
    if node.kind not in _STEPS:
        return None
    for i in range(len(window) - 1, -1, -1):
        parent = window[i]
        if parent.turn != node.turn:
            return None
        if parent.kind in ("agent_thought", "tool_result"):
            what = "reasons from the tool result" if parent.kind == "tool_result" else "follows the thought"
            return i, KIND_RELATIONS.get((parent.kind, node.kind), "temporal"), f"{what} just before it in this turn"
        if parent.kind == "user_input" and node.kind != "agent_response":
            return i, KIND_RELATIONS.get(("user_input", node.kind), "conditional"), "the request that opened this turn"
        if parent.kind != "user_input":
            return None
    return None


def steps_of_one_turn(parent: MemoryNode, child: MemoryNode) -> bool:
    """Two agent steps of the same turn (a thought, its call's result, the reply): one process, always linked."""
    return parent.kind in _STEPS and child.kind in _STEPS and parent.turn == child.turn
