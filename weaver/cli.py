"""Command line: ``python -m weaver [--space NAME] [--data-dir DIR] COMMAND``.

A thin face over the library: parse, call, print. Errors the user can fix are
printed as one line on stderr with exit code 2, never as a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from pathlib import Path

from .cli_ingest import cmd_ingest, read_jsonl
from .models import WeaverError, error_line
from .runtime import Runtime
from .settings import Settings
from .validation import check_budget, check_space_name

__all__ = ["main", "read_jsonl", "positive_int", "count_int", "port_number", "OneLineParser"]

# modules that add their own sub-commands: each defines ``register(subparsers)``
COMMAND_MODULES: list[str] = [
    "weaver.cli_debug",
    "weaver.cli_constraints",
    "weaver.curation.cli",
    "weaver.agent.cli",
    "weaver.bench.cli",
    "weaver.integrations.cli",
    "weaver.lifecycle.cli",
]


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (exit 2), like every other error of the CLI."""

    def error(self, message: str):
        self.exit(2, f"error: {self.prog}: {message} (see --help)\n")


def positive_int(text: str) -> int:
    """argparse type for budgets and counts: a positive integer, or a one-line usage error."""
    try:
        value = check_budget(int(text))
        assert value is not None  # None only for None
        return value
    except (ValueError, WeaverError):
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}") from None


def count_int(text: str) -> int:
    """argparse type for counts where 0 means none (turns kept, messages replayed): an integer >= 0."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer of 0 or more, not {text!r}")
    return value


def port_number(text: str) -> int:
    """argparse type for a TCP port: 1-65535 (the socket layer would refuse any other with a traceback)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 1 to 65535, not {text!r}")
    return value


def _data_dir(text: str) -> str:
    """``--data-dir``: an empty value (an unset shell variable) would put the space files in the current directory."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path (leave the option out for $WEAVER_DATA_DIR or ./data)")
    return text


def _print_json(obj) -> None:
    print(json.dumps(obj, ensure_ascii=False))


def cmd_spaces(rt: Runtime, args) -> int:
    for name in rt.store.list_spaces():
        print(name)
    return 0


def cmd_delete_space(rt: Runtime, args) -> int:
    check_space_name(args.name)
    if not args.yes:
        raise WeaverError(f"deleting space {args.name!r} removes all its memory: add --yes to confirm")
    rt.store.delete_space(args.name)
    print(f"deleted space {args.name}")
    return 0


def cmd_task(rt: Runtime, args) -> int:
    rt.open(args.space).set_task(args.text)
    print(f"task set: {args.text}")
    return 0


def cmd_query(rt: Runtime, args) -> int:
    # a space not made yet holds nothing: its query is answered empty, with a note, and creates nothing (as MCP recall)
    note = "" if rt.has_space(args.space) else f"space {args.space!r} does not exist yet: nothing is remembered there"
    if note:
        from .querying import nothing_recalled

        res = nothing_recalled(args.text, args.budget, rt.settings.config)
    else:
        res = rt.open(args.space, create=False).query(args.text, budget=args.budget)
    if args.json:
        out = res.to_dict()
        if not args.explain:
            out.pop("trace")
        _print_json(out | ({"note": note} if note else {}))
    else:
        if note:
            print(f"(no memory: {note}; an ingest creates it)")
        elif res.context:
            print(res.context)
        elif res.ranked:  # "no memory matched" misread a budget too small for the smallest memory
            print(f"(none of the {len(res.ranked)} memories found fits in {res.budget} tokens: raise --budget)")
        else:
            print("(no memory matched)")
        print(f"-- {res.tokens} tokens of {res.budget}", file=sys.stderr)
        if args.explain:
            from .explain import format_trace

            print(format_trace(res))
    return 0


def cmd_export(rt: Runtime, args) -> int:
    weaver = rt.open(args.space, create=False)
    text = (
        weaver.export_graphml()
        if args.format == "graphml"
        else json.dumps(weaver.export_node_link(), ensure_ascii=False, indent=1)
    )
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise WeaverError(f"cannot write {args.output}: {exc.strerror or exc}") from exc
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        print(text)
    return 0


def cmd_decisions(rt: Runtime, args) -> int:
    weaver = rt.open(args.space, create=False)
    if not weaver.decisions and not args.json:
        print("(no messages ingested yet)")
    for d in weaver.decisions.values():
        if args.json:
            _print_json(d.to_record() | {"meta": d.meta})
        else:
            mark = "kept" if d.kept else "skip"
            print(
                f"{d.message_id}  {mark}  r={d.relevance:g} n={d.novelty:g} i={d.importance:g} "
                f"total={d.total:.2f}  {d.content[:50]}"
            )
    return 0


def cmd_promote(rt: Runtime, args) -> int:
    res = rt.open(args.space, create=False).promote(args.message_id)
    _print_json(res.to_dict())
    return 0


def cmd_reembed(rt: Runtime, args) -> int:
    from .maintenance import reembed_space

    n = reembed_space(rt, args.space)
    print(f"re-embedded {n} records with {rt.embedder.name}")
    return 0


def cmd_compact(rt: Runtime, args) -> int:
    from .maintenance import compact_space

    n = compact_space(rt, args.space)
    print(f"rewrote {n} records in the current layout (each vector stored once)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog="python -m weaver", description="ContextWeaver memory CLI")
    # an empty WEAVER_SPACE is unset, as every WEAVER_* variable Settings reads (a blank name is refused)
    space = os.environ.get("WEAVER_SPACE") or "default"
    p.add_argument("--space", default=space, help="memory space (default: $WEAVER_SPACE or default)")
    p.add_argument("--data-dir", type=_data_dir, help="where spaces live (default: $WEAVER_DATA_DIR or ./data)")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser("spaces", help="list spaces")
    s.set_defaults(func=cmd_spaces)
    s = sub.add_parser("delete-space", help="delete a space and all its memory")
    s.add_argument("name")
    s.add_argument("--yes", action="store_true")
    s.set_defaults(func=cmd_delete_space)
    s = sub.add_parser("task", help="set the task focus")
    s.add_argument("text")
    s.set_defaults(func=cmd_task)
    s = sub.add_parser("ingest", help="ingest a JSON Lines file ('-' for stdin)")
    s.add_argument("file")
    s.add_argument("--json", action="store_true", help="one JSON object per message")
    s.set_defaults(func=cmd_ingest)
    s = sub.add_parser("query", help="retrieve the context for a query")
    s.add_argument("text")
    s.add_argument("--budget", type=positive_int, default=None, help="token budget (a positive integer)")
    s.add_argument("--json", action="store_true")
    s.add_argument("--explain", action="store_true", help="print the retrieval trace")
    s.set_defaults(func=cmd_query)
    s = sub.add_parser("export", help="export the graph")
    s.add_argument("--format", choices=["json", "graphml"], default="json")
    s.add_argument("-o", "--output")
    s.set_defaults(func=cmd_export)
    s = sub.add_parser("decisions", help="every filter decision, kept or not")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_decisions)
    s = sub.add_parser("promote", help="weave a rejected message in after all")
    s.add_argument("message_id")
    s.set_defaults(func=cmd_promote)
    s = sub.add_parser("reembed", help="re-embed a space with the current embedder")
    s.set_defaults(func=cmd_reembed)
    s = sub.add_parser("compact", help="rewrite an older space so each vector is stored once (no re-embedding)")
    s.set_defaults(func=cmd_compact)
    for mod in COMMAND_MODULES:
        importlib.import_module(mod).register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env(data_dir=args.data_dir)
        if getattr(args, "needs_runtime", True) is False:
            return args.func(settings, args)
        rt = Runtime.from_settings(settings)
        return args.func(rt, args)
    except WeaverError as exc:
        # one line, printable on any stream (a file name from argv may hold undecodable bytes)
        text = error_line(exc).encode("utf-8", "backslashreplace").decode("utf-8")
        print(f"error: {text}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: no traceback; what a command acknowledged before it is stored
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `... | head`: the reader left, nothing more to say
        sys.stderr.close()
        return 0
