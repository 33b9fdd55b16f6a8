"""Five things a user met in the studio's chat, each through the offline agent over a real space, zh and en
(helper agent21):

1. "你去过吗？" / "Have you been?" got no answer (the capabilities blurb, or "OK."): the agent says plainly it is an
   assistant that has not travelled, naming the place asked about (the home said just before), then helps.
2. "故宫评分多少？" / "What is the Forbidden City's rating?" showed the whole row: the rating is answered, with the
   name, and nothing else.
3. "别太贵" / "not too expensive" right after a list of sights was only noted; and the cut (at or under the median
   price) fell to ¥0 where most sights are free, so "not too expensive" meant "free only". Now it re-runs the topic
   in play, every free place is kept and the line is the median of the places that charge.
4. "dinner on day 2" / "第二天晚上去" put the restaurant on day 2 but not the meal: the plan records and shows it.
5. A metro route asked destination first ("How do I get to Xiangshan from Jianguomen?") was said backwards; and an
   area named after a station (建国门) got another station (永安里) its hotels list.
"""

from __future__ import annotations

import statistics

import pytest

from agent_chat import chat_turn
from weaver.agent import TravelAgent
from weaver.agent.db import load_database
from weaver.agent.meals import serves_meal
from weaver.agent.tools import ToolBox

BEEN = {
    "zh": ("我住在上海", "你去过吗？", "我是AI助手，自己没有去过上海", "你去过故宫吗？", "门票¥60"),
    "en": (
        "I live in Shanghai",
        "Have you been?",
        "I'm an AI assistant, so I haven't been to Shanghai myself",
        "Have you been to the Forbidden City?",
        "ticket ¥60",
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_have_you_been_is_answered_plainly_then_helped(runtime, lang):
    home, been, honest, been_there, row = BEEN[lang]
    agent = TravelAgent(runtime.open(f"been-{lang}"))
    chat_turn(agent, home)
    reply, calls, _ = chat_turn(agent, been)
    assert not calls and reply.startswith(honest), reply  # the answer first, naming the home said before
    assert "Beijing" in reply or "北京" in reply, reply  # then what it can do
    reply, calls, _ = chat_turn(agent, been_there)  # a place named: not been, and what the data says of it
    assert calls and calls[0]["arguments"].get("name") == "故宫", calls
    assert ("AI" in reply.splitlines()[0] and "故宫" in reply.splitlines()[0]) and row in reply, reply


RATING = {"zh": "故宫评分多少？", "en": "What is the Forbidden City's rating?"}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_rating_question_is_answered_with_the_rating_only(runtime, lang):
    rating = load_database().by_name["故宫"]["评分"]
    agent = TravelAgent(runtime.open(f"rating-{lang}"))
    reply, calls, _ = chat_turn(agent, RATING[lang])
    assert calls and calls[0]["arguments"].get("name") == "故宫", calls
    said = "故宫的评分是" if lang == "zh" else "故宫 (Forbidden City): rating "
    assert reply == f"{said}{rating}" + ("。" if lang == "zh" else "."), reply  # not the ticket, visit time...


def test_not_too_expensive_keeps_every_free_place_and_the_cheaper_paid_half():
    tools = ToolBox()
    every = tools.run("search_attractions", {"near": "颐和园", "limit": 20})
    cut = tools.run("search_attractions", {"near": "颐和园", "limit": 20, "cheaper_half": True})
    free = [r["名称"] for r in every.rows if r["门票"] == 0]
    paid = [r["门票"] for r in every.rows if isinstance(r["门票"], (int, float)) and r["门票"] > 0]
    assert free and paid and every.count <= 20  # most sights there are free, some charge
    line = statistics.median(paid)
    kept = {r["名称"] for r in cut.rows}
    assert set(free) <= kept  # a free place is never too expensive
    assert {r["名称"] for r in every.rows if r["门票"] and r["门票"] <= line} <= kept  # ¥0 is not the line
    assert cut.facts["cheaper_half"] == line and cut.facts["free_kept"] == len(free)


PRICEY = {
    "zh": ("颐和园附近有什么景点？", "别太贵", "免费的"),
    "en": ("Any sights near the Summer Palace?", "Not too expensive, please.", "free ones"),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_not_too_expensive_after_a_list_applies_to_that_list(runtime, lang):
    sights, pricey, said = PRICEY[lang]
    agent = TravelAgent(runtime.open(f"pricey-{lang}"))
    _, _, before = chat_turn(agent, sights)
    reply, calls, results = chat_turn(agent, pricey)
    assert calls and calls[0]["tool"] == "search_attractions", (reply, calls)
    assert calls[0]["arguments"].get("cheaper_half") is True and calls[0]["arguments"].get("near") == "颐和园"
    free = [r["名称"] for r in before[0]["rows"] if r["门票"] == 0]
    assert free and all(n in [r["名称"] for r in results[0]["rows"]] for n in free if n), results
    assert said in reply, reply


DINNER = {
    "zh": ("故宫附近有什么好吃的？", "订第一家餐厅，第二天晚上去", "我的行程是什么样的", "第2天晚饭", "晚饭的地方"),
    "en": (
        "Anything good to eat near the Forbidden City?",
        "Add the first restaurant to the plan for dinner on day 2.",
        "What does my plan look like?",
        "day 2 dinner",
        "may not serve dinner",
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_meal_on_a_day_is_recorded_in_the_plan_and_shown(runtime, lang):
    find, add, plan, shown, closed = DINNER[lang]
    agent = TravelAgent(runtime.open(f"dinner-{lang}"))
    chat_turn(agent, find)
    reply, calls, _ = chat_turn(agent, add)
    assert calls and calls[0]["tool"] == "add_to_plan" and calls[0]["arguments"].get("meal") == "dinner", calls
    item = agent.plan_items()[0]
    assert item["day"] == 2 and item["meal"] == "dinner", item
    assert shown in reply, reply
    # the data's hours and dishes say whether it serves dinner: said when they say it may not
    assert (closed in reply) != serves_meal(load_database().by_name[item["name"]], "dinner"), reply
    reply, calls, _ = chat_turn(agent, plan)
    assert f"{shown}{'：' if lang == 'zh' else ': '}" in reply, reply


ROUTE = {
    "zh": ("去香山怎么坐地铁？从建国门出发", "从建国门地铁站到香山地铁站"),
    "en": (
        "How do I get to Xiangshan from Jianguomen by metro?",
        "from 建国门地铁站 (Jianguomen station) to 香山地铁站 (Xiangshan station)",
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_route_asked_destination_first_goes_the_right_way(runtime, lang):
    asked, said = ROUTE[lang]
    agent = TravelAgent(runtime.open(f"route-{lang}"))
    reply, calls, _ = chat_turn(agent, asked)
    assert [c["arguments"]["place"] for c in calls] == ["建国门", "香山公园"], calls
    assert said in reply, reply


DUCK = {
    "zh": ("推荐王府井附近的烤鸭", "别太贵"),
    "en": ("Recommend Peking duck near Wangfujing.", "Not too expensive, please."),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_not_too_expensive_after_a_list_keeps_what_the_list_asked_for(runtime, lang):
    ducks, pricey = DUCK[lang]
    agent = TravelAgent(runtime.open(f"duck-{lang}"))
    _, first, _ = chat_turn(agent, ducks)
    _, calls, results = chat_turn(agent, pricey)
    assert calls and calls[0]["arguments"].get("dishes") == first[0]["arguments"]["dishes"], calls  # still duck
    assert calls[0]["arguments"].get("cheaper_half") is True and results[0]["rows"], calls


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_days_plan_reads_in_the_order_of_the_day(lang):
    # agentwalk21's walk: "第1天晚饭" was listed before that day's sight
    from weaver.agent.result_texts import results_text
    from weaver.agent.tool_models import ToolOutput

    out = ToolOutput("budget_tally", {})
    out.rows = [
        {"kind": "restaurant", "name": "全聚德", "cost": 300, "day": 1, "meal": "dinner", "domain": "plan"},
        {"kind": "attraction", "name": "故宫", "cost": 60, "day": 1, "domain": "plan"},
        {"kind": "restaurant", "name": "四季民福", "cost": 200, "day": 1, "meal": "lunch", "domain": "plan"},
    ]
    out.count = 3
    out.facts.update(total=560, budget=None)
    text = results_text(out, lang, [])
    assert text.index("四季民福") < text.index("故宫") < text.index("全聚德"), text


def test_the_agent_warm_up_loads_the_pinyin_names_the_first_english_message_reads():
    # bench turns: the first English turn of a process took ~1.1 s (the database's names in pinyin, built on first
    # use) after the studio's warm-up; a fresh process, since this one may have built them already
    import subprocess
    import sys

    code = (
        "from weaver.agent import warm; from weaver.agent.place_names import pinyin_index; "
        "warm(); print(pinyin_index.cache_info().currsize)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip().splitlines()[-1] == "1", out.stdout + out.stderr


@pytest.mark.parametrize(
    "text",
    [
        "Have you been able to find one under 500?",
        "Have you gone through all the options?",
        "Have you been looking at hotels near the station?",
        "你试过订第一家吗？",
        "你试过查一下别的吗？",
    ],
)
def test_a_question_about_the_task_is_not_asked_of_the_assistants_life(text):
    # review21: "Have you been able to find one under 500?" got "I'm an AI assistant, so I haven't been to 王府井…"
    from weaver.agent.intent_cues import asks_own_experience

    assert asks_own_experience(text) is None
    assert asks_own_experience("Have you been to the Great Wall?") == "been"
    assert asks_own_experience("你试过这家吗？") == "eaten"
