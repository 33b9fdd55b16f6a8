"""Saved retrieval probes: a query plus what it should surface, re-run after each change and diffed.

A probe is persisted in its space (records of kind ``probes``) with the snapshot
of its last run: the context's node ids, each candidate's rank, and which of the
expected nodes were in. :func:`run_probes` re-runs every probe, diffs it against
its last snapshot (nodes gained / lost, rank moves, expected hits before and
after) and stores the new snapshot, so a curator sees how a review pass or an
edge edit changed retrieval.

>>> p = save_probe(weaver, "where do we eat tonight?", expect=[allergy_id])   # doctest: +SKIP
>>> apply_some_review(weaver)                                                # doctest: +SKIP
>>> [d.lost for d in run_probes(weaver, label="review pass")]                # doctest: +SKIP
[['n_allergy...']]
"""

from __future__ import annotations

import time
import uuid
from dataclasses import asdict, dataclass, field
from typing import Any

from .models import WeaverError
from .text import clean_text
from .validation import check_query

__all__ = [
    "Probe",
    "ProbeDiff",
    "save_probe",
    "list_probes",
    "get_probe",
    "delete_probe",
    "run_probe",
    "run_probes",
    "diff_snapshots",
    "attach_probes",
    "PROBE_RECORDS",
]

PROBE_RECORDS = "probes"
_HISTORY = 20  # snapshots kept per probe


@dataclass
class Probe:
    id: str
    query: str
    expect: list[str] = field(default_factory=list)  # node ids the query should surface
    budget: int | None = None  # None: the space's budget at run time
    note: str = ""
    created_at: float = field(default_factory=time.time)
    history: list[dict[str, Any]] = field(default_factory=list)  # snapshots, oldest first

    @property
    def last(self) -> dict[str, Any] | None:
        return self.history[-1] if self.history else None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Probe":
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


@dataclass
class ProbeDiff:
    probe: Probe
    before: dict[str, Any] | None
    after: dict[str, Any]
    gained: list[str]  # in the context now, not before
    lost: list[str]  # in the context before, not now
    moved: list[tuple[str, int, int]]  # (node, rank before, rank after) for context nodes whose rank changed
    hits_before: list[str]
    hits_after: list[str]

    @property
    def changed(self) -> bool:
        return bool(self.gained or self.lost or self.moved)

    @property
    def expected_lost(self) -> list[str]:
        return [n for n in self.hits_before if n not in self.hits_after]

    @property
    def expected_gained(self) -> list[str]:
        return [n for n in self.hits_after if n not in self.hits_before]

    def to_dict(self) -> dict[str, Any]:
        return {
            "probe": self.probe.id,
            "query": self.probe.query,
            "changed": self.changed,
            "gained": self.gained,
            "lost": self.lost,
            "moved": [list(m) for m in self.moved],
            "hits_before": self.hits_before,
            "hits_after": self.hits_after,
            "expected": self.probe.expect,
            "before_label": (self.before or {}).get("label", ""),
            "after_label": self.after.get("label", ""),
        }


def _snapshot(w, probe: Probe, label: str) -> dict[str, Any]:
    res = w.query(probe.query, budget=probe.budget)
    ids = res.node_ids
    return {
        "at": time.time(),
        "label": label,
        "node_ids": ids,
        "tokens": res.tokens,
        "budget": res.budget,
        "ranks": {n.id: n.rank for n in res.ranked},
        "hits": [n for n in probe.expect if n in ids],
        "context": res.context,
    }


def diff_snapshots(probe: Probe, before: dict[str, Any] | None, after: dict[str, Any]) -> ProbeDiff:
    """What changed between two runs of a probe (``before`` None: everything is new)."""
    b_ids = list((before or {}).get("node_ids", []))
    a_ids = list(after["node_ids"])
    b_rank, a_rank = (before or {}).get("ranks", {}), after.get("ranks", {})
    moved = [
        (n, int(b_rank[n]), int(a_rank[n]))
        for n in a_ids
        if n in b_ids and n in b_rank and n in a_rank and b_rank[n] != a_rank[n]
    ]
    return ProbeDiff(
        probe,
        before,
        after,
        gained=[n for n in a_ids if n not in b_ids],
        lost=[n for n in b_ids if n not in a_ids],
        moved=moved,
        hits_before=list((before or {}).get("hits", [])),
        hits_after=list(after["hits"]),
    )


def _put(w, probe: Probe) -> None:
    with w.writing():  # under the single-writer lock, like every write to the space
        w.space.put_records(PROBE_RECORDS, {probe.id: probe.to_dict()})


def save_probe(
    w,
    query: str,
    expect: list[str] | tuple[str, ...] = (),
    budget: int | None = None,
    note: str = "",
    probe_id: str | None = None,
) -> Probe:
    """Save (or overwrite) a probe and record its first run as the baseline."""
    query = clean_text(check_query(query) or "")
    if not query:
        raise WeaverError("a probe needs a query")
    if isinstance(expect, str):  # one id given bare would be read character by character
        raise WeaverError("expect takes a list of node ids")
    unknown = [n for n in expect if n not in w.graph]
    if unknown:  # quoted: an empty id reads as '' rather than as nothing
        raise WeaverError(f"expected node(s) not in this space: {', '.join(map(repr, unknown))}")
    if budget is not None and (not isinstance(budget, int) or budget <= 0):
        raise WeaverError("a probe's budget must be a positive number of tokens")
    probe = Probe(probe_id or f"p_{uuid.uuid4().hex[:10]}", query, list(dict.fromkeys(expect)), budget, note)
    probe.history.append(_snapshot(w, probe, "saved"))
    _put(w, probe)
    return probe


def list_probes(w) -> list[Probe]:
    probes = [Probe.from_dict(d) for d in w.space.get_records(PROBE_RECORDS).values()]
    return sorted(probes, key=lambda p: p.created_at)


def get_probe(w, probe_id: str) -> Probe:
    d = w.space.get_records(PROBE_RECORDS).get(probe_id)
    if d is None:
        raise WeaverError(f"no probe {probe_id!r} in space {w.space.name!r}")
    return Probe.from_dict(d)


def delete_probe(w, probe_id: str) -> None:
    get_probe(w, probe_id)
    with w.writing():
        w.space.delete_records(PROBE_RECORDS, [probe_id])


def run_probe(w, probe: Probe, label: str = "", save: bool = True) -> ProbeDiff:
    """Re-run one probe and diff it against its last snapshot (stored as the new last when ``save``)."""
    after = _snapshot(w, probe, label)
    diff = diff_snapshots(probe, probe.last, after)
    if save:
        probe.history = (probe.history + [after])[-_HISTORY:]
        _put(w, probe)
    return diff


def run_probes(w, label: str = "", ids: list[str] | None = None, save: bool = True) -> list[ProbeDiff]:
    """Re-run the space's probes (all, or ``ids``), e.g. after a review pass (``label`` says which)."""
    probes = list_probes(w)
    if ids is not None:
        known = {p.id for p in probes}
        missing = [i for i in ids if i not in known]
        if missing:
            raise WeaverError(f"no probe(s) {', '.join(missing)} in space {w.space.name!r}")
        probes = [p for p in probes if p.id in set(ids)]
    return [run_probe(w, p, label, save) for p in probes]


class _ProbeRerun:
    """The review-pass listener :func:`attach_probes` adds (marked, so a second attach adds none)."""

    _probe_listener = True

    def __init__(self, w) -> None:
        self.w = w

    def __call__(self, summary) -> None:
        text = summary.text() if hasattr(summary, "text") else str(summary)
        run_probes(self.w, label=f"after review pass: {text}"[:240])


def attach_probes(w) -> None:
    """Re-run the space's probes after every review pass of ``w`` (idempotent).

    The diffs land in each probe's history labelled with the pass, so the
    Retrieval page shows curators what the pass changed in retrieval.
    """
    cur = getattr(w, "curation", None)
    if cur is None or any(getattr(f, "_probe_listener", False) for f in cur.listeners):
        return
    cur.listeners.append(_ProbeRerun(w))
