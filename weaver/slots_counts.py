"""Party size, nights and ratings in a message (a rating's domain read from its sentence).

Small counts in digits, Chinese characters or English words; "我和两个朋友" is three.
"""

from __future__ import annotations

import re

from .numerals import small_number
from .slot_value import SlotValue, compile_ci
from .slots_budget import FOOD_WORDS, HOTEL_WORDS

__all__ = ["read_counts"]

# ------------------------------------------------------- party, nights, rating
_N = r"(\d+|[一二两三四五六七八九十]|one|two|three|four|five|six|seven|eight|nine|ten)"
_PARTY = compile_ci(
    r"人数\s*(?:改成|改为|变成|变为|换成|减到|减为|加到|增加到|是|为)\s*" + _N + r"\s*(?:个人|个|位|人)?|"
    r"(?:我们|咱们|一行|一共|总共|共)\s*(?:是|有|就)?\s*" + _N + r"\s*(?:个人|个大人|人|位|口人)|一家" + _N + r"口|"
    r"(?<![\d一二两三四五六七八九十])" + _N + r"\s*个人(?!间|房)|" + _N + r"\s*(?:个)?(?:大人|成人|位客人)|"
    r"\b(?!one\s)" + _N + r"\s+of us\b|\b(?:party|group|family) of\s+" + _N + r"\b|"
    r"\bfor\s+" + _N + r"\s+(?:people|persons|adults|guests|travell?ers)\b|\b" + _N + r"\s+(?:adults|travell?ers)\b|"
    # a party changed to a count ("Actually make it four people", "change it to 5 people"), as "人数改成四个" is
    r"\b(?:make (?:it|that)|change (?:it|that) to|(?:update|switch) (?:it |that )?to)\s+(?:just\s+|only\s+)?"
    + _N
    + r"\s+(?:people|persons|guests)\b|"
    # a party said as a correction ("Sorry, it's 4 people, not 3.", "4 people, not 3 people")
    r"\b(?:it's|it is|it'll be|that's|that is|that'll be)\s+(?:only\s+|just\s+|actually\s+|now\s+)?"
    + _N
    + r"\s+(?:people|persons|guests|adults)\b(?!\s+(?:per|each|at|in)\b)|"
    r"\b" + _N + r"\s+(?:people|persons|guests)(?=\s*,?\s*(?:not|instead of|rather than)\b)|"
    r"\b(?:we(?:'re| are)|there(?:'re| are| will be))\s+(?:only\s+|just\s+|now\s+)?"
    + _N
    + r"\b(?!\s*(?:nights?|days?|years?|hours?|minutes?))"
)
# "I'm travelling alone" / "a solo trip" / "for one person": a party of one said without a number of people ("我一个人"
# is the Chinese pattern above); "one person in our group is vegetarian", "just me and my wife", "I'm alone at
# home" say nothing of the party's size
_SOLO = compile_ci(
    r"\b(?:travell?ing|going|coming|flying)\s+(?:alone|solo|by myself|on my own)\b|"
    r"\ba solo (?:trip|travell?er)\b|^\s*solo travell?er\b|\bfor (?:one|1) (?:person|adult|guest|travell?er)\b"
)
# "我和两个朋友" / "with three friends": the speaker and the others
_COMPANIONS = compile_ci(
    r"我(?:和|跟|带着?)\s*" + _N + r"\s*个(?:朋友|同事|同学|家人|孩子|小孩)|"
    r"\bwith\s+" + _N + r"\s+(?:friends|colleagues|classmates|coworkers|kids|children|others)\b"
)
# "两个大人两个小孩" / "2 adults and 1 child": the children said right after the adults are in the party too
# "two adults and a 5-year-old": a child said by age, or as "a" / "an" one
_CHILDREN_AFTER = compile_ci(
    r"^\s*(?:和|加|带|跟|还有|以及|[,，、+&]|and|plus|with)?\s*"
    + _N[:-1]
    + r"|an?)\s*(?:个|位|名)?\s*(?:小孩|孩子|儿童|小朋友|娃|宝宝|婴儿|kids?|child(?:ren)?|bab(?:y|ies)|toddlers?|"
    r"infants?|teen(?:ager)?s?|\d{1,2}[- ]years?[- ]olds?)"
)
_ADULTS = compile_ci(r"大人|成人|adults")
# "我们又多了两个人" / "再加一个人" / "two more friends are joining us": the party grows by a count (``bound="delta"``,
# applied to the party on record by the constraint records, as "预算再加两千" is to the budget)
_WHO = r"(?:people|persons?|friends?|guests?|adults?|colleagues?|classmates?|relatives?|kids?|children|travell?ers?)"
_GROWTH_WORD = compile_ci(r"又|再|另外|多了|增加了|\bmore\b|\banother\b|joining|coming")
_PARTY_MORE = compile_ci(
    r"(?:又|再|另外)(?:多了|多|加了?|来了?|增加了?|添了?)\s*"
    + _N
    + r"\s*(?:个|位|名)?\s*(?:人|朋友|同事|同学|家人|孩子|小孩|大人)|"
    r"(?:多了|增加了)\s*" + _N + r"\s*(?:个|位|名)?\s*(?:人|朋友|同事|同学|家人|孩子|小孩|大人)|"
    r"\b(?:another\s+)?" + _N + r"\s+more\s+" + _WHO + r"\b|\banother\s+" + _N + r"\s+" + _WHO + r"\b|"
    r"\b" + _N + r"\s+" + _WHO + r"\s+(?:are|will be|is)\s+(?:also\s+)?(?:joining|coming along|coming with)\b"
)
# "住三晚" / "待四个晚上" (a counted 晚上 is nights; a bare "一晚上" is an evening or a per-night price)
_NIGHTS = compile_ci(_N + r"\s*(?:个晚上|个?晚(?!餐|饭|上|些|点))|\b" + _N + r"\s+nights?\b")
_RATING = compile_ci(
    r"(?:评分|评价|口碑|rating|rated|score|reviews?)\D{0,14}?(\d(?:\.\d)?)(?!\d)(?!\s*(?:元|块|人|晚|天))|"
    r"(\d(?:\.\d)?|[一二三四五])\s*(?:分|颗星|星|stars?)(?!钟)"
)
_SIGHT = compile_ci(r"景点|景区|游玩|公园|博物馆|门票|attraction|sight|museum|park|tour")
_SENTENCE = re.compile(r"[^。！？!?\n]*[。！？!?\n]?")


def _domain(text: str, start: int) -> str:
    """What the sentence around ``start`` is about: hotel / restaurant / attraction ("" when unsaid)."""
    pos = 0
    for s in _SENTENCE.findall(text):
        if pos <= start < pos + len(s) or not s:
            hits = [
                (m.start(), d)
                for d, pat in (("hotel", HOTEL_WORDS), ("restaurant", FOOD_WORDS), ("attraction", _SIGHT))
                for m in [pat.search(s)]
                if m
            ]
            if len(hits) == 1:
                return hits[0][1]
            # two domains in one sentence: the clause of the mention decides, else unsure
            cpos = 0
            for c in re.split(r"([，,;；]|\band\b)", s):
                if pos + cpos <= start < pos + cpos + len(c):
                    found = {
                        d
                        for d, pat in (("hotel", HOTEL_WORDS), ("restaurant", FOOD_WORDS), ("attraction", _SIGHT))
                        if pat.search(c)
                    }
                    return found.pop() if len(found) == 1 else ""
                cpos += len(c)
            return ""
        pos += len(s)
    return ""


_RATING_BELOW = compile_ci(r"^\D{0,6}?(?:以下|below|under|or less|at most)")


# "one" said of the group is one of it or a price per head, never its size: "我们有一个人对海鲜过敏", "其中一个人",
# "我们一个人预算三百" ("we" is two at least)
_OF_THE_GROUP = compile_ci(r"(?:有|其中|里|中)\s*$")
_PER_HEAD = compile_ci(r"\s*(?:预算|人均|大概|大约|差不多|多少钱|花)")


def _one_of_us(text: str, m) -> bool:
    return (
        m.group(0).startswith(("我们", "咱们"))
        or _OF_THE_GROUP.search(text[max(0, m.start() - 4) : m.start()]) is not None
        or _PER_HEAD.match(text, m.end()) is not None
    )


def read_counts(text: str) -> list[SlotValue]:
    """Party size, nights and ratings; a party grown by a count ("又多了两个人") is a ``delta`` of the party.

    >>> [(v.value, v.bound) for v in read_counts("我们又多了两个人") + read_counts("two more friends are joining us")]
    [(2.0, 'delta'), (2.0, 'delta')]
    >>> read_counts("我们有一个人对海鲜过敏"), read_counts("我们一个人预算三百"), [v.value for v in read_counts("我一个人去")]
    ([], [], [1.0])
    """
    out: list[SlotValue] = []
    adults: list[SlotValue] = []
    grown = []
    # most statements hold no growth word: the full pattern only runs on those that do (it is read per statement)
    for m in _PARTY_MORE.finditer(text) if _GROWTH_WORD.search(text) else ():
        n = small_number(next(g for g in m.groups() if g))
        if n and 0 < n <= 50:
            grown.append(SlotValue("party", float(n), "delta", "people", "", m.span(), m.group(0)))
    for m in _PARTY.finditer(text):
        n = small_number(next(g for g in m.groups() if g))
        if any(g.span[0] <= m.start() < g.span[1] or m.start() <= g.span[0] < m.end() for g in grown):
            continue  # "又多了两个人": the two are the growth, not the party
        if n == 1 and _one_of_us(text, m):
            continue  # "我们有一个人对海鲜过敏" is one of the party, "我们一个人预算三百" a price per head
        if n and 0 < n <= 50:
            span = m.span()
            if _ADULTS.search(m.group(0)):
                kids = _CHILDREN_AFTER.match(text[m.end() :])
                said_k = next(g for g in kids.groups() if g) if kids else ""
                k = 1 if said_k.lower() in ("a", "an") else small_number(said_k) if kids else None
                if kids and k and n + k <= 50:
                    n, span = n + k, (m.start(), m.end() + kids.end())
            said = SlotValue("party", float(n), "eq", "people", "", span, text[span[0] : span[1]])
            (adults if _ADULTS.search(m.group(0)) else out).append(said)
    # "我们一共4个人，两个大人两个小孩": the adults (and children) break a stated group down, they do not resize it
    out += [] if out else adults
    out += grown
    if not out:
        out += [SlotValue("party", 1.0, "eq", "people", "", m.span(), m.group(0)) for m in _SOLO.finditer(text)][:1]
    if not out:
        for m in _COMPANIONS.finditer(text):
            n = small_number(next(g for g in m.groups() if g))
            if n and 0 < n < 50:
                out.append(SlotValue("party", float(n + 1), "eq", "people", "", m.span(), m.group(0)))
    for m in _NIGHTS.finditer(text):
        n = small_number(next(g for g in m.groups() if g))
        if n and 0 < n <= 60:
            out.append(SlotValue("nights", float(n), "eq", "nights", "", m.span(), m.group(0)))
    for m in _RATING.finditer(text):
        raw = m.group(1) or m.group(2)
        v = float(raw) if raw[0].isdigit() else float(small_number(raw) or 0)
        if 1 <= v <= 5:
            bound = "max" if _RATING_BELOW.match(text[m.end() : m.end() + 12]) else "min"
            out.append(SlotValue("rating", v, bound, "stars", _domain(text, m.start()), m.span(), m.group(0)))
    return out
