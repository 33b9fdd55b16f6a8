"""Misspelt English words a user types in a hurry ("find a hotle", "resturant", "dont eat"), set right
before the message is read: the kind of place asked for and a "don't" decide what the agent does, so a slip
there sends a search the wrong way (or turns "dont eat beef" into a wish for beef).

Only the few words that carry an intent are corrected, and only to a word of the same length give or take
one with most letters shared (difflib's ratio >= 0.8): a word that merely looks alike ("total", "model") is left.

>>> fix_typos("find a hotle near wangfujing"), fix_typos("any good resturants?"), fix_typos("we dont eat beef")
('find a hotel near wangfujing', 'any good restaurants?', "we don't eat beef")
>>> fix_typos("3 ppl, budget 9000"), fix_typos("the total for a model hotel"), fix_typos("我们不吃辣")
('3 people, budget 9000', 'the total for a model hotel', '我们不吃辣')
"""

from __future__ import annotations

import difflib
import re

__all__ = ["fix_typos"]

# the nouns that say what is asked for (a slip in one of these misroutes the whole turn)
_NOUNS = ("hotel", "hotels", "restaurant", "restaurants", "museum", "museums", "attraction", "attractions")
# short forms and a dropped apostrophe: read as the words they stand for
_SHORT = {
    "dont": "don't",
    "cant": "can't",
    "wont": "won't",
    "doesnt": "doesn't",
    "ppl": "people",
    "pax": "people",
    "resto": "restaurant",
    "restos": "restaurants",
}
_KEEP = frozenset({"hostel", "hostels", "motel", "motels"})  # real words, close to "hotel" but no slip
_WORD = re.compile(r"[A-Za-z’']+")


def _fix(m: re.Match) -> str:
    word = m.group(0)
    low = word.lower().replace("’", "'")
    if low in _SHORT:
        return _SHORT[low]
    if low != word.lower():  # a curly apostrophe ("don’t"): the plain one the patterns read
        return low
    if len(low) < 5 or low in _NOUNS or low in _KEEP:
        return word
    near = difflib.get_close_matches(low, _NOUNS, n=1, cutoff=0.8)
    return near[0] if near and abs(len(near[0]) - len(low)) <= 1 else word


def fix_typos(text: str) -> str:
    """``text`` with the intent-carrying English slips set right (Chinese is left as it is)."""
    return _WORD.sub(_fix, text) if re.search(r"[A-Za-z]", text) else text
