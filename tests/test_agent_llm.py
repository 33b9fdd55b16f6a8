"""LLM mode against a real OpenAI-protocol HTTP server on 127.0.0.1 issuing real tool calls."""

import pytest

from weaver.agent import TravelAgent
from weaver.backends.openai_llm import make_client


@pytest.fixture
def agent(weaver, llm_settings):
    # the weaver itself stays on the rules backend; only the agent talks to the endpoint
    return TravelAgent(weaver, llm_client=make_client(llm_settings), model="stub-model")


def test_function_calling_with_memory_in_the_system_prompt(agent, openai_stub, weaver):
    openai_stub.push("Noted, no seafood.")
    first = list(agent.run("I'm allergic to seafood.", message_id="l1"))
    assert first[-1].type == "reply" and first[-1].text == "Noted, no seafood."
    openai_stub.push(
        {
            "tool_calls": [{"name": "search_restaurants", "arguments": {"near": "Wangfujing", "avoid": ["seafood"]}}],
            "content": "I will search restaurants near Wangfujing without seafood.",
        },
        "Try 稻香村(灯市口店).",
    )
    events = list(agent.run("Where can I have dinner near Wangfujing?", message_id="l2"))
    assert [e.type for e in events] == ["user", "memory", "thought", "tool_call", "tool_result", "reply"]
    memory, thought, call, result, reply = events[1:]
    assert thought.text.startswith("I will search") and call.data["arguments"]["avoid"] == ["seafood"]
    assert result.data["count"] > 0 and all("虾" not in d for r in result.data["rows"] for d in r["推荐菜"])
    assert reply.text == "Try 稻香村(灯市口店)." and reply.data["memory_ids"] == memory.data["node_ids"]
    # the retrieved narrative went into the system prompt, the tools as JSON schemas
    req1, req2 = openai_stub.chat_requests()[-2:]
    system = req1["messages"][0]["content"]
    assert "allergic to seafood" in system and "Beijing only" in system
    assert {t["function"]["name"] for t in req1["tools"]} >= {"search_restaurants", "search_hotels", "book_hotel"}
    tool_msg = [m for m in req2["messages"] if m["role"] == "tool"]
    assert tool_msg and "稻香村" in tool_msg[0]["content"]
    # the result is memory, linked to its thought; the reply records the memory it was given
    t_id, r_id = thought.data["ingest"]["node_id"], result.data["ingest"]["node_id"]
    assert weaver.graph.edges[t_id, r_id]["relation"] == "temporal"
    assert weaver.nodes[reply.data["ingest"]["node_id"]].meta["memory_ids"] == memory.data["node_ids"]


def test_endpoint_failure_gives_an_error_event_then_an_offline_reply(agent, openai_stub):
    openai_stub.push({"status": 500}, {"status": 500}, {"status": 500})
    events = list(agent.run("hotels near the Temple of Heaven"))
    types = [e.type for e in events]
    assert "error" in types and types[-1] == "reply"
    assert any(e.type == "tool_call" and e.data["arguments"].get("near") == "天坛" for e in events)


def test_bad_tool_calls_are_reported_and_the_model_recovers(agent, openai_stub):
    openai_stub.push(
        {"tool_calls": [{"name": "teleport", "arguments": {}}, {"name": "search_hotels", "arguments": "oops"}]},
        "Sorry, let me answer without tools.",
    )
    events = list(agent.run("find me a hotel"))
    errors = [e for e in events if e.type == "error"]
    assert len(errors) == 2 and events[-1].text == "Sorry, let me answer without tools."
    tool_msgs = [m for m in openai_stub.chat_requests()[-1]["messages"] if m["role"] == "tool"]
    assert len(tool_msgs) == 2 and all("error" in m["content"] for m in tool_msgs)


def test_empty_model_reply_falls_back(agent, openai_stub):
    openai_stub.push("")
    events = list(agent.run("故宫门票多少钱？"))
    assert any(e.type == "error" for e in events) and "¥60" in events[-1].text


def test_a_five_megabyte_reply_is_cut_and_the_turn_still_ends_with_a_reply(agent, openai_stub, weaver):
    from weaver.agent.loop import MAX_STEP_CHARS

    huge = "The Wangfujing hotel costs 400 yuan per night. " * 110_000  # ~5.2 MB
    assert len(huge) > 5_000_000
    openai_stub.push(
        {"tool_calls": [{"name": "search_hotels", "arguments": {"near": "王府井"}}], "content": huge}, huge
    )
    events = list(agent.run("Find me a hotel near Wangfujing.", message_id="big"))
    assert events[-1].type == "reply" and not [e for e in events if e.type == "error"]
    reply, thought = events[-1], next(e for e in events if e.type == "thought")
    for ev in (reply, thought):  # cut, and saying so, in the chat and in memory
        assert len(ev.text) < MAX_STEP_CHARS + 200 and ev.text.startswith("The Wangfujing hotel")
        assert f"cut: {len(huge.strip()):,} characters, the first {MAX_STEP_CHARS:,} kept" in ev.text
        assert weaver.decisions[ev.data["ingest"]["message_id"]].content == ev.text
    # a rerun replays the stored turn, cut the same way
    assert [e.text for e in agent.run("Find me a hotel near Wangfujing.", message_id="big")][-1] == reply.text
