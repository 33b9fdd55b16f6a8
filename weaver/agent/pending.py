"""A pick waiting for its dates: "第一家吧" -> "几号入住、住几晚？" -> "6月1号入住3晚" books the hotel picked.

The reply that asks for the dates records what it waits for (its meta ``awaiting``: the item and its kind);
the next message that gives dates and asks for nothing else completes that booking, as "订这个" would have with
the dates known. A message that asks for something else ("6月1号入住，再帮我找找别的酒店") is read as it stands.

>>> from weaver.agent.understanding import parse
>>> wait = awaiting("北京饭店", "hotel")
>>> p = parse("June 1 for 3 nights")
>>> completes_pick(p, wait), p.intent, p.entities
(True, 'book', [('北京饭店', 'hotel')])
>>> completes_pick(parse("6月1号入住3晚，再帮我找找别的酒店"), wait), completes_pick(parse("帮我找王府井附近的酒店"), wait)
(False, False)
"""

from __future__ import annotations

from .intent_cues import BOOK
from .understanding import DOMAINS, Parsed

__all__ = ["awaiting", "completes_pick"]


def awaiting(name: str, domain: str) -> dict:
    """What a reply asking for the dates of a pick waits for (kept in its memory's meta)."""
    return {"missing": "dates", "name": name, "domain": domain}


def completes_pick(p: Parsed, wait: dict | None) -> bool:
    """Does ``p`` answer the question ``wait`` records? If so, ``p`` becomes the booking of that item."""
    if not wait or wait.get("missing") != "dates" or not wait.get("name"):
        return False
    dates = any(c.slot == "dates" for c in p.constraints)
    elsewhere = any(e[1] in DOMAINS for e in p.entities) or p.domain not in (None, wait.get("domain"))
    asks_other = p.request and not BOOK.search(p.text)  # "6月1号入住，帮我找..." asks for a search; "帮我订吧" books
    if not dates or elsewhere or asks_other or p.more or p.city or p.intent not in ("search", "statement", "book"):
        return False
    p.intent, p.domain, p.ordinal, p.refers = "book", str(wait.get("domain") or "hotel"), None, False
    p.entities = [*p.entities, (str(wait["name"]), p.domain)]
    return True
