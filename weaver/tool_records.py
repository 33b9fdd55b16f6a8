"""Tool results as structured records: (entity, fields) with the memory node that holds them.

A tool result memory carries its rows in ``meta["records"]`` (the travel agent
writes the key fields of every row it got, not only the ones shown), or its
content is JSON (a list of objects, or an object holding one): every object with
a name becomes a record. Records answer "which hotels under 500 did we see?"
without re-running a tool, and render compactly (:func:`compact_lines`) instead
of raw JSON.

>>> recs = records_from_json('[{"名称": "A酒店", "价格": 450, "评分": 4.6}, {"名称": "B酒店", "价格": 980}]', "n1", 2)
>>> [r.entity for r in where(recs, "价格", "<", 500)]
['A酒店']
>>> compact_lines(recs, "zh")
['A酒店：价格 450，评分 4.6', 'B酒店：价格 980']
"""

from __future__ import annotations

import json
import operator
from dataclasses import asdict, dataclass, field

from .models import WeaverError

__all__ = ["ToolRecord", "tool_records", "records_from_json", "where", "compact_lines"]

_NAME_KEYS = ("名称", "name", "title", "entity", "id")
_OPS = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "=": operator.eq,
    "==": operator.eq,
    "!=": operator.ne,
}


@dataclass
class ToolRecord:
    entity: str
    fields: dict = field(default_factory=dict)
    tool: str = ""
    domain: str = ""
    node_id: str = ""
    turn: int = 0

    def to_dict(self) -> dict:
        return asdict(self)


def _objects(data) -> list[dict]:
    if isinstance(data, list):
        return [x for x in data if isinstance(x, dict)]
    if isinstance(data, dict):
        for v in data.values():
            if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
                return v
        return [data]
    return []


def records_from_json(text: str, node_id: str = "", turn: int = 0, tool: str = "") -> list[ToolRecord]:
    """Records from a JSON tool output (none when it is not JSON or holds no named objects)."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError):
        return []
    out = []
    for obj in _objects(data):
        name = next((obj[k] for k in _NAME_KEYS if isinstance(obj.get(k), (str, int)) and str(obj[k]).strip()), None)
        if name is None:
            continue
        fields = {k: v for k, v in obj.items() if k not in _NAME_KEYS and not isinstance(v, (list, dict))}
        out.append(ToolRecord(str(name), fields, tool, str(obj.get("domain", "")), node_id, turn))
    return out


def tool_records(weaver, tool: str | None = None, domain: str | None = None) -> list[ToolRecord]:
    """Every record the space's active tool results hold, oldest first (optionally one tool's or domain's)."""
    out: list[ToolRecord] = []
    for nid in weaver.node_ids:
        n = weaver.nodes[nid]
        if n.kind != "tool_result" or n.status != "active":
            continue
        name = str(n.meta.get("tool", ""))
        if tool and name != tool:
            continue
        if n.meta.get("records"):
            recs = [
                ToolRecord(
                    str(r.get("entity", "")),
                    dict(r.get("fields") or {}),
                    name,
                    str(r.get("domain") or n.meta.get("domain") or ""),
                    nid,
                    n.turn,
                )
                for r in n.meta["records"]
                if isinstance(r, dict)
            ]
        else:
            recs = records_from_json(n.content, nid, n.turn, name)
        out += [r for r in recs if not domain or r.domain == domain]
    return out


def where(records: list[ToolRecord], field_name: str, op: str, value) -> list[ToolRecord]:
    """The records whose ``field_name`` compares true (a record without the field never matches)."""
    if op not in _OPS:
        raise WeaverError(f"unknown comparison {op!r}: use one of {', '.join(_OPS)}")
    cmp = _OPS[op]
    out = []
    for r in records:
        v = r.fields.get(field_name)
        if v is None:
            continue
        try:
            if cmp(float(v), float(value)) if isinstance(value, (int, float)) else cmp(str(v), str(value)):
                out.append(r)
        except (TypeError, ValueError):
            continue
    return out


def compact_lines(records: list[ToolRecord], lang: str = "en", top: int = 5, keys: tuple[str, ...] = ()) -> list[str]:
    """One short line per record (its first few scalar fields), the top ``top`` only."""
    sep, colon = ("，", "：") if lang == "zh" else (", ", ": ")
    out = []
    for r in records[:top]:
        items = [
            (k, v) for k, v in r.fields.items() if (not keys or k in keys) and k != "domain" and v not in (None, "")
        ]
        out.append(r.entity + (colon + sep.join(f"{k} {v}" for k, v in items[:4]) if items else ""))
    return out
