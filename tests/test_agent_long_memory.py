"""Memory changes behaviour: a constraint stated at turn 2 shapes a tool call at turn 28, across topic switches.

The ablation replays the same understanding over a last-k-turns window (what a
sliding-window memory would hold) and shows the constraint would have been lost.
"""

import pytest

from weaver.agent import TravelAgent, load_transcript
from weaver.agent.memory import items_from_turns, read_constraints
from weaver.agent.planner import plan_turn
from weaver.agent.tools import ToolBox
from weaver.agent.understanding import parse

SEAFOOD = (
    "虾",
    "蟹",
    "海参",
    "鲍",
    "扇贝",
    "蚝",
    "蛤",
    "鱿",
    "墨鱼",
    "章鱼",
    "三文鱼",
    "鳕鱼",
    "龙虾",
    "鱼翅",
    "生鱼片",
)

# turn 2 states the allergy, turn 4 the quiet preference; turns 3-27 switch between hotels, sights, metro,
# budget, another city and small talk without a word about food; turn 28 asks for a restaurant
CONVERSATION = [
    "我打算5月1号到5月3号去北京玩。",
    "先说一下，我对海鲜过敏。",
    "整个行程预算一共8000元。",
    "住的地方我希望安静一点。",
    "帮我找王府井附近的酒店。",
    "好的",
    "故宫门票多少钱？",
    "故宫要玩多久？",
    "天坛附近有什么景点？",
    "颐和园离哪个地铁站最近？",
    "谢谢",
    "帮我找一家上海的酒店",
    "那八达岭长城呢，门票多少？",
    "天安门广场离哪个地铁站最近？",
    "看看前门大街附近评分4.5以上的酒店",
    "嗯嗯",
    "798艺术区门票贵吗？",
    "什刹海附近有哪些景点？",
    "雍和宫离哪个地铁站最近？",
    "北海公园门票多少钱？",
    "好的，谢谢你",
    "恭王府要玩多久？",
    "景山公园附近有什么景点？",
    "国家大剧院离哪个地铁站最近？",
    "故宫附近有什么酒店？",
    "收到",
    "圆明园门票多少？",
    "帮我推荐一家王府井附近的餐厅。",
]


pytestmark = pytest.mark.slow  # 28 real turns through the weaver (~1 min)


@pytest.fixture(scope="module")
def long_run(tmp_path_factory, embedder):
    from weaver import Runtime, Settings

    settings = Settings.from_env(env={}, secrets_path=None, data_dir=tmp_path_factory.mktemp("long") / "data")
    w = Runtime.from_settings(settings, embedder=embedder).open("long")
    agent = TravelAgent(w)
    turns = [list(agent.run(text, message_id=f"t{i:02d}")) for i, text in enumerate(CONVERSATION, 1)]
    return w, turns


def _calls(events, tool):
    return [e.data["arguments"] for e in events if e.type == "tool_call" and e.data["tool"] == tool]


def test_thirty_turns_with_topic_switches(long_run):
    w, turns = long_run
    assert len(turns) == 28 and turns[27][0].turn == 28
    assert _calls(turns[1], "search_restaurants") == []  # no food talk between turn 2 and 28
    assert all(not _calls(t, "search_restaurants") for t in turns[2:27])


def test_turn_2_allergy_shapes_the_turn_28_tool_call(long_run):
    w, turns = long_run
    call = _calls(turns[27], "search_restaurants")
    assert call and call[0]["avoid"] == ["seafood"] and call[0]["near"] == "王府井"
    # the allergy came from retrieved memory: turn 2's message or the reply that confirmed it
    turn2 = {turns[1][0].data["ingest"]["node_id"], turns[1][-1].data["ingest"]["node_id"]}
    memory = next(e for e in turns[27] if e.type == "memory")
    assert turn2 & set(memory.data["node_ids"])
    assert any(c["node_id"] in turn2 and c["turn"] == 2 and c["slot"] == "avoid" for c in memory.data["constraints"])
    rows = [r for e in turns[27] if e.type == "tool_result" for r in e.data["rows"]]
    assert rows and not any(w_ in d for r in rows for d in r["推荐菜"] for w_ in SEAFOOD)
    reply = turns[27][-1]
    assert "海鲜" in reply.text and "第2轮" in reply.text  # says which memory it applied


def test_early_quiet_preference_shapes_a_later_hotel_search(long_run):
    _, turns = long_run
    assert _calls(turns[24], "search_hotels")[0].get("quiet") is True  # turn 25, stated at turn 4
    # the Shanghai request at turn 12 never reached the database
    assert not [e for e in turns[11] if e.type == "tool_call"]


@pytest.mark.parametrize("k", [3, 5, 10, 20])
def test_ablation_last_k_turns_window_loses_the_allergy(long_run, k):
    w, _ = long_run
    history = [
        (
            e.turn,
            {"user": "user_input", "thought": "agent_thought", "tool_result": "tool_result", "reply": "agent_response"}[
                e.type
            ],
            e.text,
            {"noted": e.data.get("noted"), "constraints": e.data.get("constraints")},
        )
        for e in load_transcript(w)
        if e.turn < 28 and e.type in ("user", "thought", "tool_result", "reply")
    ]
    window = items_from_turns(history, k)
    assert window and min(i.turn for i in window) > 27 - k
    known = read_constraints(window)
    plan = plan_turn(parse(CONVERSATION[27]), known)
    args = plan.calls[0].arguments
    assert plan.calls[0].tool == "search_restaurants" and "avoid" not in args  # the allergy is gone
    # and the window's tool call would have recommended seafood to an allergic user
    rows = ToolBox().run("search_restaurants", dict(args, limit=20)).rows
    assert any(w_ in d for r in rows for d in r["推荐菜"] for w_ in SEAFOOD)
    # the full history (k = 28) still has it: the loss is the window's, not the parser's
    full = plan_turn(parse(CONVERSATION[27]), read_constraints(items_from_turns(history, 28)))
    assert full.calls[0].arguments.get("avoid") == ["seafood"]
