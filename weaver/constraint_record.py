"""A slot key's constraint record and the words it is shown with (zh / en).

:class:`ConstraintRecord` is what :mod:`weaver.constraints` derives from the user's statements: the
current value of one slot key with its provenance and history. This module holds the record itself and how
it reads in a compact line (:meth:`ConstraintRecord.line`, :func:`label`); deriving records lives in
:mod:`weaver.constraints`.

>>> ConstraintRecord("budget/night", "budget", "night", 600.0, "max", "每晚别超过六百", "n1", 1).line("zh")
'每晚房价≤600元'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

__all__ = ["ConstraintRecord", "label"]

# how each key reads in a compact line, per language
_LABELS = {
    "zh": {
        "budget/total": "总预算",
        "budget/night": "每晚房价",
        "budget/person": "人均",
        "budget/ticket": "门票",
        "date/start": "出发/入住",
        "date/end": "离开/退房",
        "party": "人数",
        "nights": "晚数",
        "rating": "评分",
        "location/hotel": "住在",
        "location/restaurant": "吃饭在",
        "location": "地点",
        "hotel_type": "酒店档次",
        "quiet": "安静",
        "diet/style": "饮食",
    },
    "en": {
        "budget/total": "total budget",
        "budget/night": "hotel per night",
        "budget/person": "per person",
        "budget/ticket": "ticket",
        "date/start": "start / check-in",
        "date/end": "leave / check-out",
        "party": "party",
        "nights": "nights",
        "rating": "rating",
        "location/hotel": "stay near",
        "location/restaurant": "eat near",
        "location": "near",
        "hotel_type": "hotel class",
        "quiet": "quiet",
        "diet/style": "diet",
    },
}
_BOUND = {"max": "≤", "min": "≥", "about": "≈", "eq": "", "range": ""}
_DIET_ZH = {
    "spicy": "辣",
    "shellfish": "虾蟹贝类",
    "seafood": "海鲜",
    "peanut": "花生",
    "nuts": "坚果",
    "gluten": "麸质",
    "dairy": "乳制品",
    "egg": "鸡蛋",
    "pork": "猪肉",
    "beef": "牛肉",
    "halal": "清真",
    "meat": "肉",
    "vegetarian": "素食",
    "vegan": "纯素",
    "pescatarian": "只吃鱼素",
}
_HOTEL_TYPES_ZH = {"economy": "经济型", "comfort": "舒适型", "upscale": "高档型", "luxury": "豪华型"}


def label(key: str, lang: str) -> str:
    """The words for a slot key ("budget/night" -> "每晚房价" / "hotel per night")."""
    table = _LABELS["zh" if lang == "zh" else "en"]
    if key in table:
        return table[key]
    slot, _, scope = key.partition("/")
    if slot == "rating":
        return (scope + " " if scope and lang != "zh" else "") + table["rating"]
    if slot == "amenity":
        return "设施" if lang == "zh" else "amenity"
    if slot == "dish":
        return "想吃" if lang == "zh" else "dish"
    if slot == "diet":
        return "忌口" if lang == "zh" else "diet"
    return key


@dataclass
class ConstraintRecord:
    """One slot key's state. ``status``: ``current`` (in force), ``lifted`` (a diet item or style lifted:
    nothing to apply), ``unread`` (an amount said but not readable: kept as text, never a bound)."""

    key: str
    slot: str
    scope: str
    value: float | str | None
    bound: str
    text: str
    node_id: str
    turn: int
    status: str = "current"
    high: float | None = None
    unit: str = ""
    speaker: str | None = None
    message_id: str = ""
    node_status: str = "active"  # the stating node's status (a superseded one holds only when what replaced it is gone)
    history: list[dict] = field(default_factory=list)  # earlier statements, oldest first

    def shown(self) -> str:
        if self.value is None:
            return repr(self.text)
        if isinstance(self.value, float):
            v = f"{self.value:g}"
            if self.bound == "range" and self.high is not None:
                return f"{v}-{self.high:g}"
            return f"{_BOUND.get(self.bound, '')}{v}"
        if self.slot == "diet":
            return ("no " if self.bound == "restrict" else "ok ") + str(self.value)
        return str(self.value)

    def line(self, lang: str) -> str:
        """A compact phrase: "每晚房价≤600元" / "hotel per night ≤600 CNY" / "忌口：海鲜（过敏）"."""
        zh = lang == "zh"
        name = label(self.key, lang)
        if self.value is None:
            return f"{name}：“{self.text}”（未能读成数字）" if zh else f'{name}: "{self.text}" (not read as a number)'
        if self.slot == "budget":
            unit = ("元" if zh else " CNY") if self.unit in ("", "CNY") else f" {self.unit}"
            if self.scope == "ticket" and self.value == 0 and self.bound == "max":
                return "门票免费" if zh else "free entry"
            return f"{name}{'' if zh else ' '}{self.shown()}{unit}"
        if self.slot == "date":
            mo, d = str(self.value)[:2], str(self.value)[-2:]
            when = (
                (f"{int(d)}号" if mo == "--" else f"{int(mo)}月{int(d)}日")
                if zh
                else (f"day {int(d)}" if mo == "--" else f"{mo}-{d}")
            )
            return f"{name}{'' if zh else ' '}{when}"
        if self.slot in ("party", "nights"):
            n = f"{float(self.value):g}"
            return (
                (f"{n}人" if self.slot == "party" else f"{n}晚")
                if zh
                else (f"{n} people" if self.slot == "party" else f"{n} nights")
            )
        if self.slot == "rating":
            return f"{name}{'' if zh else ' '}{self.shown()}"
        if self.slot == "diet":
            why = ("（过敏）" if zh else " (allergy)") if self.unit == "allergy" else ""
            item = _DIET_ZH.get(str(self.value), self.value) if zh else self.value
            if self.scope == "style":
                return f"{'饮食' if zh else 'diet'}{'：' if zh else ': '}{item}"
            return f"{'不吃' if zh else 'no'}{'' if zh else ' '}{item}{why}"
        if self.slot == "hotel_type" and zh:
            return f"{name}：{_HOTEL_TYPES_ZH.get(str(self.value), self.value)}"
        if self.slot == "quiet":
            return "要安静" if zh else "quiet"
        sep = "：" if zh else ": "
        return f"{name}{sep}{self.value}"

    def to_dict(self) -> dict:
        return asdict(self)
