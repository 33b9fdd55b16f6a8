"""Siblings: a question's best hit lifts what the same speaker said of the same kind of thing in other sessions."""

from weaver import WeaverConfig

KEEP_ALL = dict(coarse_threshold=-2.0, keep_threshold=-1.0, sibling_lift=0.3)
# (session, line): the speaker is the name before the colon
TALK = [
    (1, "Tim: I just finished reading a great fantasy book last night, I loved it."),
    (1, "Ann: Nice! I went hiking in the hills on Sunday."),
    (2, "Ann: How was your week?"),
    (2, "Tim: The Hobbit is wonderful, I could not put it down on the train."),
    (2, "Ann: I finished a fantasy novel too, on my flight home."),
    (3, "Tim: My knee hurts after basketball practice, so I am resting."),
]
QUESTION = "What books has Tim read?"


def _space(runtime, name, meta_of, **changes):
    w = runtime.open(name, config=WeaverConfig(**dict(KEEP_ALL, **changes)))
    metas = [meta_of(s, text.split(":")[0]) for s, text in TALK]
    ids = [w.ingest(text, "user_input", meta, f"m{i}").node.id for i, ((_, text), meta) in enumerate(zip(TALK, metas))]
    return w, ids


def test_the_best_hit_lends_to_the_same_speakers_like_memory_in_another_session(runtime):
    w, ids = _space(runtime, "sib", lambda s, who: {"session": s, "speaker": who})
    on = {n.id: n.score for n in w.query(QUESTION, budget=4000).ranked}
    without = {n.id: n.score for n in w.query(QUESTION, budget=4000, config=w.config.with_(sibling_lift=0.0)).ranked}
    hobbit, anns_novel, knee = ids[3], ids[4], ids[5]
    # the Hobbit (session 2) is lifted by Tim's book of session 1
    assert on[hobbit] - without[hobbit] > 0.02
    # another speaker's like memory borrows nothing from Tim's hit; Tim's knee, less alike, borrows less
    assert on[anns_novel] == without[anns_novel]
    assert on[knee] - without[knee] < (on[hobbit] - without[hobbit]) / 2
    assert w.query(QUESTION, budget=4000).config["sibling_lift"] == 0.3
    assert w.query(QUESTION, budget=4000, expand=False).config["sibling_lift"] == 0.0


def test_no_sibling_without_a_speaker_and_a_session_or_without_graph_expansion(runtime):
    no_speaker, ids = _space(runtime, "sib-a", lambda s, who: {"session": s})
    w, ids_b = _space(runtime, "sib-b", lambda s, who: {"session": s, "speaker": who})
    for space, nid, expand in ((no_speaker, ids[3], True), (w, ids_b[3], False)):
        lifted = {n.id: n.score for n in space.query(QUESTION, budget=4000, expand=expand).ranked}
        cfg = space.config.with_(sibling_lift=0.0)
        plain = {n.id: n.score for n in space.query(QUESTION, budget=4000, expand=expand, config=cfg).ranked}
        assert lifted[nid] == plain[nid]
