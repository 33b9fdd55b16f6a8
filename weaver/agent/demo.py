"""Scripted demos: JSON Lines, one user message per line, with optional expectations checked per turn.

First line (optional): ``{"demo": name, "title": ..., "language": "zh"|"en"}``. Then
``{"user": "...", "expect": {...}}`` where ``expect`` may hold:

- ``tool``: a tool that must be called this turn; ``args``: a subset of its arguments
  (lists must contain the given items), ``args_absent``: arguments it must not have; ``no_tool``: true when no tool may be called;
- ``reply_has`` / ``reply_lacks``: substrings the reply must / must not contain;
- ``rows_avoid``: a diet category no restaurant row of this turn may list a dish of;
- ``within_budget``: the turn's budget tally must be within the remembered budget;
- ``memory_from_turns``: turns whose memories the reply must cite (its ``memory_ids``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..models import WeaverError
from .db import assets_dir
from .events import AgentEvent
from .lexicon import dish_matches

__all__ = ["DemoScript", "load_script", "check_turn", "run_script", "DEMO_DIR"]

DEMO_DIR = assets_dir() / "demo"


@dataclass
class DemoScript:
    name: str
    path: Path
    title: str = ""
    language: str = ""
    turns: list[dict] = field(default_factory=list)  # {"user": str, "expect": dict, "line": int}


def load_script(ref: str) -> DemoScript:
    """A demo by path, or by name under assets/demo (``trip_zh`` -> assets/demo/trip_zh.jsonl)."""
    path = Path(ref)
    if not path.is_file():
        path = DEMO_DIR / (ref if ref.endswith(".jsonl") else f"{ref}.jsonl")
    if not path.is_file():
        names = ", ".join(sorted(p.stem for p in DEMO_DIR.glob("*.jsonl")))
        raise WeaverError(f"no demo script {ref!r} (available: {names})")
    script = DemoScript(path.stem, path)
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise WeaverError(f"{path}:{lineno}: not valid JSON ({exc.msg})") from exc
        if "demo" in obj:
            script.name, script.title, script.language = obj["demo"], obj.get("title", ""), obj.get("language", "")
        elif isinstance(obj.get("user"), str) and obj["user"].strip():
            script.turns.append({"user": obj["user"], "expect": obj.get("expect") or {}, "line": lineno})
        else:
            raise WeaverError(f'{path}:{lineno}: expected {{"user": text}}')
    return script


def _args_match(actual: dict, wanted: dict) -> bool:
    for k, v in wanted.items():
        a = actual.get(k)
        if isinstance(v, list):
            if not isinstance(a, list) or not all(x in a for x in v):
                return False
        elif a != v:
            return False
    return True


def check_turn(events: list[AgentEvent], expect: dict, weaver=None) -> list[str]:
    """The expectation failures of one turn (empty: all held)."""
    fails = []
    calls = [e.data for e in events if e.type == "tool_call"]
    results = [e.data for e in events if e.type == "tool_result"]
    reply = next((e for e in events if e.type == "reply"), None)
    text = reply.text if reply else ""
    if reply is None:
        fails.append("no reply")
    if "tool" in expect:
        hits = [c for c in calls if c["tool"] == expect["tool"] and _args_match(c["arguments"], expect.get("args", {}))]
        hits = [c for c in hits if not any(k in c["arguments"] for k in expect.get("args_absent", []))]
        if not hits:
            fails.append(
                f"expected a call {expect['tool']} with {expect.get('args', {})}, got "
                f"{[(c['tool'], c['arguments']) for c in calls]}"
            )
    if expect.get("no_tool") and calls:
        fails.append(f"expected no tool call, got {[c['tool'] for c in calls]}")
    for s in expect.get("reply_has", []):
        if s not in text:
            fails.append(f"reply lacks {s!r}")
    for s in expect.get("reply_lacks", []):
        if s in text:
            fails.append(f"reply contains {s!r}")
    if "rows_avoid" in expect:
        rows = [r for res in results for r in res.get("rows", []) if r.get("domain") == "restaurant"]
        if not rows:
            fails.append("no restaurant rows to check")
        for r in rows:
            bad = [d for d in r.get("推荐菜") or [] if dish_matches(d, expect["rows_avoid"])]
            if bad:
                fails.append(f"{r['名称']} lists {bad}")
    if expect.get("within_budget"):
        tally = [res for res in results if res.get("facts", {}).get("within") is not None]
        if not tally or not tally[-1]["facts"]["within"]:
            fails.append(f"plan not within budget: {tally[-1]['facts'] if tally else 'no tally'}")
    if "memory_from_turns" in expect and weaver is not None and reply is not None:
        turns = {weaver.nodes[i].turn for i in reply.data.get("memory_ids", []) if i in weaver.nodes}
        missing = [t for t in expect["memory_from_turns"] if t not in turns]
        if missing:
            fails.append(f"reply's memory has no node from turns {missing} (has {sorted(turns)})")
    return fails


def run_script(agent, script: DemoScript, on_event=None) -> list[tuple[dict, list[AgentEvent], list[str]]]:
    """Replay a script through the agent; message ids are stable, so a replay into the same space is idempotent."""
    out = []
    for i, turn in enumerate(script.turns, 1):
        events = []
        for ev in agent.run(turn["user"], message_id=f"demo-{script.name}-{i:03d}"):
            events.append(ev)
            if on_event:
                on_event(ev)
        out.append((turn, events, check_turn(events, turn["expect"], agent.weaver)))
    return out
