"""The chat page's link to the travel agent (``weaver.agent``, see briefs/agent_contract.md).

Until the agent package is importable the chat still works in a memory-only mode: the user's
message is filtered and woven, memory is retrieved for it, and the reply says the agent is
missing. Events keep the contract's shape and are persisted the same way, so reloads restore.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterator

import streamlit as st

from .state import get_runtime

__all__ = ["agent_available", "run_turn", "transcript", "demo_scripts", "load_demo", "check_demo_turn"]

DEMO_DIR = Path(__file__).resolve().parents[1] / "assets" / "demo"


def _agent_module():
    try:
        import weaver.agent as agent  # noqa: PLC0415 - optional until issue 4 lands

        return agent if hasattr(agent, "TravelAgent") else None
    except ImportError:
        return None


def agent_available() -> bool:
    return _agent_module() is not None


@dataclass
class _Event:
    type: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    turn: int = 0

    def to_dict(self) -> dict:
        return asdict(self)


class _MemoryOnly:
    """Stand-in with the agent's interface: weave the message, retrieve memory, say what is missing."""

    def __init__(self, weaver):
        self.weaver = weaver

    def run(self, user_text: str, message_id: str | None = None) -> Iterator[_Event]:
        w = self.weaver
        res = w.ingest(user_text, "user_input", message_id=message_id)
        turn = res.decision.turn
        ev = [_Event("user", user_text, {"ingest": res.to_dict()}, turn)]
        yield ev[-1]
        if w.nodes:
            r = w.query(user_text)
            ev.append(_Event("memory", r.context, {"context": r.context, "tokens": r.tokens,
                                                   "node_ids": [n.id for n in r.nodes]}, turn))
            yield ev[-1]
        ev.append(_Event("reply", "(memory-only mode: the travel agent is not installed, so nothing was planned)",
                         {"memory_ids": ev[-1].data.get("node_ids", []) if len(ev) > 1 else []}, turn))
        yield ev[-1]
        base = res.decision.message_id
        w.space.put_records("events", {f"{base}:{i}": {**e.to_dict(), "at": time.time(), "seq": i}
                                       for i, e in enumerate(ev)})


def _make_agent(weaver):
    mod = _agent_module()
    if mod is None:
        return _MemoryOnly(weaver)
    rt = get_runtime()
    model = rt.settings.llm_model if rt.settings.resolved_backend == "openai" else None
    return mod.TravelAgent(weaver, llm_client=rt.llm_client if model else None, model=model)


def run_turn(weaver, text: str, message_id: str | None = None) -> Iterator:
    """The agent's events for one user message, as they happen."""
    yield from _make_agent(weaver).run(text, message_id=message_id)


def transcript(weaver) -> list:
    """Every past event of the space, in order."""
    mod = _agent_module()
    if mod is not None:
        return list(mod.load_transcript(weaver))
    recs = weaver.space.get_records("events")
    rows = sorted(recs.values(), key=lambda r: (r.get("at", 0), r.get("seq", 0)))
    return [_Event(r["type"], r.get("text", ""), r.get("data") or {}, int(r.get("turn", 0))) for r in rows]


def demo_scripts() -> dict[str, Path]:
    """Scripted demos shipped in assets/demo/ (name -> file)."""
    if not DEMO_DIR.is_dir():
        return {}
    return {p.stem: p for p in sorted(DEMO_DIR.iterdir())
            if p.suffix in (".txt", ".jsonl") and not p.name.startswith(".")}


def load_demo(path: str) -> tuple[str, list[tuple[str, dict]]]:
    """A demo's title and its turns: (user message, expectations for that turn)."""
    try:
        from weaver.agent.demo import load_script
    except ImportError:
        return Path(path).stem, [(m, {}) for m in _parse_demo(Path(path))]
    script = load_script(str(path))
    return script.title or script.name, [(t["user"], t.get("expect") or {}) for t in script.turns]


def check_demo_turn(weaver, events: list, expect: dict) -> list[str]:
    """The demo's expectation failures for one turn (empty when they hold or cannot be checked)."""
    if not expect:
        return []
    try:
        from weaver.agent.demo import check_turn
    except ImportError:
        return []
    return list(check_turn(events, expect, weaver))


def _parse_demo(p: Path) -> list[str]:
    """Fallback reader (agent package missing): one message per line, or JSON Lines with "user"."""
    import json

    lines = [ln.strip() for ln in p.read_text("utf-8").splitlines() if ln.strip()]
    if p.suffix == ".txt":
        return [ln for ln in lines if not ln.startswith("#")]
    return [o["user"] for o in map(json.loads, lines) if isinstance(o.get("user"), str) and o["user"].strip()]
