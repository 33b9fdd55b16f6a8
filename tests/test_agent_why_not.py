""" "Why not X?" says what left X out of the last search, from that search's own conditions, not the result's story.

"为什么没推荐烤鸭店？" / "why no Peking duck place?": the condition that excludes every roast-duck place
(a budget, the place, a diet) is named in words; when X fits every condition it simply ranked lower, and the
reply says how many fit. Nothing is searched (no tool call shown), and the answer quotes the search it explains.
"""

from __future__ import annotations

import pytest

from agent_chat import chat_turn

from weaver.agent import TravelAgent

EXCLUDED = {
    "zh": ("帮我找故宫附近人均50以内的餐厅", "为什么没推荐烤鸭店？", "人均不超过50元", "排除"),
    "en": (
        "Find a restaurant near the Forbidden City under 50 per person.",
        "why no Peking duck place?",
        "at most ¥50 per person",
        "left it out",
    ),
}
RANKED = {
    "zh": ("帮我找故宫附近人均100以内的餐厅", "为什么没推荐烤鸭店？", "排名在我推荐的那几家之后"),
    "en": (
        "Find a restaurant near the Forbidden City under 100 per person.",
        "why not a roast duck place?",
        "ranked below the ones I showed",
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_why_not_names_the_condition_that_left_it_out(runtime, lang):
    asked, why, condition, said = EXCLUDED[lang]
    agent = TravelAgent(runtime.open(f"why-not-{lang}"))
    chat_turn(agent, asked)
    reply, calls, _ = chat_turn(agent, why)
    assert calls == [] and condition in reply and said in reply, reply
    assert "根据记忆里的经过" not in reply and "From memory, this is what happened" not in reply
    # the database agrees: no roast-duck place near 故宫 fits the budget, and without the budget some do
    box = agent.tools
    assert box.run("search_restaurants", {"near": "故宫", "cost": "0-50", "dishes": ["烤鸭"]}).count == 0
    assert box.run("search_restaurants", {"near": "故宫", "dishes": ["烤鸭"]}).count > 0


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_why_not_says_it_simply_ranked_lower_when_it_fits_every_condition(runtime, lang):
    asked, why, said = RANKED[lang]
    agent = TravelAgent(runtime.open(f"why-ranked-{lang}"))
    _, _, results = chat_turn(agent, asked)
    shown = {r["名称"] for r in results[-1]["rows"]}
    reply, calls, _ = chat_turn(agent, why)
    fit = agent.tools.run("search_restaurants", {"near": "故宫", "cost": "0-100", "dishes": ["烤鸭"]})
    assert calls == [] and fit.count > 0 and not shown & {r["名称"] for r in fit.rows}
    assert said in reply and str(fit.count) in reply, reply


def test_why_not_a_named_place_points_at_the_diet_that_rules_it_out(runtime):
    agent = TravelAgent(runtime.open("why-not-diet"))
    chat_turn(agent, "我吃素。")
    chat_turn(agent, "王府井附近有什么餐厅？")
    reply, calls, _ = chat_turn(agent, "为什么没推荐全聚德？")
    assert calls == [] and "荤菜（素食）" in reply and "本身就排除了它" in reply, reply
