"""A bare "nearby" ("附近有什么景点" / "Any sights nearby?") means near the place talked about last.

Found driving the agent: after "a hotel near Tiananmen" and then "a restaurant near Wangfujing", "附近有什么景点"
searched sights near Tiananmen (the hotel's older place), and with no hotel asked for before it searched all of
Beijing (465 sights). And the guessed "refers to the place put forward" link took the agent's acknowledgement of a
diet ("记下了：不再忌口牛肉。之后的推荐都会考虑这些。") for the place in focus: its "推荐" (recommend) is a cue word,
but it puts no place forward.
"""

from __future__ import annotations

import pytest

from agent_chat import chat_turn
from weaver.agent import TravelAgent
from weaver.relations.references import in_focus

CHATS = {
    "zh": ("我们两个人五月一号到三号去北京。", "帮我找天安门附近的酒店", "帮我找王府井附近的餐厅", "附近有什么景点"),
    "en": (
        "Two of us in Beijing from May 1st to May 3rd.",
        "Find a hotel near Tiananmen.",
        "Find a restaurant near Wangfujing.",
        "Any sights nearby?",
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_bare_nearby_searches_around_the_place_said_last(runtime, lang):
    agent = TravelAgent(runtime.open(f"near-{lang}"))
    trip, hotel, restaurant, sights = CHATS[lang]
    chat_turn(agent, trip)
    _, calls, _ = chat_turn(agent, hotel)
    assert calls[0]["arguments"]["near"] == "天安门广场"
    _, calls, _ = chat_turn(agent, restaurant)
    assert calls[0]["arguments"]["near"] in ("王府井", "Wangfujing")
    _, calls, _ = chat_turn(agent, sights)
    assert calls[0]["tool"] == "search_attractions"
    assert calls[0]["arguments"].get("near") in ("王府井", "Wangfujing"), calls


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_bare_nearby_with_nothing_said_before_is_near_the_restaurant_area(runtime, lang):
    agent = TravelAgent(runtime.open(f"near-first-{lang}"))
    _, restaurant, sights = CHATS[lang][0], CHATS[lang][2], CHATS[lang][3]
    chat_turn(agent, restaurant)
    _, calls, _ = chat_turn(agent, sights)
    assert calls[0]["arguments"].get("near") in ("王府井", "Wangfujing"), calls


def test_a_cue_word_puts_forward_only_what_the_message_names_or_points_at():
    assert in_focus("那就选这家吧") and in_focus("I recommend the Peking Hotel.")
    assert in_focus("Let's go with that one.") and in_focus("推荐您去北京杜莎夫人蜡像馆。")
    assert not in_focus("记下了：不再忌口牛肉。之后的推荐都会考虑这些。")
    assert not in_focus("Noted: you no longer avoid meat. I will apply this to what I suggest.")
    # asking why a place was recommended puts no place forward
    assert not in_focus("为什么推荐这家酒店？") and not in_focus("Why did you recommend this hotel?")


@pytest.mark.parametrize(
    "lang, turns",
    [
        ("zh", ("帮我找天安门附近的酒店", "为什么推荐这家酒店？", "帮我找天安门附近的酒店，每晚不超过八百")),
        (
            "en",
            (
                "Find a hotel near Tiananmen.",
                "Why did you recommend this hotel?",
                "Find a hotel near Tiananmen under 800.",
            ),
        ),
    ],
)
def test_a_why_question_is_no_place_a_later_request_refers_to(runtime, lang, turns):
    w = runtime.open(f"why-{lang}")
    agent = TravelAgent(w)
    for text in turns:
        chat_turn(agent, text)
    users = sorted((n for n in w.nodes.values() if n.kind == "user_input"), key=lambda n: n.turn)
    why, last = users[-2], users[-1]
    assert not w.graph.has_edge(why.id, last.id), w.graph.edges[why.id, last.id]


@pytest.mark.parametrize(
    "lang, turns",
    [
        ("zh", ("我朋友不吃牛肉。", "其实我朋友现在也吃牛肉了", "附近有什么景点")),
        ("en", ("My friend doesn't eat beef.", "Actually my friend eats beef now.", "Any sights nearby?")),
    ],
)
def test_an_acknowledgement_is_no_place_a_later_nearby_refers_to(runtime, lang, turns):
    w = runtime.open(f"ack-{lang}")
    agent = TravelAgent(w)
    for text in turns:
        chat_turn(agent, text)
    last = max((n for n in w.nodes.values() if n.kind == "user_input"), key=lambda n: n.turn)
    guessed = [(u, d) for u, _, d in w.graph.in_edges(last.id, data=True) if d.get("origin") == "rules"]
    assert not any(w.nodes[u].kind == "agent_response" for u, _ in guessed), [
        (w.nodes[u].content, d["relation"], d.get("why")) for u, d in guessed
    ]
