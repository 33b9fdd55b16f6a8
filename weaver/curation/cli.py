"""Curation sub-commands: ``review [--apply]``, ``edge set|rm``, ``status``, ``queue``, ``accept``, ``reject``,
``undo``, ``redo``, ``log [--json]``.

Nodes are named by id, a unique id prefix, or the message id they came from.
"""

from __future__ import annotations

import json
import time

from ..models import NODE_STATUSES, RELATIONS, WeaverError

__all__ = ["register"]


def _open(rt, args):
    return rt.open(args.space, create=False)


def _line(text) -> str:
    r"""Words a user or a model wrote, on one line of the terminal: a newline or an escape sequence in a "why"
    is shown escaped ("\n", "\x1b"), never acted on (a log row split in two, a recoloured terminal).

    >>> _line("line one\nline two\x1b[31m 预算")
    'line one\\nline two\\x1b[31m 预算'
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def _say(entry) -> str:
    return f"{entry.id}  {entry.actor} {entry.action} {entry.key}"


def cmd_review(rt, args) -> int:
    w = _open(rt, args)
    summary = w.curation.review(apply=True if args.apply else None, mode="rules" if args.rules else None)
    if args.json:
        print(json.dumps(summary.to_dict(), ensure_ascii=False))
        return 0
    print(summary.text())
    for item_id in summary.queued:
        item = w.curation.queue[item_id]
        print(f"  queued  {item.id}  {item.confidence:.2f}  {_line(item.summary())}  — {_line(item.rationale)}")
    for entry_id in summary.applied:
        entry = w.curation.log.by_id(entry_id)
        print(f"  applied {entry.id}  {entry.action} {entry.key}  — {_line(entry.why)}")
    if summary.applied:  # the pass's edits are not a human's: a bare `undo` leaves them
        print("  (undo an applied one with: undo ENTRY)")
    return 0


def cmd_edge(rt, args) -> int:
    w = _open(rt, args)
    cur = w.curation
    s, t = cur.resolve_node(args.source), cur.resolve_node(args.target)
    before = cur.edge_state(s, t)
    rel = args.relation if args.op == "set" else (before or {}).get("relation")
    if (
        args.op in ("set", "confirm")
        and before
        and before.get("relation") == rel
        and before.get("origin") == "human"
        and before.get("status") == "confirmed"
    ):
        print(f"unchanged: {s}->{t} is already {rel} (a human's edge); nothing audited")  # a no-op is not an edit
        return 0
    if args.op == "set":
        entry = cur.set_edge(s, t, args.relation, args.why or "set from the CLI")
    elif args.op == "confirm":
        entry = cur.confirm_edge(s, t)
    else:
        entry = cur.remove_edge(s, t, args.why or "removed from the CLI")
    print(_say(entry))
    return 0


def cmd_status(rt, args) -> int:
    w = _open(rt, args)
    cur = w.curation
    by = cur.resolve_node(args.by) if args.by else ""
    nid = cur.resolve_node(args.node)
    node = w.nodes[nid]
    if node.status == args.status and (args.status != "superseded" or node.meta.get("superseded_by", "") == by):
        print(f"unchanged: {nid} is already {args.status}; nothing audited")  # a no-op is not an edit
        return 0
    entry = cur.set_status(nid, args.status, args.why or "set from the CLI", by=by)
    print(_say(entry))
    for item in cur.items():
        if item.cause_entry == entry.id:
            print(f"  flagged {item.target}: {_line(item.rationale)}")
    return 0


def cmd_queue(rt, args) -> int:
    w = _open(rt, args)
    items = w.curation.items(None if args.all else "pending")
    for item in items:
        if args.json:
            print(json.dumps(item.to_dict(), ensure_ascii=False))
        else:
            print(
                f"{item.id}  {item.status:8s} {item.confidence:.2f}  {_line(item.summary())}  — {_line(item.rationale)}"
            )
    if not items and not args.json:
        print("(the review queue is empty)")
    return 0


def cmd_accept(rt, args) -> int:
    entry = _open(rt, args).curation.accept(args.item, relation=args.relation, status=args.status)
    print(_say(entry) if entry else "accepted")
    return 0


def cmd_reject(rt, args) -> int:
    item = _open(rt, args).curation.reject(args.item)
    print(f"rejected {item.id}: {_line(item.summary())}")
    return 0


def cmd_undo(rt, args) -> int:
    entry = _open(rt, args).curation.undo(args.entry)
    print(_say(entry) + f" (reverted {entry.ref})")
    return 0


def cmd_redo(rt, args) -> int:
    entry = _open(rt, args).curation.redo()
    print(_say(entry) + f" (re-applied {entry.ref})")
    return 0


def cmd_log(rt, args) -> int:
    w = _open(rt, args)
    log = w.curation.log
    entries = [e for e in log.entries if args.all or e.action != "build"]
    if args.limit < 0:
        raise WeaverError(f"--limit must be 0 (all) or a positive number of entries, not {args.limit}")
    if args.limit:
        entries = entries[-args.limit :]
    for e in entries:
        if args.json:
            print(json.dumps(e.to_dict() | {"undone": log.undone(e.id)}, ensure_ascii=False))
        else:
            when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(e.at))
            mark = " (undone)" if log.undone(e.id) else ""
            print(
                f"{e.id}  {when}  {e.actor:7s} {e.action:12s} {e.key}  {_state(e.before)} -> "
                f"{_state(e.after)}{mark}  {_line(e.why)}"
            )
    if not entries and not args.json:  # silence read as "no log": say why (every ingest's entry is hidden)
        hidden = len(log.entries) - len(entries)
        print(
            f"(no edits in the audit log; --all shows its {hidden} ingest entr{'y' if hidden == 1 else 'ies'})"
            if hidden
            else "(the audit log is empty)"
        )
    return 0


def _state(s: dict | None) -> str:
    if not s:
        return "-"
    return s.get("relation") or s.get("status") or s.get("review_item") or "build"


def register(sub) -> None:
    s = sub.add_parser("review", help="run the review pass now (queues proposals; --apply applies them all)")
    s.add_argument("--apply", action="store_true", help="apply every proposal of this pass (undoable)")
    s.add_argument("--rules", action="store_true", help="use the offline heuristics even when an LLM is set")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_review)

    s = sub.add_parser("edge", help="edit an edge: set SOURCE TARGET RELATION | rm SOURCE TARGET | confirm ...")
    ops = s.add_subparsers(dest="op", required=True, metavar="OP")
    o = ops.add_parser("set", help="add the edge or change its relation")
    o.add_argument("source")
    o.add_argument("target")
    o.add_argument("relation", choices=RELATIONS)
    o.add_argument("--why", default="")
    o = ops.add_parser("rm", help="delete the edge")
    o.add_argument("source")
    o.add_argument("target")
    o.add_argument("--why", default="")
    o = ops.add_parser("confirm", help="confirm the edge as it is")
    o.add_argument("source")
    o.add_argument("target")
    s.set_defaults(func=cmd_edge)

    s = sub.add_parser("status", help="mark a node active / superseded / retracted (flags its dependents)")
    s.add_argument("node")
    s.add_argument("status", choices=NODE_STATUSES)
    s.add_argument("--by", help="the node that supersedes it")
    s.add_argument("--why", default="")
    s.set_defaults(func=cmd_status)

    s = sub.add_parser("queue", help="the review queue (pending items; --all for every item)")
    s.add_argument("--all", action="store_true")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_queue)
    s = sub.add_parser("accept", help="accept a review item (optionally with another relation or status)")
    s.add_argument("item")
    s.add_argument("--relation", choices=RELATIONS)
    s.add_argument("--status", choices=NODE_STATUSES)
    s.set_defaults(func=cmd_accept)
    s = sub.add_parser("reject", help="reject a review item (it is not proposed again)")
    s.add_argument("item")
    s.set_defaults(func=cmd_reject)

    s = sub.add_parser("undo", help="undo the latest human edit (or the audit entry named)")
    s.add_argument("entry", nargs="?")
    s.set_defaults(func=cmd_undo)
    s = sub.add_parser("redo", help="redo the latest undone edit")
    s.set_defaults(func=cmd_redo)
    s = sub.add_parser("log", help="the audit log (edits; --all adds each ingest's build entry)")
    s.add_argument("--json", action="store_true", help="one JSON object per entry")
    s.add_argument("--all", action="store_true", help="also each ingest's build entry")
    s.add_argument("--limit", type=int, default=0, help="only the latest N entries (0: all)")
    s.set_defaults(func=cmd_log)
