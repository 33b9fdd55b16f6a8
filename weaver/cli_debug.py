"""Retrieval-debugger sub-commands: ``why``, ``trace`` and ``probe``.

``why NODE_ID --query TEXT`` says why a node (or a rejected message id) is not
in the query's context; ``trace TEXT`` prints the full trace next to plain
vector top-k at the same budget; ``probe add|list|run|rm`` manages the space's
saved probes (``probe run`` prints what changed since each probe's last run).
"""

from __future__ import annotations

import json

from .cli import positive_int
from .debugger import debug_query, why_not
from .explain import format_trace, format_why
from .models import WeaverError
from .probes import delete_probe, list_probes, run_probes, save_probe

__all__ = ["register"]


def _print_json(obj) -> None:
    print(json.dumps(obj, ensure_ascii=False))


def _budget(args) -> int | None:
    if args.budget is not None and args.budget <= 0:
        raise WeaverError("--budget must be a positive number of tokens")
    return args.budget


def cmd_why(rt, args) -> int:
    w = rt.open(args.space, create=False)
    ident = args.node_id
    if ident not in w.graph and ident not in w.decisions:
        ident = w.curation.resolve_node(ident)  # a unique id prefix, as every other command takes
    res = w.query(args.query, budget=_budget(args))
    why = why_not(w, res, ident)
    if args.json:
        _print_json(why.to_dict())
    else:
        print(format_why(why))
    return 0


def cmd_trace(rt, args) -> int:
    w = rt.open(args.space, create=False)
    t = debug_query(w, args.text, budget=_budget(args))
    if args.json:
        _print_json(
            {
                "trace": t.result.to_dict(),
                "explanations": t.explanations,
                "cuts": t.cuts,
                "steps": t.steps,
                "vector": t.vector.node_ids,
                "comparison": t.comparison.to_dict(),
            }
        )
    else:
        print(format_trace(t.result, context=True, comparison=t.comparison))
    return 0


def cmd_probe(rt, args) -> int:
    w = rt.open(args.space, create=False)
    if args.action == "list" and args.query:
        raise WeaverError(f"probe list takes no argument (got {args.query!r})")
    if args.action in ("list", "run") and not args.query and not list_probes(w):
        # An empty answer read as "all probes passed"; say there was nothing to run and how to add one.
        print(f"no probes saved in space '{args.space}' (add one: probe add QUERY --expect NODE_ID ...)")
        return 0
    if args.action == "add":
        if not args.query:
            raise WeaverError("probe add needs a query")
        p = save_probe(w, args.query, args.expect or [], budget=_budget(args))
        last = p.last
        assert last is not None  # save_probe records the first run
        hits = last["hits"]
        print(f"saved probe {p.id}: {len(last['node_ids'])} memories, expected {len(hits)}/{len(p.expect)} in")
    elif args.action == "list":
        for p in list_probes(w):
            last = p.last or {}
            print(f"{p.id}  hits {len(last.get('hits', []))}/{len(p.expect)}  {p.query}")
    elif args.action == "rm":
        if not args.query:
            raise WeaverError("probe rm needs a probe id")
        delete_probe(w, args.query)
        print(f"deleted probe {args.query}")
    else:  # run
        diffs = run_probes(w, ids=[args.query] if args.query else None, label=args.label)
        for d in diffs:
            if args.json:
                _print_json(d.to_dict())
                continue
            mark = "changed" if d.changed else "same   "
            print(
                f"{mark} {d.probe.id}  hits {len(d.hits_before)}->{len(d.hits_after)}/{len(d.probe.expect)}  "
                f"+{len(d.gained)} -{len(d.lost)} ~{len(d.moved)}  {d.probe.query}"
            )
            for n in d.expected_lost:
                print(f"    lost expected {n}")
            for n in d.expected_gained:
                print(f"    gained expected {n}")
    return 0


def register(sub) -> None:
    s = sub.add_parser("why", help="why a node is (not) in a query's context")
    s.add_argument("node_id", help="a node id (or a unique prefix), or the message id of a rejected message")
    s.add_argument("--query", required=True)
    s.add_argument("--budget", type=positive_int, default=None)
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_why)
    s = sub.add_parser("trace", help="the full retrieval trace next to plain vector top-k")
    s.add_argument("text")
    s.add_argument("--budget", type=positive_int, default=None)
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_trace)
    s = sub.add_parser("probe", help="saved retrieval probes: add QUERY --expect ID..., list, run [ID], rm ID")
    s.add_argument("action", choices=["add", "list", "run", "rm"])
    s.add_argument("query", nargs="?", help="add: the query; rm: the probe id; run: one probe id (default: all)")
    s.add_argument("--expect", nargs="*", help="node ids the query should surface")
    s.add_argument("--budget", type=positive_int, default=None)
    s.add_argument("--label", default="cli", help="run: what changed since the last run (shown in diffs)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_probe)
