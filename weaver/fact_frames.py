"""Personal facts that hold one value at a time: where the speaker lives, where (or as what) they work.

"I live in Paris" and, later, "I moved to Berlin" share no word and no change cue ("actually", "now"), yet the
second replaces the first: a person lives in one place and holds one job at a time. Reading these two frames by
their verbs ("live in / moved to / 住在 / 搬到", "work at / new job at / 在…上班 / 跳槽到") lets the review pass
propose the older memory as superseded (:mod:`weaver.curation.fact_updates`) without an LLM. Only the speaker's
own facts count ("I", "we", "我", "我们"): "My sister lives in Paris" is about someone else.

>>> frame_of("I live in Paris now, close to the river.")
('home', 'Paris')
>>> frame_of("Actually I moved to Berlin last month for work.")
('home', 'Berlin')
>>> frame_of("我现在住在上海，离外滩很近。"), frame_of("其实我上个月搬到北京了，因为工作。"), frame_of("我家在杭州")
(('home', '上海'), ('home', '北京'), ('home', '杭州'))
>>> frame_of("By the way, I started a new job at a bakery on Monday.")
('work', 'bakery')
>>> frame_of("I work as a nurse at St. Mary's."), frame_of("我周一开始在一家面包店上班了。")
(('role', 'nurse'), ('work', '面包店'))
>>> frame_of("我在找工作"), frame_of("我加入了一个读书会")
(None, None)
>>> same_value("New York", "new york city"), same_value("Paris", "Berlin")
(True, False)
>>> frame_of("My sister lives in Paris."), frame_of("Do you live in Paris?"), frame_of("我想住在王府井附近")
(None, None, None)
>>> frame_of("If I moved to Berlin I'd be happier."), frame_of("I used to live in Rome."), frame_of("我以前住在上海")
(None, None, None)
"""

from __future__ import annotations

import re

from .lexical import lexical_tokens
from .relations.features import speaker_of

__all__ = ["frame_of", "frames_of", "frame_values", "same_value", "same_values", "same_speaker", "FRAME_NAMES"]

# read in rationales (rationale_words.py). Where one works and as what are two facts: "I work as a nurse" and "I
# work at St. Mary's" both hold
FRAME_NAMES = {"home": "where they live", "work": "where they work", "role": "what they work as"}

# the words between "I" and the verb: none denies, doubts or puts it in the past ("I no longer live in", "I was
# living in", "I could never live in", "I'm thinking of moving to"), and none names another subject ("I heard you
# live in", "I visited my friends living in", "the company I work for is moving to")
_NOT_MINE = (
    r"(?:not|no|never|longer|cannot|could|might|may|should|thinking|considering|planning|dream|dreaming|was|were|"
    r"had|is|you|he|she|they|my|his|her|their)\b"
)
_I = r"\b(?:i|we)(?:'ve|'m|'re| have| am| are)?\s+(?:(?!" + _NOT_MINE + r")\w+\s+){0,3}?"
# a value ends at a clause boundary: punctuation or a word that starts another phrase. It ends on a non-space:
# the lookahead is then tried once a word, not at every space of a long run (quadratic in the run's length)
_VALUE = (
    r"(?P<v>[^,.;!?()]*?[^\s,.;!?()])(?=\s+(?:for|with|since|last|this|next|because|and|but|now|so|to|near|close|in|on|at|"
    r"from|after|when|where|which|who|that|i|a few|about|around|downtown|nearby|here|there|these days|today)\b|\s*[,.;!?()]|\s*$)"
)
_EN = [
    (
        "home",
        re.compile(_I + r"(?:live|living|moved|moving|relocated|relocating|settled)\s+(?:in|to)\s+" + _VALUE, re.I),
    ),
    ("home", re.compile(_I + r"based\s+in\s+" + _VALUE, re.I)),
    ("work", re.compile(_I + r"(?:work|working)\s+(?:at|for)\s+" + _VALUE, re.I)),
    ("role", re.compile(_I + r"(?:work|working)\s+as\s+" + _VALUE, re.I)),
    # a job taken, not one lost or left ("I lost my job at Door Dash" says nothing of the next one)
    (
        "work",
        re.compile(
            _I + r"(?:got|found|landed|started|took|accepted|have|began)\s+(?:a|my|the)\s+(?:new\s+)?"
            r"(?:job|position|role)\s+(?:at|with)\s+" + _VALUE,
            re.I,
        ),
    ),
]
# each word one way only: "刚刚?" under the star split "刚刚刚…" in exponentially many ways
_ZH_WHEN = r"(?:现在|目前|已经|刚|最近|去年|今年|上个?月|上周|前不久|周.|星期.|开始|也|就|一直|都)*"
_ZH_VALUE = r"(?P<v>[^，。,.;；!！?？了\s]{1,12}?)"
_ZH = [
    (
        "home",
        re.compile(
            r"我们?"
            + _ZH_WHEN
            + r"(?:住在|家住在|家在|搬到了?|搬去了?|搬来了?|定居在?)"
            + _ZH_VALUE
            + r"(?=[，。,.;；!！?？了\s]|$)"
        ),
    ),
    # "我在找工作" / "我在写工作报告" / "我在家工作": 在 before a verb or home names no employer
    (
        "work",
        re.compile(r"我们?" + _ZH_WHEN + r"在(?!找|写|准备|考虑|忙|做|家|换)" + _ZH_VALUE + r"(?:工作|上班|实习|任职)"),
    ),
    (
        "work",
        re.compile(r"我们?" + _ZH_WHEN + r"(?:跳槽到|入职了?)" + _ZH_VALUE + r"(?=[，。,.;；!！?？了\s]|$)"),
    ),
]
# wishes, questions, conditions and the past state no current fact: "我想住在王府井附近", "Do you live in Paris?",
# "If I moved to Berlin ...", "I used to live in Rome" (true, and no rival of where they live now)
_NOT_A_FACT = re.compile(
    r"[?？]|想|希望|打算|要不要|如果|要是|假如|以前|曾经|\b(?:want|would like|wish|plan|hope|going)\s+to\b|"
    r"\b(?:if|would|used to)\b",
    re.I,
)
# a value that asks ("我住在哪里比较方便") or names a lodging ("我们住在王府井附近的酒店": a stay on a trip) is no home
_ASKED = re.compile(r"哪|什么|啥")
_LODGING = re.compile(r"酒店|宾馆|饭店|旅馆|民宿|客栈|\b(?:hotel|hostel|motel|airbnb|inn)s?\b", re.I)
_ARTICLES = re.compile(r"^(?:(?:a|an|the|my|our|one)\s+|一家|一个|一所|一间)", re.I)
# a value that is a time, a state of mind or "home" names no place or employer: "I try to live in the moment",
# "we live in fear", "I work at night", "I work at home", "我在晚上工作"
_NO_PLACE = re.compile(
    r"^(?:the\s+)?(?:moment|present|past|future|now|nights?|days?|weekends?|home|it|that|this)$|"
    r"^(?:the\s+)?(?:fear|peace|harmony|hope|denial|luxury|poverty|comfort|silence|dark|shadows?|bubble|my head)\b|"
    r"^(?:晚上|白天|夜里|夜间|周末|早上|上午|下午|中午|家里?|当下|现在)$",
    re.I,
)
# another's words or belief about the speaker, not the speaker's own statement: "他说我住在北京", "She thinks I
# work at Google"; and a quoted sentence with its own "I" is someone's speech ('He said, "I live in Paris."'),
# where a quoted name is not ('I work at "Blue Bottle"')
_REPORTED = re.compile(
    r"(?:说|告诉|以为|觉得|听说|认为|问)$|\b(?:said|says|told|tells|thinks?|thought|believes?|heard|asked|assumes?|"
    r"claims?|wrote)(?:\s+me)?(?:\s+that)?$",
    re.I,
)
_QUOTED = re.compile(r'"[^"]*"|“[^”]*”|「[^」]*」|『[^』]*』')
_OWN_I = re.compile(r"\b(?:i|we)\b|我", re.I)


def _value(raw: str) -> str:
    return _ARTICLES.sub("", raw.strip(" \"'“”‘’「」")).strip()


def same_value(a: str, b: str) -> bool:
    """Two values name the same thing when one holds the other, as words or as text ("New York" / "New York City",
    "北京" / "北京市朝阳区"); sharing a word is not enough ("San Diego" / "San Francisco", "Bank of America" / "Bank of
    China").

    >>> same_value("New York", "new york city"), same_value("北京", "北京市朝阳区"), same_value("San Diego", "San Francisco")
    (True, True, False)
    """
    x, y = set(lexical_tokens(a)), set(lexical_tokens(b))
    if x and y and (x <= y or y <= x):
        return True
    a, b = a.lower().strip(), b.lower().strip()
    return bool(a and b and (a in b or b in a))


# a clause ends at its own punctuation: "I moved to Berlin last month. Have you ever been?" states a fact and then
# asks, and so does "我现在住在上海，你想来玩吗？"; a question, a wish or a condition silences its own clause only
_SENTENCE = re.compile(r"[^.!?。！？,，;；]+[.!?。！？,，;；]*")


def frame_of(text: str) -> tuple[str, str] | None:
    """(frame, value) when ``text`` states where its speaker lives or works, else None (the first clause that
    does; a wish, a question or a condition silences only the clause it is in).

    >>> frame_of("I moved to Berlin last month. Have you ever been?"), frame_of("我现在住在上海，你想来玩吗？")
    (('home', 'Berlin'), ('home', '上海'))
    >>> frame_of("If I moved to Berlin, I'd be happier."), frame_of("如果我搬到北京，就方便多了")
    (None, None)
    >>> frame_of("I try to live in the moment."), frame_of("I work at night."), frame_of("我在晚上工作")
    (None, None, None)
    >>> frame_of("他说我住在北京"), frame_of('He said, "I live in Paris."'), frame_of("She thinks I work at Google.")
    (None, None, None)
    >>> frame_of('I work at "Blue Bottle" now.')
    ('work', 'Blue Bottle')
    """
    got = frames_of(text)
    return got[0] if got else None


# every verb the frames are read by (a superset of _EN's and _ZH's): a message without one states no frame
_FRAME_VERB = re.compile(
    r"liv|mov|relocat|settled|based|work|job|position|role|住|家在|搬|定居|工作|上班|实习|任职|跳槽|入职", re.I
)


def frames_of(text: str) -> list[tuple[str, str]]:
    """Every fact ``text`` states about where its speaker lives or works, as (frame, value), in the order said:
    a message can say both ("I moved to Berlin and started a new job at a bakery"), and a frame can hold several
    values at once, each read ("I live in Paris and in Rome", "我在谷歌和一家面包店上班").

    >>> frames_of("I moved to Berlin and I started a new job at a bakery.")
    [('home', 'Berlin'), ('work', 'bakery')]
    >>> frames_of("我搬到北京了，现在在一家银行上班。")
    [('home', '北京')]
    >>> frames_of("我搬到北京了，我现在在一家银行上班。")
    [('home', '北京'), ('work', '银行')]
    >>> frames_of("I live in Paris, Rome and Berlin."), frames_of("我住在巴黎和罗马。")
    ([('home', 'Paris'), ('home', 'Rome'), ('home', 'Berlin')], [('home', '巴黎'), ('home', '罗马')])

    Reported speech covers every clause it coordinates, up to a contrast ("but", "但是"):

    >>> frames_of("My friend said that I work at Google and I live in Rome.")
    []
    >>> frames_of("He thinks I live in Rome, but I live in Paris.")
    [('home', 'Paris')]
    """
    if not _FRAME_VERB.search(text):  # most messages: no verb any frame is read by (every message meets this)
        return []
    text = _QUOTED.sub(lambda m: " " if _OWN_I.search(m.group(0)) else m.group(0), text)
    found: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    reported = False  # inside another's words carried over from the clause before
    for clause in _SENTENCE.finditer(text):
        sentence = clause.group(0)
        got, reported = _sentence_frames(
            text, clause.start(), clause.end(), reported and bool(_GOES_ON.match(sentence))
        )
        for frame, value in got:
            if (frame, value.lower()) not in seen:
                seen.add((frame, value.lower()))
                found.append((frame, value))
        reported = reported and sentence.rstrip()[-1:] in ",，;；"  # a sentence's end ends the reported words
    return found


def frame_values(text: str) -> dict[str, list[str]]:
    """:func:`frames_of` by frame: ``{frame: [value, ...]}``, each frame's values in the order said.

    >>> frame_values("I live in Paris and in Rome, and I work at Google.")
    {'home': ['Paris', 'Rome'], 'work': ['Google']}
    """
    out: dict[str, list[str]] = {}
    for frame, value in frames_of(text):
        out.setdefault(frame, []).append(value)
    return out


def same_values(a: list[str], b: list[str]) -> bool:
    """Two statements of a frame hold the same values: each value of one names one of the other's
    (:func:`same_value`), both ways ("Paris and Rome" / "Rome, Paris"; not "Paris" / "Paris and Rome").

    >>> same_values(["Paris", "Rome"], ["rome", "Paris"]), same_values(["Paris"], ["Paris", "Rome"])
    (True, False)
    """
    return all(any(same_value(x, y) for y in b) for x in a) and all(any(same_value(y, x) for x in a) for y in b)


# a clause that goes on from the one before ("…, and I live in Rome", "，而且我住在罗马"), and one that turns against
# it ("but", "但是"): reported words carry into the first, never past the second
_GOES_ON = re.compile(r"\s*(?:and|or|also|plus|as well|而且|并且|还有|还|也|以及|和)(?:\b|(?=[\u4e00-\u9fff]))", re.I)
_CONTRAST = re.compile(
    r"\b(?:but|however|though|although|yet|actually|in fact|whereas)\b|但|可是|不过|其实|实际上|然而", re.I
)
# more values of a frame after its first: ", Rome and Berlin", " and in Rome", " and at a bakery" (a value
# without its preposition must be a name: "and I live", "and work at" start another clause)
_MORE_EN = re.compile(
    r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|as well as)\s+)(?:(?P<p>in|to|at|for|as)\s+)?" + _VALUE, re.I
)
_NOT_A_NAME = re.compile(r"(?:i|we|you|he|she|they|it|my|our|his|her|their|this|that|then|the|a|an)\b", re.I)
# a name's words are capitalised but for its small joining words ("Bank of America"): "and Anna stayed in Paris",
# "and Texas is hot" start another clause, with its own subject and verb
_NAME_JOINS = {"of", "de", "del", "la", "le", "du", "da", "von", "van", "upon", "on", "the", "and", "&"}
# a subject inside a further value, or right after it, starts another clause: "and in the summer I go to Spain",
# "and in winter we ski"
_SUBJECT = re.compile(r"\b(?:i|we|you|he|she|they)\b", re.I)
_ZH_AND = re.compile(r"和|、|与|跟|及|以及|还有")
# a "list" that is one place or names company: "北京和上海之间的小城", "深圳和香港交界", "上海跟父母一起"
_ZH_ONE_PLACE = re.compile(r"的|之间|中间|交界|一起|一块")
# a person lives or works in a few places at once: a longer list is read up to here (every later value was compared
# with every earlier one, here and by an update: quadratic in a pasted list of thousands)
MAX_VALUES = 8
_REPORT_REACH = 64  # characters before a frame's "I" that can hold its reporting verb ("… told me that")


def _more_values(frame: str, text: str, end: int, zh: bool, first: str) -> list[str]:
    """The values after a frame's first one: each further item of a list ("Paris, Rome and Berlin", "巴黎和罗马";
    a list of names joined by commas alone is none: "Paris, France" is one place)."""
    if zh:
        parts = [_value(p) for p in _ZH_AND.split(first)][:MAX_VALUES]
        if len(parts) < 2 or any(len(p) < 2 or _ZH_ONE_PLACE.search(p) for p in parts):
            return []
        return parts[1:]
    out: list[str] = []
    joined = False  # the list's last item came with "and" / "or" (or its own preposition)
    while len(out) < MAX_VALUES - 1 and (m := _MORE_EN.match(text, end)) is not None:
        raw = m.group("v")
        named = not _NOT_A_NAME.match(raw) and all(w[:1].isupper() or w.lower() in _NAME_JOINS for w in raw.split())
        if m.group("p") is None and not named and not (frame == "role" and _ARTICLES.match(raw)):
            break
        if _SUBJECT.search(raw) or _SUBJECT.match(text, m.end() + 1):
            break
        out.append(_value(raw))
        joined = m.group("p") is not None or "," not in m.group(0) or bool(re.search(r"\b(?:and|or)\b", m.group(0)))
        end = m.end()
    return out if joined else []


def _sentence_frames(whole: str, begin: int, stop: int, reported: bool) -> tuple[list[tuple[str, str]], bool]:
    """The frames of the clause ``whole[begin:stop]`` (a list of values may run on past it), and whether it ends
    inside another's words (``reported``: it begins there).

    Another's words begin where a reporting verb precedes the speaker ("He said I ..."), and go on over the
    clauses they coordinate ("… and I live in Rome") until a contrast ("but I live in Paris")."""
    text = whole[:stop]
    if _NOT_A_FACT.search(text, begin):
        return [], reported
    hits = []
    for frame, pattern in (*_EN, *_ZH):
        zh = pattern.pattern.startswith("我")
        for m in pattern.finditer(text, begin):
            hits.append((m.start(), m.end(), frame, m.group("v"), zh))
    out = []
    at = begin
    for start, end, frame, raw, zh in sorted(hits):
        # the reporting verb ends right before the speaker: the words just before are enough (the whole text
        # before each of many hits was quadratic)
        if _REPORTED.search(text[max(begin, start - _REPORT_REACH) : start].rstrip()):
            reported = True
        elif _CONTRAST.search(text, min(at, start), start):
            reported = False
        at = max(at, end)
        if reported:
            continue
        value = _value(raw)
        if not value or _ASKED.search(value) or _NO_PLACE.match(value):
            continue
        values = [value]
        more = _more_values(frame, whole, end, zh, value)
        if zh and more:
            values = [_value(_ZH_AND.split(value)[0]), *more]
        else:
            values += more
        for v in values:
            if v and not _NO_PLACE.match(v) and not (frame == "home" and _LODGING.search(v)):
                out.append((frame, v))
    if _CONTRAST.search(text, at):
        reported = False
    return out, reported


def same_speaker(a: dict | None, b: dict | None) -> bool:
    """Two memories' metas name the same speaker, however the name is spelt ("Caroline" / "caroline "); no name on
    either side is the user.

    >>> same_speaker({"speaker": "Caroline"}, {"speaker": " caroline"}), same_speaker({}, {"speaker": "Mel"})
    (True, False)
    """
    return speaker_of("user_input", a) == speaker_of("user_input", b)  # the link model's reading of a speaker
