"""Planning one search: where to look (and where to widen to), and the arguments memory and the message set.

Pure like the planner it serves: besides the static database (a place's metro station, the prices of what was
offered), everything arrives as arguments.
"""

from __future__ import annotations

from typing import cast

from .db import load_database, station_of
from .districts import is_district
from .intent_cues import SIGHT_NOUN
from .list_answers import CHEAPEST
from .memory import Known
from .plan_calls import AROUND, Call, TurnPlan
from .tools import resolve_place
from .understanding import Constraint, Parsed

__all__ = ["search_call", "widening"]


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


def _elliptical(p: Parsed) -> bool:
    """A question that names no sight, kind of sight or place of its own ("有没有能逛完的？"): it asks of the list
    just shown."""
    return not (p.entities or p.unplaced or SIGHT_NOUN.search(p.text))


def _station_of(place: str) -> str | None:
    """The metro station of a database place ("天安门广场" -> "灯市口地铁站"), None for areas and unknowns."""
    db = load_database()
    row = db.by_name.get(resolve_place(db, place) or "")
    return station_of(row.get("地铁")) if row else None


def search_call(
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
    # "步行别超过十分钟": no wider ring than the place's own neighbours (said); a district is no point to walk from
    # (a walking limit said of the dinner near 王府井 cut a hotel search "in 海淀" to what the data lists beside it)
    if not is_district(str(args.get("near") or "")):
        take("walk", "walk_minutes")
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
        elif previous and shown and next(iter(shown)) == "attraction" and not p.more and _elliptical(p):
            # "有没有能逛完的？" / "Which can I see in that time?" right after museums: of the kind just listed
            kept = previous["arguments"].get("kind")
            if kept:
                args["kind"] = kept
        if p.max_hours:  # "2小时以内能逛完": the data's visit time (游玩时间), this search only
            args["max_hours"] = p.max_hours
        if p.visit:  # "游玩时间短一点" / "走不了太多路": the shortest visits first (the reply says so)
            args["sort"] = "hours"
    if p.count:
        args["limit"] = p.count
    if CHEAPEST.search(p.text) or (p.caveat == "no_hostel_type" and domain == "hotel"):
        # "帮我找最便宜的酒店" / "the cheapest hotel" (asked this turn, not remembered); "青旅": the data has no
        # hostels, so the cheapest hotels are what comes nearest (the reply says so)
        args["sort"] = "price"
    priced = {"hotel": "price", "restaurant": "cost", "attraction": "ticket"}[domain]
    # a number said, or a hotel class ("a cheap hotel" is 经济型, the data's own price class): no second cut
    said_price = any(c.slot in (priced, "budget", "hotel_type") for c in p.constraints)
    nothing_offered = not (previous and previous["offered"])
    # "别太贵" said now or before (remembered): a number said for this kind of place since outranks it
    pricey = slots.get("not_pricey")
    numbered = [c for s, c in slots.items() if s in (priced, "hotel_type")]
    if pricey is not None and any(c.turn >= pricey.turn for c in numbered):
        pricey = None
    if (pricey or (p.cheaper and nothing_offered)) and not said_price and "sort" not in args:
        # "别太贵" / "nothing too expensive" (or "便宜点的" before anything was offered): no number said, so none is
        # made up; the cheaper half of what fits is kept (the reply says where the cut fell)
        args["cheaper_half"] = True
        if pricey is not None:
            used.append(pricey)
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
            args.pop("cheaper_half", None)  # a ceiling under what was offered: no second, vaguer cut
    return Call(
        f"search_{domain}s" if domain != "attraction" else "search_attractions",
        args,
        widening(
            domain,
            places or [Constraint("place", args[k]) for k in ("near",) if k in args],
            from_memory,
            walk="walk_minutes" in args,
        ),
    )


def widening(domain: str, places: list[Constraint], from_memory: bool, walk: bool = False) -> list[Constraint]:
    """Where to look next when nothing fits at the place, nearest first; only the place is ever widened.

    The other places named, then (for a stay, which must be found somewhere) the place's own metro
    station, then a wider ring around it (places near its nearby places) and around the other places, then,
    for a remembered place or a stay, anywhere in Beijing. The reply says where it looked. A walking limit
    (``walk``) stops at the other places named: a wider ring is further than the user will walk.
    """
    if not places:
        return []
    first = places[0].value
    steps = list(places[1:])
    if walk:
        return steps
    if domain == "hotel":
        steps += [Constraint("place", s) for s in [_station_of(str(first))] if s]
    steps.append(Constraint(AROUND, first))
    # a hotel's few listed neighbours can miss what its area has: the area's ring before all of Beijing
    steps += [Constraint(AROUND, c.value) for c in places[1:] if c.value and c.value != first]
    if from_memory or domain == "hotel":
        steps.append(Constraint("place", None))
    return steps
