"""What a reply must say whoever writes it: a place the database cannot place, a trip length that disagrees with
the dates, and the memories this message's change flagged as stale.

The offline turn composes these into its reply; in LLM mode they are given to the model as facts it must state
and appended to its answer when it left one out (a model may drop a line, the user must not miss it).
"""

from __future__ import annotations

from typing import cast

from .numbers import stay_said
from .replies import honest_text, length_clash_text
from .understanding import Parsed, length_clash

__all__ = ["clash_with_memory", "length_note", "turn_facts", "with_facts"]


def clash_with_memory(p: Parsed, known) -> tuple[dict, bool] | None:
    """This message's dates against a stay length said before, or its stay length against the dates said before,
    when they disagree: (the clash, whether the dates are what this message kept)."""
    new = next((c for c in p.constraints if c.slot == "dates" and isinstance(c.value, dict)), None)
    before = known.latest("dates", ("any", "hotel"))
    if new is None or before is None or not isinstance(before.value, dict) or before.node_id == new.node_id:
        return None
    now, then = cast(dict, new.value), before.value  # a dates constraint's value is its dict
    if now.get("check_out") and not then.get("check_in"):  # "3 days" then "May 1 to May 4"
        clash = length_clash(now, stay_said(before.text)) if before.text else None
        return (clash, True) if clash else None
    if not now.get("check_in") and then.get("check_out"):  # "May 1 to May 4" then "a 3-day trip"
        clash = length_clash(then, stay_said(p.text))
        return (clash, False) if clash else None
    return None


def length_note(p: Parsed, known, lang: str) -> str:
    """The stay's length against its dates, asked back ("" when they agree or either is missing)."""
    if p.length_clash:  # "a 3-day trip, May 1 to May 4": the dates are kept, the disagreement asked back
        return length_clash_text(p.length_clash, lang)
    if clash := clash_with_memory(p, known):  # said in two messages: the later one against the earlier
        return length_clash_text(clash[0], lang, kept_dates=clash[1])
    return ""


def turn_facts(p: Parsed, known, flagged: str, lang: str) -> list[str]:
    """The facts of this message a reply must state (``flagged``: the stale-flag lines, "" when none)."""
    facts = []
    if p.intent == "search" and p.domain and p.unplaced:  # "near the Bund": not searched all over Beijing instead
        facts.append(honest_text("unplaced", lang, place=p.unplaced))
    facts += [f for f in (length_note(p, known, lang), flagged) if f]
    return facts


def with_facts(reply: str, facts: list[str]) -> str:
    """The model's reply with each fact it did not state appended, word for word."""
    missing = [f for f in facts if f not in reply]
    return "\n\n".join([reply, *missing]) if missing else reply
