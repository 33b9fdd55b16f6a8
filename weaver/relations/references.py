"""Long-range references: a memory that names what an earlier one introduced depends on it.

The link model looks a few turns back; a later request often builds on a place,
person or thing named much earlier ("a hotel near 天安门广场", "the museum Caroline
mentioned"). The newest earlier memory that shares such a name is linked. A name
here is a shared run of at least four CJK characters, or a capitalised Latin word
that does not open a sentence, and that few earlier memories share (a common
phrase is not a reference).

>>> shared_name("请推荐天安门广场周边的酒店", "为您推荐天安门广场、国家博物馆。")
'天安门广场'
>>> shared_name("Is the Louvre open late?", "We saw the Louvre on Monday.")
'Louvre'
>>> shared_name("好的谢谢", "好的谢谢你") is None
True
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from ..cues import features
from ..models import MemoryNode

__all__ = ["shared_name", "reference_parent", "slot_premises", "LOCATIVE", "MIN_CJK", "LOOKBACK", "PREMISE_SLOTS"]

# slots whose stated value is a premise of a later plan that names the slot ("根据预算和过敏信息…")
PREMISE_SLOTS = ("budget", "diet", "quiet", "amenity", "rating")

MIN_CJK = 4
LOOKBACK = 100  # earlier memories searched for the name
MAX_SHARING = 3  # a name more memories share is a common phrase, not a reference
LOCATIVE = re.compile(r"周边|附近|周围|旁边|不远|\b(?:near|nearby|around|close to|next to)\b", re.IGNORECASE)
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]{%d,}" % MIN_CJK)
_PROPER = re.compile(r"(?<![.!?。！？]\s)(?<!^)\b[A-Z][a-z]{2,}\b")
_COMMON = re.compile(r"^(?:可以|推荐|一下|一个|一家|请问|谢谢|您好|你好|没有|什么|哪些|多少|评分|周边|附近|为您|给您|我想|"
                     r"好的|去|在|的|了|吧|和|就|I|The|This|That|What|When|Where|How|Yes|Thanks)")


def _cjk_runs(text: str) -> list[str]:
    return _CJK_RUN.findall(text)


def shared_name(child: str, earlier: str) -> str | None:
    """The longest name both texts hold (see the module docstring), or None."""
    best = ""
    for run in _cjk_runs(child):
        m = SequenceMatcher(None, run, earlier, autojunk=False).find_longest_match(0, len(run), 0, len(earlier))
        if m.size >= MIN_CJK and m.size > len(best):
            cand = run[m.a : m.a + m.size]
            while (c := _COMMON.match(cand)) and c.end() > 0:  # "推荐天安门广场" names 天安门广场
                cand = cand[c.end():]
            if len(cand) >= MIN_CJK and len(cand) > len(best):
                best = cand
    if best:
        return best
    for word in _PROPER.findall(child):
        if not _COMMON.fullmatch(word) and re.search(r"\b" + re.escape(word) + r"\b", earlier):
            return word
    return None


def reference_parent(child: MemoryNode, earlier: list[MemoryNode], exclude: set[str]) -> tuple[int, str] | None:
    """(index into ``earlier``, the shared name) of the newest memory that introduced a name the child uses."""
    lo = max(0, len(earlier) - LOOKBACK)
    for i in range(len(earlier) - 1, lo - 1, -1):
        node = earlier[i]
        if node.id in exclude:
            continue
        name = shared_name(child.content, node.content)
        if not name:
            continue
        sharing = sum(name in n.content for n in earlier[lo:])
        if sharing <= MAX_SHARING:
            return i, name
    return None


def slot_premises(child: MemoryNode, earlier: list[MemoryNode], exclude: set[str]) -> list[tuple[int, str]]:
    """For a plan that names a constraint slot, the newest user statement of a constraint on that slot.

    (index into ``earlier``, slot) pairs, one per slot at most: "recommend restaurants within the budget and
    avoiding the allergy" depends on where the budget and the allergy were stated.
    """
    slots = [s for s in PREMISE_SLOTS if s in features(child.content).slots]
    out: list[tuple[int, str]] = []
    lo = max(0, len(earlier) - LOOKBACK)
    for slot in slots:
        for i in range(len(earlier) - 1, lo - 1, -1):
            n = earlier[i]
            f = features(n.content)
            if n.kind == "user_input" and f.constraint and slot in f.slots:
                if n.id not in exclude and all(i != j for j, _ in out):
                    out.append((i, slot))
                break
    return out
