"""Offline understanding: one message -> what the user asks for and which constraints it states.

Deterministic and general: bilingual cue patterns for intents (search, book,
tally, why, metro), the database's lexicon for places and dishes, and number
patterns for budgets, prices, ratings, dates and party sizes. Nothing here
remembers anything: the agent applies it to the memories the weaver retrieves.

>>> p = parse("I'm allergic to seafood, and my total budget is 5000 yuan.")
>>> sorted(c.slot for c in p.constraints), p.request
(['avoid', 'budget'], False)
>>> p = parse("帮我找王府井附近每晚不超过800元的安静酒店")
>>> p.domain, p.request, sorted(p.slots().items())
('hotel', True, [('place', '王府井'), ('price', '0-800'), ('quiet', True)])
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import lru_cache

from ..numerals import small_number
from ..slots import is_change, read_slots
from ..slots_prefs import meal_of, read_prefs
from ..text import detect_language, extract_dates
from .db import base_name, load_database
from .lexicon import (
    AREAS_ZH,
    DISH_ALIASES,
    FACILITY_ALIASES,
    HOTEL_TYPE_ALIASES,
    OTHER_CITIES,
    PLACE_ALIASES,
    PLACE_ALIASES_ZH,
    categories_in,
    category_of,
    sight_kind,
    english_alias_pattern,
)
from .cuisine import cuisines_of
from .meals import NOT_DISHES
from .numbers import people_count, rating_range, stay_length, trip_day
from .side import PLACELESS, side_kind
from .typos import fix_typos

__all__ = ["Constraint", "Parsed", "parse", "find_entities", "DOMAINS", "CLOSING", "nights_between"]

DOMAINS = ("hotel", "restaurant", "attraction")


def _cue(words: str) -> re.Pattern:
    parts = words.split("|")
    en = [w for w in parts if w.isascii()]
    zh = [w for w in parts if not w.isascii()]
    pats = []
    if en:
        pats.append(r"(?<![a-z])(?:" + "|".join(en) + r")(?![a-z])")
    if zh:
        pats.append("(?:" + "|".join(zh) + ")")
    return re.compile("|".join(pats), re.IGNORECASE)


_WHO_TO = re.compile(r"^(?:我们?|他们?|她们?|孩子|儿子|女儿|老婆|老公|妻子|丈夫)?对")
# "带早餐的" / "breakfast included": a hotel's breakfast, not a meal to go out for
_HOTEL_BREAKFAST = re.compile(
    r"(?:带|含|包|提供)早(?:餐|饭)?|早餐(?:包含|含在)|breakfast included|with breakfast|includes? breakfast", re.I
)
_NEAR_KIND = re.compile(
    r"\b(?:near|close to|around|next to|by)\s+(?:the|our|my|that|this|your)\s+(hotel|restaurant|museum|park)\b"
    r"|(酒店|宾馆|民宿|餐厅|餐馆|饭馆|景点|公园|博物馆)的?(?:附近|周边|周围|旁边|边上)"
    r"|离(酒店|宾馆|民宿|餐厅|餐馆|饭馆|景点|公园|博物馆)(?:很|比较|最)?近",
    re.IGNORECASE,
)
_SIGHT_NOUN = re.compile(
    r"景点|景区|门票|参观|博物馆|美术馆|纪念馆|公园|寺|名胜|attraction|sight|museum|galler|park|temple|things to do|ticket",
    re.IGNORECASE,
)
_NEAR_IT = re.compile(r"\bnear (?:it|that one|this one)\b|它(?:的)?(?:附近|周边)", re.I)  # "there" is the area
_REMOVE = re.compile(
    r"取消|删掉|删除|去掉|移除|拿掉|\b(?:remove|cancel|drop|delete|take (?:it|that|this|the \w+) (?:off|out))\b", re.I
)
_PLAN_WORD = re.compile(r"行程|计划|预订|订的|\b(?:plan|itinerary|booking|reservation)\b", re.IGNORECASE)
_FIELD_Q = re.compile(
    r"门票|票价|多少钱|价格|价钱|评分|地址|电话|营业时间|几点|开门|在哪|ticket|price|cost|rating|address|phone|hours|open",
    re.IGNORECASE,
)
# "Thanks, that's all for now!" / "就这些，谢谢": a close, answered with a courtesy
CLOSING = re.compile(
    r"that'?s all|that is all|nothing else|all for now|就这些|先这样|没别的了|没有别的了|\bbye\b|再见", re.I
)
_YES_NO = re.compile(r"有没有|有无|是否|吗|多少|几|[?？]|\b(?:does|do|is there|are there|has it|have)\b", re.IGNORECASE)
_CLAUSE = re.compile(r"[，,。；;！!？?]|\band\b|然后|再")
_ASK_VERB = re.compile(r"推荐|找|搜|\b(?:recommend|suggest|find|search for|look for|show me)\b", re.IGNORECASE)
DOMAIN_CUES = {
    "hotel": _cue(
        "酒店|宾馆|旅馆|住宿|客栈|民宿|住哪|住的|入住|房间|hotels?|hostels?|accommodations?|lodging|"
        "place to stay|stay|rooms?|inn"
    ),
    "restaurant": _cue(
        "餐厅|餐馆|饭馆|吃饭|好吃|美食|晚餐|午餐|早餐|晚饭|午饭|夜宵|用餐|吃什么|吃的|馆子|菜|"
        "restaurants?|food|eat|eating|dinner|lunch|breakfast|meals?|dishes|cuisine|dine|dining"
    ),
    "attraction": _cue(
        "景点|景区|门票|游玩|玩|参观|逛|名胜|博物馆|美术馆|纪念馆|公园|寺庙|寺院|attractions?|sights?|"
        "sightseeing|tickets?|visit|visiting|museums?|galleries|gallery|parks?|temples?|"
        "things to do|tour"
    ),
}
_REQUEST = _cue(
    "推荐|找|查|搜|有什么|有没有|有哪些|哪家|哪个|哪里|哪儿|哪些|什么|给我|帮我|想去|想吃|想住|能不能|可以|"
    "怎么样|多少钱|多少|几点|多久|要多长|吗|？|recommend|suggest|find|search|look for|looking for|show|"
    r"any|where|which|what|how much|how long|can you|could you|options|list|need a|want a|want to|want some|"
    r"would like|i'd like|tell me about|介绍|说说|讲讲|想吃|想要|\?"
)
_PREFER = _cue(
    "喜欢|希望|偏好|倾向|最好|注意|记住|记得|请留意|prefer|like|love|would rather|keep in mind|remember|"
    "note that|please note"
)
_WHY = _cue("为什么|为何|怎么会|什么原因|原因|why|how come|what went wrong|reason")
_FAILURE = _cue("失败|没成功|没订上|订不了|不成功|fail|failed|didn't work|did not work|couldn't|could not|wasn't")
_TALLY = _cue(
    "花了多少|一共多少|总共多少|总花费|总费用|还剩|剩多少|预算够|超预算|花销|账单|行程单|我的计划|目前的计划|"
    "行程里|行程上|行程(?:都|还)?有|how much is everything|everything (?:cost|come to)|"
    "tally|spent|total cost|total so far|so far|remaining|left in the budget|how much in total|"
    "within budget|my plan|the plan|itinerary|summary|how much (?:do|have|is) (?:we|i|there) (?:have )?left|"
    "how much is left|money left|budget left|还有多少钱|还能花多少"
)
_BOOK = _cue(
    "预订|预定|订|就要|就选|选这|选那|选第|加入|加到|加进|放进|算上|安排上|定了|book|reserve|add|take the|take that|go with|"
    "choose|pick"
)
_METRO = _cue(
    "地铁站|哪站|地铁怎么|坐地铁|metro station|subway station|nearest station|which station|"
    "metro stop|subway stop|by metro|by subway"
)
# asking which station is near: a metro question, not a "near the metro" preference
_METRO_Q = re.compile(
    r"哪个地铁站|哪一?站|什么地铁站|最近的地铁站|地铁站最近|地铁站是|(?:which|what|nearest|closest)\s+"
    r"(?:metro |subway )?(?:station|stop)|(?:metro|subway) station (?:is )?(?:closest|nearest)",
    re.IGNORECASE,
)
# a statement about oneself, not a request ("I'm allergic to ...", "我打算 ...")
_FIRST_PERSON = _cue(
    "我想|我们想|我要|我们要|我打算|我们打算|我计划|我们计划|我会|我们会|我是|我的|我对|我们的|我们可以|我可以|"
    "i'm|i am|i'll|i will|we're|we are|we'll|my|our|we can|i can|we could|i could|"
    "we don't|i don't|we do not|i do not|we can't|i can't"
)
_NEAR = _cue("附近|周边|周围|旁边|靠近|边上|一带|离.{0,6}近|near|nearby|around|close to|next to|walking distance")
_NEAR_METRO = re.compile(
    r"(?:地铁|metro|subway)站?.{0,4}(?:近|附近|旁边|方便|边上)|(?:靠近|离|近|near|close to|"
    r"walking distance (?:of|to|from)|next to)\s*(?:the |a )?(?:地铁|metro|subway)",
    re.IGNORECASE,
)
_QUIET = _cue(
    "安静|清静|僻静|不吵|太吵|嘈杂|远离喧嚣|quiet|peaceful|calm|not noisy|no noise|away from the noise|too noisy"
)
_GREETING = re.compile(
    r"^\s*(?:(?:你好|您好|嗨|哈喽|hi|hello|hey|谢谢你?|多谢|感谢|thanks?|thank you|好的|好|行|ok(?:ay)?|"
    r"嗯+|bye|再见|great|cool|got it)[\s!！.。,，~]*)+$",
    re.IGNORECASE,
)
_MEAL_TIME = re.compile(r"(中午|晚上|傍晚|早上)[^，,。；;！!？?]{0,12}?吃(?!过|了)")
_GREETING_WORDS = re.compile(r"^(?:ok(?:ay)?|好的?|行|嗯+)[\s,，!！]*", re.I)
_ORDINAL = re.compile(
    r"第\s*([一二两三四五六七八九十\d])\s*[家个间处]|(?:the\s+)?(first|second|third|fourth|fifth|"
    r"1st|2nd|3rd|4th|5th)\b|(?:option|number|no\.?|#)\s*(\d)",
    re.IGNORECASE,
)
_ASKS = re.compile(r"[?？吗呢]|\b(?:how|what|which|when|where|is|are|do|does|can)\b", re.IGNORECASE)
# how many results are wanted: "推荐一家餐厅" / "a restaurant" / "one hotel" / "三家" / "3 options"
_COUNT = re.compile(
    r"(?<![第\d])([一两二三四五]|\d)\s*(?:家|个|间|处)(?=[^人晚天号日月口子]|$)(?![一二三四五六七八九两\d]\s*口)|"
    r"\b(a|an|one|single|two|three|four|five|\d)\s+(?:good\s+|nice\s+|cheap\s+|quiet\s+|suitable\s+|"
    r"dinner\s+|lunch\s+)?(?:restaurant|hotel|place|attraction|sight|option|spot)s?\b",
    re.IGNORECASE,
)
# "再帮我找一家" / "find me another one": more of the same search, none offered before
_CHEAPER = re.compile(r"cheaper|less expensive|more affordable|便宜(?:一)?点|更便宜|便宜些|实惠(?:一)?点|更实惠", re.I)
_MORE = re.compile(
    r"再(?:帮我|给我|替我)?(?:找|推荐|来|换|查|搜|看看)|换一[家个间处]|另(?:外)?一[家个间处]|别的|其他的|"
    r"还有(?:别的|其他|吗)|(?<![a-z])(?:another|one more|something else|a different one|other options?|"
    r"anything else|more options)(?![a-z])",
    re.IGNORECASE,
)
_THIS = _cue("这家|那家|这个|那个|它|this one|that one|it")
_ORD_WORDS = {
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "1st": 1,
    "2nd": 2,
    "3rd": 3,
    "4th": 4,
    "5th": 5,
}
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
_NOT_ENTITIES = frozenset(
    "酒吧 慢走 过客 大厨房 一手店 小排骨 烧肉馆 粗粮屋 湘菜香 小印度 局气 咂摸 湘爱 比萨5 DQ".split()
)
_PLACE_EN = english_alias_pattern(PLACE_ALIASES)
_DISH_EN = english_alias_pattern(DISH_ALIASES)
_CITY = english_alias_pattern(OTHER_CITIES)


@dataclass
class Constraint:
    """One stated constraint; ``scope`` is the domain it was said about ("any" when none)."""

    slot: str
    value: object
    scope: str = "any"
    turn: int = 0
    node_id: str = ""
    text: str = ""


@dataclass
class Parsed:
    text: str
    language: str
    domain: str | None = None  # hotel / restaurant / attraction
    intent: str = "statement"  # search / info / book / remove / tally / why / metro / city / greeting / statement
    request: bool = False
    constraints: list[Constraint] = field(default_factory=list)
    entities: list[tuple[str, str]] = field(default_factory=list)  # (database name, domain or "area")
    dishes: list[str] = field(default_factory=list)
    ordinal: int | None = None
    refers: bool = False  # "this one" / "it"
    failure: bool = False
    city: str | None = None
    side: str | None = None  # a side question: distance / hours / ticket / reserve / crowd / evening
    meal: str | None = None  # breakfast / lunch / dinner / late-night
    kind: str | None = None  # a kind of sight asked for: museum / park / temple
    count: int | None = None  # how many results were asked for ("推荐一家" = 1)
    more: bool = False  # "another one": the same search again, without what was offered already
    caveat: str | None = None  # a side question folded into a search, said beside its results ("evening")
    cheaper: bool = False  # "something cheaper" / "便宜点的": under what was offered so far
    near_kind: str | None = None  # "a restaurant near the hotel": the kind of place to be near (not asked for)
    asks_has: list[str] = field(default_factory=list)  # "第一家有没有停车场？": facilities asked of a shown hotel
    cuisines: list[str] = field(default_factory=list)  # "有没有川菜馆？": read from names (no cuisine field)
    day: int | None = None  # "加到第二天的行程里" / "add it to day 2": the day of the trip
    day_plan: list[tuple[int, str]] = field(default_factory=list)  # "第一天去故宫，第二天去颐和园": (day, sight)

    def slots(self) -> dict:
        return {c.slot: c.value for c in self.constraints}


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
    keys = sorted(index, key=len, reverse=True)
    return index, re.compile("|".join(re.escape(k) for k in keys))


@lru_cache(maxsize=1)
def _dish_pattern() -> re.Pattern:
    """Dishes the database recommends at two or more places, plus the English aliases' targets."""
    from collections import Counter

    counts = Counter(d for r in load_database().restaurant for d in r.get("推荐菜") or [])
    words = {d for d, n in counts.items() if n >= 2 and 2 <= len(d) <= 6 and re.fullmatch(r"[\u4e00-\u9fff]+", d)}
    words |= set(DISH_ALIASES.values())
    words -= NOT_DISHES | {"甜点"}  # tags and placeholders ("没有": "none") are no dish to ask for; 甜点 a category
    return re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True) if len(w) >= 2))


def find_entities(text: str) -> list[tuple[str, str]]:
    """Database names (and areas) in the text, longest match first, in order of mention."""
    index, pattern = _name_index()
    found = [(m.start(), index[m.group(0)]) for m in pattern.finditer(text)]
    db = load_database()
    for m in _PLACE_EN.finditer(text):
        name = PLACE_ALIASES[m.group(0).lower()]
        row = db.by_name.get(name)
        found.append((m.start(), (name, db.domain_of(row) if row else "area")))
    out, seen = [], set()
    for _, ent in sorted(found):
        if ent[0] not in seen:
            seen.add(ent[0])
            out.append(ent)
    return out


def _avoid_terms(text: str) -> list[str]:
    terms = []
    before = [m for m in _ZH_AVOID_BEFORE.finditer(text) if any(k in m.group(1) for k in _FOOD_KEYS)]
    for m in [*_ZH_AVOID.finditer(text), *before]:
        # "我对虾过敏": the one who is allergic is not part of the food
        word = _WHO_TO.sub("", next(g for g in m.groups() if g)) or next(g for g in m.groups() if g)
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


_RELATIVE_DAY = re.compile(
    r"(下个?月|这个?月|本月|next month|this month)\s*(?:the\s*)?(\d{1,2}|[一二三四五六七八九十]{1,3})\s*(?:号|日|st|nd|rd|th)",
    re.IGNORECASE,
)


_EN_DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_WEEKDAY = re.compile(
    r"(下个?|这个?|本)(?:周|星期|礼拜)([一二三四五六日天])|"
    r"\b(next|this|on)?\s*(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
    re.IGNORECASE,
)
_BARE_DAY = re.compile(
    r"\b(?:from|on|starting|check(?:ing)?[- ]in|arriv\w*)\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b|"
    r"(?<![月\d一二三四五六七八九十])(\d{1,2}|[一二三四五六七八九十]{1,3})\s*[号日](?=入住|开始|出发|到北京|住|到)",
    re.IGNORECASE,
)


def _relative_days(text: str, today: date | None = None) -> list[tuple[int, int]]:
    """ "下个月十号" / "next month the 10th": the day in the month counted from today; a bare day to start on
    ("from the 12th", "12号入住"): its next coming date.

    >>> d = date(2026, 12, 3)  # a Thursday
    >>> _relative_days("我们下个月十号到", d), _relative_days("this month the 20th", d), _relative_days("from the 2nd", d)
    ([(1, 10)], [(12, 20)], [(1, 2)])
    >>> _relative_days("下周三我们去北京", d), _relative_days("arriving next Friday", d), _relative_days("周六出发", d)
    ([(12, 9)], [(12, 11)], [])
    """
    today = today or date.today()
    out = []
    for m in _RELATIVE_DAY.finditer(text):
        month = today.month % 12 + 1 if m.group(1).lower().startswith(("下", "next")) else today.month
        day = int(m.group(2)) if m.group(2).isdigit() else (small_number(m.group(2)) or 0)
        if 1 <= day <= 31:
            out.append((month, day))
    for m in _WEEKDAY.finditer(text):
        nxt = bool(re.match(r"下|next", m.group(1) or m.group(3) or "", re.I))
        wd = m.group(2) or m.group(4)
        target = (
            "一二三四五六日".index(wd)
            if wd in "一二三四五六日天" and wd != "天"
            else 6
            if wd == "天"
            else _EN_DAYS.index(wd.lower()[:3])
        )
        monday = today - timedelta(days=today.weekday()) + timedelta(days=7 if nxt else 0)
        when = monday + timedelta(days=target)
        if not nxt and m.group(3) is None and when < today:  # "周三" already past this week: the coming one
            when += timedelta(days=7)
        out.append((when.month, when.day))
    if not out:
        for m in _BARE_DAY.finditer(text):
            g = m.group(1) or m.group(2)
            day = int(g) if g.isdigit() else (small_number(g) or 0)
            if 1 <= day <= 31:
                out.append((today.month if day >= today.day else today.month % 12 + 1, day))
    return out


_EN_RANGE = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*(\d{1,2})(?:st|nd|rd|th)?\s*(?:-|–|to|until|"
    r"through|till)\s*(\d{1,2})(?:st|nd|rd|th)?\b(?!\s*(?:am|pm|:|\d|[ap]\.m))",
    re.IGNORECASE,
)


def _dates(text: str, today: date | None = None) -> dict | None:
    """Check-in, check-out and nights a message states.

    >>> _dates("hi, 3 ppl, beijing sept 10-13, budget 9000")
    {'check_in': '9-10', 'check_out': '9-13', 'nights': 3}
    """
    ds = extract_dates(text) or _relative_days(text, today)
    roles = {v.scope for v in read_slots(text) if v.slot == "date"}
    if len(ds) == 1 and roles == {"end"}:  # "we'll stay until June 5" / "住到6月5号": the stay's end only
        return {"check_out": f"{ds[0][0]}-{ds[0][1]}"}
    r = _EN_RANGE.search(text)
    if len(ds) == 1 and r and int(r.group(2)) > int(r.group(1)):  # "Sept 10-13": the end day takes the month
        ds = [ds[0], (ds[0][0], int(r.group(2)))]
    out: dict = {}
    if ds:
        out["check_in"] = f"{ds[0][0]}-{ds[0][1]}"
        if len(ds) >= 2:
            try:
                nights = (date(2024, *ds[-1]) - date(2024, *ds[0])).days
            except ValueError:
                nights = 0
            if nights > 0:
                out["check_out"] = f"{ds[-1][0]}-{ds[-1][1]}"
                out["nights"] = nights
    stay = stay_length(text)
    if stay and "nights" not in out:
        out["nights"] = stay
    if "nights" not in out:  # "改成五月二号出发，还是住到四号": the slot reader's start and end (a bare end day)
        said = {v.scope: str(v.value) for v in read_slots(text) if v.slot == "date" and isinstance(v.value, str)}
        start, end = said.get("start", ""), said.get("end", "")
        if start[:2].isdigit() and end[:2].isdigit():
            span = nights_between(start, end)
            if span:
                out.update(check_in=f"{int(start[:2])}-{int(start[3:])}", nights=span)
                out["check_out"] = f"{int(end[:2])}-{int(end[3:])}"
    return out or None


def nights_between(start: str, end: str) -> int | None:
    """Nights from ``MM-DD`` (or ``M-D``) to a later one, across a new year; None when not later.

    >>> nights_between("05-02", "05-04"), nights_between("12-30", "1-2"), nights_between("5-4", "5-2")
    (2, 3, None)
    """
    try:
        (m1, d1), (m2, d2) = (tuple(int(x) for x in v.split("-")) for v in (start, end))
        a, b = date(2025, m1, d1), date(2025 if (m2, d2) >= (m1, d1) else 2026, m2, d2)
    except ValueError:
        return None
    n = (b - a).days
    return n if 0 < n <= 60 else None


def _domain_hits(text: str) -> dict[str, int]:
    """How strongly each kind of place is asked for: its cue words, those in a clause that asks ("find a
    restaurant") counted twice, a kind named as the place to be near ("near the hotel", "酒店附近的餐厅") not at
    all when another kind is named.

    >>> _domain_hits("Make the hotel limit 900 a night, and find a vegetarian restaurant near the hotel.")
    {'hotel': 1, 'restaurant': 2, 'attraction': 0}
    >>> _domain_hits("帮我找酒店附近的酒店")["hotel"] > 0
    True
    """

    def count(t: str) -> dict[str, int]:
        return {d: len(c.findall(t)) for d, c in DOMAIN_CUES.items()}

    masked = _NEAR_KIND.sub(lambda m: " " * len(m.group(0)), text)
    if not any(count(masked).values()):
        masked = text  # only the place to be near is named: it is also what is asked for
    hits = count(masked)
    for clause in _CLAUSE.split(masked):
        if _ASK_VERB.search(clause):
            for d, n in count(clause).items():
                hits[d] += n
    return hits


def parse(text: str, said_on: date | None = None) -> Parsed:
    """Understand one message (no memory involved). ``said_on``: the day it was said, which "下个月十号" /
    "next Wednesday" count from (today for a new message; its own day for one read back from memory)."""
    text = fix_typos(text)  # "find a hotle", "we dont eat beef": read as meant
    lang = detect_language(text)
    low = text.lower()
    p = Parsed(text=text, language=lang)
    hits = _domain_hits(text)
    if _HOTEL_BREAKFAST.search(text):
        hits["hotel"] += 1 + hits["restaurant"]  # the breakfast is the hotel's
    p.entities = find_entities(text)
    city = _CITY.search(text)
    p.city = OTHER_CITIES[city.group(0).lower()] if city else None
    p.request = bool(_REQUEST.search(text))
    p.failure = bool(_FAILURE.search(text))
    m = _ORDINAL.search(text)
    if m:
        g = next(x for x in m.groups() if x)
        p.ordinal = int(g) if g.isdigit() else _ORD_WORDS.get(g.lower())
    p.refers = bool(_THIS.search(text))
    p.more = bool(_MORE.search(text)) and not _GREETING.match(text)
    p.cheaper = bool(_CHEAPER.search(text))
    p.more = p.more or p.cheaper  # "cheaper" continues the topic's search
    if p.more and p.count is None and re.search(r"another|one more|a different one", text, re.IGNORECASE):
        p.count = 1  # "another" is one
    p.meal = meal_of(text)
    when = None if p.meal else _MEAL_TIME.search(text)  # "中午在颐和园附近吃饭": the time of day, a place between
    if when:
        p.meal = {"中午": "lunch", "晚上": "dinner", "傍晚": "dinner", "早上": "breakfast"}[when.group(1)]
    # "国家博物馆附近的公园" asks for a park: the kind is read with the place names taken out
    p.kind = sight_kind(_PLACE_EN.sub(" ", _name_index()[1].sub(" ", text)))
    m = _COUNT.search(text)
    if m:
        g = next(x for x in m.groups() if x)
        p.count = (
            1
            if g.lower() in ("一", "a", "an", "one", "single")
            else small_number(g)  # "三家" / "three hotels": the library's reader of small counts
        )
    # "我对海鲜过敏": a dish named inside an allergy or "don't eat" phrase is to be avoided, never wanted
    avoided = [m.span() for pat in (_ZH_AVOID, _EN_AVOID, _ZH_AVOID_BEFORE) for m in pat.finditer(text)]
    wanted = [
        m
        for pat in (_DISH_EN, _dish_pattern())
        for m in pat.finditer(text)
        if not any(a <= m.start() < b for a, b in avoided)
    ]
    for m in wanted:
        dish = DISH_ALIASES.get(m.group(0).lower(), m.group(0))
        if dish not in p.dishes:
            p.dishes.append(dish)
    if re.search(r"免费停车|停车免费|free parking|parking (?:is |for )?free", text, re.I):
        p.caveat = "paid_parking"  # the data lists only paid parking (收费停车位): said beside what is found
    p.cuisines = cuisines_of(text)
    if p.cuisines:  # "any good korean bbq around the hotel?": a cuisine asked for is a meal, whatever it is near
        hits["restaurant"] += 2
    p.day = trip_day(text)
    if (p.dishes or p.cuisines) and not any(hits.values()):
        hits["restaurant"] = 1
    if any(hits.values()):
        # "故宫附近的酒店": the thing asked for is named last in Chinese, first in English; ties go to hotels
        p.domain = max(DOMAINS, key=lambda d: (hits[d], d == "hotel"))
        if hits["attraction"] and re.search(r"门票|ticket", text, re.IGNORECASE) and not hits["hotel"]:
            p.domain = "attraction"
    if p.domain == "attraction" and not p.request and not _SIGHT_NOUN.search(text) and not p.entities:
        p.domain = None  # "我们一家三口下个月去北京玩三天": a trip told (玩 / visit), not a request for sights
    scope = p.domain or "any"
    near = [next(g for g in m.groups() if g) for m in _NEAR_KIND.finditer(text)]
    p.near_kind = next(
        (d for w in near for d, c in DOMAIN_CUES.items() if c.search(w) and d != p.domain and p.domain), None
    )
    if p.near_kind is None and p.domain and _NEAR_IT.search(text):
        p.near_kind = "last"  # "a hotel near it": near the item of another kind shown or looked up last

    # constraints
    cons = p.constraints
    dates = _dates(text, said_on)
    if dates:
        cons.append(Constraint("dates", dates))
    people = people_count(text)
    if people:
        cons.append(Constraint("people", people))
    # amounts through the weaver's slot reader: "别超过六百" is a ceiling, "几千" no bound at all
    from .slot_bridge import money_from_slots

    if not any(v.slot == "budget" and v.scope == "ticket" for v in read_slots(text)):
        # "门票免费的" / "free entry": the preference reader's free ticket is a ceiling of 0
        if any(v.slot == "budget" and v.scope == "ticket" and v.value == 0 for v in read_prefs(text)):
            cons.append(Constraint("ticket", "0-0", "attraction"))
    for slot, rng, amount in money_from_slots(text, p.domain):
        # a per-night price is a hotel's whatever else the message asks for (and a per-person cost a meal's)
        own = {"budget": "any", "price": "hotel", "cost": "restaurant", "ticket": "attraction"}.get(slot, scope)
        cons.append(Constraint(slot, amount if slot == "budget" else rng, own))
    rating = rating_range(text)
    if rating:
        cons.append(Constraint("rating", rating, scope))
    avoid = _avoid_terms(text)
    if avoid:
        cons.append(Constraint("avoid", avoid, "restaurant"))
    if _QUIET.search(text):
        cons.append(Constraint("quiet", True, "hotel"))
    if _NEAR_METRO.search(text) and not _METRO_Q.search(text):
        cons.append(Constraint("near_metro", True, scope))
    facilities = [v for k, v in FACILITY_ALIASES.items() if (k in low if k.isascii() else k in text)]
    if _HOTEL_BREAKFAST.search(text) and "早餐服务" not in facilities:
        facilities.append("早餐服务")  # "含早" / "breakfast included"
    if facilities and (p.domain == "hotel" or not p.domain):
        cons.append(Constraint("facilities", list(dict.fromkeys(facilities)), "hotel"))
    htype = next((v for k, v in HOTEL_TYPE_ALIASES.items() if (k in low if k.isascii() else k in text)), None)
    if htype and p.domain == "hotel":
        cons.append(Constraint("hotel_type", htype, "hotel"))
    places = [e for e in p.entities if e[1] == "area" or e[1] != p.domain or _NEAR.search(text)]
    if places and not p.city:
        cons.append(Constraint("place", places[0][0], scope))
    for c in cons:
        c.text = text

    # intent
    named = any(e[1] in DOMAINS for e in p.entities)  # "把第二天的故宫删掉": a plan item named
    if (
        _REMOVE.search(text)
        and (_PLAN_WORD.search(text) or p.domain or named)
        and not any(c.slot == "avoid" for c in cons)
    ):
        # "把酒店从行程里删掉" / "remove the hotel from the plan": a plan item retracted, nothing searched
        p.intent, p.constraints = "remove", []
        return p
    the_hotel = bool(re.search(r"\b(?:the|our) hotel\b|(?:我们的|我们住的|订的)酒店", text, re.I))
    metro_q = _METRO.search(text) or (the_hotel and re.search(r"metro|subway|地铁", text, re.I))
    if (p.ordinal or p.refers or the_hotel) and metro_q and _YES_NO.search(text) and not p.entities:
        # "Is the first one close to a metro station?": the station of the item shown, not a wish for later
        p.intent = "metro"
        p.constraints = [c for c in cons if c.slot != "near_metro"]
        return p
    side = side_kind(text) if _ASKS.search(text) else None
    if (p.ordinal or p.refers) and not p.entities and _FIELD_Q.search(text) and _YES_NO.search(text) and not side:
        # "第一个景点门票多少？": a question about one shown item, looked up by name, not a new search
        p.intent = "info"
        p.constraints = [c for c in cons if c.slot not in ("ticket", "price", "cost", "rating")]
        return p
    asked = [
        str(f) for c in cons if c.slot == "facilities" for f in (c.value if isinstance(c.value, list) else [c.value])
    ]
    if asked and (p.ordinal or p.refers) and _YES_NO.search(text) and not p.entities and not p.city:
        # a question about one shown hotel ("第一家有没有停车场？"), not a wish for every later search
        p.intent, p.domain, p.asks_has = "has", "hotel", asked
        p.constraints = [c for c in cons if c.slot != "facilities"]
        return p
    if side == "evening" and p.request and not p.entities and not p.city:
        # places for the evening: restaurants have hours (search for dinner); sights have none, so only a
        # search "near" a place the user named is run, with the missing hours said beside its results
        if p.domain == "restaurant":
            p.meal, side = p.meal or "dinner", None
        elif p.domain == "attraction" and _NEAR.search(text):
            p.caveat, side = "evening", None
    if (
        side
        and not p.city
        and (p.entities or side in PLACELESS or p.refers or p.ordinal or side in ("checkin", "reserve"))
    ):
        # a question about places is no preference: the places it names constrain nothing later
        p.intent, p.side = "side", side
        p.constraints = [c for c in cons if c.slot != "place"]
        return p
    if p.city and (p.domain or p.request):
        p.intent = "city"
    elif _WHY.search(text):
        p.intent = "why"
    elif _BOOK.search(text) and (p.ordinal or p.refers or p.day or any(e[1] in DOMAINS for e in p.entities)):
        p.intent = "book"
    elif _TALLY.search(text) and not (p.domain and p.request and not re.search(r"预算|budget|spent|花", text)):
        p.intent = "tally"
    elif _METRO_Q.search(text) or (_METRO.search(text) and not _NEAR_METRO.search(text)):
        p.intent = "metro"
    elif p.domain and (
        p.request or not cons or not (_PREFER.search(text) or _FIRST_PERSON.search(text) or is_change(text))
    ):
        target = [e for e in p.entities if e[1] == p.domain]
        p.intent = "info" if target and not _NEAR.search(text) else "search"
    elif p.request and any(e[1] in DOMAINS for e in p.entities):
        p.domain = next(e[1] for e in p.entities if e[1] in DOMAINS)
        p.intent = "search" if _NEAR.search(text) else "info"  # "something near the Forbidden City": around it
    elif _GREETING.match(text) or (CLOSING.search(text) and not p.constraints and not p.request):
        p.intent = "greeting"
    elif p.ordinal and not cons and not p.entities and len(_GREETING_WORDS.sub("", text)) <= 24:
        p.intent = "info"  # "第二个" / "2nd one" / "第二个怎么样": that item of the latest list, looked up
    return p
