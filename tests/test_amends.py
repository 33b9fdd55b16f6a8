"""A correction links back to what it corrects and answers first (zh and en): "Actually we are on Flask 3.0, not
2.3." after "Our app is a Flask 2.3 monolith with about 40 endpoints and SQLAlchemy models."

Found driving the CLI as a developer's assistant would: the correction was linked to the agent's thought just
before it ("that speaker's latest turn"), never to the statement it corrects, and nothing but the words "Flask"
tied the two.
"""

from __future__ import annotations

import time

import pytest

from weaver.models import MemoryNode
from weaver.relations.amends import amend_parents, taken_back
from weaver.rationale_words import rationale_in_words
from weaver.relations.updates import is_update

CHATS = {
    "en": (
        "Help the user migrate their web app from Flask to FastAPI",
        [
            ("user_input", "Our app is a Flask 2.3 monolith with about 40 endpoints and SQLAlchemy models."),
            ("user_input", "We must keep the /api/v1 URLs unchanged because mobile clients depend on them."),
            ("agent_thought", "Since the URLs must stay, I should mount FastAPI routers under the same prefix."),
            ("tool_result", "grep found 12 endpoints using flask.session for login state."),
            ("agent_thought", "Because 12 endpoints rely on flask.session, we need a session middleware first."),
            ("user_input", "Actually we are on Flask 3.0, not 2.3."),
        ],
        "Which Flask version is the app on?",
        ("2.3", "3.0"),
    ),
    "zh": (
        "帮用户把网站从 Flask 迁移到 FastAPI",
        [
            ("user_input", "我们的应用是 Flask 2.3 的单体应用，大约 40 个接口，用 SQLAlchemy 模型。"),
            ("user_input", "/api/v1 的地址必须保持不变，因为手机客户端依赖它们。"),
            ("agent_thought", "既然地址不能变，我应该把 FastAPI 路由挂在同一个前缀下。"),
            ("tool_result", "grep 找到 12 个接口用 flask.session 保存登录状态。"),
            ("agent_thought", "因为有 12 个接口依赖 flask.session，需要先加会话中间件。"),
            ("user_input", "不好意思我说错了，我们用的是 Flask 3.0，不是2.3。"),
        ],
        "应用用的是哪个 Flask 版本？",
        ("2.3", "3.0"),
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_correction_is_linked_to_what_it_corrects_and_told_first(runtime, lang):
    task, turns, question, (old, new) = CHATS[lang]
    w = runtime.open(f"amends-{lang}")
    w.set_task(task)
    w.config = w.config.with_(review_every=0)
    ids = [w.ingest(text, kind).node.id for kind, text in turns]
    (edge,) = [e for e in w.edges() if (e.source, e.target) == (ids[0], ids[5])]
    assert edge.relation == "temporal" and edge.origin == "rules" and is_update(edge.__dict__)
    assert f"{old} -> {new}" in edge.rationale
    assert rationale_in_words(edge.rationale, "zh") == f"更正：{old} -> {new}"  # as the studio shows it in Chinese
    # the old statement keeps what the correction does not touch: it stays active
    assert w.nodes[ids[0]].status == "active"
    ranked = [r.id for r in w.query(question, budget=400).ranked]
    assert ranked.index(ids[5]) < ranked.index(ids[0])
    # a curator who removes the edge takes the lift away with it
    w.curation.remove_edge(ids[0], ids[5], "not a correction of that")
    ranked = [r.id for r in w.query(question, budget=400).ranked]
    assert ranked.index(ids[0]) < ranked.index(ids[5])


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Actually we are on Flask 3.0, not 2.3.", ("2.3", "3.0")),
        ("Sorry, it's 3 people, not 4.", ("4", "3")),
        ("My mistake: not Tuesday but Wednesday.", ("Tuesday", "Wednesday")),
        ("其实是海淀区，不是朝阳区。", ("朝阳区", "海淀区")),
        ("更正一下，不是五月三号，是五月四号出发。", ("五月三号", "五月四号")),
        ("We fly on the 12th, not the 14th.", ("14th", "12th")),  # a number taken back needs no cue
        ("更正：预计来250人，不是200人。", ("200人", "250人")),
        ("其实我想去故宫，不是长城。", ("长城", "故宫")),
    ],
)
def test_what_a_correction_takes_back(text, said):
    assert taken_back(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "I like tea, not coffee.",  # a contrast, no correction
        "我喜欢安静的，不是热闹的。",
        "Actually, not really.",
        "Actually I do not know.",
        "Actually I'm tired, not to mention hungry.",
        "Sorry, I was late, not including the traffic.",
        "Actually it's fine, not a big deal.",
        "It was cold, not that it mattered.",
        "",
    ],
)
def test_a_contrast_or_a_negation_takes_nothing_back(text):
    assert taken_back(text) is None


def _node(i: int, text: str, kind: str = "user_input", speaker: str = "") -> MemoryNode:
    return MemoryNode(f"n{i}", text, kind, i, "m", meta={"speaker": speaker} if speaker else {})


def test_the_latest_statement_holding_the_old_value_is_the_parent():
    earlier = [
        _node(0, "We are four people."),
        _node(1, "We land at 4 pm, four people in all."),
        _node(2, "The museum opens at 4.", "agent_response"),  # the agent's words are not the user's to correct
    ]
    assert amend_parents(_node(3, "Sorry, 3 people, not 4."), earlier, set()) == [(1, "a correction said anew: 4 -> 3")]
    assert amend_parents(_node(3, "Sorry, 3 people, not 4."), earlier, {"n1"}) == []  # linked already


def test_a_number_inside_chinese_text_is_found():
    earlier = [_node(0, "发布会定在6月18日，预计来200人。"), _node(1, "预算控制在20万以内。")]
    assert amend_parents(_node(2, "更正一下，来的人数不是200，是250。"), earlier, set()) == [
        (0, "a correction said anew: 200 -> 250")
    ]
    assert amend_parents(_node(2, "更正一下，不是2000，是2500。"), earlier, set()) == []  # 200 is no part of 2000


def test_another_speakers_statement_is_not_corrected():
    earlier = [_node(0, "Caroline: I moved here in 2019.", speaker="Caroline")]
    assert amend_parents(_node(1, "Melanie: Actually it was 2018, not 2019.", speaker="Melanie"), earlier, set()) == []
    mine = _node(1, "Caroline: Actually it was 2018, not 2019.", speaker="Caroline")
    assert amend_parents(mine, earlier, set()) == [(0, "a correction said anew: 2019 -> 2018")]


def test_a_statement_already_holding_the_new_value_is_not_what_was_corrected():
    earlier = [_node(0, "Flask 2.3 or 3.0, I forget which.")]
    assert amend_parents(_node(1, "Actually we are on Flask 3.0, not 2.3."), earlier, set()) == []


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Actually, the budget is 1,500, not 2,000.", ("2,000", "1,500")),  # was ('2', '500')
        ("Sorry, it's $1,200, not $1,500.", ("$1,500", "$1,200")),
        ("其实预算是1.5万，不是2万。", ("2万", "1.5万")),  # was ('2万', '1.')
    ],
)
def test_a_number_is_taken_back_whole(text, said):
    assert taken_back(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "a" * 16000,  # a pasted hash or blob: 11 s, each start of the run tried to its end
        "是" * 8000,  # Chinese without punctuation (CJK letters are word characters): 1.3 s at 2,000
        "不是" * 8000,
    ],
)
def test_a_long_run_of_letters_is_read_in_linear_time(text):
    took = []
    for _ in range(3):  # the best of three on a shared box
        start = time.perf_counter()
        taken_back(text)
        took.append(time.perf_counter() - start)
    assert min(took) < 1.0  # ~0.1 s now


def test_a_number_taken_back_without_a_cue_corrects_only_a_statement_about_the_same_thing():
    dogs, flight = _node(0, "I have 3 dogs."), _node(1, "We fly out on the 14th.")
    assert amend_parents(_node(2, "We have 2 kids, not 3."), [dogs], set()) == []
    assert amend_parents(_node(2, "We fly on the 12th, not the 14th."), [dogs, flight], set()) == [
        (1, "a correction said anew: 14th -> 12th")
    ]
    # said as a correction, the cue is enough
    assert amend_parents(_node(2, "Sorry, 2 dogs, not 3."), [dogs, flight], set()) == [
        (0, "a correction said anew: 3 -> 2")
    ]
