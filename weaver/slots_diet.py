"""Diet statements for :mod:`weaver.slots`: which item or style is restricted, and which is lifted.

An item (spicy food, seafood, peanuts ...) is *restricted* by an allergy or by
not eating it, and *lifted* by being able to eat it again ("现在可以吃辣了",
"I'm not allergic to shellfish anymore"). A style (vegetarian, vegan,
pescatarian) is one value at a time: stating one restricts, negating it
("I'm no longer vegetarian", "我不吃素了", "I eat meat now") lifts it (value
``none``). A food only mentioned ("推荐海鲜餐厅", "I'd love some seafood") is
no diet statement.

>>> [(v.scope, v.bound) for v in read_diet("现在可以吃辣了")]
[('spicy', 'lift')]
>>> [(v.scope, v.bound, v.value) for v in read_diet("我是素食者，对花生过敏")]
[('style', 'restrict', 'vegetarian'), ('peanut', 'restrict', 'peanut')]
>>> [(v.scope, v.bound, v.value) for v in read_diet("我现在开始吃肉了")]
[('style', 'lift', 'none')]
>>> [(v.value, v.bound) for v in read_diet("Actually spicy is fine, just no seafood.")]
[('spicy', 'lift'), ('seafood', 'restrict')]
>>> [(v.value, v.bound) for v in read_diet("辣的也可以，就是别放海鲜")], read_diet("辣的可以吗？")
([('spicy', 'lift'), ('seafood', 'restrict')], [])
>>> read_diet("推荐一家海鲜餐厅"), read_diet("I'd love some seafood tonight")
([], [])

A question about what is on offer ("有素食的吗", "Do you have vegetarian options?") restricts nothing: it asks
about the place, not about the speaker, who may still say so ("我吃素，有素食的吗").

>>> read_diet("我想吃火锅，有素食的吗"), read_diet("Do you have vegetarian options?")
([], [])
>>> [(v.value, v.bound) for v in read_diet("我吃素，有素食的吗")]
[('vegetarian', 'restrict')]
"""

from __future__ import annotations

import re

__all__ = ["read_diet", "DIET_ITEMS", "DIET_STYLES", "option_questions"]

DIET_STYLES = {
    "vegan": r"纯素|全素|vegan",
    "vegetarian": r"素食者|素食主义者|素食|吃素|vegetarian|veggie",
    "pescatarian": r"pescatarian|pescetarian",
}
DIET_ITEMS = {
    "spicy": r"辣|spicy|chil(?:l?i|e)s?|hot food",
    "shellfish": r"贝类|虾|螃蟹|蟹|shellfish|shrimps?|prawns?|crabs?|lobsters?",
    "seafood": r"海鲜|seafood|fish|鱼",
    "peanut": r"花生|peanuts?",
    "nuts": r"坚果|tree nuts|nuts",
    "gluten": r"麸质|面筋|麦麸|gluten",
    "dairy": r"乳制品|奶制品|牛奶|乳糖|dairy|lactose|milk",
    "egg": r"鸡蛋|蛋类|eggs?",
    "pork": r"猪肉|pork",
    "beef": r"牛肉|牛(?=羊肉)|beef",  # "牛羊肉" is beef and lamb
    "lamb": r"羊肉|lamb|mutton",
    "halal": r"清真|halal",
    "meat": r"吃肉|肉类|荤|meat",
}
_MENTION = re.compile("|".join(f"(?P<{k}>{v})" for k, v in {**DIET_STYLES, **DIET_ITEMS}.items()), re.IGNORECASE)

_ALLERGY = re.compile(r"过敏|不耐受|allerg(?:y|ic|ies)|intoleran(?:t|ce)", re.IGNORECASE)
_HEALED = re.compile(r"好了|痊愈|没事了|不过敏|outgr[eo]w|outgrown|cured|gone", re.IGNORECASE)
_NEG = re.compile(
    r"不|没|别|无|非|免|去掉|\bno\b|\bnot\b|n't|\bnever\b|no longer|\bwithout\b|stopped|quit|\bfree\b|"
    r"\bavoid",
    re.IGNORECASE,
)
_LIFT = re.compile(r"不再|no longer|anymore|any more|不.{0,4}了|已经不", re.IGNORECASE)
_EAT = re.compile(
    r"吃|能吃|敢吃|eat|eating|have|handle|tolerate|fine with|ok(?:ay)? with|no problem with", re.IGNORECASE
)
_MAY = re.compile(
    r"可以|能|敢|现在|开始|又|也行|没问题|没事|\bcan\b|\bnow\b|\bagain\b|\bfine\b|\bok(?:ay)?\b|"
    r"no problem|start(?:ed)?|back to",
    re.IGNORECASE,
)
_AVOID = re.compile(
    r"忌口|不碰|别点|别放|不要|不放|免|去掉|avoid|\bno\b|without|-free|\bfree\b|keep (?:it|them) away", re.IGNORECASE
)
_NO_NEED = re.compile(
    r"不用避|不必避|不需要避|no need to avoid|don't (?:need|have) to avoid|needn't avoid", re.IGNORECASE
)
# "spicy is fine" / "辣的也可以": the item itself allowed (a question, "辣的可以吗？", allows nothing)
_FINE_AFTER = re.compile(
    r"^\s*(?:的|food|dishes)?\s*(?:is|are)?\s*(?:也|都|其实|现在)?\s*(?:可以|行|没问题|没关系|ok(?:ay)?\b|fine\b|"
    r"no problem|alright|all right)",
    re.IGNORECASE,
)
_ASKED = re.compile(r"[^，,。;；!！\n]*(?:吗|\?|？)")
_REFUSED_AFTER = re.compile(r"\s*的?\s*(?:也|都|就|可|是|我|我们)?(?:不吃|不能吃|吃不了|不碰|不要(?![太很那么特别贵]))")
_NOT_RIGHT_BEFORE = re.compile(r"(?:不|别|\bnot|\bnon-?)\s*(?:太|too\s|very\s|so\s)?\s*$", re.IGNORECASE)
_CLAUSE = re.compile(r"[，,。;；!！?？\n]|\band\b|\bbut\b|但是|不过(?!敏)|而且")


# "有素食的吗" / "do you have vegetarian options?" / "any gluten-free dishes?": a clause asking what is on offer
_OFFER = re.compile(
    r"有没有|有无|^\s*(?:那|这家|这里|他们|你们|餐厅|店里)?(?:也|还)?有|(?:附近|周边|周围|旁边|一带)(?:也|还)?有|提供|供应|\b(?:do|does) (?:you|they|it) "
    r"(?:have|serve|offer)|\b(?:is|are) there\b|\bany\b|\boptions?\b|\bserve",
    re.IGNORECASE,
)
# the speaker says something of themselves in the clause ("我吃素吗" is no offer; "I'm vegetarian, any options?")
_SELF = re.compile(
    r"我们?(?:是|也|都|只|不|吃|要|想|对)|\b(?:i|we)(?:'m|'re| am| are| eat| only| don't| do not| can't)\b", re.I
)
_CLAUSE_RUN = re.compile(r"[^，,。;；!！?？\n]+[，,。;；!！?？\n]?|[，,。;；!！?？\n]")


def option_questions(text: str) -> list[tuple[int, int]]:
    """The spans of ``text``'s clauses that ask what a place offers (a diet named there is no restriction).

    >>> t = "我想吃火锅，有素食的吗"
    >>> [t[a:b] for a, b in option_questions(t)]
    ['有素食的吗']
    >>> [t[a:b] for t in ["王府井附近有素食的吗？"] for a, b in option_questions(t)]  # what is on offer around a place
    ['王府井附近有素食的吗？']
    >>> option_questions("I'm vegetarian, any options?"), option_questions("Can you find a vegetarian place?")
    ([(15, 28)], [])
    """
    out = []
    # each run of non-terminators once, cut after its last ?/吗/呢: what `[^…]*(?:[?？]|吗|呢)`.finditer matched, in linear
    # time (finditer retried every start of a run with no question mark: 40k characters of unpunctuated text
    # took 10 s, a 90k-character English message 83 s of one ingest)
    for m in _CLAUSE_RUN.finditer(text):
        run = m.group(0)
        cut = max(run.rfind("?"), run.rfind("？"), run.rfind("吗"), run.rfind("呢"))
        if cut < 0:
            continue
        clause = run[: cut + 1]
        if _OFFER.search(clause) and not _SELF.search(clause):
            out.append((m.start(), m.start() + cut + 1))
    return out


def _window(text: str, start: int, end: int) -> tuple[str, str]:
    before = _CLAUSE.split(text[max(0, start - 24) : start])[-1]
    after = _CLAUSE.split(text[end : end + 16])[0]
    return before, after


def _polarity(kind: str, item: str, before: str, after: str, rest: str = "") -> str | None:
    """ "restrict", "lift" or None (only mentioned) for one mention, from the words around it."""
    near = before[-10:] + " " + after
    if _ALLERGY.search(before[-16:] + " " + after):
        if (
            _HEALED.search(after)
            or _LIFT.search(near)
            or re.search(r"\bnot\b|n't|不再|不", before[-8:])
            or re.search(r"(?:\bnot|n't)\s+(?:\w+\s+)?allergic", before, re.IGNORECASE)  # "not allergic to nuts"
        ):
            return "lift"
        return "restrict"
    if kind == "style" or item == "halal":
        return "lift" if _NEG.search(before[-10:]) or _LIFT.search(near) else "restrict"
    if _NO_NEED.search(before):
        return "lift"
    if _REFUSED_AFTER.match(after):
        return "restrict"  # 海鲜也不吃 / 牛肉吃不了: the food named before the verb
    if _NOT_RIGHT_BEFORE.search(before) and not before.endswith(item + "不"):  # not "辣不辣？", a question
        return "restrict"  # 不辣的餐厅 / 不要太辣 / not spicy / non-spicy: the item itself negated
    eat = _EAT.search(before[-10:] + item)
    if eat and _NEG.search(before[-10:]):
        return "restrict"  # 不吃辣 / 不能吃辣 / I don't eat pork / no longer eat beef
    if _AVOID.search(before[-8:]) or re.match(r"\s*-?free\b", after, re.I):
        return "restrict"
    if eat and _MAY.search(before + " " + after):
        return "lift"  # 现在可以吃辣了 / I can eat spicy food now / fine with shellfish
    if _FINE_AFTER.match(after) and not _NEG.search(before[-6:]) and not _ASKED.match(rest):
        return "lift"  # spicy is fine / 辣的也可以
    return None


# "allergic to seafood and pork", "不吃猪肉、牛肉或羊肉": items joined into one list share its verb
_LIST_JOIN = re.compile(
    r"\s*(?:和|与|跟|及|以及|或|或者|还有|、|,|，|/|&|\band\b|\bor\b|,\s*(?:and|or)\b)\s*$", re.IGNORECASE
)


def read_diet(text: str) -> list:
    """
    >>> [(v.value, v.bound) for v in read_diet("I'm allergic to seafood and pork, and we eat no beef or lamb.")]
    [('seafood', 'restrict'), ('pork', 'restrict'), ('beef', 'restrict'), ('lamb', 'restrict')]
    >>> [(v.value, v.bound) for v in read_diet("也不吃牛羊肉")]
    [('beef', 'restrict'), ('lamb', 'restrict')]
    """
    from .slots import SlotValue  # the dataclass lives with the reader's public API

    out = []
    prev: tuple[int, str, str] | None = None  # (end of the previous item mention, its polarity, its unit)
    asked = option_questions(text)
    for m in _MENTION.finditer(text):
        if any(a <= m.start() < b for a, b in asked):
            prev = None
            continue
        name = m.lastgroup
        assert name is not None  # every alternative of _MENTION is a named group
        kind = "style" if name in DIET_STYLES else "item"
        before, after = _window(text, m.start(), m.end())
        if name == "meat":
            # eating meat again lifts a vegetarian style; refusing it states one
            pol = _polarity("item", m.group(0), before, after)
            if pol is None:
                continue
            value = "none" if pol == "lift" else "vegetarian"
            out.append(SlotValue("diet", value, pol, "", "style", m.span(), m.group(0)))
            continue
        pol = _polarity(kind, m.group(0), before, after, text[m.end() : m.end() + 24])
        listed = prev if kind == "item" and prev and _LIST_JOIN.fullmatch(text[prev[0] : m.start()]) else None
        if listed and pol is None:
            pol = listed[1]  # the next item of a list the previous item's words already govern
        if pol is None:
            prev = None
            continue
        if kind == "style":
            value = name if pol == "restrict" else "none"
            out.append(SlotValue("diet", value, pol, "", "style", m.span(), m.group(0)))
        else:
            unit = "allergy" if _ALLERGY.search(before[-16:] + " " + after) else (listed[2] if listed else "preference")
            out.append(SlotValue("diet", name, pol, unit, name, m.span(), m.group(0)))
            prev = (m.end(), pol, unit)
    # one value per key: the last word said about it in the message wins
    last: dict[tuple, object] = {}
    for v in out:
        last[v.key] = v
    return sorted(last.values(), key=lambda v: v.span)
