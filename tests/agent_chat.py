"""One chat turn through the travel agent, for the chat tests: the reply, the tool calls and their results."""

from __future__ import annotations


def chat_turn(agent, text):
    events = list(agent.run(text))
    assert events[-1].type == "reply"
    calls = [e.data for e in events if e.type == "tool_call"]
    results = [e.data for e in events if e.type == "tool_result"]
    return events[-1].text, calls, results
