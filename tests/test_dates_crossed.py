"""A trip start moved past the end in force leaves no stale end behind (zh and en).

Found by helper agentwalk17: after "6月3号到6月6号" then "改成7月10号入住" the records held start 07-10 and end 06-06,
a trip that ends before it starts; the constraint block, the studio's constraints panel and the agent all read it.
"""

from __future__ import annotations

import pytest

from weaver.constraints import records_from_statements

CASES = {
    "zh": ("我们两个人6月3号到6月6号去北京。", "改成7月10号入住", "改成6月4号入住", "其实6月1号就走"),
    "en": (
        "We are two, in Beijing from June 3rd to June 6th.",
        "Actually we arrive on July 10th.",
        "Actually we arrive on June 4th.",
        "Actually we leave on June 1st.",
    ),
}


def _dates(texts):
    recs = records_from_statements([(f"n{i}", i, t) for i, t in enumerate(texts)])
    return {r.key: r.value for r in recs if r.slot == "date"}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_start_moved_past_the_end_drops_the_end(lang):
    trip, later, inside, _ = CASES[lang]
    assert _dates([trip, later]) == {"date/start": "07-10"}
    assert _dates([trip, inside]) == {"date/start": "06-04", "date/end": "06-06"}  # still a trip: both stand


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_end_moved_before_the_start_drops_the_start(lang):
    trip, _, _, leave = CASES[lang]
    assert _dates([trip, leave]) == {"date/end": "06-01"}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_weavers_constraints_in_force_follow(runtime, lang):
    w = runtime.open(f"crossed-{lang}")
    trip, later, _, _ = CASES[lang]
    w.ingest(trip, "user_input")
    w.ingest(later, "user_input")
    held = {r.key: r.value for r in w.constraints() if r.slot == "date"}
    assert held == {"date/start": "07-10"}, held
