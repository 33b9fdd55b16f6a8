"""Which trip date is the start and which the end: the trip word nearest a date is its own (zh and en).

Found driving the CLI as a new user: "We arrive on May 3 and leave May 6" read both dates as the end (the
"leave" after the first date won over the "arrive" before it), "Checking in June 3, checking out June 6" read both
as the start ("checking" held "checkin"), and "5月3号落地" was no start. The records then lost the arrival, and
after "Actually we now leave May 7" the message with the arrival was superseded as a whole and left the context.
"""

from __future__ import annotations

import pytest

from weaver.constraints import records_from_statements
from weaver.slots import read_slots

ROLES = [
    ("We arrive May 1 and leave May 4.", [("start", "05-01"), ("end", "05-04")]),
    ("We land on May 3 and leave May 6", [("start", "05-03"), ("end", "05-06")]),
    ("Checking in June 3, checking out June 6", [("start", "06-03"), ("end", "06-06")]),
    ("We fly in on June 3 and fly out June 6", [("start", "06-03"), ("end", "06-06")]),
    ("Leaving on June 6, arriving June 3", [("end", "06-06"), ("start", "06-03")]),
    ("We fly out to Beijing on June 3", [("start", "06-03")]),
    ("我们5月3号落地，6号走", [("start", "05-03"), ("end", "05-06")]),
    ("我们5月3号到北京，5月6号回去", [("start", "05-03"), ("end", "05-06")]),
    ("入住5月3号，退房5月6号", [("start", "05-03"), ("end", "05-06")]),
    ("5月1号到3号", [("start", "05-01"), ("end", "05-03")]),
    ("from May 1st to 3 May", [("start", "05-01"), ("end", "05-03")]),
    ("The trip is June 3-7", [("start", "06-03"), ("end", "06-07")]),
    ("June 3rd to 7th, budget 5000", [("start", "06-03"), ("end", "06-07")]),
    ("We're flying in on the 3rd of June and out on the 7th", [("start", "06-03"), ("end", "06-07")]),
    ("Our flight lands June 3 at 9am", [("start", "06-03")]),
    ("We arrive May 3 to 4 people", [("start", "05-03")]),  # a count after "to", not a day
    # no trip word: an event's date, not the trip's
    ("I spent 200 on May 3rd", []),
    ("我5月3号买了一本书", []),
    ("May 3 - 10:30 meeting", []),
]

PARTIES = [
    ("Two adults and a 5-year-old", 3.0),
    ("2 adults and a baby", 3.0),
    ("two adults, two kids", 4.0),
    ("两个大人一个宝宝", 3.0),
    ("两个大人两个小孩", 4.0),
]


@pytest.mark.parametrize("text,party", PARTIES)
def test_children_said_by_age_or_as_one_count_in_the_party(text, party):
    assert [v.value for v in read_slots(text) if v.slot == "party"] == [party]


@pytest.mark.parametrize(
    "text,budget",
    [
        ("Budget per person for dinner about 150", ("person", 150.0, "about")),
        ("晚饭预算人均大概150", ("person", 150.0, "about")),
        ("I was about 30 when I went to Paris on a budget trip", None),
    ],
)
def test_an_amount_about_a_budget_named_earlier_in_the_clause(text, budget):
    got = [(v.scope, v.value, v.bound) for v in read_slots(text) if v.slot == "budget"]
    assert got == ([budget] if budget else [])


@pytest.mark.parametrize("text,roles", ROLES)
def test_each_date_takes_the_role_of_its_own_trip_word(text, roles):
    assert [(v.scope, v.value) for v in read_slots(text) if v.slot == "date"] == roles


CHAT = {
    "en": ("We arrive on May 3 and leave May 6", "Actually we now leave May 7", "When do we arrive?"),
    "zh": ("我们5月3号落地，5月6号走", "改成5月7号走", "我们哪天到？"),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_later_end_keeps_the_arrival_in_the_records_and_in_the_context(runtime, lang):
    trip, later, question = CHAT[lang]
    recs = records_from_statements([("n0", 0, trip), ("n1", 1, later)])
    assert {r.key: r.value for r in recs if r.slot == "date"} == {"date/start": "05-03", "date/end": "05-07"}
    w = runtime.open(f"dates-{lang}")
    w.set_task("Plan a trip to Beijing" if lang == "en" else "规划北京旅行")
    w.ingest(trip)
    w.ingest(later)
    in_force = {c.key: c.value for c in w.constraints()}
    assert in_force.get("date/start") == "05-03" and in_force.get("date/end") == "05-07", in_force
    context = w.query(question, budget=300).context
    assert trip in context and later in context, context
