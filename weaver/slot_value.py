"""The value a slot reader returns (``SlotValue``) and the few pieces every reader shares.

Shared by the readers of budgets, dates, counts and places (``slots_budget``,
``slots_dates``, ``slots_counts``, ``slots_location``): the change cue ("改成",
"instead"), the words around a span within its clause, a case-blind pattern. Kept
apart so the readers need not import the public reader in ``slots`` (no cycle).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["SLOTS", "SlotValue", "CHANGE_CUES", "is_change", "around_span", "compile_ci", "CLAUSE_END"]

SLOTS = ("budget", "date", "party", "nights", "diet", "rating", "location")

# a later statement that revises an earlier one (bilingual, general)
CHANGE_CUES = re.compile(
    r"改成|改为|改到|换成|换到|变成|调整|调到|提高|增加到|加到|涨到|降到|降低|减到|更新|不再|其实|现在|变了|改主意|"
    r"\b(?:instead|now|actually|chang(?:e|ed|ing)|increas(?:e|ed)|rais(?:e|ed)|lower(?:ed)?|updat(?:e|ed)|"
    r"revis(?:e|ed)|no longer|switch(?:ed)?|bump(?:ed)?|make it|moved?)\b",
    re.IGNORECASE,
)


def is_change(text: str) -> bool:
    return bool(CHANGE_CUES.search(text))


@dataclass(frozen=True)
class SlotValue:
    """One slot stated in a message.

    ``slot``: one of :data:`SLOTS`. ``value``: a number (budget, party, nights, rating), ``"MM-DD"``
    (a date; ``"--DD"`` when only the day is said), a diet item or style, a place; None when the
    amount could not be read (``text`` keeps what was said). ``bound``: ``max`` / ``min`` / ``eq`` /
    ``about`` / ``range`` (``value``..``high``), ``delta`` (a budget changed by ``value``, signed: "再加两千"); for
    diet ``restrict`` / ``lift``. ``scope`` tells slots
    apart that must not be compared: ``total`` / ``night`` / ``person`` / ``ticket`` budgets, ``start`` /
    ``end`` dates, the diet item (or ``style`` for vegetarian / vegan), the location's ``hotel`` /
    ``restaurant``. ``explicit``: the slot is named in words (预算, per night, 日期 ...), not only implied.
    """

    slot: str
    value: float | str | None
    bound: str
    unit: str = ""
    scope: str = ""
    span: tuple[int, int] = (0, 0)
    text: str = ""
    high: float | None = None
    explicit: bool = True

    @property
    def key(self) -> tuple[str, str]:
        return (self.slot, self.scope)

    @property
    def known(self) -> bool:
        return self.value is not None

    def shown(self) -> str:
        if self.value is None:
            return repr(self.text)
        if isinstance(self.value, float):
            if self.bound == "delta":
                return f"{self.value:+g}"
            v = f"{self.value:g}"
            return f"{v}-{self.high:g}" if self.bound == "range" and self.high is not None else v
        return str(self.value)

    def describe(self) -> str:
        name = f"{self.slot}/{self.scope}" if self.scope else self.slot
        return f"{name} {self.bound} {self.shown()}".strip()

    def same_as(self, other: "SlotValue") -> bool:
        """The same statement of the slot (a restatement), comparing parsed values only."""
        a, b = self.value, other.value
        if self.slot == "date":
            a, b = _day_in(a, b), _day_in(b, a)
        if self.slot == "budget":
            # "at most 5000" restated as "a budget of 5000" is the same budget; a range or a floor is not
            ceiling = ("max", "eq", "about")
            same_bound = self.bound == other.bound or (self.bound in ceiling and other.bound in ceiling)
            return a == b and same_bound and self.high == other.high
        if self.slot == "location":
            return bool(a and b and (str(a).lower() in str(b).lower() or str(b).lower() in str(a).lower()))
        return a == b and self.bound == other.bound and self.high == other.high


def _day_in(v, other):
    """A bare day ("the 2nd") takes the month of the date it is compared with."""
    if isinstance(v, str) and v.startswith("--") and isinstance(other, str) and not other.startswith("--"):
        return other[:2] + v[1:]
    return v


# ------------------------------------------------------------------ context
CLAUSE_END = re.compile(r"[，,。;；!！?？\n]|(?<=[A-Za-z])\.\s")


def around_span(text: str, start: int, end: int, before: int = 14, after: int = 10) -> tuple[str, str]:
    """The words just before and after a span, within its clause."""
    b = CLAUSE_END.split(text[max(0, start - before) : start])[-1]
    a = CLAUSE_END.split(text[end : end + after])[0]
    return b, a


def compile_ci(pattern: str) -> re.Pattern:
    return re.compile(pattern, re.IGNORECASE)
