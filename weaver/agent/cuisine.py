"""Cuisines ("有没有川菜馆？", "a Cantonese restaurant"): the CrossWOZ restaurant table has no cuisine field.

What it has is the name (渝信川菜, 芙蓉轩湘菜, 松子日本料理...) and the recommended dishes. A dish list says
what a place serves, not its cuisine (a 水煮鱼 on the list does not make a place Sichuanese), so a cuisine is
read from the name alone, and the reply says so: an honest agent answers "by name" or "none by name", and
never passes off an unfiltered list as the cuisine asked for.

>>> cuisines_of("有没有川菜馆？"), cuisines_of("Find a Cantonese restaurant near the hotel"), cuisines_of("有没有粤菜或者日料？")
(['sichuan'], ['cantonese'], ['cantonese', 'japanese'])
>>> cuisines_of("推荐一家餐厅"), cuisines_of("Any Japanese food?"), cuisines_of("最好是北京菜")
([], ['japanese'], ['beijing'])
>>> name_is("渝信川菜(京泰店)", ["sichuan"]), name_is("松子日本料理(亮马桥店)", ["korean", "japanese"])
(True, True)
>>> name_is("全聚德", ["sichuan"]), cuisine_label(["cantonese", "japanese"], "zh")
(False, '粤菜或日料')
"""

from __future__ import annotations

import re
from typing import Literal, get_args

__all__ = ["CuisineKey", "CUISINES", "cuisines_of", "name_is", "cuisine_label", "cuisine_note"]

# one cuisine a row: key, Chinese label, English label, how it is asked for, what a name of that cuisine holds
_TABLE = r"""
sichuan    川菜    Sichuan       川菜|川味|四川菜|\bsichuan\b|\bszechuan\b                              川|蜀|渝
hunan      湘菜    Hunan         湘菜|湖南菜|\bhunan\b                                                  湘
cantonese  粤菜    Cantonese     粤菜|广东菜|港式|茶餐厅|\bcantonese\b|dim\ssum                        粤|港式|港味|广东|潮汕|顺德
japanese   日料    Japanese      日料|日本料理|日本菜|\bjapanese\b|\bsushi\b                           日本|日料|寿司|居酒屋|日式
korean     韩餐    Korean        韩餐|韩国菜|韩国料理|韩式|\bkorean\b                                   韩国|韩式
western    西餐    Western       西餐|\bwestern\s(?:food|restaurant|cuisine)                            西餐|牛排|比萨|披萨|意大利|法式|法餐
beijing    北京菜  Beijing       北京菜|京菜|京味|\bbeijing\s(?:cuisine|food|dishes)\b|\blocal\s(?:cuisine|food)\b  北京菜|京菜|老北京|京味
dongbei    东北菜  Northeastern  东北菜|\bnortheast(?:ern)?\s(?:chinese\s)?(?:food|cuisine)             东北
xinjiang   新疆菜  Xinjiang      新疆菜|新疆饭|\bxinjiang\b|\buyghur\b                                  新疆
yunnan     云南菜  Yunnan        云南菜|\byunnan\b                                                      云南|滇
"""
CUISINES: dict[str, tuple[str, str, str, str]] = {
    row[0]: (row[1], row[2], row[3], row[4]) for row in (line.split() for line in _TABLE.strip().splitlines())
}
# the tools' schema offers these (kept equal to CUISINES' keys: see the doctest of cuisine_label)
CuisineKey = Literal[
    "sichuan", "hunan", "cantonese", "japanese", "korean", "western", "beijing", "dongbei", "xinjiang", "yunnan"
]
_ASK = [(key, re.compile(ask, re.I)) for key, (_z, _e, ask, _n) in CUISINES.items()]


def cuisines_of(text: str) -> list[str]:
    """The cuisines the message names, in order of mention ("粤菜或者日料": either will do)."""
    hits = sorted((m.start(), key) for key, pat in _ASK for m in [pat.search(text or "")] if m)
    return [key for _, key in hits]


def name_is(name: str, cuisines: list[str]) -> bool:
    """True when the restaurant's name says it serves one of ``cuisines`` (the only cuisine signal the data holds)."""
    return any(c in CUISINES and re.search(CUISINES[c][3], name or "") for c in cuisines)


def cuisine_label(cuisines: list[str], lang: str) -> str:
    """How the cuisines read ("粤菜或日料" / "Cantonese or Japanese").

    >>> cuisine_label(["cantonese", "japanese"], "en"), list(get_args(CuisineKey)) == list(CUISINES)
    ('Cantonese or Japanese', True)
    """
    names = [(CUISINES[c][0] if lang == "zh" else CUISINES[c][1]) if c in CUISINES else c for c in cuisines]
    return ("或" if lang == "zh" else " or ").join(names)


def cuisine_note(cuisine: list[str], found: int, lang: str) -> str:
    """What the reply says beside a cuisine search: how it was read, or that nothing was found by name."""
    what = cuisine_label(cuisine, lang)
    if lang == "zh":
        head = "（我的数据里没有菜系这一栏，只能按店名判断"
        return head + (f"：下面是店名看得出是{what}的。）" if found else f"：没有店名看得出是{what}的餐厅。）")
    head = "(My data has no cuisine field, so I can only go by the name"
    return head + (
        f": these are the places whose name says {what}.)" if found else f": no restaurant's name says {what}.)"
    )
