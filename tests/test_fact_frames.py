"""What ``weaver.fact_frames.frame_of`` reads as where the speaker lives or works, and what it must not.

Found reviewing the frames with sentences of a personal-assistant and a travel chat: "I no longer live in Paris"
read as living in Paris, "I heard you live in Paris" as the speaker's own home, "我住在哪里比较方便" (a question
without its mark) as a home called "哪里比较方便", and "我们住在王府井附近的酒店" (a hotel on a trip) as a new
home, each then proposed to supersede where the user really lives. And a few inputs took minutes or hung: a
value followed by a long run of spaces (quadratic), a long "刚刚刚…" (exponential), a time followed by spaces.
"""

from __future__ import annotations

import time

import pytest

from weaver.curation.fact_updates import WHEN
from weaver.fact_frames import frame_of, frames_of
from weaver.models import MemoryNode
from weaver.relations.updates import update_parents
from weaver.slots_diet import option_questions

STATED = [
    ("I live in Paris now, close to the river.", ("home", "Paris")),
    ("My family and I live in Madrid.", ("home", "Madrid")),
    ("I've been living in Tokyo for three years.", ("home", "Tokyo")),
    ("I work as a teacher.", ("role", "teacher")),  # what they work as: another fact than where
    ('We moved to "Lyon" in May.', ("home", "Lyon")),
    ("我刚刚搬到北京了。", ("home", "北京")),
    ("我家住在杭州。", ("home", "杭州")),
    ("我现在在字节跳动工作。", ("work", "字节跳动")),
]

NOT_MINE = [
    "I no longer live in Paris.",  # denied
    "I do not live in Paris anymore.",
    "I'm not working at the bank anymore.",
    "I never moved to Berlin.",
    "I could never live in a big city.",  # doubted, weighed, dreamt
    "I may be moving to Berlin next year.",
    "I'm thinking of moving to Berlin.",
    "I was living in Paris back then.",  # the past
    "I heard you live in Paris.",  # another person's
    "I know you work at Google.",
    "I visited my friends living in Tokyo.",
    "我住在哪里比较方便",  # a question without its mark
    "你知道我住在哪里吗",
    "我们住在王府井附近的酒店。",  # a stay on a trip, not a home
    "We moved to a different hotel because of the noise.",
]


@pytest.mark.parametrize("text, frame", STATED)
def test_the_speakers_own_home_or_work_is_read(text, frame):
    assert frame_of(text) == frame


@pytest.mark.parametrize("text", NOT_MINE)
def test_a_denied_doubted_past_or_someone_elses_home_and_a_question_or_a_hotel_are_not_read(text):
    assert frame_of(text) is None


@pytest.mark.parametrize(
    "read, text",
    [
        (frame_of, "I live in x" + " " * 20000 + "y"),  # took 169 s: the value's lookahead at every space
        (frame_of, "I work at x" + "\n" * 20000 + "y"),
        (frame_of, "我" + "刚" * 40 + "x"),  # 25 s at 36: "刚刚?" under a star split the run every way
        (lambda t: list(WHEN.finditer(t)), "Friday" + " " * 20000 + "x"),  # minutes: two \s* around "at"
        # the diet reader's option questions retried every start of a run without a question mark: 10 s at 40k
        (option_questions, "I like food and walks " * 4000),
        # every frame's "I" checked for a reporting verb over all the text before it (13 s), every value of a
        # pasted list compared with every other (15 s)
        (frames_of, "He said I live in Rome and " * 2000),
        (frames_of, "I live in " + ", ".join(f"Town{chr(65 + i % 26)}{chr(65 + i // 26 % 26)}x" for i in range(3000))),
    ],
)
def test_long_adversarial_messages_are_read_in_linear_time(read, text):
    took = []
    for _ in range(3):  # the best of three: a shared, loaded box (or a collection pause) stalls a single run
        start = time.perf_counter()
        read(text)
        took.append(time.perf_counter() - start)
    assert min(took) < 2.0  # now ~0.03 s each on a loaded 2-core box; 25 s to minutes before


def _supersedes(w, ids):
    return sorted((ids.index(i.source), ids.index(i.target)) for i in w.curation.items() if i.kind == "supersede")


def test_a_third_home_proposes_the_second_superseded_and_the_review_pass_does_not_fail(runtime):
    """Two earlier homes with other values: the pass compared them by ``created_at``, which a memory lacks, and
    raised (a periodic pass swallowed it: no proposal of any kind while both sat in the window)."""
    w = runtime.open("three-homes")
    w.config = w.config.with_(review_every=0)
    texts = ["I live in Paris.", "I moved to Berlin last year.", "Big news: we just relocated to Lyon for my new job."]
    ids = [w.ingest(t).node.id for t in texts]
    w.curation.review(apply=False)
    assert _supersedes(w, ids) == [(1, 0), (2, 1)]


def test_the_same_home_said_again_proposes_nothing_more(runtime):
    """Saying "We still live in Berlin" after "I moved to Berlin" updates nothing: a second Paris -> Berlin proposal
    stayed pending after the curator accepted the first."""
    w = runtime.open("same-home")
    w.config = w.config.with_(review_every=0)
    texts = [
        "I live in Paris, near the Seine.",
        "I love cycling along rivers.",
        "I moved to Berlin last month for work.",
        "Our flat in Berlin is tiny.",
        "We still live in Berlin, near the zoo, and the kids love it.",
    ]
    ids = [w.ingest(t).node.id for t in texts]
    w.curation.review(apply=False)
    assert _supersedes(w, ids) == [(2, 0)]


@pytest.mark.parametrize(
    "text, frame",
    [
        ("I moved to Berlin last month. Have you ever been?", ("home", "Berlin")),
        ("我现在住在上海，你想来玩吗？", ("home", "上海")),
        ("You know what, I got a new job at a bakery!", ("work", "bakery")),
        ("If I moved to Berlin, I'd be happier.", None),
        ("如果我搬到北京，就方便多了", None),
    ],
)
def test_a_question_or_a_condition_silences_only_its_own_clause(text, frame):
    assert frame_of(text) == frame


@pytest.mark.parametrize(
    "text",
    [
        "I try to live in the moment.",  # a way of living, not a place
        "We live in fear of the next storm.",
        "I work at night, so mornings are slow.",  # a time, not an employer
        "I work at home on Fridays.",
        "我在晚上工作，白天睡觉。",
        "他说我住在北京。",  # another's words about the speaker
        "妈妈以为我在银行上班。",
        "She thinks I work at Google.",
        'He said, "I live in Paris."',  # quoted speech with its own "I"
        "「我住在上海」，他这样说。",
    ],
)
def test_an_idiom_a_time_or_someone_elses_words_state_no_home_or_job(text):
    assert frame_of(text) is None, text


@pytest.mark.parametrize(
    "text, frames",
    [
        ("I moved to Berlin and I started a new job at a bakery.", [("home", "Berlin"), ("work", "bakery")]),
        ("我搬到北京了，我现在在一家银行上班。", [("home", "北京"), ("work", "银行")]),
        ('I work at "Blue Bottle" now.', [("work", "Blue Bottle")]),  # a quoted name is no quoted speech
        ("I told you I work at a bank.", [("work", "bank")]),  # the speaker's own words
    ],
)
def test_every_frame_a_message_states_is_read(text, frames):
    assert frames_of(text) == frames


@pytest.mark.parametrize(
    "text, frames",
    [
        ("I live in Paris and in Rome.", [("home", "Paris"), ("home", "Rome")]),
        ("We live in Paris, Rome and Berlin.", [("home", "Paris"), ("home", "Rome"), ("home", "Berlin")]),
        ("I work at Google and at a bakery on weekends.", [("work", "Google"), ("work", "bakery")]),
        ("I work as a nurse and a teacher.", [("role", "nurse"), ("role", "teacher")]),
        ("我住在巴黎和罗马。", [("home", "巴黎"), ("home", "罗马")]),
        ("我在谷歌和一家面包店上班。", [("work", "谷歌"), ("work", "面包店")]),
        # one value: a place and where it is, another clause, a name with 和 inside
        ("I live in Paris, France.", [("home", "Paris")]),
        ("I live in Paris and I love it.", [("home", "Paris")]),
        ("I live in Paris and work from home.", [("home", "Paris")]),
        ("I work at a bakery and the pay is good.", [("work", "bakery")]),
        ("我住在和平里。", [("home", "和平里")]),
    ],
)
def test_every_value_of_a_frame_is_read(text, frames):
    assert frames_of(text) == frames


@pytest.mark.parametrize(
    "text, frames",
    [
        # another's words cover every clause they coordinate
        ("My friend said that I work at Google and I live in Rome.", []),
        ("My friend said that I work at Google and that I live in Rome.", []),
        ("He said I work at Google, and I live in Rome.", []),
        ("他说我在谷歌上班，而且我住在罗马。", []),
        # ... up to a contrast, or a clause of the speaker's own
        ("He thinks I live in Rome, but I live in Paris.", [("home", "Paris")]),
        ("朋友说我住在罗马，但其实我住在巴黎。", [("home", "巴黎")]),
        ("I work at Google and my friend said I live in Rome.", [("work", "Google")]),
        ("He said I work at Google. I live in Rome.", [("home", "Rome")]),
        ("他说我在谷歌上班。我住在罗马。", [("home", "罗马")]),
    ],
)
def test_reported_speech_covers_the_clauses_it_coordinates(text, frames):
    assert frames_of(text) == frames


@pytest.mark.parametrize(
    "lang, said, names",
    [
        ("en", ("I live in Paris and in Rome.", "I moved to Berlin last month."), ("Paris", "Rome", "Berlin")),
        ("zh", ("我住在巴黎和罗马。", "我上个月搬到柏林了。"), ("巴黎", "罗马", "柏林")),
    ],
)
def test_a_move_from_several_homes_is_one_update_naming_them_all(runtime, lang, said, names):
    """Every value of a frame counts: "Berlin" after "Paris and Rome" is linked as an update whose why names both
    (it named Paris alone), and the review pass proposes the older statement superseded."""
    from weaver.relations.updates import is_update

    w = runtime.open(f"homes-{lang}")
    a, b = (w.ingest(t, "user_input").node.id for t in said)
    why = w.graph.edges[a, b]["rationale"]
    assert is_update(w.graph.edges[a, b]) and all(name in why for name in names), why
    w.curation.review(apply=False, mode="rules")
    (item,) = [i for i in w.curation.items("pending") if i.target == a]
    assert all(name in item.rationale for name in names), item.rationale


@pytest.mark.parametrize(
    "text, frames",
    [
        # another clause with its own subject after "and" is no further value of the list
        ("I moved to Berlin and Anna stayed in Paris.", [("home", "Berlin")]),
        ("I live in Boston and Sarah lives in Denver.", [("home", "Boston")]),
        ("We moved to Austin and Texas is hot.", [("home", "Austin")]),
        ("I work at Google and Facebook is my client.", [("work", "Google")]),
        ("I live in London and in the summer I go to Spain.", [("home", "London")]),
        ("I live in London, and in winter we ski.", [("home", "London")]),
        # a Chinese "list" that is one place, or names the company kept: one value, as before lists were read
        ("我住在北京和上海之间的一个小城。", [("home", "北京和上海之间的一个小城")]),
        ("我住在上海跟父母一起。", [("home", "上海跟父母一起")]),
        # real lists still read
        ("I work at Bank of America and Goldman Sachs.", [("work", "Bank of America"), ("work", "Goldman Sachs")]),
        ("I live in Paris and in Rome.", [("home", "Paris"), ("home", "Rome")]),
        ("我住在北京、上海和广州。", [("home", "北京"), ("home", "上海"), ("home", "广州")]),
    ],
)
def test_a_clause_after_and_is_not_read_as_one_more_value(text, frames):
    assert frames_of(text) == frames


@pytest.mark.parametrize(
    "before, after",
    [
        ("I live in Boston.", "I live in Boston and Sarah lives in Denver."),
        ("我住在上海。", "我住在上海跟父母一起。"),
    ],
)
def test_the_same_home_said_with_a_second_clause_updates_nothing(before, after):
    """The false second value made the two statements differ: an update edge "Boston -> Boston, Sarah lives"."""
    old, new = MemoryNode("n0", before, "user_input", 0, "m"), MemoryNode("n1", after, "user_input", 1, "m")
    assert update_parents(new, [old], set()) == []
