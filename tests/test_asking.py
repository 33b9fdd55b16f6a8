"""A question asks, it does not tell: in a chat between named people a memory that asks ranks lower, lending in full."""

from weaver import WeaverConfig
from weaver.models import Message

# one session of two named people, then a second one: (speaker, text)
FIRST = [
    ("Ann", "Wow, sounds amazing! What hiking trails did you try last weekend?"),
    ("Tim", "We did the ridge trail by the lake, six hours up and down."),
    ("Ann", "I painted a small landscape of the hills yesterday."),
]
LATER = [("Tim", "My knee hurts after basketball practice, so I am resting.")]
QUESTION = "What hiking trails did Tim try?"


def _space(runtime, name, speaker_of):
    """The talk ingested in one batch (the mirror's batched path); ``speaker_of(name)`` is the meta's speaker."""
    w = runtime.open(name, config=WeaverConfig(coarse_threshold=-2.0, keep_threshold=-1.0))
    messages = [
        Message(f"{who}: {text}", "user_input", {"session": session, **speaker_of(who)}, f"{name}-{k}")
        for k, (session, (who, text)) in enumerate([(1, t) for t in FIRST] + [(2, t) for t in LATER])
    ]
    return w, [r.node.id for r in w.ingest_many(messages)]


def _scores(w, **changes):
    cfg = w.config.with_(**changes)
    return {n.id: n.score for n in w.query(QUESTION, budget=4000, config=cfg).ranked}


def test_a_named_speakers_question_ranks_lower_and_still_lends_to_its_reply(runtime):
    w, ids = _space(runtime, "ask", lambda who: {"speaker": who})
    on, off = _scores(w), _scores(w, w_question=0.0)
    question, reply, statement = ids[0], ids[1], ids[2]
    assert abs((off[question] - on[question]) - w.config.w_question) < 1e-6
    # what the question lends its reply (the episode context) is untouched: so is every memory that does not ask
    assert on[reply] == off[reply] and on[statement] == off[statement]
    assert w.query(QUESTION, budget=4000).config["w_question"] == w.config.w_question > 0
    # a full load of the space reads the same facts from the stored nodes
    again = runtime.open("ask", config=w.config)
    assert _scores(again) == on


def test_no_question_offset_without_named_speakers(runtime):
    w, ids = _space(runtime, "ask-agent", lambda who: {})
    assert _scores(w) == _scores(w, w_question=0.0)
    one, _ = _space(runtime, "ask-one", lambda who: {"speaker": "Ann"})
    assert _scores(one) == _scores(one, w_question=0.0)


def test_the_other_speakers_question_lends_its_reply_as_if_the_query_named_its_speaker(runtime):
    # the speaker offset says whose memory holds the answer, not who leads to it: Ann's question, which the query
    # does not name, ranks lower for it, but lends Tim's answer what it would lend without the offset
    w = runtime.open("ask-lend", config=WeaverConfig(coarse_threshold=-2.0, keep_threshold=-1.0))
    talk = ["Ann: Tim, what books are you reading these days?", "Tim: The Hobbit, I could not put it down."]
    ids = [r.node.id for r in w.ingest_many([Message(t, meta={"session": 1, "speaker": t[:3]}) for t in talk])]
    ask = "What books is Tim reading?"
    on = {n.id: n.score for n in w.query(ask, budget=4000).ranked}
    off = {n.id: n.score for n in w.query(ask, budget=4000, config=w.config.with_(w_speaker=0.0)).ranked}
    assert abs((off[ids[0]] - on[ids[0]]) - w.config.w_speaker) < 1e-6
    assert abs(on[ids[1]] - off[ids[1]]) < 1e-6
