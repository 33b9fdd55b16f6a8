"""``python -m weaver constraints``: the space's constraint records (and tool records) as JSON."""

from __future__ import annotations

import json

__all__ = ["register"]


def cmd_constraints(rt, args) -> int:
    if not rt.has_space(args.space):  # nothing said there yet: no constraint, and nothing created (as MCP's tool)
        note = f"space {args.space!r} does not exist yet: nothing is remembered there"
        print(json.dumps({"space": args.space, "constraints": [], "note": note}, ensure_ascii=False, indent=1))
        return 0
    weaver = rt.open(args.space, create=False)
    out = {
        "space": weaver.space.name,
        "revisions": weaver.revisions(),
        "constraints": [r.to_dict() for r in weaver.constraints(include_lifted=args.all)],
    }
    if args.tools:
        out["tool_records"] = [r.to_dict() for r in weaver.tool_records()]
    print(json.dumps(out, ensure_ascii=False, indent=1, default=str))
    return 0


def register(sub) -> None:
    s = sub.add_parser(
        "constraints", help="the user's constraint records (current value, provenance node, history) as JSON"
    )
    s.add_argument("--all", action="store_true", help="also lifted diet items")
    s.add_argument("--tools", action="store_true", help="also the tool results' entity records")
    s.set_defaults(func=cmd_constraints)
