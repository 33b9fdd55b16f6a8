"""Revisits: a speaker coming back in a later session to what they talked about in an earlier one is linked."""

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


def test_no_revisit_without_a_named_speaker_and_a_session_or_across_speakers(runtime):
    no_session = runtime.open("rev-a", config=WeaverConfig(**KEEP_ALL))
    _ingest(no_session, lambda s, who: {"speaker": who})
    no_speaker = runtime.open("rev-b", config=WeaverConfig(**KEEP_ALL))
    _ingest(no_speaker, lambda s, who: {"session": s})
    for w in (no_session, no_speaker):
        assert not [e for e in w.edges() if e.rationale.startswith("revisits")]
    # Bo's climbing in session 2 does not revisit Ann's class: a revisit is the same person's
    other = runtime.open("rev-c", config=WeaverConfig(**KEEP_ALL))
    first = other.ingest(TALK[0][2], "user_input", {"session": 1, "speaker": "Ann"}, "a").node
    bo = "Bo: I went rock climbing at the gym too and made it to the top!"
    later = other.ingest(bo, "user_input", {"session": 2, "speaker": "Bo"}, "b").node
    assert not [e for e in other.edges() if e.rationale.startswith("revisits")]
    assert later is not None and first is not None
