"""Offline planning: the parsed message + constraints from memory -> tool calls with their arguments.

Pure: everything it knows arrives as arguments (the parse, the constraints read
from retrieved memory, the plan's items and the last results shown, both read
from the weaver by the caller). This module decides what a turn does (book, look
up, route, remove, tally...); a search's arguments and its widening steps are
planned in ``search_plan``, and the two records they share live in ``plan_calls``.

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

from collections.abc import Callable
from typing import cast

from .intent_cues import meal_by_time
from .memory import Known
from .plan_calls import AROUND, Call, TurnPlan
from .route_order import route_order
from .search_plan import search_call
from .tool_models import rooms_for
from .understanding import Constraint, Parsed

__all__ = ["AROUND", "Call", "TurnPlan", "plan_turn"]


def _planned(items: list[dict], kind: str | None, name: str, same: Callable[[dict], bool]) -> bool:
    """Whether the plan holds ``name`` as a ``kind`` item that ``same`` says is the one asked for again."""
    return any(i.get("kind") == kind and i.get("name") == name and same(i) for i in items)


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
    # "dinner on day 2" / "第二天晚上去": the meal a restaurant is taken for (a time of day names one)
    meal = (p.meal or meal_by_time(p.text)) if domain == "restaurant" else None
    if domain != "hotel" and _planned(
        plan_items, domain, target, lambda i: i.get("day") == p.day and (meal is None or i.get("meal") == meal)
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
        stay = (value["check_in"], value["nights"])
        if _planned(plan_items, "hotel", target, lambda i: (i.get("check_in"), i.get("nights")) == stay):
            # "let's go with the first one" again: the same stay is in the plan, said rather than booked twice
            tp.missing.append("already")
            return
        tp.used.append(dates)
        args = {"name": target, "check_in": value["check_in"], "nights": value["nights"]}
        if people and rooms_for(people.value) > 1:  # a party of 4: two rooms (the reply says how they were counted)
            args["rooms"] = rooms_for(people.value)
            tp.used.append(people)
    else:
        args = {"kind": domain, "name": target}
        if people:
            args["people"] = people.value
            tp.used.append(people)
        if p.day:  # "加到第二天的行程里": the day it is for
            args["day"] = p.day
        if meal:
            args["meal"] = meal
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
        tp.calls.append(search_call(p, known, p.domain, plan_items, tp, previous, last_shown))
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
                r"从(?:我们?的?)?(?:酒店|宾馆|住的地方)|\b(?:from |is )?(?:the|our|my) hotel\b|(?:我们?的|我们?住的|订的)酒店",
                p.text,
                re.I,
            )
        ):
            referred = [booked]  # "from the hotel to the Summer Palace": the hotel booked
        if not referred and shown and re.search(r"附近|周边|旁边|nearby|near (?:it|there|here)", p.text, re.IGNORECASE):
            referred = [shown[0]]  # "附近有地铁站吗？": near what was just shown
        named = route_order(p.text, named)  # "去香山，从建国门出发": from 建国门, whichever was named first
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
