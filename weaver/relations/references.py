"""Long-range references: a memory that names what an earlier one introduced depends on it.

The link model looks a few turns back; a later request often builds on a place,
person or thing named much earlier ("a hotel near 天安门广场", "the museum Caroline
mentioned"). The newest earlier memory that shares such a name is linked (a name the same speaker used before
only when the new request is placed around it: "在X附近找…", "near X"); a bare kind noun used as a
definite reference ("酒店周边", "near the hotel") links to the newest memory naming a place of that kind; a
question about the surroundings with no name ("周边有什么酒店吗？", "它家周边", "any hotels near it?") links to the
place in focus, the latest memory that named one place or put one forward (weaver/relations/places.py). A name
here is a shared run of at least four CJK characters, or a capitalised Latin word
that does not open a sentence (a link needs two or more: "Summer Palace"), that few earlier memories share and that reads as a name (a place, a branch, a
proper or out-of-dictionary word: "营业时间", "人均消费" are common phrases, not references).

>>> shared_name("请推荐天安门广场周边的酒店", "为您推荐天安门广场、国家博物馆。")
'天安门广场'
>>> shared_name("Is the Louvre open late?", "We saw the Louvre on Monday.")
'Louvre'
>>> shared_name("在砂锅居（西四店）周边找景点", "推荐您去砂锅居（西四店）。")
'砂锅居（西四店）'
>>> shared_name("好的谢谢", "好的谢谢你") is None
True
>>> shared_name("Any quiet hotels near the Summer Palace?", "We loved the Summer Palace last time.")
'Summer Palace'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from difflib import SequenceMatcher
from functools import lru_cache

from ..cues import features
from ..models import MemoryNode
from .features import speaker_of
from .places import is_name, place_names

__all__ = [
    "shared_name",
    "reference_parent",
    "slot_premises",
    "definite_kind",
    "names_a",
    "KINDS",
    "LOCATIVE",
    "KIND_NOUNS",
    "kinds",
    "MIN_CJK",
    "LOOKBACK",
    "PREMISE_SLOTS",
    "anchors",
    "in_focus",
    "own_content",
]

# slots whose stated value is a premise of a later plan that names the slot ("根据预算和过敏信息…")
PREMISE_SLOTS = ("budget", "diet", "quiet", "amenity", "rating")

MIN_CJK = 4
LOOKBACK = 100  # earlier memories searched for the name
MAX_SHARING = 5  # a name more memories share is a common phrase, not a reference
LOCATIVE = re.compile(r"周边|附近|周围|旁边|不远|\b(?:near|nearby|around|close to|next to)\b", re.IGNORECASE)
# a name: letters, digits and CJK with brackets inside ("砂锅居（西四店）"), no spaces or sentence punctuation
_NAME_RUN = re.compile(r"[\u4e00-\u9fffA-Za-z0-9·()（）]{%d,}" % MIN_CJK)
_VALUE = re.compile(r"\d+(?:\.\d+)?\s*(?:分|元|块|小时|天|晚|号|日|月|点|人|岁|%)?(?:以上|以下|以内|左右)?")
# "among these / 这些景点里 / 他家": the place in focus, or items listed around it
_AMONG = re.compile(r"这些|那些|这几个|那几个|这家|那家|他家|它家|\b(?:these|those)\b", re.IGNORECASE)
_PROPER = re.compile(r"(?<![.!?。！？]\s)(?<!^)\b[A-Z][a-z]{2,}\b")
# an English proper name of two or more capitalised words ("Summer Palace", "Temple of Heaven", "Lord of the Rings"),
# not opening a sentence: as rare across a chat as a four-character Chinese name, so it is one for the links too
_NAME_WORDS = r"[A-Z][a-z]+(?:\s+(?:of\s+(?:the\s+)?|de\s+|du\s+)?[A-Z][a-z]+)+"
_PROPER_NAME = re.compile(r"(?<![.!?。！？]\s)(?<!^)\b" + _NAME_WORDS + r"\b")
_IS_PROPER_NAME = re.compile(_NAME_WORDS)
_COMMON = re.compile(
    r"^(?:可以|推荐|一下|一个|一家|请问|谢谢|您好|你好|没有|什么|哪些|多少|评分|周边|附近|为您|给您|我想|"
    r"好的|那就|麻烦|帮我|去|在|的|了|吧|和|就|那|请|I|The|This|That|What|When|Where|How|Yes|Thanks)"
)
# where something was put forward or chosen: the agent recommends, the user picks
_CHOICE = re.compile(
    r"推荐|建议|为您|不妨|可以去|我去|就去|去[^，。？！,.?!]{2,24}吧|不错|就选|选择|定了|就这|"
    r"\b(?:recommend|suggest|how about|try|go with|i'll take|let's go|book)\b",
    re.IGNORECASE,
)

# a recommending cue with nothing put forward after it: "之后的推荐都会考虑这些" (an acknowledgement of a diet),
# "推荐菜有…" (the dishes a restaurant is known for), "I will apply this to what I suggest."
_EMPTY_CUE = re.compile(
    r"(?:推荐|建议)(?=[都的菜了吗呢么过，。！？,.!?\s]|$)|\b(?:recommend|suggest)\w*(?=\s*(?:[.!?,;]|$))", re.I
)

_WHY = re.compile(r"为什么|为啥|为何|怎么会|\bwhy\b", re.IGNORECASE)
_ADDRESS = re.compile(r"地址|位于|坐落|位置在|\b(?:address|located)\b", re.IGNORECASE)
_NEAR_AFTER = re.compile(r"的?(?:周边|附近|周围|旁边|边上|一带|不远)")
_NEAR_BEFORE = re.compile(r"\b(?:near|nearby|around|close to|next to)\s+(?:the\s+)?$", re.IGNORECASE)

# the kinds of place a travel request asks for, by the nouns that name them (bilingual)
KIND_NOUNS = {
    "hotel": r"酒店|宾馆|旅馆|客栈|住宿|\bhotels?\b|\bhostels?\b",
    "restaurant": r"餐厅|餐馆|饭馆|饭庄|吃饭|吃的|\brestaurants?\b|\bdinner\b|\blunch\b|\bbreakfast\b",
    "attraction": r"景点|景区|玩的|游玩|博物馆|公园|\battractions?\b|\bsights?\b|\bmuseums?\b|\bparks?\b",
}
_PLACE_KINDS = {k: re.compile(p, re.IGNORECASE) for k, p in KIND_NOUNS.items()}


def anchors(child: str, name: str) -> bool:
    """Whether ``child`` uses ``name`` to place what it asks for: the name right before "附近 / 周边" or after
    "near / around" (a later sub-goal set around an earlier one's place, whoever named it first).

    >>> anchors("请你帮我在阳坊胜利饭店边上找个景点", "阳坊胜利饭店"), anchors("Any bars near Louvre?", "Louvre")
    (True, True)
    >>> anchors("冶仙塔旅游风景区的门票多少钱？", "冶仙塔旅游风景区")
    False
    """
    k = child.find(name)
    if k < 0:
        return False
    after, before = child[k + len(name) : k + len(name) + 4], child[max(0, k - 12) : k]
    return bool(_NEAR_AFTER.match(after) or _NEAR_BEFORE.search(before))


def in_focus(text: str, by_name: bool = True) -> bool:
    """Whether a memory puts a place in focus: names one, or puts forward or picks what it names or points at,
    before any "nearby" (what it lists around a place is not the place: "周边的酒店有A、B、C" puts no single place
    forward).

    >>> in_focus("锦江之星(北京王府井店)的附近有啥好吃的餐馆吗"), in_focus("周边的酒店有北京首都宾馆、北京饭店。")
    (True, False)
    >>> in_focus("地址是北京东城区方家胡同46号创意园。"), in_focus("有回龙观公园, 地坛公园。")
    (False, False)
    >>> in_focus("那就选这家吧"), in_focus("I recommend the Peking Hotel."), in_focus("记下了：不再忌口牛肉。之后的推荐都会考虑这些。")
    (True, True, False)
    """
    m = LOCATIVE.search(text)
    head = text[: m.start()] if m else text
    # asking why something was recommended ("为什么推荐这家酒店？", "Why did you recommend this hotel?") puts nothing forward
    if not _WHY.search(head) and any(not _EMPTY_CUE.match(head, c.start()) for c in _CHOICE.finditer(head)):
        return True
    if not by_name:
        return False
    a = _ADDRESS.search(head)  # where a place is ("地址是…方家胡同46号") describes the place in focus, names none
    return len(place_names(head[: a.start()] if a else head)) == 1  # several: a list to choose from, no choice yet


def kinds(text: str) -> tuple[str, ...]:
    """The kinds of place ``text`` names by a noun, in a fixed order.

    >>> kinds("这家酒店的周边有哪些景点和餐馆啊？")
    ('hotel', 'restaurant', 'attraction')
    >>> kinds("Any museum you'd suggest?"), kinds("哪家有辣炒蛏子啊？"), kinds("the love around you")
    (('attraction',), (), ())
    """
    return tuple(k for k, pat in _PLACE_KINDS.items() if pat.search(text))


def _cjk(text: str) -> int:
    return sum("\u4e00" <= ch <= "\u9fff" for ch in text)


@lru_cache(maxsize=256)
def _parts(child: str) -> tuple[tuple[tuple[str, frozenset[str]], ...], tuple[str, ...]]:
    """The child's name runs (each with its MIN_CJK-character grams) and proper words: read once, not once per
    earlier memory it is compared with (a child is compared with up to LOOKBACK of them)."""
    runs = tuple(
        (run, frozenset(run[i : i + MIN_CJK] for i in range(len(run) - MIN_CJK + 1)))
        for run in _NAME_RUN.findall(child)
    )
    names = sorted(set(_PROPER_NAME.findall(child)), key=len, reverse=True)  # the longest name first
    return runs, tuple(names) + tuple(w for w in _PROPER.findall(child) if not _COMMON.fullmatch(w))


@lru_cache(maxsize=1024)
def _word_pattern(word: str) -> re.Pattern:
    return re.compile(r"\b" + re.escape(word) + r"\b")


@lru_cache(maxsize=4 * LOOKBACK)
def _grams(text: str) -> frozenset[str]:
    """Every MIN_CJK-character substring of ``text``: an earlier memory is compared with each of the next
    LOOKBACK arrivals, so its substrings are listed once, not once per arrival and run."""
    return frozenset(text[i : i + MIN_CJK] for i in range(len(text) - MIN_CJK + 1))


@lru_cache(maxsize=4 * LOOKBACK)
def _matcher(text: str) -> SequenceMatcher:
    """A matcher whose second sequence is ``text`` (its index of ``text`` is built once; set_seq1 keeps it)."""
    return SequenceMatcher(None, "", text, autojunk=False)


def shared_name(child: str, earlier: str) -> str | None:
    """The longest name both texts hold (see the module docstring), or None.

    >>> shared_name("帮我看看北京金龙建国温泉酒店附近", "推荐北京金龙建国温泉酒店，每晚600元")
    '北京金龙建国温泉酒店'
    """
    best = ""
    runs, propers = _parts(child)
    held = _grams(earlier) if runs else frozenset()
    for run, grams in runs:
        # a name is at least MIN_CJK characters long: without a shared run that long there is none to find (a
        # set test; the matcher below was ~90% of ingest time in bench locomo)
        if held.isdisjoint(grams):
            continue
        matcher = _matcher(earlier)
        matcher.set_seq1(run)
        m = matcher.find_longest_match(0, len(run), 0, len(earlier))
        cand = run[m.a : m.a + m.size]
        while (c := _COMMON.match(cand)) and c.end() > 0:  # "推荐天安门广场" names 天安门广场
            cand = cand[c.end() :]
        if _cjk(cand) >= MIN_CJK - 1 and len(cand) >= MIN_CJK and len(cand) > len(best):
            best = cand
    if best:
        return best
    for word in propers:
        # a substring test first: the word-bounded search can only match where the word is
        if word in earlier and _word_pattern(word).search(earlier):
            return word
    return None


def reference_parent(
    child: MemoryNode,
    earlier: list[MemoryNode],
    exclude: set[str],
    accept: Callable[[MemoryNode], bool] = lambda n: True,
) -> tuple[int, str] | None:
    """(index into ``earlier``, why) of the memory that introduced what the child refers to.

    A name another speaker brought up (or the same speaker, when the child is placed around it) links to its newest
    mention; a place or list referred to without its name ("这个餐馆周边", "near it") links to the place in focus:
    the latest memory that named one place or put one forward (:func:`in_focus`) and that ``accept`` takes, or to
    nothing when that memory is already a parent.
    """
    lo = max(0, len(earlier) - LOOKBACK)
    names: dict[str, list[int]] = {}
    own = {i: own_content(earlier[i]) for i in range(lo, len(earlier))}  # a recap names nothing of its own
    for i in range(len(earlier) - 1, lo - 1, -1):
        name = shared_name(child.content, own[i])
        if name:
            names.setdefault(name, []).append(i)
    me = speaker_of(child.kind, child.meta)
    for name, where in sorted(names.items(), key=lambda kv: -len(kv[0])):
        if not _IS_PROPER_NAME.fullmatch(name) and (_cjk(_VALUE.sub("", name)) < MIN_CJK or not is_name(name)):
            continue  # "评分4.5分以上", "营业时间", "酒店周边", "Louvre": a value, a common phrase, a word alone
        holders = [i for i in range(lo, len(earlier)) if name in own[i]] or where
        if len(holders) > MAX_SHARING:
            continue  # a common phrase
        first = earlier[min(holders)]
        if speaker_of(first.kind, first.meta) == me and not anchors(child.content, name):
            continue  # the speaker's own wording again, unless it places the request ("在X附近找…", "near X")
        latest = max(holders)  # the newest mention: where the thing stands now
        return (latest, f"names {name!r}, brought up by another speaker") if earlier[latest].id not in exclude else None
    kind = definite_kind(child.content)
    if kind is not None:  # "酒店周边", "near the hotel": the latest memory that named a place of that kind
        for i in range(len(earlier) - 1, lo - 1, -1):
            if earlier[i].id not in exclude and names_a(kind, earlier[i].content) and accept(earlier[i]):
                return i, f"refers to the {kind[0]} named there"
    # near / among, in a request about places: the place in focus ("the love around you" asks for none; "a hotel
    # near Tiananmen" names its own place, and an earlier mention of it was the name's to find above)
    text = child.content
    asks_around = (LOCATIVE.search(text) or _AMONG.search(text)) and kinds(text)
    if asks_around and not any(anchors(text, p) for p in place_names(text)):
        for i in range(len(earlier) - 1, max(lo, len(earlier) - 12) - 1, -1):
            # a place named by the user or the agent is in focus for a question about its surroundings
            # ("周边有什么酒店吗？"); "这家餐厅" alone points at what was put forward; the agent's plan puts nothing forward
            n = earlier[i]
            if in_focus(own[i], by_name=n.kind != "agent_thought" and bool(LOCATIVE.search(text))) and accept(n):
                # the latest place in focus; when it is already a parent (the reply just before), nothing to add
                return None if n.id in exclude else (i, "refers to the place put forward or chosen there")
    return None


# a kind of place, by the nouns a name of it ends in ("北京金龙建国温泉酒店", "Grand Hyatt Hotel")
KINDS = (
    ("hotel", ("酒店", "宾馆", "旅馆", "客栈", "hotel", "hostel", "inn")),
    ("restaurant", ("餐厅", "餐馆", "饭馆", "restaurant")),
    ("museum", ("博物馆", "美术馆", "纪念馆", "museum", "gallery")),
    ("park", ("公园", "park")),
)
_KIND_WORDS = "|".join(w for _, words in KINDS for w in words if not w.isascii())
_KIND_EN = "|".join(w for _, words in KINDS for w in words if w.isascii())
# the noun used as a definite reference: "酒店周边", "这家餐馆附近", "the hotel", "that restaurant"
_DEFINITE = re.compile(
    rf"(?:^|[^\u4e00-\u9fff]|这家|那家|这个|那个|该|此|在|去|到|从|回)({_KIND_WORDS})(?:的)?(?:周边|附近|周围|旁边|边上|门口)|"
    rf"\b(?:the|that|this|our)\s+({_KIND_EN})s?\b",
    re.IGNORECASE,
)
# a name ending in a kind noun: at least two name characters before it, none of them a classifier or a modifier
_NAME_BEFORE = "(?<![的家个边近围型级些种类])"


def definite_kind(text: str) -> tuple[str, tuple[str, ...]] | None:
    """The kind of place ``text`` refers to by its bare noun, or None.

    >>> definite_kind("我还打算在酒店周边找个景点")[0], definite_kind("Any bars near the hotel?")[0]
    ('hotel', 'hotel')
    >>> definite_kind("帮我找一家经济型酒店") is None, definite_kind("北京饭店附近有什么") is None
    (True, True)
    """
    m = _DEFINITE.search(text)
    if not m:
        return None
    noun = (m.group(1) or m.group(2)).lower()
    return next((k, words) for k, words in KINDS if noun in words)


def names_a(kind: tuple[str, tuple[str, ...]], text: str) -> bool:
    """Whether ``text`` names a place of ``kind`` (a name ending in one of its nouns).

    >>> hotel = definite_kind("酒店周边")
    >>> names_a(hotel, "北京金龙建国温泉酒店挺好的"), names_a(hotel, "酒店周边没有景点。"), names_a(hotel, "经济型酒店")
    (True, False, False)
    >>> names_a(definite_kind("near the hotel"), "We stayed at the Grand Hyatt Hotel.")
    True
    """
    for word in kind[1]:
        if word.isascii():
            if re.search(rf"\b(?!(?:The|This|That|Our|My|Your|A|An)\b)[A-Z][\w'-]+\s+(?i:{word})\b", text):
                return True
        elif re.search(rf"[\u4e00-\u9fffA-Za-z0-9]{{2}}{_NAME_BEFORE}{word}", text):
            return True
    return False


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


def own_content(node: MemoryNode) -> str:
    """The node's text without what it restates from memory (meta ``restates``).

    >>> own_content(MemoryNode("r", "Noted: budget 9000. Anything else?", "agent_response", 1, "m",
    ...                        meta={"restates": ["budget 9000", 7]}))
    'Noted: . Anything else?'
    """
    text = node.content
    for span in node.meta.get("restates") or ():
        if isinstance(span, str) and span:
            text = text.replace(span, "")
    return text
