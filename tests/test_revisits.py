"""Revisits: a speaker coming back in a later session to what they talked about in an earlier one is linked."""

import pytest

from weaver import WeaverConfig

KEEP_ALL = dict(coarse_threshold=-2.0, keep_threshold=-1.0)
TALK = [
    (1, "Ann", "Ann: I took my first rock climbing class at the gym downtown, it was scary but fun."),
    (1, "Bo", "Bo: That sounds great! I mostly cook on weekends."),
    (1, "Ann", "Ann: I also adopted a puppy last month, he chews everything."),
    (2, "Bo", "Bo: How have you been since we last talked?"),
    (2, "Ann", "Ann: I went rock climbing again and made it to the top of the wall this time!"),
]


def _ingest(w, meta_of):
    ids = []
    for i, (session, speaker, text) in enumerate(TALK):
        res = w.ingest(text, "user_input", meta_of(session, speaker), f"m{i}")
        ids.append(res.node.id)
    return ids


def test_a_later_session_that_returns_to_a_topic_links_to_where_the_speaker_raised_it(runtime):
    w = runtime.open("rev", config=WeaverConfig(**KEEP_ALL))
    ids = _ingest(w, lambda s, who: {"session": s, "speaker": who})
    revisits = [e for e in w.edges() if e.rationale.startswith("revisits")]
    assert [(e.source, e.target) for e in revisits] == [(ids[0], ids[4])]
    e = revisits[0]
    assert e.relation == "elaborates" and e.origin == "rules" and "session 1" in e.rationale
    # confidence is what the revisit adds: 1 - similarity, below 1 - REVISIT_SIMILARITY
    assert 0.0 < e.confidence <= 0.5
    # it lends across the sessions: the first class is lifted by the later climb (expansion on), not without it
    q = "Did Ann reach the top of the climbing wall?"
    on = {n.id: n for n in w.query(q, budget=4000).ranked}
    off = {n.id: n for n in w.query(q, budget=4000, expand=False).ranked}
    assert on[ids[0]].relevance > off[ids[0]].relevance
    # its confidence is no doubt: the review pass does not propose pruning it as a low-confidence guess
    w.curation.review(apply=False)
    assert not [i for i in w.curation.items() if (i.source, i.target) == (ids[0], ids[4])]


def test_no_revisit_without_a_session_for_unnamed_event_memories_or_across_speakers(runtime):
    no_session = runtime.open("rev-a", config=WeaverConfig(**KEEP_ALL))
    _ingest(no_session, lambda s, who: {"speaker": who})
    # memories each dated by their event, no speaker (MADial's shape): a date is no sitting of talk
    dated = runtime.open("rev-b", config=WeaverConfig(**KEEP_ALL))
    _ingest(dated, lambda s, who: {"date": f"2023-0{s}-01"})
    for w in (no_session, dated):
        assert not [e for e in w.edges() if e.rationale.startswith("revisits")]
    # Bo's climbing in session 2 does not revisit Ann's class: a revisit is the same person's
    other = runtime.open("rev-c", config=WeaverConfig(**KEEP_ALL))
    first = other.ingest(TALK[0][2], "user_input", {"session": 1, "speaker": "Ann"}, "a").node
    bo = "Bo: I went rock climbing at the gym too and made it to the top!"
    later = other.ingest(bo, "user_input", {"session": 2, "speaker": "Bo"}, "b").node
    assert not [e for e in other.edges() if e.rationale.startswith("revisits")]
    assert later is not None and first is not None


USER_SESSIONS = {  # a user's own chats over weeks, no speaker names: the user comes back to what they said
    "en": [
        (1, "I have a dentist appointment on Friday at 3pm."),
        (1, "I'm training for a half marathon in May, running four times a week."),
        (2, "The dentist moved my appointment to Monday at 10am."),
    ],
    "zh": [
        (1, "我周五下午三点约了牙医。"),
        (1, "我在准备五月的半程马拉松，每周跑四次。"),
        (2, "牙医把我的预约改到了周一上午十点。"),
    ],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_user_coming_back_in_a_later_session_links_to_where_they_said_it(runtime, lang):
    w = runtime.open(f"rev-user-{lang}", config=WeaverConfig(**KEEP_ALL))
    ids = [
        w.ingest(text, "user_input", {"session": s}, f"u{i}").node.id for i, (s, text) in enumerate(USER_SESSIONS[lang])
    ]
    revisits = [(e.source, e.target) for e in w.edges() if e.rationale.startswith("revisits")]
    assert revisits == [(ids[0], ids[2])]
    # the agent's replies revisit nothing: a revisit is a person's
    reply = w.ingest(
        "牙医的预约已经记下了。" if lang == "zh" else "Noted your dentist appointment.",
        "agent_response",
        {"session": 3},
        "r",
    ).node
    assert reply is None or not [e for e in w.edges() if e.target == reply.id and e.rationale.startswith("revisits")]
