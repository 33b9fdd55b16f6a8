"""How long a sight's visit may take, as a message asks: "游玩时间短一点的", "2小时以内能逛完", and a walk a visitor
cannot make ("我妈妈走不了太多路", "my mother can't walk much").

The data's 游玩时间 (visit time) is the one field about it: a number said is a ceiling on it (``max_hours``); a
short visit asked without one ranks the shortest first (``sort="hours"``, said); the data has no walking or access
field, so a limited walk gets the shortest visits as the nearest thing it has, and the reply says so.

>>> read_visit("推荐几个游玩时间短一点的景点"), read_visit("my mother can't walk much"), read_visit("2小时以内能逛完的景点")
(('short', None), ('walk', None), (None, 2.0))
"""

from __future__ import annotations

import re

from ..numerals import small_number

__all__ = ["read_visit"]

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
# "2小时以内能逛完" / "within 2 hours": a visit's most hours
WITHIN_HOURS = re.compile(
    r"(\d+(?:\.\d+)?|[一二两三四五六])\s*个?(?:半)?小时(?:以内|之内|内)|\b(?:within|under|less than|at most) (\d+(?:\.\d+)?) "
    r"hours?\b",
    re.I,
)


def read_visit(text: str) -> tuple[str | None, float | None]:
    """(``"walk"`` / ``"short"`` / None, the most hours a visit may take, when said)."""
    m = WITHIN_HOURS.search(text)
    hours = None
    if m:
        said = m.group(1) or m.group(2)
        hours = float(said) if said[0].isdigit() else float(small_number(said) or 0) or None
        if hours is not None and "半小时" in m.group(0):
            hours += 0.5
    kind = "walk" if LIMITED_WALK.search(text) else "short" if SHORT_VISIT.search(text) else None
    return kind, hours
