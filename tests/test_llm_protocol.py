"""One LLM call for every task: ``complete(messages, schema) -> Completion`` with its provenance, against a real
OpenAI-protocol server on 127.0.0.1 (tests/openai_server.py)."""

from __future__ import annotations

import json

from weaver import Runtime
from weaver.backends.base import Completion
from weaver.backends.openai_llm import OpenAIReasoner
from weaver.prompts import FilterScores

GOOD = '{"relevance": 5, "novelty": 4, "importance": 5, "reason": "a budget"}'


def test_complete_returns_the_validated_reply_with_provenance(llm_settings, embedder, openai_stub):
    rt = Runtime.from_settings(llm_settings, embedder=embedder)
    reasoner = rt.reasoner
    assert isinstance(reasoner, OpenAIReasoner) and reasoner.kind == "llm"
    openai_stub.push(GOOD)
    c = reasoner.complete([{"role": "user", "content": "score this"}], FilterScores)
    assert isinstance(c, Completion) and c.ok and isinstance(c.parsed, FilterScores)
    assert (c.parsed.relevance, c.backend, c.model, c.calls, c.error) == (5.0, "openai", llm_settings.llm_model, 1, "")
    assert c.tokens > 0

    openai_stub.push("not json", "still not json")  # asked once more, then it gives up: both calls counted
    c = reasoner.complete([{"role": "user", "content": "score this"}], FilterScores)
    assert not c.ok and c.calls == 2 and c.error.startswith("invalid reply")

    openai_stub.push(*[{"status": 500, "message": "down, key sk-test-secret-123"}] * 3)  # after the SDK's retries
    c = reasoner.complete([{"role": "user", "content": "score this"}], FilterScores)
    assert not c.ok and "InternalServerError" in c.error and "sk-test-secret-123" not in c.error


def _replies(summary: str):
    """The stub's answer to every call one tool message causes: the filter keeps it, the builder relates nothing,
    and ``summary`` answers the tool summary (the one call the tests vary)."""

    def reply(body):
        system = body["messages"][0]["content"]
        if "memory filter" in system:
            return GOOD
        if "dependency graph" in system:
            return json.dumps({"relations": []})
        return summary

    return reply


def test_the_tool_summary_call_is_counted_on_its_message(llm_settings, embedder, openai_stub):
    openai_stub.default = _replies('{"summary": "12 hotels near Wangfujing, 380-450 yuan a night"}')
    w = Runtime.from_settings(llm_settings, embedder=embedder).open("summary")
    rows = [{"name": f"酒店{i}", "price": 380 + i * 7, "area": "王府井", "rating": 4.5} for i in range(12)]
    before = len(openai_stub.requests)
    res = w.ingest(json.dumps(rows, ensure_ascii=False), "tool_result", meta={"tool": "hotel_search"})
    chats = [r for r in openai_stub.requests[before:] if r["path"].endswith("/chat/completions")]
    summaries = [r for r in chats if "summar" in r["body"]["messages"][0]["content"].lower()]
    assert len(summaries) == 1 and res.node.meta["summary"].startswith("12 hotels")
    # every chat request this message caused is on its decision: the summary's included
    assert res.decision.llm_calls == len(chats)
    assert res.decision.llm_tokens >= sum(1 for _ in chats)


def test_a_summary_that_fails_is_counted_and_the_message_still_woven(llm_settings, embedder, openai_stub):
    openai_stub.default = _replies("I cannot summarise that")
    w = Runtime.from_settings(llm_settings, embedder=embedder).open("summary-fails")
    before = len(openai_stub.requests)
    res = w.ingest(
        json.dumps([{"name": f"店{i}", "price": i} for i in range(60)]),
        "tool_result",
        meta={"tool": "restaurant_search"},
    )
    chats = [r for r in openai_stub.requests[before:] if r["path"].endswith("/chat/completions")]
    assert res.kept and "summary" not in res.node.meta and res.decision.llm_calls == len(chats) >= 3
