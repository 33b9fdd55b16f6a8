"""The plan follows the trip: a booking made under dates or a party size the user has since changed is made
again under the new ones ("我们想改成6月9号入住" after a hotel was booked for 6-8, 3 nights; "actually 4 of us
now" after a meal was added for 3; "我们又多了两个人" after a stay booked for two: the rooms the party now needs,
``tool_models.ROOM_SLEEPS`` to a room), and the new booking supersedes the old one in memory.

Pure: the caller runs the calls (the same tools, so the budget is checked again) and, for each that succeeds,
marks the old booking's memory superseded by the new one.

>>> from weaver.agent.understanding import Constraint
>>> hotel = {"kind": "hotel", "name": "H", "check_in": "6-8", "nights": 3, "node_id": "b1"}
>>> meal = {"kind": "restaurant", "name": "R", "people": 4, "node_id": "b2", "day": 2}
>>> stated = [Constraint("dates", {"check_in": "6-9", "check_out": "6-11", "nights": 2}), Constraint("people", 3)]
>>> [(old["node_id"], tool, args) for old, tool, args in rebookings(stated, [hotel, meal], 9000.0)]
[('b1', 'book_hotel', {'name': 'H', 'check_in': '6-9', 'nights': 2, 'rooms': 2, 'budget': 9000.0}), ('b2', 'add_to_plan', {'kind': 'restaurant', 'name': 'R', 'people': 3, 'day': 2, 'budget': 9000.0})]
>>> rebookings([Constraint("dates", {"check_in": "6-8", "nights": 3})], [hotel], None)  # nothing changed
[]
>>> rebookings([Constraint("people", 4)], [hotel], None)  # a party of 4 needs two rooms: the stay is booked again
[({'kind': 'hotel', 'name': 'H', 'check_in': '6-8', 'nights': 3, 'node_id': 'b1'}, 'book_hotel', {'name': 'H', 'check_in': '6-8', 'nights': 3, 'rooms': 2})]
"""

from __future__ import annotations

from .reply_phrases import date_said, en_count, en_date
from .tool_models import rooms_for

__all__ = ["rebookings", "rebook_text"]


def rebookings(stated: list, plan_items: list[dict], budget: float | None) -> list[tuple[dict, str, dict]]:
    """``(old plan item, tool, arguments)`` for each booking this message's dates or party size changes."""
    dates = next((c.value for c in reversed(stated) if c.slot == "dates" and isinstance(c.value, dict)), None)
    people = next((c.value for c in reversed(stated) if c.slot == "people"), None)
    out = []
    for item in plan_items:
        stay = dates if dates and dates.get("check_in") and dates.get("nights") else None
        # the rooms the party now needs (the rooms booked when no party is said)
        rooms = rooms_for(people) if people else int(item.get("rooms") or 1)
        if item.get("kind") == "hotel" and (stay or rooms != int(item.get("rooms") or 1)):
            stay = stay or {"check_in": item.get("check_in"), "nights": item.get("nights")}
            if (str(item.get("check_in")), item.get("nights"), int(item.get("rooms") or 1)) == (
                str(stay["check_in"]),
                stay["nights"],
                rooms,
            ):
                continue
            args: dict = {"name": item["name"], "check_in": stay["check_in"], "nights": stay["nights"]}
            if rooms > 1:
                args["rooms"] = rooms
        elif item.get("kind") in ("restaurant", "attraction") and people and item.get("people") != people:
            args = {"kind": item["kind"], "name": item["name"], "people": people}
            if item.get("day"):
                args["day"] = item["day"]
            if item.get("meal"):
                args["meal"] = item["meal"]
        else:
            continue
        if budget:
            args["budget"] = budget
        out.append((item, "book_hotel" if item["kind"] == "hotel" else "add_to_plan", args))
    return out


def rebook_text(old: dict, ok: bool, lang: str, money) -> str:
    """What the reply says about one booking made again (``money``: the reply's money format)."""
    zh = lang == "zh"
    if old.get("kind") == "hotel":
        rooms = int(old.get("rooms") or 1)
        was = (
            f"原来{date_said(old.get('check_in'), lang)}入住{old.get('nights')}晚，{rooms}间，{money(old.get('cost'))}"
            if zh
            else f"was check-in {en_date(old.get('check_in'))}, {en_count(old.get('nights'), 'night', 'nights')}, "
            f"{en_count(rooms, 'room', 'rooms')}, {money(old.get('cost'))}"
        )
    else:
        was = (
            f"原来{old.get('people')}人，{money(old.get('cost'))}"
            if zh
            else f"was {en_count(old.get('people'), 'person', 'people')}, {money(old.get('cost'))}"
        )
    if ok:
        return f"（行程已按新的安排更新；{was}。）" if zh else f"(Your plan is updated to match; it {was}.)"
    return (
        f"（按新的安排没能更新行程，原来的预订还在：{was}。）"
        if zh
        else f"(I could not update the plan to match, so the old booking stays: it {was}.)"
    )
