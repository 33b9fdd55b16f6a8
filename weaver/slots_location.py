"""Places a message says to be near ("王府井附近", "near the Forbidden City"), for a hotel or a restaurant.

A pointer to something said before ("它家附近", "酒店周边") is no place name, and a
counted thing ("一家") is no place either.
"""

from __future__ import annotations

import re

from .text import content_words, tokenize
from .slot_value import SlotValue, around_span, compile_ci
from .slots_budget import FOOD_WORDS, HOTEL_WORDS

__all__ = ["read_locations"]

# ------------------------------------------------------------------ location
_ZH_NEAR = re.compile(
    r"(?:在|住在|住|靠近|离|到|去|换到|改到|于|找|选|挨着)?([\u4e00-\u9fffA-Za-z0-9]{2,12}?)(?:的)?"
    r"(?:附近|周边|旁边|一带|周围)"
)
_ZH_CLOSE = re.compile(r"(?:靠近|挨着|离)([\u4e00-\u9fff]{2,8}?)(?:近|比较近|很近|不远|的|[，,。！!？?]|$)")
# "near the Forbidden City" / "close to the station"; "around" / "in" only before a name ("a hotel around Sanlitun")
_EN_NEAR = re.compile(
    r"\b(?:[Nn]ear|[Cc]lose to|[Nn]ext to|[Ww]alking distance (?:of|to|from))\s+(?:the\s+)?"
    r"([A-Z][\w'-]*(?:\s+(?:of\s+(?:the\s+)?)?[A-Z][\w'-]*){0,3}|[a-z][\w'-]*(?:\s+(?:of\s+(?:the\s+)?)?[a-z][\w'-]*)?)"
    r"|\b(?:around|in)\s+([A-Z][\w'-]+(?:\s+[A-Z][\w'-]*){0,2})"
)
_PLACE_TRIM = re.compile(r"^(?:我|我们|想|要|希望|最好|能|可以|就|还是|换|改|住|在|的)+")
# "它家附近" / "这个景点周边" / "酒店周边" point at something said before: not a place name
# a kind of place alone ("地铁站", "酒店") names none: it points back, or means any one of its kind
_STATION = r"地铁站|地铁口|车站|火车站|公交站"
_REFERENCE = re.compile(
    rf"[这那它他她哪其该此]|^(?:酒店|宾馆|餐馆|餐厅|饭店|景点|景区|地方|家|店|住处|住的地方|{_STATION})$"
)
# a station is named by the place right before it ("东直门地铁站"); a hotel's name is the database's to know
_STATION_ALONE = re.compile(rf"^(?:{_STATION})$")
_COUNTED = re.compile(r"[一两几]?[家个间处座所]")
_PREPOSITIONS = {"for", "to", "with", "at", "on", "by", "in", "of", "from", "during", "before", "after"}
_KIND_WORDS = {"hotel", "hotels", "restaurant", "restaurants", "place", "places", "area", "one", "sight", "sights"}
_STAY = compile_ci(r"住|入住|stay|staying|sleep")
_STOP_EN = {
    "the",
    "a",
    "an",
    "it",
    "there",
    "here",
    "me",
    "us",
    "please",
    "and",
    "or",
    "if",
    "so",
    "my",
    "our",
    "that",
    "this",
    "then",
    "now",
    "instead",
    "budget",
    "time",
    "noon",
    "midnight",
}


def _names_place(word: str) -> bool:
    """A word that can name the place a station is of ("东直门" in "东直门地铁站"; not "找个", "我们", "那")."""
    return (
        len(word) >= 2 and bool(content_words(word)) and not _REFERENCE.search(word) and not _COUNTED.search(word[-1])
    )


def read_locations(text: str) -> list[SlotValue]:
    out = []
    seen: set[str] = set()
    for pat in (_ZH_NEAR, _ZH_CLOSE, _EN_NEAR):
        for m in pat.finditer(text):
            group = 1 if m.group(1) else 2
            place = _PLACE_TRIM.sub("", m.group(group)).strip()
            if pat is not _EN_NEAR:
                raw = tokenize(place)
                words = [t for t in raw if t not in ("的", "在", "住", "到")]
                place = "".join(words[-2:] if len(words) >= 2 and len(words[-1]) == 1 else words[-1:])
                if _STATION_ALONE.match(place) and len(raw) >= 2 and raw[-1] == place and _names_place(raw[-2]):
                    place = raw[-2] + place  # "东直门地铁站附近": the station of 东直门, not any station
                if _REFERENCE.search(place) or _COUNTED.fullmatch(place):
                    continue  # "它家附近" points back; "找一家附近的" counts a place, names none
            if pat is _EN_NEAR:
                if group == 2 and not HOTEL_WORDS.search(text):
                    continue  # "in Paris" is where something happened; a place to stay near is a slot
                words = place.split()
                while words and (words[-1].lower() in _STOP_EN or words[-1].lower() in _PREPOSITIONS):
                    words.pop()
                if not words or words[0].lower() in _STOP_EN or re.match(r"\d", words[0]):
                    continue
                if len(words) == 1 and words[0].lower() in _KIND_WORDS:
                    continue  # "near the hotel" points back at one said before: a kind, not a place name
                place = " ".join(words)
            if len(place) < 2 or not content_words(place) or place.lower() in seen:
                continue
            seen.add(place.lower())
            b, a = around_span(text, m.start(), m.end(), 30, 20)
            clause = b + m.group(0) + a
            # where to stay is one place; a question about what is near something is no preference
            question = bool(re.search(r"[?？吗]|有没有|有什么|有哪些|有啥", clause))
            scope = (
                ""
                if question
                else "hotel"
                if _STAY.search(clause) or HOTEL_WORDS.search(clause)
                else ("restaurant" if FOOD_WORDS.search(clause) else "")
            )
            out.append(SlotValue("location", place, "eq", "", scope, m.span(group), place))
    return out
