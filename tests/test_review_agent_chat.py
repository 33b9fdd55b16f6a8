"""The review pass after a chat through the travel agent: its queue holds what a curator would accept.

Before, a 13-turn chat left about a dozen proposals a curator rejects, every one: ``conditional`` edges between two
"记下了…" / "Noted…" acknowledgements or two hotel-search thoughts (similar text, a slot word in common), and the
pruning of the agent's own declared links ("I don't eat pork" -> search_restaurants(avoid=['pork']): barely similar).
Chats of our own, not the demo scripts.
"""

from __future__ import annotations

import pytest
from agent_chat import chat_turn

from weaver.agent import TravelAgent
from weaver.slots import read_slots

CHATS = {
    "zh": [
        "我想七月一号去上海，住四天。",
        "就我一个人。",
        "每晚住宿不超过五百。",
        "我不吃辣。",
        "帮我找外滩附近的酒店。",
        "午饭推荐一个地方。",
        "其实预算可以到每晚八百。",
        "再找一家外滩附近的酒店。",
        "我几号出发？",
        "好的",
    ],
    "en": [
        "We are a family of three.",
        "Dates: August 10 to August 14.",
        "Budget 5000 yuan total.",
        "We are vegan.",
        "Change the budget to 7500 yuan.",
        "Find a hotel near the Temple of Heaven.",
        "And a restaurant nearby for lunch?",
        "Book that hotel.",
        "How many of us are travelling?",
        "What's the budget now?",
        "Any diet rules I gave you?",
    ],
}


def _values(text):
    return {v.key for v in read_slots(text) if v.value is not None}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_review_after_an_agent_chat_proposes_nothing_a_curator_rejects(runtime, lang):
    w = runtime.open(f"review-chat-{lang}")
    agent = TravelAgent(w)
    for text in CHATS[lang]:
        chat_turn(agent, text)
    w.curation.review(apply=False)
    g, items = w.graph, list(w.curation.queue.values())
    declared = {(u, v) for u, v, d in g.edges(data=True) if d.get("origin") == "agent"}
    assert declared  # the agent declared its steps' provenance
    for i in items:
        if i.kind == "prune":  # similarity is no evidence against what the agent used
            assert (i.source, i.target) not in declared, i.rationale
        if i.kind == "add":
            assert not any((p, i.target) in declared for p in g.pred[i.target]), i.rationale
            src, dst = w.nodes[i.source], w.nodes[i.target]
            assert _values(src.content) & _values(dst.content), (src.content, dst.content)
            if i.relation == "conditional":  # holds under a constraint: a user's statement of the slot
                assert src.kind == "user_input"
    acks = {n.id for n in w.nodes.values() if n.kind == "agent_response"}
    assert not [i for i in items if i.kind == "add" and i.source in acks and i.target in acks]
    # what stays is right: the answers given under the superseded value are flagged, as before
    assert any(i.kind == "needs_review" for i in items)
    assert len(items) <= 8, [(i.kind, i.rationale) for i in items]


def test_a_missing_edge_between_two_statements_of_a_slot_is_still_proposed(runtime):
    """Two user requests that state the same place, no path between them: still proposed (not agent steps)."""
    w = runtime.open("review-chat-add")
    agent = TravelAgent(w)
    for text in CHATS["zh"]:
        chat_turn(agent, text)
    w.curation.review(apply=False)
    adds = [
        (w.nodes[i.source].content, w.nodes[i.target].content)
        for i in w.curation.queue.values()
        if i.kind == "add" and i.relation
    ]
    assert ("帮我找外滩附近的酒店。", "再找一家外滩附近的酒店。") in adds
