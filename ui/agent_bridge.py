"""The chat page's link to the travel agent (``weaver.agent``): runs, transcripts and scripted demos."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

from weaver.agent import TravelAgent, load_transcript
from weaver.agent.demo import check_turn, load_script

from .state import get_runtime

__all__ = ["warm_agent", "run_turn", "transcript", "demo_scripts", "load_demo", "check_demo_turn"]

DEMO_DIR = Path(__file__).resolve().parents[1] / "assets" / "demo"


def _make_agent(weaver) -> TravelAgent:
    rt = get_runtime()
    model = rt.settings.llm_model if rt.settings.resolved_backend == "openai" else None
    return TravelAgent(weaver, llm_client=rt.llm_client if model else None, model=model)


def warm_agent() -> None:
    """What the agent's first reply would load mid-turn, loaded under the studio's start-up spinner."""
    from weaver.agent import warm

    warm()


def run_turn(weaver, text: str, message_id: str | None = None) -> Iterator:
    """The agent's events for one user message, as they happen."""
    yield from _make_agent(weaver).run(text, message_id=message_id)


def transcript(weaver) -> list:
    """Every past event of the space, in order."""
    return list(load_transcript(weaver))


def demo_scripts() -> dict[str, Path]:
    """Scripted demos shipped in assets/demo/ (name -> file)."""
    if not DEMO_DIR.is_dir():
        return {}
    return {
        p.stem: p for p in sorted(DEMO_DIR.iterdir()) if p.suffix in (".txt", ".jsonl") and not p.name.startswith(".")
    }


def load_demo(path: str) -> tuple[str, list[tuple[str, dict]]]:
    """A demo's title and its turns: (user message, expectations for that turn)."""
    script = load_script(str(path))
    return script.title or script.name, [(t["user"], t.get("expect") or {}) for t in script.turns]


def check_demo_turn(weaver, events: list, expect: dict) -> list[str]:
    """The demo's expectation failures for one turn (empty when they hold)."""
    return list(check_turn(events, expect, weaver)) if expect else []
