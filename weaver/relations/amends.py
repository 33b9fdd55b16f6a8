"""A correction links back to what it corrects: "Actually we are on Flask 3.0, not 2.3." after "Our app is a
Flask 2.3 monolith with about 40 endpoints."

The two share few words and turns may lie between them, so the link model (the turn just before) misses the pair,
and a question about the version seeded on the old statement alone. A correction names the value it takes back
("…, not 2.3", "not 2.3 but 3.0", "不是2.3，是3.0", "是3.0，不是2.3"): the latest earlier statement of the same
speaker that holds that value, and not the new one, is what it corrects. The edge is an update
(:func:`weaver.relations.updates.is_update`: ``temporal``, first the old value, then the new), so retrieval that
reaches the old statement carries the new one at least as high (:mod:`weaver.updated`). The old statement stays
active: it may hold more than the corrected value (the 40 endpoints); hiding it is the curator's call.

A contrast is not always a correction ("I like tea, not coffee"): the message must say it corrects (actually,
sorry, I meant, 其实, 更正, 说错, 应该是…) or take back a number ("3 people, not 4"), and the value taken back
must be a word of content, found in an earlier statement of the speaker's.

>>> from weaver.models import MemoryNode
>>> n = lambda i, text: MemoryNode(f"n{i}", text, "user_input", i, "m")
>>> earlier = [n(0, "Our app is a Flask 2.3 monolith with 40 endpoints."), n(1, "We must keep the /api/v1 URLs.")]
>>> amend_parents(n(2, "Actually we are on Flask 3.0, not 2.3."), earlier, set())
[(0, 'a correction said anew: 2.3 -> 3.0')]
>>> amend_parents(n(2, "I like tea, not coffee."), [n(0, "I had coffee with Sam.")], set())  # no correction
[]
>>> amend_parents(n(2, "不好意思说错了，不是周二，是周三到。"), [n(0, "我们周二到北京。")], set())
[(0, 'a correction said anew: 周二 -> 周三')]
"""

from __future__ import annotations

import re

from ..fact_frames import same_speaker
from ..models import MemoryNode
from ..text import STOPWORDS_EN, STOPWORDS_ZH, content_words
from .updates import UPDATE_WHY

__all__ = ["amend_parents", "taken_back"]

# the message says it corrects something said before
_CUE = re.compile(
    r"\b(?:actually|in fact|correction|sorry(?!\s+(?:to|for|about|that|but))|i meant|i mean|my mistake|my bad|oops|to be exact|i was wrong|"
    r"i misspoke|typo)\b|其实|更正|说错|写错|搞错|记错|不对|应该是|我是说|纠正|口误|准确地说|不好意思",
    re.I,
)
# "2.3", "/api/v1", "$300", "9:30", "o'clock", "2,000". A word is read up to 40 characters: unbounded, a long run of
# word characters (a pasted hash, Chinese without punctuation: CJK letters are \w) was tried from every start to its
# end, quadratic (16,000 characters took 11 s)
_TOKEN = r"[$€¥£]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[\w/$€¥£][\w.\-/+'’:]{0,40}[\w%]|[\w$€¥£]"
_NUMBER = r"\d[\d.,:/]*\d|\d"
_VALUE = rf"(?:{_TOKEN})(?:[ \t]+(?:{_TOKEN})){{0,2}}"  # up to three words
_EN = (  # "3.0, not 2.3" / "not 2.3 but 3.0"
    re.compile(rf"(?P<new>{_VALUE})\s*,\s*(?:and\s+)?not\s+(?P<old>{_VALUE})", re.I),
    re.compile(rf"\bnot\s+(?P<old>{_VALUE})\s*,?\s+but\s+(?:rather\s+)?(?P<new>{_VALUE})", re.I),
)
_ZH_PART = r"[^，,。；;！!？?、]{1,12}?"
_ZH = (  # "不是2.3，是3.0" / "是3.0，不是2.3"
    re.compile(rf"不是(?P<old>{_ZH_PART})[，,]?\s*(?:而|就|应该)?是(?P<new>[^，,。；;！!？?]{{1,12}})"),
    re.compile(rf"是(?P<new>{_ZH_PART})[，,]\s*(?:而|并)?不是(?P<old>[^，,。；;！!？?]{{1,12}})"),
    re.compile(r"(?P<new>[^，,。；;：:！!？?、]{1,12})[，,]\s*(?:而|并)?不是(?P<old>[^，,。；;！!？?]{1,12})"),
)
_PRONOUNS = {"i", "we", "you", "he", "she", "it", "they", "this", "that", "there"}
# "not" that opens an idiom or a hedge, not a value taken back: "not to mention", "not sure", "not a big deal"
_NOT_A_VALUE = {
    "to", "including", "counting", "sure", "kidding", "joking", "only", "just", "even", "yet", "now", "so", "too",
    "quite", "exactly", "necessarily", "always", "everything", "everyone", "a", "an", "that", "bad", "much", "many",
}  # fmt: skip
_WORD_LIMIT = {"but", "and", "or", "anymore", "either", "any", "more", "rather", "at", "all", "really", "sure"}


def taken_back(text: str) -> tuple[str, str] | None:
    """(old, new): the value a correction takes back and the one it puts in its place, or None.

    >>> taken_back("Sorry, it's 3 people, not 4.")
    ('4', '3')
    >>> taken_back("We land on Tuesday, not Monday.") is None  # a contrast without a cue or a number
    True
    >>> taken_back("Actually not Tuesday but Wednesday.")
    ('Tuesday', 'Wednesday')
    >>> taken_back("其实是海淀区，不是朝阳区。")
    ('朝阳区', '海淀区')
    >>> taken_back("Actually, not really.") is None
    True
    """
    for pattern in (*_EN, *_ZH):
        m = pattern.search(text)
        if m is None:
            continue
        if pattern in _EN and m["old"].split()[0].lower() in _NOT_A_VALUE:
            continue
        old, new = _trim(m["old"], pattern in _ZH), _trim(m["new"], pattern in _ZH, tail=True)
        if pattern is _ZH[2] and not any(c.isdigit() for c in old) and len(new) > len(old):
            new = new[-len(old) :]  # "我想去故宫，不是长城": what stands where 长城 would, at the clause's end
        new = _parallel(new, old, pattern in _ZH)
        if not old or not new or old.lower() == new.lower() or new.split()[0].lower() in _PRONOUNS:
            continue  # "not easy, but I believe …": a clause, not a value put in its place
        if _CUE.search(text) or any(c.isdigit() for c in old):
            return old, new
    return None


def _trim(value: str, zh: bool, tail: bool = False) -> str:
    """The value without function words around it; empty when nothing of content is left."""
    value = value.strip(" \t'\"“”‘’「」")
    if zh:
        return "" if value in STOPWORDS_ZH else value
    words = value.split()
    if tail:  # "we are on Flask 3.0": the words just before ", not" that stand for the old value
        words = words[-3:]
        while words and (words[0].lower() in STOPWORDS_EN or words[0].lower() in _WORD_LIMIT):
            words = words[1:]
    cut = next((i for i, w in enumerate(words) if w.lower() in _WORD_LIMIT), len(words))
    words = words[:cut]
    while words and words[-1].lower() in STOPWORDS_EN:
        words = words[:-1]
    while words and words[0].lower() in STOPWORDS_EN:
        words = words[1:]
    return " ".join(words)


def _shape(text: str) -> str:
    return "".join("9" if c.isdigit() else "a" if c.isascii() else "字" for c in text if not c.isspace())


def _parallel(new: str, old: str, zh: bool) -> str:
    """The part of ``new`` that stands where ``old`` stood: "3.0" of "Flask 3.0" for "2.3", "3" of "3 people"
    for "4", "周三" of "周三到" for "周二"; ``new`` itself when no part does."""
    if not new or not old:
        return new
    if zh and not old.isascii():
        number = re.match(_NUMBER, old)
        if number:  # "1.5万" for "2万": the number with the unit it was said in
            same_unit = re.search(rf"(?:{_NUMBER}){re.escape(old[number.end() :])}", new)
            if same_unit:
                return same_unit.group(0)
        head = new[: len(old)]
        return head if len(new) > len(old) and _shape(head)[:1] == _shape(old)[:1] else new
    words = new.split()
    if any(c.isdigit() for c in old):  # the number in its place ("Flask 3.0", "3.0版" for "2.3")
        numbers = [m for w in words for m in re.findall(r"\d[\d.:/,]*\d|\d", w)] if zh else None
        if numbers:
            return numbers[-1]
        numbers = [w for w in words if any(c.isdigit() for c in w)]
        return numbers[-1] if numbers else new
    return " ".join(words[-len(old.split()) :])


def _holds(text: str, value: str) -> bool:
    if not value.isascii():
        return value in text
    # Latin and digit edges only: "200" stands alone in "预计来200人"
    return re.search(rf"(?<![A-Za-z0-9.]){re.escape(value)}(?![A-Za-z0-9]|\.\d)", text, re.I) is not None


def amend_parents(node: MemoryNode, earlier: list[MemoryNode], exclude: set[str]) -> list[tuple[int, str]]:
    """(index into ``earlier``, why) of the statement ``node`` corrects: the latest earlier statement of the same
    speaker that holds the value taken back and not the new one; ``[]`` when ``node`` corrects nothing or that
    statement is linked already (``exclude``: parents already linked)."""
    if node.kind != "user_input":
        return []
    said = taken_back(node.content)
    if said is None:
        return []
    old, new = said
    # a number taken back without saying it corrects ("2 kids, not 3") corrects a statement about the same thing:
    # one that shares a word besides the numbers ("I have 3 dogs" is another matter)
    topic = None if _CUE.search(node.content) else content_words(node.content) - content_words(f"{old} {new}")
    for i in range(len(earlier) - 1, -1, -1):
        prev = earlier[i]
        if prev.kind != "user_input" or not same_speaker(prev.meta, node.meta):
            continue
        if topic is not None and not topic & content_words(prev.content):
            continue
        if _holds(prev.content, old) and not _holds(prev.content, new):
            return [] if prev.id in exclude else [(i, f"a correction{UPDATE_WHY}{old} -> {new}")]
    return []
