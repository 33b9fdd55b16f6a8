"""Offline planning: the parsed message + constraints from memory -> tool calls with their arguments.

Pure: besides the static database (a place's metro station), everything it
knows arrives as arguments (the parse, the constraints read from retrieved
memory, the plan's items and the last results shown, both read from the weaver
by the caller).

>>> from weaver.agent.understanding import parse
>>> from weaver.agent.memory import Known, read_constraints, MemoryItem
>>> mem = read_constraints([MemoryItem("n1", "我对海鲜过敏", "user_input", 2)])
>>> plan = plan_turn(parse("推荐一家王府井附近的餐厅"), mem)
>>> plan.calls[0].tool, plan.calls[0].arguments["avoid"], plan.calls[0].arguments["near"]
('search_restaurants', ['seafood'], '王府井')
>>> [(c.slot, c.node_id) for c in plan.used]  # the place is this message's own
[('place', ''), ('avoid', 'n1')]
"""

from __future__ import annotations

import re

from dataclasses import dataclass, field
from typing import cast

from .db import load_database, station_of
from .list_answers import CHEAPEST
from .memory import Known
from .tools import resolve_place
from .understanding import Constraint, Parsed

__all__ = ["AROUND", "Call", "TurnPlan", "plan_turn"]

AROUND = "place_around"  # a widening step: the same place, a wider ring around it


@dataclass
class Call:
    tool: str
    arguments: dict
    # places to retry with when nothing matches near the first (None: anywhere), only for remembered places
    fallbacks: list = field(default_factory=list)


@dataclass
class TurnPlan:
    intent: str
    domain: str | None
    calls: list[Call] = field(default_factory=list)
    used: list[Constraint] = field(default_factory=list)  # constraints applied, with their memory node ids
    stated: list[Constraint] = field(default_factory=list)  # constraints in this message
    missing: list[str] = field(default_factory=list)  # what is needed but unknown (e.g. dates)
    target: str | None = None  # the row a booking / info refers to
    follows: str | None = None  # "another one": the earlier search result this search continues
    carried: list[str] = field(default_factory=list)  # constraints that set the followed search too: reached through it
    cheaper_than: float | None = None  # "something cheaper": under the cheapest offered so far in the topic
    remove: dict | None = None  # the plan item a "remove" takes out (its memory node is retracted)


def _places(
    p: Parsed, known: Known, domain: str, plan_items: list[dict], shown: dict[str, list[str]] | None = None
) -> list[Constraint]:
    """Where to search, best first: the message's own place; "near the hotel": the hotel chosen, else the
    one just shown when it was the only one; else the same topic's place from memory, the chosen hotel and
    the hotel's area (for meals and sights), then any place mentioned."""
    cur = [c for c in p.constraints if c.slot == "place"]
    if cur:
        return [cur[-1]]
    out: list[Constraint | None] = []
    if p.near_kind == "last":
        other = next(((d, names) for d, names in (shown or {}).items() if d != domain and names), None)
        if other:
            out.append(Constraint("place", other[1][0], other[0]))
    elif p.near_kind:
        chosen = next((i for i in reversed(plan_items) if i.get("kind") == p.near_kind), None)
        only = (shown or {}).get(p.near_kind) or []
        at = (p.ordinal or 1) - 1
        if p.ordinal and at < len(only):  # "第二个景点附近的酒店": the second of the sights shown
            out.append(Constraint("place", only[at], p.near_kind))
        elif chosen:
            out.append(
                Constraint("place", chosen["name"], p.near_kind, chosen.get("turn", 0), chosen.get("node_id", ""))
            )
        elif len(only) == 1:
            out.append(Constraint("place", only[0], p.near_kind))
    if p.near_latest:  # "附近有什么景点" after "王府井附近的餐厅": there, not the sights' own older place
        out.append(known.place_talked_about_last(plan_items))
    out.append(known.latest("place", (domain,)))
    if domain in ("restaurant", "attraction"):
        hotel = next((i for i in reversed(plan_items) if i.get("kind") == "hotel"), None)
        if hotel:
            out.append(Constraint("place", hotel["name"], "hotel", hotel.get("turn", 0), hotel.get("node_id", "")))
        out.append(known.latest("place", ("hotel",)))
    out.append(known.latest("place", ("any",)))
    seen, uniq = set(), []
    for c in out:
        if c is not None and c.value not in seen:
            seen.add(c.value)
            uniq.append(c)
    return uniq


def _station_of(place: str) -> str | None:
    """The metro station of a database place ("天安门广场" -> "灯市口地铁站"), None for areas and unknowns."""
    db = load_database()
    row = db.by_name.get(resolve_place(db, place) or "")
    return station_of(row.get("地铁")) if row else None


def _search(
    p: Parsed,
    known: Known,
    domain: str,
    plan_items: list[dict],
    tp: TurnPlan,
    previous: dict | None = None,
    shown: dict[str, list[str]] | None = None,
) -> Call:
    slots = known.for_domain(domain)
    args: dict = {}
    used = tp.used

    def take(slot: str, key: str | None = None, value=None) -> None:
        c = slots.get(slot)
        if c is not None:
            args[key or slot] = c.value if value is None else value
            used.append(c)

    places = _places(p, known, domain, plan_items, shown)
    from_memory = bool(places) and not any(places[0] is c for c in p.constraints)
    if places:
        args["near"] = places[0].value
        used.append(places[0])
    take("rating")
    take("near_metro")
    # the trip frame applies to every search: the total budget caps what a row may cost, for the party
    total = known.latest("budget", ("any",))
    if total is not None:
        args["budget"] = total.value
        used.append(total)
    people = known.latest("people", ("any",))
    if people is not None:
        args["people"] = people.value
        used.append(people)
    if domain == "hotel":
        dates = known.latest("dates", ("any", "hotel"))
        # a dates constraint's value is its dict (check_in / check_out / nights)
        if dates is not None and cast(dict, dates.value).get("nights"):
            args["nights"] = cast(dict, dates.value)["nights"]
            used.append(dates)
        take("price")
        take("hotel_type")
        take("facilities")
        take("quiet")
    elif domain == "restaurant":
        take("cost")
        avoid, by = known.avoid()
        avoid += [t for t in p.asked_avoid if t not in avoid]  # "有素食的吗": this search only, no diet recorded
        if avoid:
            args["avoid"] = avoid
            used.extend(by)
        if p.dishes:
            args["dishes"] = p.dishes
        if p.cuisines:  # asked this turn, like a dish (the name is read: the data has no cuisine field)
            args["cuisine"] = p.cuisines
        if p.meal:
            args["meal"] = p.meal
    else:
        take("ticket")
        if p.kind:  # "any museum?": a kind of sight, asked this turn
            args["kind"] = p.kind
    if p.count:
        args["limit"] = p.count
    if CHEAPEST.search(p.text):  # "帮我找最便宜的酒店" / "the cheapest hotel": asked this turn, not remembered
        args["sort"] = "price"
    if p.more and previous:  # "another one": the same search, what it did not restate kept, the offered left out
        kept = {k: v for k, v in previous["arguments"].items() if k not in ("name", "exclude") and k not in args}
        if "avoid" in kept:  # a food lifted since ("其实不用吃素了") is no longer left out
            kept["avoid"] = [t for t in kept["avoid"] if t not in known.lifted] or None
            kept = {k: v for k, v in kept.items() if v is not None}
        args.update(kept)
        from_memory = from_memory or (not places and "near" in args)
        if previous["offered"]:
            args["exclude"] = list(previous["offered"])
        # its arguments set some of this call's, or its offers (exclude) do: this call continues that search, and
        # the constraints that set both calls reach this one through it (declared once, not stacked on both)
        if kept or previous["offered"]:
            tp.follows = previous["node_id"]
            through = set(previous.get("set_by") or [])
            tp.carried = [c.node_id for c in used if c.node_id and c.node_id in through]
    if p.cheaper and previous and previous["offered"]:
        # "something cheaper": under the cheapest place offered so far in this topic, the others left out
        field_of = {"hotel": ("价格", "price"), "restaurant": ("人均消费", "cost"), "attraction": ("门票", "ticket")}
        col, key = field_of[domain]
        db = load_database()
        listed = [db.by_name[n].get(col) for n in previous["offered"] if n in db.by_name]
        paid = [float(x) for x in listed if isinstance(x, (int, float)) and x > 0]
        if paid:
            cheapest = min(paid)
            tp.cheaper_than = cheapest
            args[key] = f"0-{max(0.0, cheapest - 1):g}"
            args["exclude"] = list(previous["offered"])
    return Call(
        f"search_{domain}s" if domain != "attraction" else "search_attractions",
        args,
        _widening(domain, places or [Constraint("place", args[k]) for k in ("near",) if k in args], from_memory),
    )


def _widening(domain: str, places: list[Constraint], from_memory: bool) -> list[Constraint]:
    """Where to look next when nothing fits at the place, nearest first; only the place is ever widened.

    The other places named, then (for a stay, which must be found somewhere) the place's own metro
    station, then a wider ring around it (places near its nearby places) and around the other places, then,
    for a remembered place or a stay, anywhere in Beijing. The reply says where it looked.
    """
    if not places:
        return []
    first = places[0].value
    steps = list(places[1:])
    if domain == "hotel":
        steps += [Constraint("place", s) for s in [_station_of(str(first))] if s]
    steps.append(Constraint(AROUND, first))
    # a hotel's few listed neighbours can miss what its area has: the area's ring before all of Beijing
    steps += [Constraint(AROUND, c.value) for c in places[1:] if c.value and c.value != first]
    if from_memory or domain == "hotel":
        steps.append(Constraint("place", None))
    return steps


def _book(p: Parsed, known: Known, plan_items: list[dict], last_shown: dict[str, list[str]], tp: TurnPlan) -> None:
    target, domain = None, p.domain
    named = [e for e in p.entities if e[1] in ("hotel", "restaurant", "attraction")]
    if named:
        target, domain = named[-1][0], named[-1][1]
    else:
        # "add it for day 2 dinner" with no meal shown: which one is unknown (never the hotel shown before)
        order = [domain] if domain in last_shown else [] if domain in ("restaurant", "attraction") else list(last_shown)
        for d in order:
            names = last_shown.get(d) or []
            if not p.ordinal and p.refers and len(names) > 1:  # "那就这家吧" after several, none singled out since:
                tp.domain, tp.missing = d, ["pick"]  # which one is asked back, not guessed
                return
            if (p.ordinal or 1) <= len(names):
                target, domain = names[(p.ordinal or 1) - 1], d
                break
    tp.domain, tp.target = domain, target
    if target is None:
        # "book the second one" when one was shown: say what was shown rather than "which one?"
        tp.missing.append("beyond" if p.ordinal and p.ordinal > 1 and any(last_shown.values()) else "target")
        return
    slots = known.for_domain(domain)
    budget = slots.get("budget")
    people = slots.get("people")
    if domain != "hotel" and any(
        i.get("name") == target and i.get("kind") == domain and i.get("day") == p.day for i in plan_items
    ):  # "把颐和园加到第一天" when it is on day 1 already: said, not added twice
        tp.missing.append("already")
        return
    if budget:
        tp.used.append(budget)
    if domain == "hotel":
        dates = slots.get("dates")
        value = cast(dict, dates.value) if dates else {}  # a dates constraint's value is its dict
        if dates is None or not value.get("check_in") or not value.get("nights"):
            tp.missing.append("dates")
            return
        tp.used.append(dates)
        args = {"name": target, "check_in": value["check_in"], "nights": value["nights"]}
    else:
        args = {"kind": domain, "name": target}
        if people:
            args["people"] = people.value
            tp.used.append(people)
        if p.day:  # "加到第二天的行程里": the day it is for
            args["day"] = p.day
    if budget:
        args["budget"] = budget.value
    tp.calls.append(Call("book_hotel" if domain == "hotel" else "add_to_plan", args))


def plan_turn(
    p: Parsed,
    known: Known,
    plan_items: list[dict] | None = None,
    last_shown: dict[str, list[str]] | None = None,
    previous: dict | None = None,
) -> TurnPlan:
    """Decide the tool calls for one message. ``known`` holds memory's constraints plus this message's.

    ``previous``: the latest search of the message's topic (``node_id``, ``arguments``) and the names
    ``offered`` in that topic so far, for "find me another one"."""
    plan_items = plan_items or []
    tp = TurnPlan(p.intent, p.domain, stated=list(p.constraints))
    # this message's own constraints are the newest
    held = known.constraints + list(p.constraints)
    known = Known(held, known.wishes, known.lifted - set(Known(held).avoid()[0]))  # avoided again: not lifted
    if p.intent == "search" and p.domain and p.unplaced:
        tp.missing.append("unplaced")  # "near the Bund": said, not searched all over Beijing instead
    elif p.intent == "search" and p.domain:
        tp.calls.append(_search(p, known, p.domain, plan_items, tp, previous, last_shown))
    elif p.intent == "has":
        # "第一家有没有停车场？": the hotel chosen or shown that the question points at, looked up by name
        shown = (last_shown or {}).get("hotel") or []
        chosen = next((i["name"] for i in reversed(plan_items) if i.get("kind") == "hotel"), None)
        at = (p.ordinal or 1) - 1
        target = shown[at] if at < len(shown) else (chosen if not p.ordinal else None)
        if target is None:
            tp.missing.append("target")
        else:
            tp.target = target
            tp.calls.append(Call("search_hotels", {"name": target, "limit": 1}))
    elif p.intent == "info" and p.domain:
        listed = (last_shown or {}).get(p.domain) or []
        at = (p.ordinal or 1) - 1
        by_name = next((e[0] for e in p.entities if e[1] == p.domain), None)
        target = by_name or (listed[at] if at < len(listed) else None)  # "第一个景点门票多少？": the one shown
        if target is None:
            tp.missing.append("beyond" if p.ordinal and p.ordinal > 1 and listed else "target")
            return tp
        tp.target = target
        tool = {"hotel": "search_hotels", "restaurant": "search_restaurants", "attraction": "search_attractions"}
        tp.calls.append(Call(tool[p.domain], {"name": target, "limit": 1}))
    elif p.intent == "side":
        names = [e[0] for e in p.entities if e[1] in ("hotel", "restaurant", "attraction", "area")][:4]
        if not names and p.side not in ("evening", "crowd", "weather"):
            # "Is it open on Mondays?" / "这家酒店几点可以入住？": the item shown (by its place in the list), else the
            # hotel booked for a hotel's hours
            table = p.side == "reserve" and re.search(r"\btable\b|订座|订位|订桌", p.text, re.I)
            dom = "hotel" if p.side == "checkin" else "restaurant" if table else p.domain
            shown = (last_shown or {}).get(dom or "") or ([] if dom else next(iter((last_shown or {}).values()), []))
            at = (p.ordinal or 1) - 1
            booked = next((i["name"] for i in reversed(plan_items) if i.get("kind") == "hotel"), None)
            pick = shown[at] if at < len(shown) else (booked if dom == "hotel" else None)
            names = [pick] if pick else []
        tp.calls.append(Call("place_facts", {"names": names, "ask": p.side}))
    elif p.intent == "metro":
        # "从王府井怎么坐地铁去故宫？": each place named gets its station (the route is from one to the other)
        named = list(dict.fromkeys(e[0] for e in p.entities))[:3]
        remembered = known.latest("place", ("any", "hotel", "restaurant", "attraction"))
        # "这家酒店离哪个地铁站近？" / "the second one": the item shown last, not the place searched around
        shown = (last_shown or {}).get(p.domain or "") or next(iter((last_shown or {}).values()), [])
        pick = (p.ordinal or 1) - 1 if (p.refers or p.ordinal) and shown else None
        referred = [shown[pick]] if pick is not None and pick < len(shown) else []
        booked = next((i["name"] for i in reversed(plan_items) if i.get("kind") == "hotel"), None)
        if (
            not referred
            and booked
            and re.search(
                r"从(?:我们的?)?(?:酒店|宾馆|住的地方)|\b(?:from |is )?(?:the|our) hotel\b|(?:我们的|我们住的|订的)酒店",
                p.text,
                re.I,
            )
        ):
            referred = [booked]  # "from the hotel to the Summer Palace": the hotel booked
        if not referred and shown and re.search(r"附近|周边|旁边|nearby|near (?:it|there|here)", p.text, re.IGNORECASE):
            referred = [shown[0]]  # "附近有地铁站吗？": near what was just shown
        places = named or referred or ([str(remembered.value)] if remembered and remembered.value else [])
        if named and referred and referred[0] not in named and re.search(r"从|\bfrom\b", p.text, re.IGNORECASE):
            places = referred + named  # "从这家酒店怎么去颐和园？": from the hotel shown to the place named
        for place in places:
            tp.calls.append(Call("metro_station", {"place": place}))
        if not places:
            tp.missing.append("place")
    elif p.intent == "remove":
        said = {e[0] for e in p.entities}
        in_plan = [i for i in plan_items if i.get("name") in said]
        # "把第二天的故宫删掉": the one on that day when the same place is planned on several
        items = (
            [i for i in in_plan if not p.day or i.get("day") == p.day]
            or in_plan
            or [i for i in plan_items if not p.domain or i.get("kind") == p.domain]
        )
        if items:
            tp.remove = items[-1]
            tp.target = items[-1].get("name")
        else:
            tp.missing.append("plan_item")
    elif p.intent == "book":
        _book(p, known, plan_items, last_shown or {}, tp)
    elif p.intent == "dayplan":
        budget, people = known.latest("budget", ("any",)), known.latest("people", ("any",))
        tp.used += [c for c in (budget, people) if c is not None]
        for day, sight in p.day_plan:
            args = {"kind": "attraction", "name": sight, "day": day}
            if people is not None:
                args["people"] = people.value
            if budget is not None:
                args["budget"] = budget.value
            tp.calls.append(Call("add_to_plan", args))
    elif p.intent == "tally":
        budget = known.latest("budget", ("any",))
        args = {}
        if budget:
            args["budget"] = budget.value
            tp.used.append(budget)
        tp.calls.append(Call("budget_tally", args))
    # dedupe constraints used twice (e.g. a place also counted as a slot)
    uniq: dict[tuple, Constraint] = {}
    for c in tp.used:
        uniq.setdefault((c.slot, c.node_id, str(c.value)), c)
    tp.used = list(uniq.values())
    return tp
