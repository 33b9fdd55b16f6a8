"""One lifecycle pass over a space: promote, merge, reflect, forget — planned first, then applied as one
audited write section (every change an entry of the curation audit log, tagged with the pass id, so the whole
pass or any single change can be undone).

``plan_pass`` reads only; ``run_pass(dry_run=True)`` returns the plan (what would go and why) without
writing; ``undo_pass`` reverts what a pass did that is still in force.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import asdict, dataclass, field

import numpy as np

from ..curation.nodes import embedded_text
from ..models import WeaverError
from .config import LifecycleConfig
from .merge import edges_to_carry, find_duplicates
from .reflection import extractive_summary, regions, summary_node
from .retention import plan_archive, retention_scores
from .tiers import core_of, promotion_candidates

__all__ = ["LifecyclePlan", "last_pass", "pass_rows", "pass_text", "passes", "plan_pass", "run_pass", "undo_pass"]

_RECORDS = "lifecycle"


@dataclass
class LifecyclePlan:
    id: str
    turn: int
    at: float
    dry_run: bool
    before: int  # active memories before the pass
    promoted: list[dict] = field(default_factory=list)  # {id, why, core}
    merged: list[dict] = field(default_factory=list)  # {kept, duplicate, cosine, edges}
    summaries: list[dict] = field(default_factory=list)  # {id, region, members, content, edges}
    archived: list[dict] = field(default_factory=list)  # {id, why, score, content}
    entries: list[str] = field(default_factory=list)  # audit entries written (empty for a dry run)
    _nodes: list = field(default_factory=list, repr=False)  # the summary nodes and edges to add

    @property
    def after(self) -> int:
        return self.before - len(self.archived) - len(self.merged) + len(self.summaries)

    def to_dict(self) -> dict:
        d = {k: v for k, v in asdict(self).items() if not k.startswith("_")}
        d["after"] = self.after
        return d

    def text(self) -> str:
        head = "would" if self.dry_run else "did"
        return (
            f"lifecycle pass {self.id} ({head}): {len(self.promoted)} promoted, {len(self.merged)} merged, "
            f"{len(self.summaries)} summaries, {len(self.archived)} archived; active memories "
            f"{self.before} -> {self.after}"
        )


def _human_confirmed(w) -> tuple[set[str], set[str]]:
    """(node ids a human edit decided, endpoints of edges a human set or confirmed)."""
    keys = w.curation.human_pairs()
    nodes = {k for k in keys if "->" not in k}
    ends = {x for k in keys if "->" in k for x in k.split("->", 1)}
    return nodes, ends


def plan_pass(w, cfg: LifecycleConfig | None = None, dry_run: bool = True) -> LifecyclePlan:
    """What a pass would do now (nothing is written)."""
    cfg = cfg or LifecycleConfig()
    g, order = w.graph, w.node_ids
    now_turn, now = w.turn, time.time()
    human, confirmed = _human_confirmed(w)
    keys = w.curation.human_pairs()  # edges a human decided: a merge never re-creates one
    active = [n for n in order if w.nodes[n].status == "active"]
    plan = LifecyclePlan(f"lc_{uuid.uuid4().hex[:10]}", now_turn, now, dry_run, len(active))
    # 1. promotion: referenced again and again (or confirmed) -> long-term, compressed to its core
    for nid, why in promotion_candidates(w, cfg, confirmed - human):
        if nid not in human:
            plan.promoted.append({"id": nid, "why": why, "core": core_of(w.nodes[nid].content)})
    promoted = {p["id"] for p in plan.promoted}
    access = {n: (w.nodes[n].access_count, w.nodes[n].last_access) for n in active}
    # a constraint protects its statement while it is in force: the current value of its record (not a value
    # the user replaced later, nor a soft cue the slot readers find nothing in); hard limits always
    in_force = {r.node_id for r in w.constraints(include_lifted=True)}
    scores = retention_scores(g, now_turn, now, cfg, access, human, in_force)
    for nid in promoted & scores.keys():  # a restored cold-tier memory has no score: it is not active yet
        scores[nid].protected = "long-term"
    # 2. merge near-duplicates among old memories nobody protected by hand
    old = [
        n
        for n in active
        if now_turn - w.nodes[n].turn >= cfg.working_turns and n not in human and not w.nodes[n].meta.get("lifecycle")
    ]
    position = {n: i for i, n in enumerate(order)}
    gone: set[str] = set()
    if old:
        vecs = np.stack([w.vector_of(n) for n in old])
        for kept, dup, cos in find_duplicates(g, old, vecs, cfg.duplicate_cosine):
            if scores[dup].protected in ("pinned", "constraint", "long-term") or dup in promoted:
                continue
            carry = [e for e in edges_to_carry(g, kept, dup, position) if f"{e[0]}->{e[1]}" not in keys]
            plan.merged.append(
                {
                    "kept": kept,
                    "duplicate": dup,
                    "cosine": cos,
                    "edges": [{"source": s, "target": t, "relation": d.get("relation")} for s, t, d in carry],
                }
            )
            gone.add(dup)
    # 3. reflection: one summary per old episode
    covered: set[str] = set()
    carried: dict[str, list[str]] = {}
    for region, members in regions(g, order, now_turn, cfg).items():
        members = [m for m in members if m not in gone]
        if len(members) < cfg.region_min:
            continue
        text, lang = extractive_summary(g, members, np.stack([w.vector_of(m) for m in members]), region, cfg)
        node, edges = summary_node(g, region, members, text, lang)
        if node.id in w.nodes:
            continue
        plan._nodes.append((node, edges))
        plan.summaries.append(
            {"id": node.id, "region": region, "members": members, "content": text, "edges": len(edges)}
        )
        covered |= set(members)
        for e in edges:
            if e.source not in set(members) and e.relation in ("causal", "conditional"):
                carried.setdefault(e.source, []).append(node.id)
    # 4. forgetting: old, weak memories nothing active depends on
    for nid, why in plan_archive(g, order, scores, cfg, gone, covered, carried):
        plan.archived.append(
            {"id": nid, "why": why, "score": round(scores[nid].score, 4), "content": w.nodes[nid].content[:120]}
        )
    return plan


def run_pass(w, cfg: LifecycleConfig | None = None, dry_run: bool = False) -> LifecyclePlan:
    """Plan a pass and (unless ``dry_run``) apply it in one write section, every change audited."""
    with w.writing():  # caught up with other writers before planning; the pass lands whole or not at all
        plan = plan_pass(w, cfg, dry_run)
        if dry_run:
            return plan
        cur = w.curation
        log = len(cur.log.entries)
        for p in plan.promoted:
            node = w.nodes[p["id"]]
            cold = node.status == "archived"  # wanted again from the cold tier: active again, long-term
            cur.set_status(
                p["id"],
                "active" if cold else node.status,
                f"promoted to long-term memory: {p['why']}",
                actor="lifecycle",
                ref=plan.id,
                marks={"tier": "long-term", "core": p["core"]} | ({"archived_access": ""} if cold else {}),
            )
        for m in plan.merged:
            for e in m["edges"]:
                d = w.graph.edges[
                    (m["duplicate"], e["target"]) if e["source"] == m["kept"] else (e["source"], m["duplicate"])
                ]
                cur.set_edge(
                    e["source"],
                    e["target"],
                    e["relation"],
                    f"taken over from duplicate {m['duplicate']}",
                    actor="lifecycle",
                    confidence=float(d.get("confidence", 0.8)),
                    ref=plan.id,
                )
            cur.set_status(
                m["duplicate"],
                "archived",
                f"merged into {m['kept']} (cosine {m['cosine']:.3f})",
                actor="lifecycle",
                ref=plan.id,
                marks={"merged_into": m["kept"]},
            )
        vecs = w.embed([embedded_text(node) for node, _ in plan._nodes]) if plan._nodes else []
        for (node, edges), vec in zip(plan._nodes, vecs):  # embedded in one batch, not one call a summary
            cur.add_node(node, edges, f"reflection summary of {node.meta['region']}", ref=plan.id, vector=vec)
        for a in plan.archived:
            hits = w.nodes[a["id"]].access_count  # a pass restores it once it is retrieved enough times again
            marks = {"archived_access": hits} if hits else None
            cur.set_status(a["id"], "archived", a["why"], actor="lifecycle", ref=plan.id, marks=marks)
        plan.entries = [e.id for e in cur.log.entries[log:]]
        cur.state["lifecycle_turn"] = w.turn
        cur.save_state()
        w.space.put_records(_RECORDS, {plan.id: plan.to_dict()})
    return plan


def passes(w) -> list[dict]:
    """Every applied pass's report, oldest first."""
    return sorted(w.space.get_records(_RECORDS).values(), key=lambda d: d.get("at", 0.0))


def last_pass(w) -> dict | None:
    got = passes(w)
    return got[-1] if got else None


def undo_pass(w, pass_id: str | None = None) -> list[str]:
    """Revert every change of a pass (the last one by default) still in force, newest first; the undo entries."""
    report = next((p for p in reversed(passes(w)) if pass_id is None or p["id"].startswith(pass_id)), None)
    if report is None:
        raise WeaverError("no lifecycle pass to undo" if pass_id is None else f"no lifecycle pass {pass_id!r}")
    out = []
    with w.writing():
        for entry_id in reversed(report["entries"]):
            cur = w.curation
            if cur.log.by_id(entry_id) is not None and not cur.log.undone(entry_id):
                out.append(cur.undo(entry_id).id)
    return out


def pass_text(report: dict) -> str:
    """One line about a stored pass report."""
    return (
        f"{report['id']} at turn {report['turn']}: {len(report['promoted'])} promoted, {len(report['merged'])} "
        f"merged, {len(report['summaries'])} summaries, {len(report['archived'])} archived; active memories "
        f"{report['before']} -> {report['after']}"
    )


def pass_rows(report: dict) -> list[dict]:
    """One row per change of a pass report (for a table): ``change``, ``node``, ``detail``."""
    rows = [
        {"change": "archived", "node": a["id"], "detail": f"{a['why']}: {a['content']}"} for a in report["archived"]
    ]
    rows += [
        {"change": "merged", "node": m["duplicate"], "detail": f"into {m['kept']} (cosine {m['cosine']})"}
        for m in report["merged"]
    ]
    rows += [
        {"change": "summary", "node": x["id"], "detail": f"{x['region']}, {len(x['members'])} members: {x['content']}"}
        for x in report["summaries"]
    ]
    rows += [{"change": "promoted", "node": x["id"], "detail": x["why"]} for x in report["promoted"]]
    return rows
