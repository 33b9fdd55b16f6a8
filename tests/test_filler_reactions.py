"""A reaction with nothing of its own is filler, from any speaker, in both languages (issue #17 item 4).

Filler is what is left after courtesy words and the words a message echoes of the one before it: a greeting, a
thanks, "Wow, that painting is awesome!" after "I painted a lake". A question, a choice, a slot and a stated
constraint are never filler; the filter switched off (``filler_own_words=-1``) keeps every reaction.
"""

from __future__ import annotations

import pytest

from weaver.models import Message


def _feed(w, lines):
    out = []
    for speaker, text in lines:
        meta = {"speaker": speaker} if speaker else {}
        content = f"{speaker}: {text}" if speaker else text
        out.append(w.ingest_many([Message(content, "user_input", meta)])[0].decision)
    return out


CHAT = [
    ("Caroline", "I painted a lake sunrise last week, my first oil painting!"),
    ("Melanie", "Wow, Caroline, that lake painting is awesome!"),
    ("Caroline", "Thanks, Melanie! Glad you like it."),
    ("Melanie", "Did you take a class for it?"),
    ("Caroline", "Yes, a pottery and painting class at the community center on Tuesdays."),
    ("Melanie", "Sounds great! Bye, talk soon!"),
]


def test_a_reaction_that_only_echoes_is_dropped_and_facts_and_questions_are_kept(runtime):
    w = runtime.open("filler-en")
    decisions = _feed(w, CHAT)
    filler = [not d.kept and "filler" in d.reason for d in decisions]
    # the question may still fall short of the keep line on its score, but never as filler
    assert filler == [False, True, True, False, False, True], [d.reason for d in decisions]
    assert decisions[0].kept and decisions[4].kept


def test_without_the_filter_every_reaction_is_kept(runtime, settings):
    w = runtime.open(
        "filler-off", config=settings.config.with_(coarse_threshold=-2.0, keep_threshold=-1.0, filler_own_words=-1)
    )
    assert all(d.kept for d in _feed(w, CHAT))


@pytest.mark.parametrize(
    "text, filler",
    [
        ("好的谢谢", True),
        ("嗯嗯，好的，谢谢你！", True),
        ("哈哈，太好了", True),
        ("好的，那就这家吧", False),  # a choice
        ("预算改成八千吧。", False),  # a constraint
        ("我对海鲜过敏。", False),
        ("故宫门票多少钱？", False),  # a question
        ("安静一点的", False),  # a slot
    ],
)
def test_chinese_filler_is_dropped_and_constraints_and_choices_kept(runtime, text, filler):
    w = runtime.open("filler-zh")
    _feed(w, [("", "帮我找一家王府井附近的酒店，每晚不超过六百。")])
    d = _feed(w, [("", text)])[0]
    assert (not d.kept and "filler" in d.reason) if filler else d.kept, (text, d.reason)


@pytest.mark.parametrize(
    "asked, reply",
    [
        (("Melanie", "Did you enjoy the music festival?"), ("Jon", "Yeah, awesome! Glad to be part of it.")),
        (("小王", "你喜欢那个展览吗？"), ("小李", "喜欢，太棒了！")),
    ],
)
def test_an_answer_to_the_other_speakers_question_is_no_filler(runtime, asked, reply):
    # the attitude is the answer: "how did Jon feel about the festival?" has it as its evidence
    w = runtime.open("filler-answer")
    decisions = _feed(w, [("Jon", "I went to the music festival downtown on Saturday."), asked, reply])
    assert "filler" not in decisions[2].reason, decisions[2].reason


@pytest.mark.parametrize(
    "asked, reply",
    [
        (("Jon", "Did you enjoy the music festival?"), ("Jon", "Wow, awesome!")),  # the same speaker reacting
        (("Melanie", "Thanks! Anything else I can help with?"), ("Jon", "No thanks, bye!")),  # a courtesy asked
        (("小王", "好的，还需要什么吗？"), ("小李", "不用了，谢谢！")),
    ],
)
def test_a_reaction_to_a_courtesy_or_to_ones_own_question_stays_filler(runtime, asked, reply):
    w = runtime.open("filler-courtesy")
    decisions = _feed(w, [("Jon", "I went to the music festival downtown on Saturday."), asked, reply])
    assert not decisions[2].kept and "filler" in decisions[2].reason, decisions[2].reason


@pytest.mark.parametrize(
    "told, asked, said, reply",
    [
        (
            ("Tom", "We took the kids to the war memorial on Sunday."),
            ("Ana", "That's so moving! How did they react?"),
            ("Ana", "That's so moving! I went there once too."),
            ("Tom", "They were awestruck and humbled."),
        ),
        (
            ("小王", "周末我带孩子们去了军事纪念馆。"),
            ("小李", "真感人！他们看到的时候有什么反应？"),
            ("小李", "真感人！我也去过那里。"),
            ("小王", "他们都很感动，也很敬佩。"),
        ),
    ],
)
def test_an_answer_under_the_keep_line_is_kept_and_the_same_words_after_no_question_are_not(
    runtime, settings, told, asked, said, reply
):
    # a high keep line puts the reply's own score under it (in a long conversation "little new" does the same)
    cfg = settings.config.with_(keep_threshold=4.0)
    answer = _feed(runtime.open("answer-kept", config=cfg), [told, asked, reply])[2]
    assert answer.kept and "answers the other speaker's question" in answer.reason, answer.reason
    assert answer.total < 4.0 and answer.relevance > 1.0  # its own scores stay on the decision
    # the same words after a remark are no answer: the same scores, under the line
    remark = _feed(runtime.open("remark-dropped", config=cfg), [told, said, reply])[2]
    assert not remark.kept and remark.total == answer.total, remark.reason


def test_in_an_agent_chat_a_reply_to_the_agents_question_keeps_its_own_scores(runtime, settings):
    # no speaker names: the user's answers that matter state constraints or choices, kept by their own rules
    w = runtime.open("agent-answer", config=settings.config.with_(keep_threshold=4.0))
    w.ingest_many([Message("We took the kids to the war memorial on Sunday.", "user_input")])
    w.ingest_many([Message("That's so moving! How did they react?", "agent_response")])
    d = w.ingest_many([Message("They were awestruck and humbled.", "user_input")])[0].decision
    assert not d.kept and "answers" not in d.reason, d.reason
