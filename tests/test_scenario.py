"""The design article's worked scenario (section 4.4), offline, in three wordings.

Pleasantries are rejected; the allergy and the budget are kept with high
importance; the thought -> tool-result pair is linked `temporal`; a later
restaurant query gets a context holding the allergy and the budget, causes
before effects.
"""

import pytest

from weaver import Runtime, Settings

SCENARIOS = {
    # the article's own wording
    "zh": {
        "task": "为用户规划一次北京三日游",
        "turns": [
            ("我打算5月1号到5月3号去北京旅游。", "user_input", None),
            ("好的", "user_input", "pleasantry"),
            ("我的预算总共是5000元。", "user_input", "budget"),
            ("需要查询5月1日北京入住的酒店。", "agent_thought", "thought"),
            ("查询到5月1日北京王府井附近酒店，预算内价格约400元/晚。", "tool_result", "result"),
            ("谢谢！", "user_input", "pleasantry"),
            ("对了，我对海鲜过敏，订餐时要注意。", "user_input", "allergy"),
            ("需要根据预算和过敏信息推荐餐厅。", "agent_thought", "plan"),
        ],
        "query": "为什么推荐这家全聚德烤鸭店？",
        "query2": "帮我推荐一家晚餐餐厅",
    },
    # a Chinese paraphrase: different words, same facts
    "zh-paraphrase": {
        "task": "帮我安排三天的北京行程",
        "turns": [
            ("五一假期我准备去北京玩三天，5月1日出发，5月3日回来。", "user_input", None),
            ("嗯嗯", "user_input", "pleasantry"),
            ("整个行程花费最多不能超过5000块。", "user_input", "budget"),
            ("先找一下5月1日晚上能住的北京酒店。", "agent_thought", "thought"),
            ("搜索结果：王府井一带有3家酒店有空房，每晚400元左右。", "tool_result", "result"),
            ("好的，谢谢你", "user_input", "pleasantry"),
            ("还有，我吃海鲜会过敏，吃饭的时候千万别点海鲜。", "user_input", "allergy"),
            ("要结合预算和海鲜过敏来挑选吃饭的地方。", "agent_thought", "plan"),
        ],
        "query": "推荐一家适合我的餐馆",
        "query2": "晚饭去哪里吃？",
    },
    "en": {
        "task": "Plan a three-day trip to Beijing for the user",
        "turns": [
            ("I'm planning to visit Beijing from May 1st to May 3rd.", "user_input", None),
            ("ok", "user_input", "pleasantry"),
            ("My total budget is 5000 yuan.", "user_input", "budget"),
            ("I need to search for hotels in Beijing for the night of May 1.", "agent_thought", "thought"),
            (
                "Found hotels near Wangfujing available on May 1, about 400 yuan per night, within budget.",
                "tool_result",
                "result",
            ),
            ("thanks!", "user_input", "pleasantry"),
            ("Oh, and I'm allergic to seafood, please keep that in mind when booking meals.", "user_input", "allergy"),
            (
                "I should recommend restaurants that fit the budget and avoid seafood because of the allergy.",
                "agent_thought",
                "plan",
            ),
        ],
        "query": "Why did you recommend this roast duck restaurant?",
        "query2": "Where should we have dinner?",
    },
}


@pytest.fixture(scope="module", params=list(SCENARIOS))
def woven(request, tmp_path_factory, embedder):
    """One woven space per scenario, shared by the module's tests: they only read it (queries record no access)."""
    sc = SCENARIOS[request.param]
    settings = Settings.from_env(env={}, secrets_path=None, data_dir=tmp_path_factory.mktemp("scenario") / "data")
    w = Runtime.from_settings(settings, embedder=embedder).open(f"scenario-{request.param}")
    w.set_task(sc["task"])
    tags = {}
    results = []
    for content, kind, tag in sc["turns"]:
        meta = {"tool": "hotel_search"} if kind == "tool_result" else {}
        res = w.ingest(content, kind, meta)
        results.append((tag, res))
        if tag and tag != "pleasantry":
            tags[tag] = res
    return sc, w, tags, results


def test_pleasantries_rejected_but_recorded(woven):
    sc, w, tags, results = woven
    pleasantries = [r for tag, r in results if tag == "pleasantry"]
    assert pleasantries and all(not r.kept for r in pleasantries)
    for r in pleasantries:
        assert r.decision.message_id in w.decisions  # the decision is stored even when rejected
        assert r.node is None
    others = [r for tag, r in results if tag != "pleasantry"]
    assert all(r.kept for r in others), [r.decision.reason for r in others if not r.kept]


def test_constraints_kept_with_high_importance(woven):
    _, _, tags, _ = woven
    for tag in ("budget", "allergy"):
        d = tags[tag].decision
        assert d.kept and d.importance >= 4, (tag, d.importance, d.reason)


def test_thought_and_its_tool_result_linked_temporal(woven):
    _, w, tags, _ = woven
    thought, result = tags["thought"].node.id, tags["result"].node.id
    assert w.graph.has_edge(thought, result)
    assert w.graph.edges[thought, result]["relation"] == "temporal"


def test_restaurant_planning_depends_on_budget_and_allergy(woven):
    _, w, tags, _ = woven
    plan = tags["plan"].node.id
    parents = set(w.graph.predecessors(plan))
    assert tags["allergy"].node.id in parents
    assert tags["budget"].node.id in parents


@pytest.mark.parametrize("which", ["query", "query2"])
def test_restaurant_query_context_holds_allergy_and_budget_causes_first(woven, which):
    sc, w, tags, _ = woven
    res = w.query(sc[which], budget=400)
    ids = res.node_ids
    allergy, budget, plan = (tags[t].node.id for t in ("allergy", "budget", "plan"))
    assert allergy in ids and budget in ids, res.context
    assert tags["allergy"].node.content in res.context
    assert res.tokens <= 400
    if plan in ids:  # causes before effects
        assert ids.index(allergy) < ids.index(plan) and ids.index(budget) < ids.index(plan)
    # every edge among the returned nodes points forward in the narrative
    for e in res.edges:
        assert ids.index(e["source"]) < ids.index(e["target"])


def test_context_uses_connectives_in_content_language(woven):
    sc, w, tags, _ = woven
    ctx = w.query(sc["query"], budget=600).context
    lines = ctx.splitlines()  # the constraints in force may come first, in the same language
    if lines[0].startswith(("Constraints in force", "当前有效的约束")):
        assert lines[0].startswith("当前有效的约束" if sc is not SCENARIOS["en"] else "Constraints in force"), ctx
        ctx = "\n".join(lines[1:])
    if sc is SCENARIOS["en"]:
        assert ctx.startswith("Relevant memory") and any(
            c in ctx for c in ("Because of", "Provided that", "Then (after", "Specifically")
        )
    else:
        assert ctx.startswith("相关记忆") and any(c in ctx for c in ("因为", "的前提下", "随后", "具体来说"))
