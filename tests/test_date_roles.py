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
    # no trip word: an event's date, not the trip's
    ("I spent 200 on May 3rd", []),
    ("我5月3号买了一本书", []),
]


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
