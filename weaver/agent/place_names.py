"""The database's names in a message: hotels, restaurants, sights, stations, areas, dishes and other cities.

Built once from the travel database and the lexicon (an index of every name and its
short forms, longest first); the understanding asks which names a message holds,
which dishes it mentions, which other city it names, and what it says with the
place names taken out (to read the kind of sight asked for).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from .db import base_name, load_database
from .lexicon import (
    AREAS_ZH,
    DISH_ALIASES,
    DISTRICTS_SHORT,
    OTHER_CITIES,
    PLACE_ALIASES,
    PLACE_ALIASES_ZH,
    english_alias_pattern,
)
from .meals import NOT_DISHES

__all__ = [
    "entity_mentions",
    "DOMAINS",
    "pinyin_named",
    "pinyin_index",
    "find_entities",
    "dish_mentions",
    "city_named",
    "without_home",
    "without_place_names",
    "unplaced_place",
]

DOMAINS = ("hotel", "restaurant", "attraction")

_NOT_ENTITIES = frozenset(
    "酒吧 慢走 过客 大厨房 一手店 小排骨 烧肉馆 粗粮屋 湘菜香 小印度 局气 咂摸 湘爱 比萨5 DQ".split()
)
_PLACE_EN = english_alias_pattern(PLACE_ALIASES)
_DISH_EN = english_alias_pattern(DISH_ALIASES)
_CITY = english_alias_pattern(OTHER_CITIES)
# where the user lives or comes from ("我住在上海", "我是上海人", "I live in Shanghai", "we're from Shanghai"): a
# home, no trip there; a wish to stay somewhere ("我想住在上海外滩") has a modal before 住 and is no home
_HOME = re.compile(
    r"(?:我们|我|俺|我家|家)(?:现在|目前|一直|平时|常年|本来|也|都|就)?(?:住在|住|生活在|居住在|定居在|定居|工作在)"
    r"(?:" + _CITY.pattern + r")(?!的?(?:酒店|宾馆|民宿|住处|饭店))"
    r"|(?:我|我们)(?:是|都是)(?:" + _CITY.pattern + r")人|老家(?:是|在)(?:" + _CITY.pattern + r")"
    r"|来自(?:" + _CITY.pattern + r")"
    r"|\b(?:I|we)(?:'m|'re| am| are)?\s+(?:currently\s+|now\s+|still\s+|originally\s+)?"
    r"(?:live|living|reside|residing|based|from|come from|came from|work|working|grew up)\s+(?:in\s+)?"
    r"(?:" + _CITY.pattern + r")|\bmy (?:home(?:town)?|family) is (?:in\s+)?(?:" + _CITY.pattern + r")"
    r"|\bback home in (?:" + _CITY.pattern + r")",
    re.IGNORECASE,
)
# what makes a city's name a street's: a road word right after it, with an optional direction between
_STREET = re.compile(
    r"\s*(?:(?:east|west|north|south|middle|central)\s+)?(?:road|rd\b|street|st\b|avenue|ave\b|lane|alley)"
    r"|[东西南北中]?(?:路|街|大街|大道|胡同|巷)",
    re.IGNORECASE,
)


@lru_cache(maxsize=1)
def _name_index() -> tuple[dict[str, tuple[str, str]], re.Pattern]:
    db = load_database()
    index: dict[str, tuple[str, str]] = {}
    for dom in DOMAINS:
        for row in db.table(dom):
            # "全聚德(王府井店)" names "北京全聚德(王府井店)": the city prefix is often left out
            for key in {row["名称"], base_name(row["名称"]), re.sub(r"^北京(?:市)?", "", row["名称"])}:
                if len(key) >= 2 and key not in _NOT_ENTITIES:
                    index.setdefault(key, (row["名称"], dom))
    for name in db.metro:
        if len(name) >= 2 and name not in _NOT_ENTITIES:
            index.setdefault(name, (name, "attraction"))
    for short, full in PLACE_ALIASES_ZH.items():
        index[short] = (full, "attraction")
    for area in AREAS_ZH:
        index.setdefault(area, (area, "area"))
    for short, district in DISTRICTS_SHORT.items():  # "海淀的酒店": the district, not 基督教海淀堂
        index.setdefault(short, (district, "area"))
    keys = sorted(index, key=len, reverse=True)
    return index, re.compile("|".join(re.escape(k) for k in keys))


@lru_cache(maxsize=1)
def pinyin_index() -> dict[str, tuple[str, str]]:
    """The database's names as the agent glosses them in English, squashed ("quanjude", "quanjuderoastduck",
    "daoxiangcun") -> (name, domain): a name said back in pinyin finds the row the Chinese name would."""
    from .gloss import gloss_name, pinyin

    index, _ = _name_index()
    out: dict[str, tuple[str, str]] = {}
    for key, ent in index.items():
        if ent[1] == "area" or len(re.findall(r"[\u4e00-\u9fff]", key)) < 2:
            continue
        # "全聚德烤鸭店 (Quanjude Roast Duck)": its English part, a hotel's 饭店 glossed as the replies do ("Hotel")
        glossed = gloss_name(key, hotel=ent[1] == "hotel")
        said = glossed[len(key) + 2 : -1] if glossed != key else ""
        words = said.split(",")[0].split()
        # "Siji Minfu" for 四季民福烤鸭店 ("Siji Minfu Roast Duck"): a glossed name's leading words of two or more,
        # as people shorten it (not for names led by 北京, whose shortened form is indexed without it)
        shortened = [" ".join(words[:n]) for n in range(2, len(words))] if not key.startswith("北京") else []
        for form in (pinyin(key), said, *shortened):
            squashed = re.sub(r"[^a-z0-9]", "", form.lower())
            if len(squashed) >= 5:
                out.setdefault(squashed, ent)
    return out


def pinyin_named(phrase: str) -> tuple[str, str] | None:
    """The database name a phrase says in pinyin ("Quanjude", "Quanjude Roast Duck", "daoxiangcun"), the longest run
    of words from its first that names one; None when none does (the English lexicon's names are matched before).

    >>> pinyin_named("Quanjude?"), pinyin_named("the Zhenglong Zhai Vegetarian Restaurant"), pinyin_named("a nice place")
    (('北京全聚德', 'restaurant'), ('正隆斋素食餐厅', 'restaurant'), None)
    """
    words = re.findall(r"[A-Za-z0-9]+", phrase)
    index = pinyin_index()
    for start in range(len(words)):
        for end in range(min(len(words), start + 5), start, -1):
            hit = index.get("".join(words[start:end]).lower())
            if hit:
                return hit
    return None


@lru_cache(maxsize=1)
def _dish_pattern() -> re.Pattern:
    """Dishes the database recommends at two or more places, plus the English aliases' targets."""
    from collections import Counter

    counts = Counter(d for r in load_database().restaurant for d in r.get("推荐菜") or [])
    words = {d for d, n in counts.items() if n >= 2 and 2 <= len(d) <= 6 and re.fullmatch(r"[\u4e00-\u9fff]+", d)}
    words |= set(DISH_ALIASES.values())
    words -= NOT_DISHES | {"甜点"}  # tags and placeholders ("没有": "none") are no dish to ask for; 甜点 a category
    return re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True) if len(w) >= 2))


# a run of capitalised words ("the Jianguo Hotel", "Tell me about Jingshan Park"): a proper name, maybe in pinyin
_PROPER = re.compile(r"\b[A-Z][A-Za-z0-9'’-]*(?:\s+[A-Z0-9][A-Za-z0-9'’-]*)*")


def entity_mentions(text: str) -> list[tuple[int, int, tuple[str, str]]]:
    """Every mention of a database name (or area) in the text as ``(start, end, (name, domain))``, in order of
    mention (a name said twice is here twice): what :func:`find_entities` reads, with where each was said.

    >>> entity_mentions("How do I get to Xiangshan from Jianguomen?")
    [(16, 25, ('香山公园', 'attraction')), (31, 41, ('建国门', 'area'))]
    """
    index, pattern = _name_index()
    found = [(m.start(), m.end(), index[m.group(0)]) for m in pattern.finditer(text)]
    db = load_database()
    taken: list[tuple[int, int]] = []
    for m in _PLACE_EN.finditer(text):
        name = PLACE_ALIASES[m.group(0).lower()]
        row = db.by_name.get(name)
        found.append((m.start(), m.end(), (name, db.domain_of(row) if row else "area")))
        taken.append(m.span())
    for m in _PROPER.finditer(text):
        if len(m.group(0)) >= 5 and not any(a < m.end() and m.start() < b for a, b in taken):
            hit = pinyin_named(m.group(0))
            if hit:
                found.append((m.start(), m.end(), hit))
    return sorted(found, key=lambda f: (f[0], f[2]))  # as mentioned; at one start, as the names always sorted


def find_entities(text: str) -> list[tuple[str, str]]:
    """Database names (and areas) in the text, longest match first, in order of mention: Chinese names, the
    English lexicon's, then a capitalised name the lexicon lacks said in pinyin, as the replies gloss it.

    >>> find_entities("Book the Jianguo Hotel"), find_entities("Tell me about Jingshan Park.")
    ([('北京建国饭店', 'hotel')], [('景山公园', 'attraction')])
    """
    out, seen = [], set()
    for _, _, ent in entity_mentions(text):
        if ent[0] not in seen:
            seen.add(ent[0])
            out.append(ent)
    return out


def dish_mentions(text: str) -> Iterator[re.Match]:
    """Dish names in the text: the English aliases', then the database's."""
    for pat in (_DISH_EN, _dish_pattern()):
        yield from pat.finditer(text)


def city_named(text: str) -> str | None:
    """Another city the text names (the agent only knows Beijing); a city's name followed by a street word is a
    street (Beijing, Shanghai and most Chinese cities have a Nanjing Road or a Shanghai Street), not the city.

    >>> city_named("Find a hotel in Nanjing."), city_named("Find a hotel near Nanjing East Road.")
    ('南京', None)
    >>> city_named("帮我找一家南京路附近的酒店"), city_named("我们想去上海街吃饭"), city_named("我们下周去南京")
    (None, None, '南京')
    >>> city_named("帮我找一家南京大饭店附近的餐厅")
    """
    text = without_home(without_place_names(text))  # "南京大饭店" is a hotel in Beijing; a home is no trip
    for city in _CITY.finditer(text):
        if not _STREET.match(text, city.end()):  # "Nanjing Road" / "南京东路": a street, named after the city
            return OTHER_CITIES[city.group(0).lower()]
    return None


def without_home(text: str) -> str:
    """The text with where the user lives blanked: a home city is no destination, and "我住在上海" asks for no
    place to stay ("住" read as a hotel word).

    >>> without_home("我住在上海。你去过吗？").strip(" 。"), without_home("I live in Shanghai, allergic to nuts.")
    ('你去过吗？', '                 , allergic to nuts.')
    >>> without_home("我想住在上海外滩附近"), without_home("我们下周去上海")
    ('我想住在上海外滩附近', '我们下周去上海')
    """
    return _HOME.sub(lambda m: " " * len(m.group(0)), text)


def without_place_names(text: str) -> str:
    """The text with every place name blanked ("国家博物馆附近的公园" asks for a park, not a museum)."""
    return _PLACE_EN.sub(" ", _name_index()[1].sub(" ", text))


# "near the Bund" / "外滩附近": the words a place is named by before or after a "near" word. English names
# are capitalised (a proper name); Chinese ones are the run of characters before 附近, after the request's verb
_NEAR_EN = re.compile(
    r"\b(?:near|close to|next to|around|by|walking distance (?:of|to|from))\s+(?:the\s+)?"
    r"((?:[A-Z][\w'’-]*)(?:\s+(?:of\s+)?[A-Z][\w'’-]*){0,4})"
)
_NEAR_ZH = re.compile(
    r"([\u4e00-\u9fff]{2,12})(?:的)?(?:附近|周边|周围|旁边|边上|一带)|离([\u4e00-\u9fff]{2,8}?)(?:很|比较|最)?近"
)
# what leads a Chinese place phrase and is no part of the name ("帮我找一家" / "住在" / "去")
_LEAD_ZH = re.compile(r"找|推荐|住在|住|在|去|到|离|靠近|一家|一个|几家|几个|家|个|些|想|要|给我|帮我")
_NOT_PLACES = re.compile(
    r"^(?:Beijing|Peking|I|Me|Us|It|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|"
    r"March|April|May|June|July|August|September|October|November|December|Christmas|Easter)\b"
)
_NOT_PLACES_ZH = re.compile(
    r"酒店|宾馆|民宿|餐厅|餐馆|饭馆|饭店|景点|公园|博物馆|地铁|车站|这里|那里|这儿|那儿|这家|那家|这个|那个|它|我们|我|你|北京|市中心"
)


def unplaced_place(text: str) -> str | None:
    """The place a message asks to be near when no name in it is one the database knows, else None.

    >>> unplaced_place("Find a hotel near the Bund."), unplaced_place("帮我找一家外滩附近的酒店"), unplaced_place("离外滩近的")
    ('the Bund', '外滩', '外滩')
    >>> unplaced_place("Find a hotel near Tiananmen."), unplaced_place("故宫附近的餐厅"), unplaced_place("酒店附近有地铁吗")
    (None, None, None)
    >>> unplaced_place("a restaurant near the hotel"), unplaced_place("around May 2nd"), unplaced_place("near Beijing")
    (None, None, None)
    >>> unplaced_place("再推荐一家附近吃烤鸭的地方"), unplaced_place("找个附近的景点"), unplaced_place("推荐两家附近的酒店")
    (None, None, None)
    """
    if find_entities(text):
        return None
    m = _NEAR_EN.search(text)
    if m and not _NOT_PLACES.match(m.group(1)):
        return ("the " if re.search(r"\bthe\s+$", text[: m.start(1)]) else "") + m.group(1)
    for m in _NEAR_ZH.finditer(text):
        name = _after_lead(m.group(1)) if m.group(1) else m.group(2)
        # "再推荐一家附近的" / "找个附近的": request and counting words alone name no place
        if len(name) >= 2 and len(_LEAD_ZH.sub("", name)) >= 2 and not _NOT_PLACES_ZH.search(name):
            return name
    return None


def _after_lead(run: str) -> str:
    """A Chinese run with its request words cut off: after the last lead word that leaves two characters or more
    ("推荐几家陆家嘴" -> "陆家嘴", not "嘴").

    >>> _after_lead("帮我找一家外滩"), _after_lead("推荐几家陆家嘴"), _after_lead("我想住在南京路")
    ('外滩', '陆家嘴', '南京路')
    """
    ends = [m.end() for i in range(len(run)) if (m := _LEAD_ZH.match(run, i)) and len(run) - m.end() >= 2]
    return run[max(ends) :] if ends else run
