"""A question that names a date: the memories of the sittings held then rank higher (en and zh); nothing else moves."""

from datetime import date

from weaver import WeaverConfig
from weaver.dated import question_span
from weaver.models import Message

# two sittings a month apart, near the same words in each (no duplicate merging): only the date tells them apart
SITTINGS = [
    ("1 May 2022", "Joanna: I watched a great movie last night with my brother."),
    ("1 May 2022", "Nate: Nice, I stayed home and played games."),
    ("20 June 2022", "Joanna: I watched a great movie last night with my friends."),
    ("20 June 2022", "Nate: Cool, I went to a tournament."),
]
ZH = [("2022年5月1日", "小明：昨晚我看了一部很好看的电影。"), ("2022年6月20日", "小明：昨晚我又看了一部很好看的电影。")]


def _space(runtime, name, turns, dated=True):
    w = runtime.open(name, config=WeaverConfig(coarse_threshold=-2.0, keep_threshold=-1.0, duplicate_threshold=1.1))
    msgs = []
    for k, (day, text) in enumerate(turns):
        meta = {"speaker": text.split(":")[0].split("：")[0], "session": day}
        if dated:
            meta["date"] = day
        msgs.append(Message(text, "user_input", meta, f"{name}-{k}"))
    return w, [r.node.id for r in w.ingest_many(msgs)]


def _scores(w, question, **changes):
    return {n.id: n.score for n in w.query(question, budget=4000, config=w.config.with_(**changes)).ranked}


def test_a_question_naming_a_day_or_month_lifts_the_memories_dated_then(runtime):
    w, ids = _space(runtime, "dated", SITTINGS)
    for question, then, other in (
        ("What movie did Joanna watch on 20 June, 2022?", ids[2], ids[0]),
        ("What movie did Joanna watch in May 2022?", ids[0], ids[2]),
        ("What did Joanna watch in June?", ids[2], ids[0]),
    ):
        on, off = _scores(w, question), _scores(w, question, w_date=0.0)
        assert abs((on[then] - off[then]) - w.config.w_date) < 1e-6
        assert abs(on[other] - off[other]) < 0.01 * w.config.w_date  # weeks away: next to nothing
        assert on[then] > on[other]
    res = w.query("What movie did Joanna watch on 20 June, 2022?", budget=4000)
    assert res.config["w_date"] == w.config.w_date > 0
    # a question without a date is scored as before
    assert _scores(w, "What movie did Joanna watch?") == _scores(w, "What movie did Joanna watch?", w_date=0.0)
    # a full load of the space reads the same dates from the stored nodes
    assert _scores(runtime.open("dated", config=w.config), "What did Joanna watch in June?") == _scores(
        w, "What did Joanna watch in June?"
    )


def test_a_chinese_date_lifts_too_and_undated_memories_never_move(runtime):
    w, ids = _space(runtime, "dated-zh", ZH)
    on, off = _scores(w, "2022年6月20日小明看了什么？"), _scores(w, "2022年6月20日小明看了什么？", w_date=0.0)
    assert on[ids[1]] - off[ids[1]] > 0.4 * w.config.w_date and abs(on[ids[0]] - off[ids[0]]) < 0.01
    plain, _ = _space(runtime, "undated", SITTINGS, dated=False)
    q = "What movie did Joanna watch on 20 June, 2022?"
    assert _scores(plain, q) == _scores(plain, q, w_date=0.0)


def test_question_spans():
    assert question_span("What did Maria donate in December 2023?")[:2] == (
        date(2023, 12, 1).toordinal(),
        date(2023, 12, 31).toordinal(),
    )
    day = date(2023, 3, 16).toordinal()
    assert question_span("Which activity was James pursuing on March 16, 2023?") == (day, day, None)
    assert question_span("小明五月去了哪里？") == (0, 0, 5)
    for none in ("What may I bring?", "What did Tim say about marching bands?", "酒店多少钱？"):
        assert question_span(none) is None
