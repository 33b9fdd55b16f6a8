"""Structured constraint memory: typed slot records with provenance, current value and history.

Every kept user message is read by the slot readers (:func:`weaver.slots.read_slots`
for budgets, dates, party, nights, diet, rating and location;
:func:`weaver.slots_prefs.read_prefs` for amenities, hotel class, dishes, quiet and
free tickets). A slot key (``budget/night``, ``diet/seafood``, ``amenity/gym``)
gets one :class:`ConstraintRecord`: its current value, the message node that
stated it (provenance), and the earlier statements it replaced (history, with the
``supersedes`` edge between them when the weaver drew one). The records are
derived from the graph on demand, never stored beside it: Chroma stays the one
system of record, and an undo of a supersede or a deleted node changes them at once.

The record itself and the words it is shown with are :mod:`weaver.constraint_record`.

An amount the reader cannot parse ("预算大概几千块") is kept as text (``value`` None,
``status`` "unread"): it never becomes a bound and never displaces a value that was read.

>>> recs = records_from_statements([("n1", 1, "预算别超过五千，住宿每晚别超过六百块"), ("n2", 3, "其实预算改成八千吧"),
...                                 ("n3", 4, "预算大概几千块")])
>>> [(r.key, r.shown(), r.node_id, [h["value"] for h in r.history]) for r in recs if r.status == "current"]
[('budget/night', '≤600', 'n1', []), ('budget/total', '≤8000', 'n2', [5000.0])]
>>> [(r.key, r.text, r.status) for r in recs if r.status == "unread"]
[('budget/total', '几千', 'unread')]
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from datetime import date

from . import statement_cache
from .constraint_record import ConstraintRecord, label
from .slot_cache import SlotCache
from .slots import SlotValue, asks_about, read_slots
from .slot_restate import REACH, is_amount_change, restated_amount
from .slots_prefs import read_prefs

__all__ = [  # ConstraintRecord and label live in constraint_record: re-exported, callers import them from here
    "ConstraintRecord",
    "records_from_statements",
    "constraint_records",
    "statement_values",
    "known_statement_values",
    "label",
]


def statement_values(text: str) -> list[SlotValue]:
    """Every slot value a user statement holds (both readers), in order; none for a question about a shown item.

    Read once per text (the values are frozen): every query that needs the constraint records or the revision
    boost reads every active user statement again, and parsing them was most of a query's time at 3k memories.
    """
    return list(_statement_values(text))


@lru_cache(maxsize=65536)
def _statement_values(text: str) -> tuple[SlotValue, ...]:
    if asks_about(text):  # "这个景点的评分是5分吗？" asks the item's value, it sets no constraint
        return ()
    vals = list(read_slots(text)) + list(read_prefs(text))
    # the prefs reader's free ticket and a budget read by read_slots at the same span are one statement
    seen, out = set(), []
    for v in sorted(vals, key=lambda v: v.span):
        k = (v.key, v.span)
        if k not in seen:
            seen.add(k)
            out.append(v)
    return tuple(out)


def _record(v: SlotValue, node_id: str, turn: int, speaker, message_id: str, node_status: str) -> ConstraintRecord:
    key = f"{v.slot}/{v.scope}" if v.scope else v.slot
    status = (
        "unread"
        if v.value is None
        else ("lifted" if v.bound == "lift" or (v.slot == "diet" and v.value == "none") else "current")
    )
    return ConstraintRecord(
        key,
        v.slot,
        v.scope,
        v.value,
        v.bound,
        v.text,
        node_id,
        turn,
        status,
        v.high,
        v.unit,
        speaker,
        message_id,
        node_status,
    )


def _moved(rec: ConstraintRecord, old: ConstraintRecord | None) -> ConstraintRecord:
    """A change by an amount ("预算再加两千") applied to the value it changes: 8000 -> 10000, same bound; with no
    value read before it, an amount that cannot be read as a bound (``unread``, shown as said)."""
    if old is None or not isinstance(old.value, (int, float)) or not isinstance(rec.value, (int, float)):
        return dataclasses.replace(rec, value=None, bound="", status="unread")
    high = old.high + rec.value if old.high is not None else None
    return dataclasses.replace(rec, value=max(0.0, float(old.value) + rec.value), bound=old.bound, high=high)


_OTHER_BOUND = {"date/start": "date/end", "date/end": "date/start"}


def _day_of_year(value) -> int | None:
    """ "07-10" -> its day in a leap year's count (a bare day "--10" or anything else: None)."""
    if not (isinstance(value, str) and len(value) == 5 and value[2] == "-" and value[:2].isdigit()):
        return None
    try:
        return date(2024, int(value[:2]), int(value[3:])).timetuple().tm_yday
    except ValueError:
        return None


def _drop_crossed_bound(current: dict, speaker, nid: str) -> None:
    """A trip start this message moved past the end in force (or an end before the start), the other bound said in
    an earlier message: that bound no longer holds and leaves ("6月3号到6月6号", then "改成7月10号入住": the trip does
    not end on 06-06). Half a year or more apart is a trip over the new year ("12月28号到1月3号"), not a crossing.

    >>> recs = records_from_statements([("a", 1, "我们6月3号到6月6号去北京"), ("b", 2, "改成7月10号入住")])
    >>> [(r.key, r.value) for r in recs]
    [('date/start', '07-10')]
    >>> recs = records_from_statements([("a", 1, "12月28号到1月3号去北京"), ("b", 2, "改成12月30号出发")])
    >>> sorted((r.key, r.value) for r in recs)
    [('date/end', '01-03'), ('date/start', '12-30')]
    """
    for key, other in _OTHER_BOUND.items():
        new, old = current.get((speaker, key)), current.get((speaker, other))
        if new is None or old is None or new.node_id != nid or old.node_id == nid:
            continue
        start, end = (new, old) if key == "date/start" else (old, new)
        a, b = _day_of_year(start.value), _day_of_year(end.value)
        if a is not None and b is not None and 0 < a - b < 183:
            del current[(speaker, other)]


def records_from_statements(
    statements, supersedes: set[tuple[str, str]] | None = None, values_of=None, void=frozenset()
) -> list[ConstraintRecord]:
    """Records from ``(node_id, turn, text[, speaker, message_id, node_status])`` user statements, oldest first.

    The latest value read for a key is current; the values it replaced become its
    history (``edge``: the weaver's ``supersedes`` edge between the two nodes, when
    there is one). Speakers never share a key. ``values_of(node_id, text)``: the statement's values, when the
    caller keeps them (a text's values never change).

    A superseded statement (``node_status`` "superseded") no longer holds: its values are history for a later
    value of their key, never current themselves. A key it was the last to state falls back to the value an
    earlier statement in force held, or leaves (an allergy a curator marked superseded by an unrelated memory
    is no longer a constraint; made active again, by undo, it is one again). ``void``: the superseded statements
    that hold all the same, for what nobody restated since (superseded by a restatement of some of their values,
    or by a memory taken back since):

    >>> recs = records_from_statements([("a", 1, "我对花生过敏"), ("b", 2, "预算五千"), ("c", 3, "预算改成八千")])
    >>> [(r.key, r.shown()) for r in recs]
    [('diet/peanut', 'no peanut'), ('budget/total', '≤8000')]
    >>> recs = records_from_statements([("a", 1, "我对花生过敏", None, "", "superseded"), ("b", 2, "预算五千"),
    ...                                 ("c", 3, "预算改成八千", None, "", "superseded")])
    >>> [(r.key, r.shown(), r.node_id) for r in recs]
    [('budget/total', '≤5000', 'b')]
    """
    supersedes = supersedes or set()
    current: dict[tuple, ConstraintRecord] = {}
    unread: list[ConstraintRecord] = []
    before: dict = {}  # each speaker's latest statements' values, newest first: what a bare "改成一万二" restates
    in_force: dict[tuple, bool] = {}  # whether a statement that still holds says the key's current value
    fallback: dict[tuple, ConstraintRecord] = {}  # the value in force a superseded statement's value displaced
    for st in statements:
        nid, turn, text = st[0], st[1], st[2]
        speaker = st[3] if len(st) > 3 else None
        mid = st[4] if len(st) > 4 else ""
        nstatus = st[5] if len(st) > 5 else "active"
        vals = list(statement_values(text) if values_of is None else values_of(nid, text))
        if not vals and is_amount_change(text):
            vals = next(filter(None, (restated_amount(text, b) for b in before.get(speaker, ()))), [])
        before[speaker] = [vals, *before.get(speaker, ())][:REACH]
        holds = nstatus != "superseded" or nid in void
        for v in vals:
            rec = _record(v, nid, turn, speaker, mid, nstatus)
            k = (speaker, rec.key)
            if rec.bound == "delta":
                rec = _moved(rec, current.get(k))
            if rec.status == "unread":
                if holds:
                    unread.append(rec)
                continue
            old = current.get(k)
            if old is not None:
                if old.node_id == nid:
                    current[k] = rec  # the same message said it twice: the last word stands
                    rec.history = old.history
                    continue
                same = (old.value, old.bound, old.high) == (rec.value, rec.bound, rec.high)
                live = in_force.get(k, True)
                if holds:
                    in_force[k] = True
                    fallback.pop(k, None)
                elif not same:  # a value no statement in force holds now; what held before is kept aside
                    in_force[k] = False
                    if live:
                        fallback[k] = dataclasses.replace(old, history=list(old.history))
                # (a same value said again by a superseded statement: in force as long as the first one is)
                # the replaced record is dropped: its list is handed on, not copied (a copy per restatement was
                # quadratic, 6 s of the first constraint query at 100k statements)
                rec.history = old.history
                if not same:
                    rec.history.append(
                        {
                            "value": old.value,
                            "bound": old.bound,
                            "high": old.high,
                            "text": old.text,
                            "node_id": old.node_id,
                            "turn": old.turn,
                            "superseded_by": nid,
                            "edge": (old.node_id, nid) in supersedes,
                        }
                    )
                if same and live:  # a restatement: provenance stays with the first statement, the later one confirms it
                    rec.node_id, rec.turn, rec.message_id = old.node_id, old.turn, old.message_id
            else:
                in_force[k] = holds
            current[k] = rec
        _drop_crossed_bound(current, speaker, nid)
    for k, live in in_force.items():
        if not live and k in current:  # stated last by a superseded statement: what held before, or nothing
            if k in fallback:
                current[k] = fallback[k]
            else:
                del current[k]
    # an unread amount is kept beside the key's value (never replacing it), as text
    return sorted(list(current.values()) + unread, key=lambda r: (r.status != "current", r.turn))


def moved_values(weaver, text: str, speaker=None, lang: str = "en") -> str:
    """What a change by an amount makes of the value it changes ("预算再加两千" after 5,000: "总预算≤7000元"), as
    the phrase a narrative line shows beside it; "" when the text changes nothing by an amount or nothing is on
    record to change. Read at ingest (the node keeps it): a line of context must not depend on a memory left out."""
    moved = [v for v in statement_values(text) if v.bound == "delta" and isinstance(v.value, (int, float))]
    if not moved:
        return ""
    now = {(r.speaker, r.key): r for r in constraint_records(weaver) if r.status == "current"}
    out = []
    for v in moved:
        old = now.get((speaker, f"{v.slot}/{v.scope}" if v.scope else v.slot))
        if old is not None and isinstance(old.value, (int, float)):
            out.append(_moved(_record(v, "", 0, speaker, "", "active"), old).line(lang))
    return ("；" if lang == "zh" else "; ").join(out)


def constraint_records(weaver, include_lifted: bool = False, ids=None) -> list[ConstraintRecord]:
    """The space's constraint records (current and unread; lifted diet items with ``include_lifted``);
    ``ids``: from these nodes only (the memory as it stood at a past turn)."""
    from .decision_context import remembered, supersedes_edges

    def build(among) -> list[ConstraintRecord]:
        sup = {(u, v) for u, v, _ in supersedes_edges(weaver.graph)}
        statements = []
        for nid in among:
            n = weaver.nodes[nid]
            if n.kind != "user_input" or n.status not in ("active", "superseded"):
                continue  # a deleted or retracted statement states nothing
            statements.append((nid, n.turn, n.content, n.meta.get("speaker"), n.message_id, n.status))
        values = _known_values(weaver, statements)
        of = {st[0]: st for st in statements}
        void = {st[0] for st in statements if st[5] == "superseded" and not _replaced(weaver, st[0], sup, values, of)}
        return records_from_statements(statements, sup, None if values is None else (lambda nid, _t: values[nid]), void)

    # every query that asks for a decision reads them: built once until a memory is added or curation edits an
    # edge or a node status (decision_context.remembered), not from every statement per query; each statement's
    # slot values are read once per node (and kept across opens: _known_values)
    recs = (
        build(ids)
        if ids is not None
        else remembered(weaver.graph, "_constraint_records", lambda: build(weaver.node_ids))
    )
    return [r for r in recs if include_lifted or r.status != "lifted"]


def _replaced(weaver, node_id: str, sup: set, values: dict | None, statements: dict) -> bool:
    """Whether the superseded statement ``node_id`` gave up all it said: superseded by a memory that stands (not
    retracted nor deleted; or by none named) and that restates none of its values. Superseded by a restatement
    (its ``supersedes`` edge, or a value of one of its keys), it gave up only what was restated: a later value of
    the key replaces it, and what nobody restated still holds ("预算五千，酒店要有健身房" superseded on arrival by
    "预算改成八千": the gym). Superseded by an unrelated memory, its values leave (an allergy)."""
    by = weaver.nodes[node_id].meta.get("superseded_by")
    if not by:
        return True
    other = weaver.nodes.get(by)
    if other is None or other.status in ("retracted", "deleted"):
        return False  # what replaced it was taken back: it holds again
    if (node_id, by) in sup:
        return False
    if by not in statements:
        return True  # not a user statement: it restates nothing

    def keys(nid: str) -> set[str]:
        got = values[nid] if values is not None else statement_values(statements[nid][2])
        return {f"{v.slot}/{v.scope}" if v.scope else v.slot for v in got}

    return not keys(node_id) & keys(by)


def known_statement_values(weaver, statements) -> dict:
    """``{node id: slot values}`` of ``(node id, turn, text)`` user statements, from what the weaver keeps
    (read once per node, as the constraint records read them; :func:`statement_values` without a mirror)."""
    got = _known_values(weaver, statements)
    return {st[0]: statement_values(st[2]) for st in statements} if got is None else got


_CACHE_WRITE_MIN = 256  # statements read anew before the cache file is rewritten (a few new ones: next open)


def _known_values(weaver, statements) -> dict[str, list[SlotValue]] | None:
    """Each statement's slot values, read once per node text and kept: in the weaver's mirror, and in the
    space's ``statements`` cache file (checked by the text's crc), so the first constraint query after an
    open does not run the slot readers over every user statement (minutes at 100k nodes). None when the
    weaver keeps no mirror."""
    mirror = getattr(weaver, "mirror", None)
    if mirror is None or not hasattr(mirror, "per_node"):
        return None
    known, fresh = mirror.per_node("statement_values")
    missing = [(st[0], st[2]) for st in statements if st[0] not in known]
    if not missing:
        return known
    layout = True
    if fresh:  # the first time this mirror needs them: what an earlier process read
        got, layout = statement_cache.read_values(weaver.space, missing)
        known.update(got)
        missing = [(nid, text) for nid, text in missing if nid not in known]
    slots = SlotCache(weaver.space) if len(missing) >= _CACHE_WRITE_MIN else None
    for nid, text in missing:
        known[nid] = statement_values(text)
        if slots is not None:  # read_slots just ran on it (its cache holds it): kept for the supersede index
            slots.values(nid, text)
    if slots is not None:
        slots.save()
    if len(missing) >= _CACHE_WRITE_MIN or not layout:  # all this mirror read (records' and boost's alike)
        statement_cache.write_values(weaver.space, known, weaver.nodes)
    return known
