"""Request threads: a request for a kind of place takes up the speaker's earlier question about that kind nearby.

A traveller asks what is around the hotel ("这家酒店周边有哪些餐馆？"), hears a
list or "nothing there", and a few turns later asks for that kind again ("请帮我
找一家有炒年糕的餐馆", "哪家的评分高？", "Find another hotel near Tiananmen"). The later
request continues the earlier one: it was asked around a place, and what it gets
depends on that place. The link model sees only the turns just before; this finds
the speaker's latest question about the same kind of place around somewhere, so
the place reaches the request in two hops (place -> question -> request).

Kinds come from the nouns a text uses (bilingual); a request that only selects
("哪家…", "which one", "这两个…") selects among what was listed for the latest
such question, whatever its kind.

>>> wanted_kinds("那你帮我在别处找一个景点吧"), wanted_kinds("哈哈，太好了")
(('attraction',), ())
"""

from __future__ import annotations

import re

from ..models import MemoryNode
from .features import speaker_of
from .references import KIND_NOUNS, LOCATIVE, kinds

__all__ = ["asked_kinds", "wanted_kinds", "thread_parent", "SELECTS", "THREAD_LOOKBACK"]

THREAD_LOOKBACK = 12  # earlier memories searched for the question a request takes up
_NOUNS = "|".join(KIND_NOUNS.values())
# a place pointed at, not asked for: "这家酒店(的)", "景点的周边", "the hotel"
_ANCHOR = re.compile(
    rf"(?:这|那|该|此)(?:家|个|座)?(?:{_NOUNS})的?|(?:{_NOUNS})的?(?=周边|附近|周围|旁边)|\bthe (?:{_NOUNS})",
    re.IGNORECASE,
)
# a request for a place: look for, recommend, which one, another
_REQUESTS = re.compile(
    r"找|推荐|建议|想去|想吃|想住|哪家|哪个|哪一|哪些|有没有|选|\b(?:find|suggest|recommend|another|which|any)\b",
    re.IGNORECASE,
)
# selects among what was listed: which one, these, the two of them
SELECTS = re.compile(
    r"哪家|哪个|哪一|哪几|哪些|这些|那些|这几|那几|这两|那两|其中|\bwhich (?:one|of)\b|\bthese\b|\bthose\b|\bany of them\b",
    re.IGNORECASE,
)
# asks for the list of what is around ("周边有哪些景点", "what is near")
_LISTING = re.compile(r"有哪些|有什么|有啥|都有|有那些|有没有|有吗|\bwhat(?:'s| is| are)\b", re.IGNORECASE)
# asks what there is: a question, or a request to look for one
_ASKS = re.compile(r"[?？]|[吗呢么][。.!！]?\s*$|有哪些|有什么|有没有|有啥|\b(?:any|what|which|find|suggest)\b", re.I)


def asked_kinds(text: str) -> tuple[str, ...]:
    """The kinds a question asks for around a place: after "周边" ("酒店周边有哪些餐馆"), before "near".

    >>> asked_kinds("这家酒店的周边有哪些景点和餐馆啊？"), asked_kinds("Any restaurants near the hotel?")
    (('restaurant', 'attraction'), ('restaurant',))
    """
    m = LOCATIVE.search(text)
    if not m:
        return ()
    return kinds(text[: m.start()] if m.group(0).isascii() else text[m.end() :])


def wanted_kinds(text: str) -> tuple[str, ...]:
    """The kinds a request asks for, leaving out a place it only points at ("这家酒店的电话", "景点周边").

    >>> wanted_kinds("请帮我找一家有炒年糕的餐馆。"), wanted_kinds("这家酒店的类型是啥？")
    (('restaurant',), ())
    >>> wanted_kinds("好的，请在绿岛乐园附近的景点里给我推荐一个景点。"), wanted_kinds("Find another hotel near Tiananmen.")
    (('attraction',), ('hotel',))
    """
    if not _REQUESTS.search(text):
        return ()
    return kinds(_ANCHOR.sub("", text))


def thread_parent(child: MemoryNode, earlier: list[MemoryNode], exclude: set[str]) -> tuple[int, str] | None:
    """(index into ``earlier``, why) of the question about this kind of place nearby that ``child`` takes up.

    The question is the same speaker's, among the last :data:`THREAD_LOOKBACK`
    memories, asks what there is around a place, and names a kind the child names
    (or, for a child that only selects, any kind). None when there is none, when it
    is the memory just before (the local link's), or when it is already a parent.

    >>> n = lambda i, text, kind="user_input": MemoryNode(f"n{i}", text, kind, i, "m")
    >>> talk = [n(0, "推荐一家酒店"), n(1, "推荐如家酒店。", "agent_response"),
    ...         n(2, "这家酒店周边有什么餐馆？"), n(3, "周边没有餐馆。", "agent_response"),
    ...         n(4, "酒店有wifi吗？"), n(5, "有。", "agent_response")]
    >>> thread_parent(n(6, "请帮我找一家有炒年糕的餐馆。"), talk, set())
    (2, 'takes up the restaurant question asked there')
    >>> thread_parent(n(6, "请帮我找一个景点。"), talk, set()) is None
    True
    >>> thread_parent(n(6, "哪家评分高？"), talk, {"n2"}) is None
    True
    """
    text = child.content
    if LOCATIVE.search(text) and _LISTING.search(text):
        return None  # "餐馆的周边有哪些景点？": a question of its own, around another place
    want = wanted_kinds(text)
    selects = (
        not want and SELECTS.search(text) is not None and bool(_REQUESTS.search(text) or "?" in text or "？" in text)
    )
    if not want and not selects:
        return None
    me = speaker_of(child.kind, child.meta)
    lo = max(0, len(earlier) - THREAD_LOOKBACK)
    for i in range(len(earlier) - 1, lo - 1, -1):
        q = earlier[i]
        if speaker_of(q.kind, q.meta) != me or not LOCATIVE.search(q.content) or not _ASKS.search(q.content):
            continue
        shared = [k for k in asked_kinds(q.content) if selects or k in want]
        if not shared:
            continue
        if i == len(earlier) - 1 or q.id in exclude:
            return None
        return i, f"takes up the {shared[0]} question asked there"
    return None
