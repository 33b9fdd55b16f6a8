"""What a traveller says about themselves and about how they like things, read as a person means it, driven
through the offline agent over a real space (helper agent20):

1. Where the user lives ("我住在上海。你去过吗？" / "I live in Shanghai. Have you been?") is no trip there: no
   "no data for Shanghai" answer, and what the same message states (an allergy) still holds for Beijing; a trip
   verb ("我们下周去上海") still makes another city the destination.
2. A walking limit ("步行别超过十分钟") and "别太贵" / "not too expensive" said on their own are remembered and
   applied to a later search (no wider ring than the place's own neighbours; the cheaper half), each said in the
   reply and each linked to the statement that set it.
3. A visit-length limit ("我只有一个小时" / "I only have an hour") is compared with the whole listed visit time
   (游玩时间 is "1小时", "2小时 - 3小时", "3天"...): a place listed at "1小时 - 2小时" does not fit one hour; the
   reply says how many places the limit left out.
"""

from __future__ import annotations

import re

import pytest

from agent_chat import chat_turn
from weaver.agent import TravelAgent
from weaver.agent.db import load_database

HOME = {
    "zh": ("我住在上海，对海鲜过敏。你去过吗？", "推荐王府井附近的餐厅", "上海", "我们下周去上海"),
    "en": (
        "I live in Shanghai and I'm allergic to seafood. Have you been?",
        "Recommend a restaurant near Wangfujing.",
        "Shanghai",
        "We're going to Shanghai next week.",
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_where_the_user_lives_is_no_destination(runtime, lang):
    home, dinner, city, trip = HOME[lang]
    agent = TravelAgent(runtime.open(f"home-{lang}"))
    reply, calls, _ = chat_turn(agent, home)
    # no "I have no data for Shanghai" (the city is named only to say the assistant has not been there)
    assert not calls and "没有上海的数据" not in reply and "no data for" not in reply, reply
    assert reply.startswith("我是AI助手" if lang == "zh" else "I'm an AI assistant"), reply  # "你去过吗？" answered
    _, calls, results = chat_turn(agent, dinner)
    # the allergy said beside the home is a Beijing fact: the search avoids seafood
    assert calls and "seafood" in (calls[0]["arguments"].get("avoid") or []), calls
    assert results[0]["rows"]
    reply, calls, _ = chat_turn(agent, trip)  # a trip verb: another city is the destination, said honestly
    assert not calls and city in reply, reply


WALK = {
    "zh": ("步行别超过十分钟", "别太贵", "帮我找故宫附近的餐厅", "步行", "较低的一半"),
    "en": (
        "I don't want to walk more than 10 minutes.",
        "Not too expensive, please.",
        "Find me a restaurant near the Forbidden City.",
        "walk",
        "cheaper half",
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_walking_limit_and_not_too_expensive_said_alone_apply_later(runtime, lang):
    walk, pricey, search, said_walk, said_half = WALK[lang]
    w = runtime.open(f"walk-{lang}")
    agent = TravelAgent(w)
    events = list(agent.run(walk))
    walk_node = events[0].data["ingest"]["node_id"]
    assert not [e for e in events if e.type == "tool_call"]
    assert "10" in events[-1].text  # noted back
    events = list(agent.run(pricey))
    # the message, or when the weaver kept no node of so short a message, the reply that noted it
    pricey_node = events[0].data["ingest"]["node_id"] or events[-1].data["ingest"]["node_id"]
    assert pricey_node and events[-1].data["noted"] == [{"slot": "not_pricey", "value": True, "scope": "any"}]
    events = list(agent.run(search))
    calls = [e.data for e in events if e.type == "tool_call"]
    assert calls and calls[0]["arguments"].get("walk_minutes") == 10, calls
    assert calls[0]["arguments"].get("cheaper_half") is True, calls
    reply = events[-1].text
    assert said_walk in reply and said_half in reply, reply
    result = next(e.data["ingest"]["node_id"] for e in events if e.type == "tool_result")
    linked = {u for u, _, d in w.graph.in_edges(result, data=True) if d["relation"] == "conditional"}
    assert {walk_node, pricey_node} <= linked, linked


RING = {
    "zh": ("步行别超过十分钟", "鸟巢附近人均30以内的餐厅", "步行"),
    "en": (
        "I don't want to walk more than 10 minutes.",
        "Restaurants near the Bird's Nest, at most 30 per person.",
        "walk",
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_walking_limit_widens_no_further_than_the_places_own_neighbours(runtime, lang):
    """Nothing at 30 a head is listed next to the Bird's Nest, some in the wider ring (places near its neighbours):
    with a walking limit the search does not widen to that ring, and says why."""
    walk, ask, said = RING[lang]
    agent = TravelAgent(runtime.open(f"walk-ring-{lang}"))
    chat_turn(agent, walk)
    reply, calls, results = chat_turn(agent, ask)
    assert calls[0]["arguments"].get("walk_minutes") == 10 and calls[0]["arguments"].get("cost") == "0-30", calls
    assert not any(c["arguments"].get("around") for c in calls) and not any(r["count"] for r in results), calls
    assert said in reply, reply
    # the same search without the limit finds places in the ring: the limit is what kept them out
    wider = agent.tools.run("search_restaurants", {"near": "鸟巢", "cost": "0-30", "around": True})
    assert wider.count > 0


HOURS = {
    "zh": ("我只有一个小时，故宫附近有什么景点？", "1小时"),
    "en": ("I only have an hour. What sights are near the Forbidden City?", "1 hour"),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_visit_limit_takes_the_whole_listed_visit_time(runtime, lang):
    ask, said = HOURS[lang]
    agent = TravelAgent(runtime.open(f"hours-{lang}"))
    reply, calls, results = chat_turn(agent, ask)
    assert calls[0]["arguments"].get("max_hours") == 1.0, calls
    assert calls[0]["arguments"].get("limit") is None  # "一个小时" counts no places
    db = load_database()
    listed = [db.by_name[r["名称"]]["游玩时间"] for r in results[0]["rows"]]
    # every number of each listed time (a range's two ends) is an hour or less, none in days
    assert listed and all("天" not in t and max(map(float, re.findall(r"[\d.]+", t))) <= 1 for t in listed), listed
    # a place whose listed visit runs past the hour ("1小时 - 2小时") is left out, and the reply says so
    near = set(db.by_name["故宫"]["周边景点"])
    longer = [n for n in near if db.by_name.get(n, {}).get("游玩时间") == "1小时 - 2小时"]
    shown = {r["名称"] for r in results[0]["rows"]}
    assert longer and not shown & set(longer)
    assert said in reply and str(results[0]["facts"]["too_long"]) in reply, reply


DISTRICT = {
    "zh": ("步行别超过十分钟", "找个海淀的酒店"),
    "en": ("I don't want to walk more than 10 minutes.", "A hotel in Haidian"),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_walking_limit_does_not_narrow_a_search_in_a_district(runtime, lang):
    """Found in the studio walk: a walking limit said before cut a hotel search "in 海淀" to what the data lists
    beside the district ("I kept only places it lists right next to 海淀区"). A district is no point to walk from."""
    walk, ask = DISTRICT[lang]
    agent = TravelAgent(runtime.open(f"walk-district-{lang}"))
    chat_turn(agent, walk)
    reply, calls, results = chat_turn(agent, ask)
    assert calls and "walk_minutes" not in calls[0]["arguments"], calls
    assert calls[0]["arguments"].get("near") in ("海淀区", "海淀"), calls
    assert ("步行" if lang == "zh" else "walk") not in reply, reply


@pytest.mark.parametrize(
    "lang, text, said",
    [
        ("zh", "我住在上海。你去过吗？", "你住在上海"),
        ("en", "I live in Shanghai. Have you been?", "you live in Shanghai"),
    ],
)
def test_where_the_user_lives_is_noted_not_met_with_the_capabilities_line(runtime, lang, text, said):
    """Found in the studio walk: the agent answered "我住在上海。你去过吗？" with what it can look up, as if
    nothing had been said; where the user lives is noted (and the trip stays Beijing's)."""
    agent = TravelAgent(runtime.open(f"home-noted-{lang}"))
    reply, calls, _ = chat_turn(agent, text)
    assert not calls and said in reply and ("北京" if lang == "zh" else "Beijing") in reply, reply
