"""What a message says the travellers cannot or will not eat, in either language.

Kept apart from the intent cues because it is a vocabulary of its own (allergy and
"don't eat" phrasings, the food keys they name, the lexicon's categories); the
understanding needs two things from it: the foods avoided, and where in the text
they were said (a dish named there is never a dish wanted).
"""

from __future__ import annotations

import re

from .lexicon import DISH_ALIASES, categories_in, category_of

__all__ = ["avoided_foods", "avoided_spans"]

_WHO_TO = re.compile(r"^(?:我们?|他们?|她们?|孩子|儿子|女儿|老婆|老公|妻子|丈夫)?对")
_ZH_AVOID = re.compile(
    r"对\s*([\u4e00-\u9fff]{1,6}?)\s*过敏|([\u4e00-\u9fff]{1,4}?)过敏|不(?:能|太能|爱|喜欢)?吃\s*"
    r"([\u4e00-\u9fff]{1,4})|忌口\s*[:：]?\s*([\u4e00-\u9fff]{1,4})|别放\s*([\u4e00-\u9fff]{1,3})|"
    r"(吃素|素食|清真)|(?:不要|不能|别|不)太?(辣)(?!椒)"  # "不辣的餐厅", "不要太辣"
)
# "海鲜也不吃" / "牛肉吃不了": the food named before the verb (counted only when it names a food)
_ZH_AVOID_BEFORE = re.compile(r"([\u4e00-\u9fff]{1,4}?)(?:也|都|就|可|是)?(?:不吃|不能吃|吃不了|不碰)")
_FOOD_KEYS = (
    "海鲜",
    "花生",
    "坚果",
    "猪肉",
    "牛肉",
    "羊肉",
    "鸡蛋",
    "牛奶",
    "虾蟹",
    "贝类",
    "虾",
    "蟹",
    "辣",
    "鱼",
    "素",
    "清真",
)
_FOOD_ALIAS = {"虾": "虾蟹", "蟹": "虾蟹"}
_PARTICLE = re.compile(r"(?:了|啦|啊|呀|吧|呢|哦|的)+$")
# "我有什么过敏？" / "你对什么过敏": a question about an allergy names no food to avoid
_ASKING = re.compile(r"什么|哪|啥|吗|是否|有没有|多少")
_EN_AVOID = re.compile(
    r"allergic to ([a-z ]{2,20}?)(?=[,.;!?]|$| and | so | please)|([a-z]+) allerg(?:y|ies)|"
    r"(?:don't|do not|can't|cannot|never) eat ([a-z ]{2,20}?)(?=[,.;!?]|$| and | so )|"
    r"(?:no|avoid|without) (seafood|shellfish|fish|peanuts?|nuts|pork|beef|lamb|mutton|eggs?|"
    r"dairy|spicy food|spicy)\b|\b(vegetarian|vegan|halal)\b|\b(?:not (?:too |very |so )?|non-?)(spicy)\b",
    re.IGNORECASE,
)
_EN_CLAUSE_END = re.compile(
    r"[.;!?]|,\s*(?!or |and (?!we |i |my |our ))|\bbut\b|\bso\b|\band (?=we |i |my |our )", re.IGNORECASE
)


def avoided_foods(text: str) -> list[str]:
    """Food categories (or dishes) a message says to avoid: allergies, "don't eat", "no pork", vegetarian."""
    terms = []
    before = [m for m in _ZH_AVOID_BEFORE.finditer(text) if any(k in m.group(1) for k in _FOOD_KEYS)]
    for m in [*_ZH_AVOID.finditer(text), *before]:
        # "我对虾过敏": the one who is allergic is not part of the food
        word = _WHO_TO.sub("", next(g for g in m.groups() if g)) or next(g for g in m.groups() if g)
        word = _PARTICLE.sub("", word) or word  # "不吃烤鸭了": the sentence's particle is no part of the food
        if _ASKING.search(word) and not categories_in(word):
            continue
        several = categories_in(word) if word not in ("吃素", "素食", "清真") else []
        if len(several) > 1:  # "对海鲜和猪肉过敏", "不吃牛羊肉": each one is avoided
            terms += several
            continue
        cat = category_of(word) or next((category_of(_FOOD_ALIAS.get(k, k)) for k in _FOOD_KEYS if k in word), None)
        if word == "清真":
            cat = "pork"
        terms.append(cat or word)
    for m in _EN_AVOID.finditer(text):
        word = next(g for g in m.groups() if g).strip().lower()
        # "allergic to seafood and pork", "no beef or lamb": the whole clause's list, not its first item
        clause = _EN_CLAUSE_END.split(text[m.start() :], maxsplit=1)[0]
        several = categories_in(clause)
        if len(several) > 1:
            terms += several
            continue
        cat = category_of(word) or next((category_of(w) for w in word.split() if category_of(w)), None)
        if word == "halal":
            cat = "pork"
        if cat:
            terms.append(cat)
        elif word in DISH_ALIASES:
            terms.append(DISH_ALIASES[word])
    return list(dict.fromkeys(t for t in terms if t and t not in ("吃", "东西")))


def avoided_spans(text: str) -> list[tuple[int, int]]:
    """Where the text says something is to be avoided ("我对海鲜过敏", "allergic to peanuts")."""
    return [m.span() for pat in (_ZH_AVOID, _EN_AVOID, _ZH_AVOID_BEFORE) for m in pat.finditer(text)]
