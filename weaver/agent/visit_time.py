"""How long a sight's visit may take, as a message asks: "游玩时间短一点的", "2小时以内能逛完", and a walk a visitor
cannot make ("我妈妈走不了太多路", "my mother can't walk much").

The data's 游玩时间 (visit time) is the one field about it: a number said is a ceiling on it (``max_hours``); a
short visit asked without one ranks the shortest first (``sort="hours"``, said); the data has no walking or access
field, so a limited walk gets the shortest visits as the nearest thing it has, and the reply says so.

>>> read_visit("推荐几个游玩时间短一点的景点"), read_visit("my mother can't walk much"), read_visit("2小时以内能逛完的景点")
(('short', None), ('walk', None), (None, 2.0))
>>> read_visit("我只有一个小时"), read_visit("I only have an hour"), read_visit("we have 3 days")
((None, 1.0), (None, 1.0), (None, None))
"""

from __future__ import annotations

import re

from ..numerals import small_number

__all__ = ["read_visit", "read_walk_limit"]

# "游玩时间短一点的景点" / "sights that don't take long": shortest visits first (the data's 游玩时间)
SHORT_VISIT = re.compile(
    r"(?:游玩|参观|游览|逛的?)时间(?:要|比较|稍微)?短|时间短一?[点些]|不用(?:逛|玩|花)?太久|不要(?:逛|玩|花)?太久|别(?:逛|玩)?太久|"
    r"很快(?:就)?能?逛完|\b(?:short|quick) (?:visits?|stops?|ones?)\b|\b(?:do(?:es)?n't|do(?:es)? not|won't|will not) "
    r"take (?:too |very |that )?long\b|\bnot take (?:too |very )?long\b|\bquick to (?:see|visit|do)\b",
    re.I,
)
# "我妈妈走不了太多路" / "my mother can't walk much": the data has no walking or access field; the shortest visits
# are offered as the nearest it has, and the reply says so
LIMITED_WALK = re.compile(
    r"走不了(?:太多|很多|多少|太远|远)?路?|不能走(?:太多|很多|太远|远)路?|走不动|腿脚不(?:好|便|方便|太好)|"
    r"不想走(?:太多|很多)?路|少走路|行动不便|坐轮椅|\b(?:can(?:no|')?t|cannot|unable to|not able to) walk "
    r"(?:much|far|a lot|long|very far)\b|\blimited (?:walking|mobility)\b|\b(?:not|without) (?:too )?much walking\b|"
    r"\bwheelchair\b",
    re.I,
)
# "2小时以内能逛完" / "within 2 hours" / "我只有一个小时" / "I only have an hour": a visit's most hours
WITHIN_HOURS = re.compile(
    r"(?:只有|只剩|就|最多|顶多|不超过|不到)\s*(\d+(?:\.\d+)?|[一二两三四五六])\s*个?(?:半)?(?:小时|钟头)|"
    r"(\d+(?:\.\d+)?|[一二两三四五六])\s*个?(?:半)?小时(?:以内|之内|内)|"
    r"\b(?:within|under|less than|at most|no more than|only (?:have|got)|(?:have|got) only|just have)\s+(?:about\s+)?"
    r"(\d+(?:\.\d+)?|an?|one|two|three|four|five|six)\s+hours?\b",
    re.I,
)


def read_visit(text: str) -> tuple[str | None, float | None]:
    """(``"walk"`` / ``"short"`` / None, the most hours a visit may take, when said)."""
    m = WITHIN_HOURS.search(text)
    hours = None
    if m:
        said = next(g for g in m.groups() if g)
        said = "1" if said.lower() in ("a", "an") else said
        hours = float(said) if said[0].isdigit() else float(small_number(said) or 0) or None
        if hours is not None and "半小时" in m.group(0):
            hours += 0.5
    kind = "walk" if LIMITED_WALK.search(text) else "short" if SHORT_VISIT.search(text) else None
    return kind, hours


_N = r"(\d+|[一二两三四五六七八九十]+|[a-z]+)"
# "步行别超过十分钟" / "走路十分钟以内" / "I don't want to walk more than 10 minutes" / "within a 10-minute walk": the
# longest walk the user accepts (the data has no walking times: searches keep to places listed right next to the
# place asked, said in the reply)
WALK_LIMIT = re.compile(
    r"(?:步行|走路|走)(?:时间)?(?:最好)?(?:别|不要|不想|不能|不用|不超过|别超过|不要超过|最多|控制在|在)?(?:超过|多于|超出|走)?"
    r"\s*" + _N + r"\s*分钟|" + _N + r"\s*分钟(?:以内|之内|内)?的?(?:步行|走路)(?:距离|路程)?(?:以内|之内|内)?|"
    r"\bwalk(?:ing)?\s+(?:for\s+)?(?:more than|over|longer than|at most|no more than|under|less than|about)\s+"
    + _N
    + r"\s*min(?:ute)?s?\b|\b"
    + _N
    + r"[- ]min(?:ute)?s?'?\s+walk",
    re.I,
)


def read_walk_limit(text: str) -> int | None:
    """The most minutes the user will walk, when said.

    >>> read_walk_limit("步行别超过十分钟"), read_walk_limit("I don't want to walk more than 10 minutes.")
    (10, 10)
    >>> read_walk_limit("酒店离地铁走路5分钟以内"), read_walk_limit("within a fifteen-minute walk"), read_walk_limit("walk")
    (5, 15, None)
    """
    m = WALK_LIMIT.search(text)
    if not m:
        return None
    said = next(g for g in m.groups() if g)
    n = int(said) if said.isdigit() else small_number(said)
    return n if n and 0 < n <= 120 else None
