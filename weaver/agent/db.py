"""The CrossWOZ Beijing database and its query semantics (see assets/crosswoz/database.md).

Each table is a list of ``[name, {field: value}]``. Numeric fields (价格, 人均消费,
门票, 评分) are queried with ranges: ``"<x"``, ``">x"`` or ``"x-y"`` (inclusive);
a missing value (None) never matches a range. List fields (推荐菜, 酒店设施) take
several space-separated terms that must all be present.

>>> in_range(450, "400-500"), in_range(450, "<450"), in_range(None, ">0")
(True, False, False)
>>> all_present(["宫保鸡丁", "精品烤鸭"], "烤鸭 宫保鸡丁")
True
>>> all_present(["宫保鸡丁"], "烤鸭 宫保鸡丁")
False
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..models import WeaverError

__all__ = [
    "Database",
    "load_database",
    "assets_dir",
    "parse_range",
    "in_range",
    "all_present",
    "data_dir",
    "base_name",
    "station_of",
]

_ROOT = Path(__file__).resolve().parents[2]


def assets_dir() -> Path:
    """The copy an installed wheel carries as ``weaver/assets`` (see pyproject.toml), else the checkout's
    ``assets/`` (a source tree or an editable install has no ``weaver/assets``)."""
    packaged = Path(__file__).resolve().parents[1] / "assets"
    return packaged if packaged.is_dir() else _ROOT / "assets"


TABLES = {
    "hotel": "hotel_db.json",
    "restaurant": "restaurant_db.json",
    "attraction": "attraction_db.json",
    "metro": "metro_db.json",
}
_RANGE = re.compile(r"^\s*(?:(<|>)\s*(-?\d+(?:\.\d+)?)|(-?\d+(?:\.\d+)?)\s*-\s*(-?\d+(?:\.\d+)?))\s*$")


def data_dir() -> Path:
    """The shipped copy under assets/, or $WEAVER_CROSSWOZ_DIR, or ../shared/data/crosswoz as a last resort."""
    env = os.environ.get("WEAVER_CROSSWOZ_DIR")
    for cand in ([Path(env)] if env else []) + [
        assets_dir() / "crosswoz",
        _ROOT.parent / "shared" / "data" / "crosswoz",
    ]:
        if (cand / TABLES["hotel"]).is_file():
            return cand
    raise WeaverError("the CrossWOZ database is missing: expected assets/crosswoz/*.json (or set WEAVER_CROSSWOZ_DIR)")


def parse_range(spec: str | int | float | None) -> tuple[float, float, bool, bool] | None:
    """``"<x"`` / ``">x"`` / ``"x-y"`` (or a bare number, meaning at most x) -> (low, high, low_open, high_open).

    >>> parse_range("100-300"), parse_range("<50"), parse_range(80)
    ((100.0, 300.0, False, False), (-inf, 50.0, False, True), (-inf, 80.0, False, False))
    """
    if spec is None or spec == "":
        return None
    if isinstance(spec, (int, float)) and not isinstance(spec, bool):
        return (float("-inf"), float(spec), False, False)
    m = _RANGE.match(str(spec))
    if not m:
        try:
            return (float("-inf"), float(str(spec).strip()), False, False)
        except ValueError:
            raise WeaverError(f"bad range {spec!r}: use '<x', '>x' or 'x-y'") from None
    if m.group(1) == "<":
        return (float("-inf"), float(m.group(2)), False, True)
    if m.group(1) == ">":
        return (float(m.group(2)), float("inf"), True, False)
    low, high = float(m.group(3)), float(m.group(4))
    return (min(low, high), max(low, high), False, False)


def in_range(value, spec) -> bool:
    r = parse_range(spec) if not isinstance(spec, tuple) else spec
    if r is None:
        return True
    if value is None:
        return False
    low, high, low_open, high_open = r
    above = value > low if low_open else value >= low
    below = value < high if high_open else value <= high
    return above and below


def all_present(items: list[str] | None, terms: str | list[str]) -> bool:
    """Every term matches an item (equal to it or contained in it): database.md's multi-value matching."""
    wanted = terms.split() if isinstance(terms, str) else [t for t in terms if t]
    items = items or []
    return all(any(t == it or t in it for it in items) for t in wanted)


def base_name(name: str) -> str:
    """A name without its branch suffix: ``"四季民福烤鸭店(王府井店)" -> "四季民福烤鸭店"``."""
    return re.split(r"[（(]", name, maxsplit=1)[0].strip() or name


@dataclass
class Database:
    hotel: list[dict]
    restaurant: list[dict]
    attraction: list[dict]
    metro: dict[str, str | None]  # place name -> nearest station (or None)

    def table(self, domain: str) -> list[dict]:
        if domain not in ("hotel", "restaurant", "attraction"):
            raise WeaverError(f"unknown table {domain!r}")
        return getattr(self, domain)

    @property
    def by_name(self) -> dict[str, dict]:
        return self._by_name

    def __post_init__(self) -> None:
        self._by_name = {r["名称"]: r for t in (self.hotel, self.restaurant, self.attraction) for r in t}

    def find(self, name: str) -> dict | None:
        """A row by exact name, else by unique base name / containment."""
        if name in self._by_name:
            return self._by_name[name]
        hits = [r for n, r in self._by_name.items() if base_name(n) == name or name in n]
        hits.sort(key=lambda r: (r["名称"] != name, len(r["名称"])))
        return hits[0] if hits else None

    def domain_of(self, row: dict) -> str:
        return {"酒店": "hotel", "餐馆": "restaurant", "景点": "attraction"}.get(row.get("领域", ""), "hotel")


def station_of(value: str | None) -> str | None:
    """ "灯市口地铁站A口" -> "灯市口地铁站"."""
    if not value:
        return None
    m = re.match(r"(.+?地铁站)", value)
    return m.group(1) if m else value


def _read(path: Path) -> list:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise WeaverError(f"cannot read {path}: {exc}") from exc


@lru_cache(maxsize=2)
def _load(folder: str) -> Database:
    d = Path(folder)
    rows = {}
    for dom in ("hotel", "restaurant", "attraction"):
        rows[dom] = [dict(fields, 名称=name) for name, fields in _read(d / TABLES[dom])]
    for r in rows["hotel"]:  # two hotels carry a whitespace-only facility
        r["酒店设施"] = [f for f in r.get("酒店设施") or [] if f.strip()]
        r.setdefault("领域", "酒店")
    metro = {name: fields.get("地铁") for name, fields in _read(d / TABLES["metro"])}
    return Database(rows["hotel"], rows["restaurant"], rows["attraction"], metro)


def load_database(folder: str | Path | None = None) -> Database:
    """The database (parsed once per process)."""
    return _load(str(folder or data_dir()))
