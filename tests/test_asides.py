"""An aside ("By the way, ...", "对了，...") starts a new subject: the turn just before is not its parent.

Found chatting as two named speakers: after a hiking story, "By the way, I started a new job at a bakery" was
linked to "Sunny on Saturday, but it rained all Sunday morning" (temporal 0.97, "continues the speaker's own
turn"), and the curator saw a dependency where the speaker had changed the subject. An aside is now linked only
where the content backs it (a shared word, number or name), in chats with named speakers and between user and
agent alike.
"""

from __future__ import annotations

import pytest

CHATS = {
    "en": (
        [
            ("Anna", "I went hiking in the Alps last weekend with my brother."),
            ("Anna", "Sunny on Saturday, but it rained all Sunday morning."),
            ("Anna", "By the way, I started a new job at a bakery on Monday."),
            ("Anna", "Anyway, the bakery opens at six, so I get up early."),
        ],
        "bakery",
    ),
    "zh": (
        [
            ("小王", "上周末我和哥哥去爬山了，爬了快两千米。"),
            ("小王", "周六晴天，周日上午一直下雨。"),
            ("小王", "对了，我周一开始在一家面包店上班了。"),
            ("小王", "话说面包店早上六点开门，我得早起。"),
        ],
        "面包店",
    ),
}


def _parents(w, nid):
    return [w.nodes[e.source].content for e in w.edges() if e.target == nid]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_aside_is_not_linked_to_the_turn_before_it_unless_the_content_backs_it(runtime, lang):
    turns, job = CHATS[lang]
    w = runtime.open(f"aside-{lang}")
    ids = [w.ingest(f"{who}: {text}", meta={"speaker": who}).node.id for who, text in turns]
    assert _parents(w, ids[1]), "a plain continuation keeps the link model's link"
    assert _parents(w, ids[2]) == [], "the new job does not depend on the weather"
    (back,) = _parents(w, ids[3])  # an aside the content backs keeps its link: the bakery's hours, the job
    assert job in back


@pytest.mark.parametrize(
    "question, aside",
    [
        ("请问您几号入住？", "对了，我对海鲜过敏。"),
        ("What date will you arrive in Beijing?", "By the way, I'm allergic to seafood."),
    ],
)
def test_an_aside_is_no_answer_to_the_agents_question(runtime, question, aside):
    w = runtime.open("aside-agent")
    w.set_task("Plan a trip to Beijing")
    asked = w.ingest(question, "agent_response").node.id
    said = w.ingest(aside).node.id
    assert all(e.source != asked for e in w.edges() if e.target == said)


@pytest.mark.parametrize(
    "question, answer",
    [("您的预算是多少？", "对了，两千以内吧"), ("What date will you arrive in Beijing?", "Oh, by the way, May 5th.")],
)
def test_an_aside_opener_before_a_value_still_answers_the_question(runtime, question, answer):
    w = runtime.open("aside-answer")
    w.set_task("Plan a trip to Beijing")
    asked = w.ingest(question, "agent_response").node.id
    said = w.ingest(answer).node.id
    assert any(e.source == asked for e in w.edges() if e.target == said)


def test_returning_to_the_point_or_asking_for_more_is_no_aside():
    from weaver.relations.support import ASIDE

    assert not ASIDE.match("话说回来，酒店订好了吗？") and not ASIDE.match("顺便帮我查一下附近的餐厅")
    assert ASIDE.match("Oh and by the way, we got a puppy") and ASIDE.match("题外话，我养了只猫")
