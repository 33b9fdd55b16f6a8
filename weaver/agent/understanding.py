"""Offline understanding: one message -> what the user asks for and which constraints it states.

Deterministic and general: bilingual cue patterns for intents (search, book,
tally, why, metro), the database's lexicon for places and dishes, and number
patterns for budgets, prices, ratings, dates and party sizes. Nothing here
remembers anything: the agent applies it to the memories the weaver retrieves.

This module owns the result (``Constraint``, ``Parsed``) and the one reading that
combines the parts: the cue patterns live in ``intent_cues``, the database's names
in ``place_names``, foods to avoid in ``avoidances`` and stated days in
``trip_dates`` (their public names stay importable from here).

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
from datetime import date

from ..numerals import small_number
from ..slots import is_change, read_slots
from ..slots_diet import option_questions
from ..slots_prefs import meal_of, read_prefs
from ..text import detect_language
from .avoidances import avoided_foods, avoided_spans
from .cuisine import cuisines_of
from .intent_cues import (
    ASKS,
    ASKS_MAY,
    TAXI,
    BEEN,
    party_told,
    GOING,
    SEARCH_ASKED,
    called_off,
    chose_one,
    names_one,
    BOOK,
    CHEAPER,
    CLOSING,
    COUNT,
    DOMAIN_CUES,
    FAILURE,
    FAMILY_ASK,
    HOSTEL,
    FIELD_Q,
    FIRST_PERSON,
    GREETING,
    GREETING_WORDS,
    HOTEL_BREAKFAST,
    MEAL_TIME,
    METRO,
    METRO_Q,
    MORE,
    NEAR,
    NEAR_IT,
    ROUTE,
    BARE_NEAR,
    NEAR_KIND,
    NEAR_METRO,
    not_pricey,
    ORD_WORDS,
    ORDINAL,
    PLAN_WORD,
    PREFER,
    QUIET,
    REMOVE,
    REQUEST,
    SHOWN_BEFORE,
    SIGHT_NOUN,
    THIS,
    TALLY,
    WHY,
    YES_NO,
    domain_hits,
)
from .lexicon import DISH_ALIASES, FACILITY_ALIASES, HOTEL_TYPE_ALIASES, sight_kind
from .numbers import length_clash, people_count, rating_range, stay_said, trip_day
from .route_order import names_a_route
from .place_names import (
    DOMAINS,
    pinyin_named,
    without_home,
    city_named,
    dish_mentions,
    find_entities,
    unplaced_place,
    without_place_names,
)
from .side import PLACELESS, side_kind
from .trip_dates import nights_between, shift_said, stated_dates
from .typos import fix_typos
from .visit_time import read_visit, read_walk_limit

__all__ = ["Constraint", "Parsed", "parse", "find_entities", "DOMAINS", "CLOSING", "nights_between", "length_clash"]


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
    # "a 3-day trip from May 1 to May 4": the length said and the dates' nights disagree ({said, unit, nights, ...})
    length_clash: dict | None = None
    unplaced: str | None = None  # "near the Bund": a place asked to be near that the (Beijing) database cannot place
    side: str | None = None  # a side question: distance / hours / ticket / reserve / crowd / evening
    meal: str | None = None  # breakfast / lunch / dinner / late-night
    kind: str | None = None  # a kind of sight asked for: museum / park / temple
    count: int | None = None  # how many results were asked for ("推荐一家" = 1)
    more: bool = False  # "another one": the same search again, without what was offered already
    caveat: str | None = None  # a side question folded into a search, said beside its results ("evening")
    cheaper: bool = False  # "something cheaper" / "便宜点的": under what was offered so far
    visit: str | None = None  # "short" (游玩时间短一点) / "walk" (走不了太多路): the shortest visits first, said
    max_hours: float | None = None  # "2小时以内能逛完": a visit's most hours
    near_kind: str | None = None  # "a restaurant near the hotel": the kind of place to be near (not asked for)
    near_latest: bool = False  # "附近有什么景点": near the place talked about last, whatever it was said for
    asks_has: list[str] = field(default_factory=list)  # "第一家有没有停车场？": facilities asked of a shown hotel
    cuisines: list[str] = field(default_factory=list)  # "有没有川菜馆？": read from names (no cuisine field)
    day: int | None = None  # "加到第二天的行程里" / "add it to day 2": the day of the trip
    day_plan: list[tuple[int, str]] = field(default_factory=list)  # "第一天去故宫，第二天去颐和园": (day, sight)
    lifted: list[str] = field(default_factory=list)  # "其实不用吃素了": foods no longer avoided (said back)
    # "有素食的吗" / "any vegetarian options?": foods left out of this search only (a question, no diet of theirs)
    asked_avoid: list[str] = field(default_factory=list)
    shift: int | None = None  # "行程推迟一天" / "push the trip back by a day": days the known dates move
    # "门票多少钱？" / "How much is the ticket?": a field of an item just listed, none named (which one: the list's)
    field_q: bool = False
    # "the first hotel you showed me" / "你最开始推荐的第一家": counted over everything shown, oldest first
    in_shown_order: bool = False

    def slots(self) -> dict:
        return {c.slot: c.value for c in self.constraints}


def parse(text: str, said_on: date | None = None) -> Parsed:
    """Understand one message (no memory involved). ``said_on``: the day it was said, which "下个月十号" /
    "next Wednesday" count from (today for a new message; its own day for one read back from memory)."""
    text = fix_typos(text)  # "find a hotle", "we dont eat beef": read as meant
    lang = detect_language(text)
    low = text.lower()
    p = Parsed(text=text, language=lang)
    hits = domain_hits(without_home(text))  # "我住在上海": where the user lives asks for no place to stay
    if HOTEL_BREAKFAST.search(text):
        hits["hotel"] += 1 + hits["restaurant"]  # the breakfast is the hotel's
    hostel = bool(HOSTEL.search(text))
    hits["hotel"] += hostel  # "有没有青旅？": a place to stay
    p.entities = find_entities(text)
    p.city = city_named(text)
    p.request = bool(REQUEST.search(text))
    p.failure = bool(FAILURE.search(text))
    m = ORDINAL.search(text)
    if m:
        g = next(x for x in m.groups() if x)
        p.ordinal = int(g) if g.isdigit() else ORD_WORDS.get(g.lower())
    p.refers = bool(THIS.search(text))
    p.in_shown_order = bool(p.ordinal and SHOWN_BEFORE.search(text))
    p.more = bool(MORE.search(text)) and not GREETING.match(text)
    p.cheaper = bool(CHEAPER.search(text))
    p.visit, p.max_hours = read_visit(text)
    p.more = p.more or p.cheaper  # "cheaper" continues the topic's search
    if p.more and p.count is None and re.search(r"another|one more|a different one", text, re.IGNORECASE):
        p.count = 1  # "another" is one
    p.meal = meal_of(text)
    when = None if p.meal else MEAL_TIME.search(text)  # "中午在颐和园附近吃饭": the time of day, a place between
    if when:
        p.meal = {"中午": "lunch", "晚上": "dinner", "傍晚": "dinner", "早上": "breakfast"}[when.group(1)]
    # "国家博物馆附近的公园" asks for a park: the kind is read with the place names taken out
    p.kind = sight_kind(without_place_names(text))
    m = COUNT.search(text)
    if m:
        g = next(x for x in m.groups() if x)
        p.count = (
            1
            if g.lower() in ("一", "a", "an", "one", "single")
            else small_number(g)  # "三家" / "three hotels": the library's reader of small counts
        )
    # "我对海鲜过敏": a dish named inside an allergy or "don't eat" phrase is to be avoided, never wanted; one the
    # message says they can eat again ("我朋友现在也吃牛肉了") is a diet lifted, not a dish asked for either
    from .slot_bridge import lifted_terms, money_from_slots

    lifts = [v.span for v in read_slots(text) if v.slot == "diet" and v.bound == "lift"]
    avoided = avoided_spans(text) + lifts
    wanted = [m for m in dish_mentions(text) if not any(a <= m.start() < b for a, b in avoided)]
    for m in wanted:
        dish = DISH_ALIASES.get(m.group(0).lower(), m.group(0))
        if dish not in p.dishes:
            p.dishes.append(dish)
    if re.search(r"免费停车|停车免费|free parking|parking (?:is |for )?free", text, re.I):
        p.caveat = "paid_parking"  # the data lists only paid parking (收费停车位): said beside what is found
    if FAMILY_ASK.search(text):
        p.caveat = "no_family_tag"  # the data tags nothing as for families: said, and what was searched instead
    if hostel:
        p.caveat = "no_hostel_type"  # no such type in the data: said, the cheapest hotels offered instead
    if p.visit == "walk":
        p.caveat = "no_walking_data"  # no walking or access field: said, the shortest visits offered instead
    p.cuisines = cuisines_of(text)
    if p.cuisines:  # "any good korean bbq around the hotel?": a cuisine asked for is a meal, whatever it is near
        hits["restaurant"] += 2
    p.day = trip_day(text)
    hits["attraction"] += int(bool(p.max_hours) and not any(hits.values()))  # "只有两小时": a visit's length, a sight's
    if (p.dishes or p.cuisines) and not any(hits.values()):
        hits["restaurant"] = 1
    if any(hits.values()):
        # "故宫附近的酒店": the thing asked for is named last in Chinese, first in English; ties go to hotels
        p.domain = max(DOMAINS, key=lambda d: (hits[d], d == "hotel"))
        if hits["attraction"] and re.search(r"门票|ticket", text, re.IGNORECASE) and not hits["hotel"]:
            p.domain = "attraction"
    if p.domain == "attraction" and not p.request and not SIGHT_NOUN.search(text) and not p.entities:
        p.domain = None  # "我们一家三口下个月去北京玩三天": a trip told (玩 / visit), not a request for sights
    scope = p.domain or "any"
    near = [next(g for g in m.groups() if g) for m in NEAR_KIND.finditer(text)]
    p.near_kind = next(
        (d for w in near for d, c in DOMAIN_CUES.items() if c.search(w) and d != p.domain and p.domain), None
    )
    if p.near_kind is None and p.domain and NEAR_IT.search(text):
        p.near_kind = "last"  # "a hotel near it": near the item of another kind shown or looked up last
    p.near_latest = p.near_kind is None and bool(BARE_NEAR.search(text))

    # constraints
    cons = p.constraints
    dates = stated_dates(text, said_on)
    p.shift = None if dates else shift_said(text)  # applied to the dates memory holds (offline_turn)
    if dates:
        cons.append(Constraint("dates", dates))
        p.length_clash = length_clash(dates, stay_said(text))
    people = people_count(text)
    if people:
        cons.append(Constraint("people", people))
    # amounts through the weaver's slot reader: "别超过六百" is a ceiling, "几千" no bound at all
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
    # "其实不用吃素了": a food the message lifts is no food it avoids, whatever words name it
    p.lifted = sorted(lifted_terms(text)) if lifts else []
    offers = option_questions(text)
    if offers:  # a question about what is on offer states no diet: its foods apply to this search only
        said = text
        for a, b in offers:
            said = said[:a] + " " * (b - a) + said[b:]
        avoid = [t for t in avoided_foods(said) if t not in p.lifted]
        offer = "。".join(text[a:b] for a, b in offers)
        p.asked_avoid = [t for t in avoided_foods(offer) if t not in avoid and t not in p.lifted]
        p.caveat = "asked_diet" if p.asked_avoid else p.caveat
    else:
        avoid = [t for t in avoided_foods(text) if t not in p.lifted]
    if avoid:
        cons.append(Constraint("avoid", avoid, "restaurant"))
    if p.request and not p.domain and p.asked_avoid:
        p.domain = "restaurant"  # "王府井附近有素食的吗？" / "any vegetarian places?": a diet asked about is a meal
    if QUIET.search(text):
        cons.append(Constraint("quiet", True, "hotel"))
    # "步行别超过十分钟" / "别太贵" (no number): wishes for later searches too, remembered like a number said
    walk, priced = read_walk_limit(text), any(c.slot in ("budget", "price", "cost", "ticket") for c in cons)
    cons += [Constraint("walk", walk, scope)] if walk else []
    cons += [Constraint("not_pricey", True, scope)] if not_pricey(text) and not priced else []
    if NEAR_METRO.search(text) and not METRO_Q.search(text):
        cons.append(Constraint("near_metro", True, scope))
    facilities = [v for k, v in FACILITY_ALIASES.items() if (k in low if k.isascii() else k in text)]
    if HOTEL_BREAKFAST.search(text) and "早餐服务" not in facilities:
        facilities.append("早餐服务")  # "含早" / "breakfast included"
    if facilities and (p.domain == "hotel" or not p.domain):
        cons.append(Constraint("facilities", list(dict.fromkeys(facilities)), "hotel"))
    htype = next((v for k, v in HOTEL_TYPE_ALIASES.items() if (k in low if k.isascii() else k in text)), None)
    if htype and p.domain == "hotel":
        cons.append(Constraint("hotel_type", htype, "hotel"))
    places = [e for e in p.entities if e[1] == "area" or e[1] != p.domain or NEAR.search(text)]
    if places and not p.city:
        cons.append(Constraint("place", places[0][0], scope))
    elif not p.city and not p.near_kind:
        p.unplaced = unplaced_place(text)  # said back, never dropped in silence (the database is Beijing's only)
        in_pinyin = pinyin_named(p.unplaced) if p.unplaced and p.unplaced.isascii() else None
        if in_pinyin:  # "near Daoxiangcun": a database name said in pinyin, as the agent's replies gloss it
            p.entities.append(in_pinyin)
            p.unplaced = None
            cons.append(Constraint("place", in_pinyin[0], scope, text=text))
    for c in cons:
        c.text = text

    # intent
    named = any(e[1] in DOMAINS for e in p.entities)  # "把第二天的故宫删掉": a plan item named
    if (
        REMOVE.search(text)
        and (PLAN_WORD.search(text) or p.domain or named or (p.refers and not ASKS_MAY.search(text)))
        and not any(c.slot == "avoid" for c in cons)
    ):
        # "把酒店从行程里删掉" / "remove the hotel from the plan": a plan item retracted, nothing searched
        p.intent, p.constraints = "remove", []
        return p
    if called_off(text):  # "晚饭不用找了" / "never mind dinner": said back, nothing searched (what it states is kept)
        p.intent = "decline"
        return p
    the_hotel = bool(re.search(r"\b(?:the|our) hotel\b|(?:我们的|我们住的|订的)酒店", text, re.I))
    metro_q = METRO.search(text) or (the_hotel and re.search(r"metro|subway|地铁", text, re.I))
    if (p.ordinal or p.refers or the_hotel) and metro_q and YES_NO.search(text) and not p.entities:
        # "Is the first one close to a metro station?": the station of the item shown, not a wish for later
        p.intent = "metro"
        p.constraints = [c for c in cons if c.slot != "near_metro"]
        return p
    side = side_kind(text) if ASKS.search(text) else None
    if (
        (p.ordinal or p.refers)
        and not p.entities
        and FIELD_Q.search(text)
        and YES_NO.search(text)
        and not side
        and not (p.refers and not p.ordinal and TALLY.search(text))  # "how much will it cost in total?": the plan
    ):
        # "第一个景点门票多少？": a question about one shown item, looked up by name, not a new search
        p.intent = "info"
        p.constraints = [c for c in cons if c.slot not in ("ticket", "price", "cost", "rating")]
        return p
    if (
        p.domain
        and FIELD_Q.search(text)
        and YES_NO.search(text)
        and not (p.entities or p.ordinal or p.refers or p.city or p.dishes or p.cuisines or p.kind or p.more)
        and not cons
        and not SEARCH_ASKED.search(text)
    ):
        p.field_q = True  # the planner looks it up in the list shown last, when there is one (else it searches)
    asked = [
        str(f) for c in cons if c.slot == "facilities" for f in (c.value if isinstance(c.value, list) else [c.value])
    ]
    if asked and (p.ordinal or p.refers) and YES_NO.search(text) and not p.entities and not p.city:
        # a question about one shown hotel ("第一家有没有停车场？"), not a wish for every later search
        p.intent, p.domain, p.asks_has = "has", "hotel", asked
        p.constraints = [c for c in cons if c.slot != "facilities"]
        return p
    if side == "evening" and p.request and not p.entities and not p.city:
        # places for the evening: restaurants have hours (search for dinner); sights have none, so only a
        # search "near" a place the user named is run, with the missing hours said beside its results
        if p.domain == "restaurant":
            p.meal, side = p.meal or "dinner", None
        elif p.domain == "attraction" and NEAR.search(text):
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
    if TAXI.search(text) and not p.city:
        # "打车从酒店到故宫要多少钱？": no hotel asked for; the data has no fares, so each place's station is said
        p.intent, p.caveat = "metro", "no_taxi_data"
        p.constraints = [c for c in cons if c.slot not in ("place", "near_metro", "price", "cost", "budget")]
        return p
    if p.city and (p.domain or p.request or (GOING.search(text) and not BEEN.search(text))):
        p.intent = "city"  # "帮我找上海的酒店", and "说错了，是去上海" / "I meant Shanghai": the trip is elsewhere
    elif WHY.search(text):
        p.intent = "why"
    elif chose_one(text) and not p.entities:
        p.intent = (
            "book"  # "那就这家吧" / "the first one then": the item picked is taken (booked, or added to the plan)
        )
    elif BOOK.search(text) and (p.ordinal or p.refers or p.day or any(e[1] in DOMAINS for e in p.entities)):
        p.intent = "book"
    elif TALLY.search(text) and not (p.domain and p.request and not re.search(r"预算|budget|spent|花", text)):
        p.intent = "tally"
    elif (
        METRO_Q.search(text)
        or (METRO.search(text) and not NEAR_METRO.search(text))
        or ROUTE.search(text)
        or names_a_route(text)  # "那从雍和宫到王府井呢？": a way from one place to another, asked elliptically
    ):
        # "从那里坐地铁去天坛方便吗": the way asked is no wish for a station nearby later
        p.intent, p.constraints = "metro", [c for c in cons if c.slot != "near_metro" or not ROUTE.search(text)]
    elif p.domain and (
        p.request
        or not (cons or lifts)  # a diet lifted is said, like a constraint: no search unless one is asked for
        or not (PREFER.search(text) or FIRST_PERSON.search(text) or is_change(text) or party_told(cons, text))
    ):
        target = [e for e in p.entities if e[1] == p.domain]
        p.intent = "info" if target and not NEAR.search(text) else "search"
    elif p.request and any(e[1] in DOMAINS for e in p.entities):
        p.domain = next(e[1] for e in p.entities if e[1] in DOMAINS)
        p.intent = "search" if NEAR.search(text) else "info"  # "something near the Forbidden City": around it
    elif GREETING.match(text) or (CLOSING.search(text) and not p.constraints and not p.request):
        p.intent = "greeting"
    elif p.ordinal and not cons and not p.entities and names_one(GREETING_WORDS.sub("", text), lang):
        p.intent = "info"  # "第二个" / "2nd one" / "第二个怎么样": that item of the latest list, looked up
    return p
