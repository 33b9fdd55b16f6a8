"""Which Beijing district each row of the database is in, read from the data: the address names it ("北京市海淀区…");
a row whose address does not (a street and number only) takes the district most rows at its metro station name.

A search "near" a district ("海淀的酒店", "sights in Haidian") keeps the rows in it, rather than the places whose
name holds the word (基督教海淀堂). Rows with neither an address district nor a station shared with rows that have
one are in no district (said in docs/agent.md: 302 of 2,549).

>>> district_of("故宫"), district_of("颐和园")
('东城区', '海淀区')
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from functools import lru_cache

from .db import load_database, station_of
from .lexicon import DISTRICTS_EN

__all__ = ["district_of", "is_district"]

# the district at the head of an address, after the city ("北京市海淀区…", "北京朝阳区…", "海淀区…")
_HEAD = re.compile(r"(?:中国)?(?:北京(?:市)?)?\s*([\u4e00-\u9fff]{2,3}?区)")


@lru_cache(maxsize=1)
def _districts() -> dict[str, str]:
    db = load_database()
    rows = [r for dom in ("hotel", "restaurant", "attraction") for r in db.table(dom)]
    said: dict[str, str] = {}
    for r in rows:
        m = _HEAD.match(r.get("地址") or "")
        if m and m.group(1) in DISTRICTS_EN:
            said[r["名称"]] = m.group(1)
    at_station: dict[str, Counter] = defaultdict(Counter)
    for r in rows:
        station = station_of(r.get("地铁"))
        if station and r["名称"] in said:
            at_station[station][said[r["名称"]]] += 1
    out = dict(said)
    for r in rows:
        station = station_of(r.get("地铁"))
        if r["名称"] not in out and station and at_station[station]:
            out[r["名称"]] = at_station[station].most_common(1)[0][0]
    return out


def district_of(name: str) -> str | None:
    """The district of a database row (by its name), None when the data does not place it."""
    return _districts().get(name)


def is_district(place: str | None) -> bool:
    return bool(place) and place in DISTRICTS_EN
