"""A bare amount that changes the slot just stated: "Make that 12000 yuan." after "My total budget is 8000 yuan.".

The slot readers (:func:`weaver.slots.read_slots`) read a text alone, and an amount alone names no slot, so
"改成一万二吧" read nothing. Said as a change ("make that", "change it to", "改成", "换成", "那就 ... 吧") right
after a statement, the amount is that statement's slot again with a new value. The caller supplies the
statements before (the same speaker's, newest first, at most :data:`REACH`): the newest whose slot the amount
fits is restated ("总预算八千" / "帮我找故宫附近的酒店" / "改成一万二吧": the budget). The reading depends on them,
so it is never cached with the text's own values.

>>> from weaver.slots import read_slots
>>> [v.describe() for v in restated_amount("Make that 12000 yuan.", read_slots("My total budget is 8000 yuan."))]
['budget/total max 12000']
>>> [v.describe() for v in restated_amount("Change it to 4.", read_slots("We are 3 people."))]
['party eq 4']
>>> [v.describe() for v in restated_amount("那就12000吧", read_slots("我们两个人，总预算八千"))]
['budget/total max 12000']
>>> restated_amount("Make that 12000 yuan.", []), restated_amount("Find 3 hotels", read_slots("budget 8000 yuan"))
([], [])
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from .numerals import find_numbers
from .slot_value import SlotValue

__all__ = ["restated_amount", "is_amount_change", "REACH"]

# the same speaker's statements a bare amount looks back over: a search bound (a change said a request or two
# after the value it changes), not a fitted constant; past it an amount alone names nothing
REACH = 6

# the whole message before the amount: an optional opener, then a cue that sets something to a value
_BEFORE = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|well|hmm|no|actually|sorry|wait|好的?|嗯|那|其实|不|算了)[\s,，.。!！]*)*"
    r"(?:(?:please\s+)?(?:make|change|set|switch|update|raise|lower|bump)\s+(?:that|it|this)(?:\s+(?:to|up to|down to))?|"
    r"let'?s\s+(?:say|do|make it)|(?:how about|what about)|"
    r"(?:就|还是)?(?:改成|改为|改到|换成|变成|调到|调成)|那?就)\s*$",
    re.IGNORECASE,
)
# the whole message after it: a currency, a particle, "instead", an end mark
_AFTER = re.compile(
    r"^\s*(?:元|块钱|块|rmb|cny|yuan|kuai|dollars?|usd|美元)?\s*(?:吧|好了|算了|instead|then|please)?\s*[.!?。！？]*\s*$",
    re.IGNORECASE,
)
_CURRENCY = re.compile(r"元|块|rmb|cny|yuan|kuai|dollar|usd|美元", re.IGNORECASE)
_NUMERIC = ("budget", "party", "nights", "rating")


def is_amount_change(text: str) -> bool:
    """True when the message is only a change cue and one amount (what :func:`restated_amount` reads)."""
    return _amount(text or "") is not None


def _amount(text: str):
    nums = find_numbers(text)
    if len(nums) != 1:
        return None
    n = nums[0]
    if not (_BEFORE.match(text[: n.start]) and _AFTER.match(text[n.end :])):
        return None
    return n


def _fits(v: SlotValue, amount: float, money: bool) -> bool:
    if v.slot not in _NUMERIC or not isinstance(v.value, (int, float)) or v.bound == "delta":
        return False
    if v.slot == "budget":
        return amount > 0
    if money:  # "12000 yuan" is money, never a party or a number of nights
        return False
    if v.slot == "rating":
        return 0 < amount <= 5  # ratings are out of 5
    return amount >= 1 and amount == int(amount)  # people and nights are whole


def restated_amount(text: str, earlier: Sequence[SlotValue]) -> list[SlotValue]:
    """The slot value ``text`` restates when it is a change cue and a bare amount, and ``earlier`` (the values of
    the statement just before) holds a numeric slot the amount fits: the most recently said one; [] otherwise."""
    n = _amount(text or "")
    if n is None or not earlier:
        return []
    money = bool(_CURRENCY.search(text[n.end :]))
    for v in sorted(earlier, key=lambda v: v.span[1], reverse=True):
        if _fits(v, n.value, money):
            bound = v.bound if v.bound not in ("range", "delta") else ("max" if v.slot == "budget" else "eq")
            return [replace(v, value=n.value, bound=bound, span=(n.start, n.end), text=n.text, high=None)]
    return []
