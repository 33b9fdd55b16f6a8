"""LLM mode of curation against the local OpenAI-protocol server: the review model, fallback, few-shot corrections."""

from __future__ import annotations

import dataclasses
import json

from test_curation import weave
from test_curation_review import CHANGED

from weaver import Runtime


def _labels(body: dict) -> tuple[dict, dict]:
    data = json.loads(body["messages"][1]["content"])
    return data["memories"], data["edges"]


def _is_review(body: dict) -> bool:
    return body["messages"][0]["content"].startswith("You review the dependency graph")


def test_llm_review_uses_the_review_model_and_queues_checked_proposals(runtime, llm_settings, openai_stub, embedder):
    w = runtime.open("llm-review")  # woven offline; reviewed by the model
    w.config = w.config.with_(
        supersede_on_arrival=False
    )  # a space woven before supersede on arrival: the review pass finds the change
    ids = weave(w, "en")
    new = w.ingest(CHANGED["en"], "user_input").node.id
    human_edge = next(iter(w.graph.in_edges(ids["plan"])))
    w.curation.set_edge(*human_edge, "conditional", "curator")
    other_edge = next(e for e in w.graph.edges if e != human_edge and w.graph.edges[e]["origin"] != "human")

    def reply(body):
        assert _is_review(body)
        memories, edges = _labels(body)
        label = {m["text"]: k for k, m in memories.items()}
        by_pair = {(e["source"], e["target"]): k for k, e in edges.items()}
        lab = lambda nid: label[w.nodes[nid].content]  # noqa: E731
        return json.dumps(
            {
                "proposals": [
                    {
                        "action": "supersede",
                        "node": lab(ids["budget"]),
                        "by": lab(new),
                        "confidence": 0.96,
                        "rationale": "the budget was raised",
                    },
                    {
                        "action": "relabel",
                        "edge": by_pair[(lab(human_edge[0]), lab(human_edge[1]))],
                        "relation": "causal",
                        "confidence": 0.99,
                    },
                    {
                        "action": "prune",
                        "edge": by_pair[(lab(other_edge[0]), lab(other_edge[1]))],
                        "confidence": 0.6,
                        "rationale": "not a dependency",
                    },
                    # the curator's edge reversed: a cycle
                    {"action": "add", "source": lab(human_edge[1]), "target": lab(human_edge[0]), "relation": "causal"},
                    {"action": "relabel", "edge": "E999", "relation": "causal"},
                ]
            }
        )

    openai_stub.push(reply)
    rt = Runtime.from_settings(dataclasses.replace(llm_settings, review_model="review-strong"), embedder=embedder)
    lw = rt.open("llm-review")
    summary = lw.curation.review()

    reqs = openai_stub.chat_requests()
    assert len(reqs) == 1 and reqs[0]["model"] == "review-strong"
    assert "sk-test-secret-123" not in json.dumps(reqs[0])
    assert summary.mode == "llm" and summary.model == "review-strong" and summary.llm_calls == 1
    assert summary.invalid == 2  # the cycle and the unknown edge label
    assert summary.skipped_human == 1  # the curator's edge is left alone
    # the sure proposal applied itself (undoable); the unsure one waits with its evidence
    assert lw.nodes[ids["budget"]].status == "superseded"
    assert lw.curation.log.by_id(summary.applied[0]).actor == "review"
    queued = [lw.curation.queue[i] for i in summary.queued]
    assert [(q.kind, q.source, q.target, q.origin) for q in queued] == [("prune", *other_edge, "review-llm")]
    assert queued[0].evidence["source"]["text"] == w.nodes[other_edge[0]].content
    assert "not a dependency" in queued[0].rationale
    assert lw.graph.edges[human_edge]["relation"] == "conditional"
    assert lw.curation.verify() == []
    # the human corrections went to the reviewer as examples
    assert "Curators corrected" in reqs[0]["messages"][0]["content"]


def test_llm_review_falls_back_to_rules_on_a_bad_reply(runtime, llm_settings, openai_stub, embedder):
    w = runtime.open("llm-fallback")
    w.config = w.config.with_(
        supersede_on_arrival=False
    )  # a space woven before supersede on arrival: the review pass finds the change
    ids = weave(w, "zh")
    w.ingest(CHANGED["zh"], "user_input")
    openai_stub.push("I think the graph looks fine!", '```json\n{"proposals": [{"action": "explode"}]}\n```')
    lw = Runtime.from_settings(llm_settings, embedder=embedder).open("llm-fallback")
    summary = lw.curation.review(apply=False)
    assert summary.mode == "rules (fallback)" and "invalid reply" in summary.fallback
    assert summary.llm_calls == 2
    assert any(i.kind == "supersede" and i.target == ids["budget"] for i in lw.curation.items())
    assert "LLM failed" in summary.text()


def test_llm_builder_gets_human_corrections_as_few_shot_examples(llm_settings, openai_stub, embedder):
    def reply(body):
        system = body["messages"][0]["content"]
        if system.startswith("You build the dependency graph"):
            cands = json.loads(body["messages"][1]["content"])["candidates"]
            return json.dumps({"relations": [{"candidate": c, "relation": "causal", "confidence": 0.8} for c in cands]})
        return '{"relevance": 5, "novelty": 5, "importance": 5, "reason": "keep"}'

    openai_stub.default = reply
    w = Runtime.from_settings(llm_settings, embedder=embedder).open("llm-learn")
    w.config = w.config.with_(review_every=0)
    ids = weave(w, "en")
    assert not any("Curators" in r["messages"][0]["content"] for r in openai_stub.chat_requests())
    w.curation.set_edge(ids["budget"], ids["plan"], "conditional", "plans hold under constraints")
    n = len(openai_stub.chat_requests())
    w.ingest("Because of the budget, I should pick a cheaper hotel.", "agent_thought")
    prompts = [
        r["messages"][0]["content"]
        for r in openai_stub.chat_requests()[n:]
        if r["messages"][0]["content"].startswith("You build the dependency graph")
    ]
    assert prompts and "Curators of this memory corrected" in prompts[0]
    example = json.loads(prompts[0].split("\n")[-1])
    assert example == [
        {
            "earlier": {"kind": "user_input", "text": w.nodes[ids["budget"]].content},
            "new": {"kind": "agent_thought", "text": w.nodes[ids["plan"]].content},
            "relation": "conditional",
        }
    ]
