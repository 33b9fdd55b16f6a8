"""A fact said anew answers what the old statement answered (zh and en): "Where do I work?" after "I work at a
bank" and, sessions later, "By the way, I got a new job at a bakery!".

Found using the weaver as a personal assistant's memory: the question shares "work" with the old statement and
the old one's session neighbours lent it more, so at a small budget the context told the bank, not the bakery.
The builder links the two (an update edge); along it the later statement now ranks as high as the old one, a
hair above, so the value in force is told first and the history follows when there is room.
"""

from __future__ import annotations

import pytest

from weaver.relations.updates import is_update

CHATS = {
    "en": (
        "Personal assistant: remember what matters about me",
        [
            (0, "I work at a bank downtown as a risk analyst."),
            (0, "My partner Sam's birthday is on March 14."),
            (0, "Sam loves Japanese food but hates anything spicy."),
            (2, "I have a dentist appointment on Friday at 3pm."),
            (2, "I'm training for a half marathon in May, running 4 times a week."),
            (5, "By the way, I got a new job at a bakery! I start next month."),
            (9, "I hurt my knee, so no running for two weeks."),
        ],
        "Where do I work?",
        ("bank", "bakery"),
    ),
    "zh": (
        "私人助理：记住关于我的重要事情",
        [
            (0, "我在一家银行上班，做风险分析。"),
            (0, "我老婆小敏的生日是3月14号。"),
            (0, "小敏喜欢日本料理，但是一点辣都不能吃。"),
            (2, "我周五下午三点约了牙医。"),
            (2, "我在准备五月的半程马拉松，每周跑四次。"),
            (5, "对了，我跳槽到一家面包店了，下个月入职。"),
            (9, "我膝盖受伤了，两周不能跑步。"),
        ],
        "我在哪里工作？",
        ("银行", "面包店"),
    ),
}


def _chat(runtime, lang):
    task, turns, question, values = CHATS[lang]
    w = runtime.open(f"updated-{lang}")
    w.set_task(task)
    w.config = w.config.with_(review_every=0)
    ids = [
        w.ingest(text, meta={"session": day}, timestamp=1_790_000_000 + day * 86_400 + i * 60).node.id
        for i, (day, text) in enumerate(turns)
    ]
    return w, ids, question, values


def _order(res, ids):
    ranked = [r.id for r in res.ranked]
    return ranked.index(ids[0]), ranked.index(ids[5])


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_value_in_force_answers_first(runtime, lang):
    w, ids, question, (old, new) = _chat(runtime, lang)
    (edge,) = [e for e in w.edges() if (e.source, e.target) == (ids[0], ids[5])]
    assert is_update(edge.__dict__)
    res = w.query(question, budget=48)
    assert new in res.context, res.context
    bank, bakery = _order(res, ids)
    assert bakery < bank
    # with room for both, the history follows in the order it happened
    wide = w.query(question, budget=200).context
    assert wide.index(old) < wide.index(new)
    # without graph expansion nothing is carried along the edge
    bank, bakery = _order(w.query(question, budget=48, expand=False), ids)
    assert bank < bakery


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_rejected_update_carries_nothing(runtime, lang):
    w, ids, question, (old, new) = _chat(runtime, lang)
    w.curation.remove_edge(ids[0], ids[5], "not the same fact")  # the curator says the two are unrelated
    bank, bakery = _order(w.query(question, budget=48), ids)
    assert bank < bakery
