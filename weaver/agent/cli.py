"""CLI: ``python -m weaver demo SCRIPT`` replays a scripted demo; ``python -m weaver chat`` talks to the agent.

``chat`` reads one user message per line from standard input when it is not a
terminal (scripted use) and prints each reply; ``--steps`` prints every step.
"""

from __future__ import annotations

import sys

from ..cli_ingest import decode_line
from ..models import WeaverError

__all__ = ["register"]

_MARK = {
    "user": "you",
    "memory": "memory",
    "thought": "thought",
    "tool_call": "tool",
    "tool_result": "result",
    "reply": "agent",
    "error": "error",
}


def _print_event(ev, steps: bool) -> None:
    if ev.type == "reply":
        print(f"agent> {ev.text}", flush=True)
    elif steps and ev.type != "user":
        text = ev.text if ev.type != "memory" else f"{len(ev.data['node_ids'])} memories, {ev.data['tokens']} tokens"
        print(f"  [{_MARK[ev.type]}] {text}", flush=True)
    elif ev.type == "error":
        print(f"  [error] {ev.text}", file=sys.stderr, flush=True)


def _agent(rt, weaver, offline: bool):
    from . import TravelAgent

    client = None
    if not offline and rt.settings.llm_configured:
        client = rt.llm_client
        if client is None:
            from ..backends.openai_llm import make_client

            client = make_client(rt.settings)
    return TravelAgent(weaver, llm_client=client, model=rt.settings.llm_model)


def cmd_demo(rt, args) -> int:
    from .demo import load_script, run_script

    script = load_script(args.script)
    space = args.space if args.space != "default" else f"demo-{script.name}"
    if args.reset and space in rt.store.list_spaces():
        rt.store.delete_space(space)
    agent = _agent(rt, rt.open(space), offline=not args.llm)
    print(f"# demo {script.name}: {script.title} (space {space}, {agent.mode} mode)")

    def show(ev):
        if ev.type == "user":
            print(f"\nyou> {ev.text}")
        _print_event(ev, args.steps)

    failures = 0
    for turn, _, fails in run_script(agent, script, show):
        for f in fails:
            failures += 1
            print(f"  CHECK FAILED (line {turn['line']}): {f}", flush=True)
    if args.check:
        print(f"\n{len(script.turns)} turns, {failures} failed checks")
        return 1 if failures else 0
    return 0


def cmd_chat(rt, args) -> int:
    weaver = rt.open(args.space)
    agent = _agent(rt, weaver, offline=args.offline)
    interactive = sys.stdin.isatty()
    if interactive:
        print(f"Travel agent ({agent.mode} mode, space {args.space}). Empty line or Ctrl-D to quit.")
    lineno = 0
    while True:
        lineno += 1
        try:  # bytes that are not UTF-8: refused in one line, nothing stored, the chat goes on
            if interactive:
                try:
                    line = decode_line(input("you> "))
                except EOFError:
                    break
                except UnicodeDecodeError as exc:  # a terminal whose stdin decodes strictly
                    raise WeaverError(f"not valid UTF-8 (byte {exc.start})") from None
                if not line.strip():
                    break
            else:
                raw = sys.stdin.buffer.readline()
                if not raw:
                    break
                line = decode_line(raw)
                if not line.strip():
                    continue
                print(f"you> {line.strip()}", flush=True)
        except WeaverError as exc:
            print(f"error: line {lineno}: {exc}; nothing stored for it", file=sys.stderr, flush=True)
            continue
        try:
            for ev in agent.run(line):
                _print_event(ev, args.steps)
        except WeaverError as exc:
            print(f"error: {exc}", file=sys.stderr)
    return 0


def register(sub) -> None:
    s = sub.add_parser("demo", help="replay a scripted travel-agent demo (assets/demo)")
    s.add_argument("script", help="a name under assets/demo (e.g. trip_zh) or a .jsonl path")
    s.add_argument("--reset", action="store_true", help="delete the demo's space first")
    s.add_argument("--steps", action="store_true", help="print every step, not only replies")
    s.add_argument("--check", action="store_true", help="check the script's expectations; exit 1 if any fails")
    s.add_argument("--llm", action="store_true", help="use the configured LLM endpoint (default: offline rules)")
    s.set_defaults(func=cmd_demo)
    s = sub.add_parser("chat", help="chat with the travel agent (one message per line on stdin when piped)")
    s.add_argument("--steps", action="store_true", help="print memory, thoughts and tool calls too")
    s.add_argument("--offline", action="store_true", help="rules mode even when an LLM endpoint is configured")
    s.set_defaults(func=cmd_chat)
