"""A small two-topic trip conversation (zh and en) for the retrieval-debugger tests.

Dinner planning depends on the budget and the allergy; the airport-metro
exchange is a separate topic, so a dinner query with one seed and one hop
cannot reach it.
"""

from __future__ import annotations

import dataclasses

from weaver.text import count_tokens

CONV = {
    "en": {
        "task": "Plan a three-day Beijing trip for the user",
        "turns": [
            ("date", "I'm planning a trip to Beijing from May 1st to May 3rd.", "user_input", {}),
            ("budget", "My total budget for the whole trip is 5000 yuan.", "user_input", {}),
            ("allergy", "I'm allergic to seafood, so no seafood at meals please.", "user_input", {}),
            (
                "hotel_thought",
                "I need to find a hotel near Wangfujing for May 1 within the budget.",
                "agent_thought",
                {},
            ),
            (
                "hotel_result",
                "Found Wangfujing Grand Hotel, 400 yuan per night, rooms free on May 1.",
                "tool_result",
                {"tool": "hotel_search"},
            ),
            ("pleasantry", "ok thanks", "user_input", {}),
            ("metro_q", "How do I get from the airport to the city center by subway?", "user_input", {}),
            ("metro_thought", "Look up the Airport Express subway line from Terminal 3.", "agent_thought", {}),
            (
                "metro_result",
                "Airport Express runs every 10 minutes from Terminal 3 to Dongzhimen, fare 25 yuan.",
                "tool_result",
                {"tool": "metro"},
            ),
            (
                "dinner_thought",
                "Recommend a dinner restaurant without seafood that fits the budget.",
                "agent_thought",
                {},
            ),
            (
                "dinner_result",
                "Quanjude roast duck restaurant: 200 yuan per person, no seafood dishes on the set menu.",
                "tool_result",
                {"tool": "restaurant_search"},
            ),
        ],
        "query": "Which restaurant should we pick for dinner?",
        "new_budget": "Actually my total budget for the trip is now 8000 yuan.",
    },
    "zh": {
        "task": "为用户规划北京三日游",
        "turns": [
            ("date", "我打算5月1日到5月3日去北京玩。", "user_input", {}),
            ("budget", "整个行程的总预算是5000元。", "user_input", {}),
            ("allergy", "我对海鲜过敏，吃饭时千万不要点海鲜。", "user_input", {}),
            ("hotel_thought", "需要在预算内找一家5月1日王府井附近的酒店。", "agent_thought", {}),
            ("hotel_result", "查到王府井大饭店，每晚400元，5月1日有空房。", "tool_result", {"tool": "hotel_search"}),
            ("pleasantry", "好的谢谢", "user_input", {}),
            ("metro_q", "从机场到市中心坐地铁怎么走？", "user_input", {}),
            ("metro_thought", "查询从3号航站楼出发的机场快轨线路。", "agent_thought", {}),
            ("metro_result", "机场快轨每10分钟一班，从3号航站楼到东直门，票价25元。", "tool_result", {"tool": "metro"}),
            ("dinner_thought", "推荐一家不含海鲜、符合预算的晚餐餐厅。", "agent_thought", {}),
            (
                "dinner_result",
                "全聚德烤鸭店：人均200元，套餐里没有海鲜菜品。",
                "tool_result",
                {"tool": "restaurant_search"},
            ),
        ],
        "query": "晚饭选哪家餐厅？",
        "new_budget": "改一下：整个行程的总预算现在是8000元。",
    },
}


def weave(w, lang: str) -> dict:
    """Ingest the conversation into ``w``; returns tag -> IngestResult."""
    conv = CONV[lang]
    w.set_task(conv["task"])
    return {tag: w.ingest(text, kind, dict(meta)) for tag, text, kind, meta in conv["turns"]}


def few_seeds(cfg, n: int, **changes):
    """The config with exactly ``n`` expanded seeds (adaptive seeding off where the knob exists; the decision
    block off too, so the whole budget is the narrative's whose expansion these tests measure)."""
    names = {f.name for f in dataclasses.fields(cfg)}
    extra = {"adaptive_seeds": 0.0} if "adaptive_seeds" in names else {}
    if "decision_context" in names:
        extra["decision_context"] = False
    return cfg.with_(seeds=n, **extra, **changes)


def one_seed(cfg, **changes):
    """The config with one expanded seed, reaching only over graph edges.

    Adaptive seeding and neighbouring-turn steps are switched off where those knobs exist,
    so "within the hop limit" means over dependency edges only.
    """
    names = {f.name for f in dataclasses.fields(cfg)}
    extra: dict = {k: 0.0 for k in ("adaptive_seeds",) if k in names}
    if "adjacent_turns" in names:
        extra["adjacent_turns"] = False
    if "decision_context" in names:  # the budget is the narrative's alone: these tests measure its expansion
        extra["decision_context"] = False
    return cfg.with_(seeds=1, **extra, **changes)


def exact_budget(w, query: str, cfg) -> int:
    """A budget the first seed's expansion fills exactly, so retrieval takes no further seeds."""
    res = w.query(query, budget=100_000, config=cfg)
    first = set(res.expanded_seeds)
    header = count_tokens("相关记忆（原因在前，结果在后）：") + 1
    return header + sum(n.tokens for n in res.ranked if n.seed in first)
