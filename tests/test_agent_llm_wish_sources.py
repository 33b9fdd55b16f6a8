"""LLM mode links a model's dish, cuisine and meal arguments to the messages that asked for them, as it links money
bounds, avoided foods, the party and dates (``test_agent_llm_provenance``): ``search_restaurants(dishes=["烤鸭"])``
after "我想尝尝北京烤鸭" gets a ``conditional`` edge (origin ``agent``, confidence 1.0) from that message. A value no
memory asked for (the model's own), a dish the user has since said they do not eat, or a meal other than the one
said last gets none. Driven against the real OpenAI-protocol server on 127.0.0.1 issuing real tool calls.
"""

from __future__ import annotations

import pytest

from test_agent_llm_provenance import _conditions, _say
from weaver.agent import TravelAgent
from weaver.backends.openai_llm import make_client

CHAT = {
    "zh": {
        "dish": "我想尝尝北京烤鸭。",
        "cuisine": "我们俩都喜欢川菜。",
        "dinner": "晚饭推荐一家王府井附近的餐厅。",
        "dinner_args": {"near": "王府井", "dishes": ["烤鸭"], "cuisine": ["sichuan"], "meal": "dinner"},
        "off": "我们不吃烤鸭了。",
        "again": "再推荐一家餐厅。",
        "again_args": {"dishes": ["烤鸭", "火锅"], "cuisine": ["cantonese"], "meal": "lunch"},
        "ok": "好的。",
    },
    "en": {
        "dish": "I'd love to try Peking duck.",
        "cuisine": "We both love Sichuan food.",
        "dinner": "Dinner near Wangfujing?",
        "dinner_args": {"near": "Wangfujing", "dishes": ["roast duck"], "cuisine": ["sichuan"], "meal": "dinner"},
        "off": "We don't eat roast duck.",
        "again": "Recommend another restaurant.",
        "again_args": {"dishes": ["Peking duck", "hotpot"], "cuisine": ["cantonese"], "meal": "lunch"},
        "ok": "OK.",
    },
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_dish_cuisine_and_meal_arguments_link_the_messages_that_asked_for_them(
    runtime, llm_settings, openai_stub, lang
):
    c = CHAT[lang]
    w = runtime.open(f"llm-wish-{lang}")
    agent = TravelAgent(w, llm_client=make_client(llm_settings), model="stub-model")
    say = lambda text, mid, call=None: _say(agent, openai_stub, c[text], f"w{lang}-{mid}", call, c["ok"])  # noqa: E731
    dish, _ = say("dish", "1")
    cuisine, _ = say("cuisine", "2")
    assert {dish, cuisine} <= set(w.nodes)

    dinner, res = say("dinner", "3", ("search_restaurants", c["dinner_args"]))
    assert w.nodes[res].meta["argument_sources"] == {
        "near": [dinner],
        "dishes": [dish],
        "cuisine": [cuisine],
        "meal": [dinner],
    }
    edges = _conditions(w, res)
    assert set(edges) == {dish, cuisine, dinner}, edges
    assert all(d["origin"] == "agent" and d["confidence"] == 1.0 for d in edges.values())
    assert "dishes=" in edges[dish]["rationale"] and "cuisine=" in edges[cuisine]["rationale"]

    # the duck is off the menu now; hotpot, Cantonese food and lunch nobody asked for: the model's own, unlinked
    say("off", "4")
    _, res = say("again", "5", ("search_restaurants", c["again_args"]))
    assert not _conditions(w, res) and "argument_sources" not in w.nodes[res].meta
