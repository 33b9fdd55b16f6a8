"""Lifecycle sub-commands: ``forget [--dry-run] [--undo [PASS]]``, ``summaries``, ``tiers``, ``delete-node``,
``pin`` — each with ``--json`` where it prints data.
"""

from __future__ import annotations

import json

from ..cli import count_int

from .config import LifecycleConfig
from .passes import run_pass, undo_pass
from .tiers import TIERS, tier_counts, tier_of

__all__ = ["register"]


def _open(rt, args):
    return rt.open(args.space, create=False)


def _print(obj) -> None:
    print(json.dumps(obj, ensure_ascii=False))


def _cfg(args) -> LifecycleConfig:
    cfg = LifecycleConfig()
    if getattr(args, "working_turns", None) is not None:
        cfg = cfg.with_(working_turns=args.working_turns)
    return cfg


def cmd_forget(rt, args) -> int:
    w = _open(rt, args)
    if args.undo is not None:
        undone = undo_pass(w, args.undo or None)
        if args.json:
            _print({"undone": undone})
        elif undone:
            print(f"undid {len(undone)} change{'s' if len(undone) != 1 else ''}")
        else:  # every change of the pass was undone already (or it changed nothing): say so, not "undid 0"
            print("nothing to undo: that pass changed nothing, or its changes are undone already")
        return 0
    plan = run_pass(w, _cfg(args), dry_run=args.dry_run)
    if args.json:
        _print(plan.to_dict())
        return 0
    print(plan.text())
    for a in plan.archived:
        print(f"  archive {a['id']}  {a['why']}  {a['content'][:60]}")
    for m in plan.merged:
        print(f"  merge   {m['duplicate']} -> {m['kept']}  cosine {m['cosine']:.3f}  (+{len(m['edges'])} edges)")
    for s in plan.summaries:
        print(f"  summary {s['id']}  {s['region']}  {len(s['members'])} members")
    for p in plan.promoted:
        print(f"  promote {p['id']}  {p['why']}")
    return 0


def cmd_summaries(rt, args) -> int:
    w = _open(rt, args)
    rows = [
        {
            "id": n.id,
            "status": n.status,
            "region": n.meta.get("region", ""),
            "members": n.meta.get("members", []),
            "content": n.content,
        }
        for n in (w.nodes[i] for i in w.node_ids)
        if n.meta.get("lifecycle") == "summary"
    ]
    for r in rows:
        _print(r) if args.json else print(
            f"{r['id']}  {r['status']}  {r['region']}  {len(r['members'])} members  {r['content'][:80]}"
        )
    if not rows and not args.json:
        print("(no summaries yet: `forget` writes them for old episodes)")
    return 0


def cmd_tiers(rt, args) -> int:
    w = _open(rt, args)
    cfg = _cfg(args)
    counts = tier_counts(w, cfg)
    nodes = [
        {
            "id": i,
            "tier": tier_of(w.graph.nodes[i], w.turn, cfg.working_turns),
            "status": w.nodes[i].status,
            "turn": w.nodes[i].turn,
        }
        for i in (w.node_ids if args.nodes else ())
    ]
    if args.json:
        out = {"turn": w.turn, "working_turns": cfg.working_turns, "counts": counts}
        if args.nodes:
            out["nodes"] = nodes
        _print(out)
        return 0
    print(f"turn {w.turn}, working memory = the last {cfg.working_turns} turns")
    for t in (*TIERS, "archived"):
        print(f"  {t:10s} {counts[t]}")
    for n in nodes:  # --nodes without --json was silently ignored
        print(
            f"{n['id']}  {n['tier']:9s}  {n['status']:10s}  turn {n['turn']}  {' '.join(w.nodes[n['id']].content.split())[:60]}"
        )
    return 0


def cmd_delete_node(rt, args) -> int:
    w = _open(rt, args)
    entry = w.curation.delete_node(w.curation.resolve_node(args.node), args.why or "deleted from the CLI")
    print(f"{entry.id}  {entry.actor} {entry.action} {entry.key}  (undo: `undo {entry.id}`)")
    return 0


def cmd_pin(rt, args) -> int:
    w = _open(rt, args)
    nid = w.curation.resolve_node(args.node)
    if bool(w.nodes[nid].meta.get("pinned")) == (not args.off):  # a no-op is not an edit
        print(f"unchanged: {nid} is already {'unpinned' if args.off else 'pinned'}; nothing audited")
        return 0
    entry = w.curation.pin(nid, not args.off)
    print(f"{entry.id}  {'unpinned' if args.off else 'pinned'} {entry.key}")
    return 0


def register(sub) -> None:
    s = sub.add_parser("forget", help="run a lifecycle pass: promote, merge duplicates, summarise, archive")
    s.add_argument("--dry-run", action="store_true", help="show what would change and why; write nothing")
    s.add_argument(
        "--undo", nargs="?", const="", default=None, metavar="PASS", help="undo the last pass (or the pass named)"
    )
    s.add_argument("--working-turns", type=count_int, default=None, help="user turns kept as working memory")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_forget)
    s = sub.add_parser("summaries", help="the reflection summary nodes")
    s.add_argument("--json", action="store_true", help="one JSON object per summary")
    s.set_defaults(func=cmd_summaries)
    s = sub.add_parser("tiers", help="memories per tier (working / long-term / summary) and archived")
    s.add_argument("--working-turns", type=count_int, default=None)
    s.add_argument("--nodes", action="store_true", help="also every node's tier (and status, turn)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_tiers)
    s = sub.add_parser("delete-node", help="delete a node and its edges (audited; undo restores them)")
    s.add_argument("node")
    s.add_argument("--why", default="")
    s.set_defaults(func=cmd_delete_node)
    s = sub.add_parser("pin", help="pin a node: the lifecycle never archives, merges or moves it (--off unpins)")
    s.add_argument("node")
    s.add_argument("--off", action="store_true")
    s.set_defaults(func=cmd_pin)
