"""A request that sets the agent a task is kept as a memory node, whatever its filter score: it is what the
agent's next steps answer (their cause), not filler. Before, only a request phrased as a question was kept
("Recommend a restaurant for dinner." scored 2.94 and was dropped, while "推荐一家吃晚饭的餐厅" was kept), and a
request asked again ("再帮我找一家…") was dropped as a near-duplicate, leaving the agent's thought a guessed parent.
"""

from __future__ import annotations

import pytest

from agent_chat import chat_turn

from weaver.agent import TravelAgent

REQUESTS = {
    "en": ["Recommend a restaurant for dinner.", "Show me some hotels.", "Suggest a museum."],
    "zh": ["推荐一家吃晚饭的餐厅", "给我看看酒店", "帮忙找个博物馆"],
}
AGAIN = {
    "en": "Find a hotel near Wangfujing.",
    "zh": "帮我找一家王府井附近的酒店。",
}
AGAIN_MORE = {"en": "Find another hotel near Wangfujing.", "zh": "再帮我找一家王府井附近的酒店。"}


def _user_node(events):
    return events[0].data["ingest"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_request_is_kept_and_is_the_cause_of_the_agents_steps(runtime, lang):
    w = runtime.open(f"requests-{lang}")
    agent = TravelAgent(w)
    chat_turn(agent, "我们两个人去北京玩。" if lang == "zh" else "We are two people visiting Beijing.")
    for text in REQUESTS[lang]:
        events = list(agent.run(text))
        got = _user_node(events)
        assert got["kept"], (text, got["reason"])
        node = got["node_id"]
        thought = next(n for n in w.nodes.values() if n.kind == "agent_thought" and n.turn == w.nodes[node].turn)
        edge = w.graph.edges[node, thought.id]  # declared by the agent, not a guess from another turn
        assert edge["origin"] == "agent", edge


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_request_asked_again_is_a_new_event_not_a_duplicate(runtime, lang):
    w = runtime.open(f"requests-again-{lang}")
    agent = TravelAgent(w)
    chat_turn(agent, AGAIN[lang])
    events = list(agent.run(AGAIN_MORE[lang]))
    got = _user_node(events)
    assert got["kept"], got["reason"]
    thought = next(n for n in w.nodes.values() if n.kind == "agent_thought" and n.turn == w.nodes[got["node_id"]].turn)
    assert [u for u in w.graph.predecessors(thought.id)] == [got["node_id"]]


def _after_a_search(runtime, name: str, lang: str, texts: list[str]):
    """Each of ``texts`` said after a hotel search: (text, its filter verdict, whether a tool ran for it)."""
    agent = TravelAgent(runtime.open(name))
    chat_turn(agent, AGAIN[lang])
    out = []
    for text in texts:
        events = list(agent.run(text))
        out.append((text, _user_node(events), any(e.type == "tool_call" for e in events)))
    return out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_courtesy_and_stories_are_still_no_requests(runtime, lang):
    said = {"zh": ["好的谢谢", "哈哈，太好了"], "en": ["Thanks!", "Great, thanks!"]}[lang]
    for text, got, _ in _after_a_search(runtime, f"requests-not-{lang}", lang, said):
        assert not got["kept"], (text, got["reason"])


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_request_for_another_naming_no_kind_is_kept(runtime, lang):
    said = {"zh": ["换一家", "还有别的吗？"], "en": ["Find another one.", "Any others?"]}[lang]
    for text, got, searched in _after_a_search(runtime, f"requests-another-{lang}", lang, said):
        assert got["kept"], (text, got["reason"])
        assert searched, text  # the search it asked for ran
