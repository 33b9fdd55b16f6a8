"""The two-stage selective filter and the task focus it measures against.

Stage 1 (coarse): cosine between the message and the task focus; user messages
far off-focus are rejected without further cost. Stage 2 (fine): the reasoning
backend scores relevance / novelty / decision-importance on 1-5 and the
weighted total decides (0.5·relevance + 0.3·importance + 0.2·novelty >= 3.0 by
default). Novelty is measured against what memory already holds.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .backends.base import Reasoner, ScoreRequest, ScoreResult
from .constraints import statement_values
from .cues import features
from .decision_context import needed
from .filler import is_filler
from .settings import WeaverConfig

__all__ = ["TaskFocus", "FineVerdict", "judge", "focus_history", "stored_meta"]

_SWITCH = re.compile(
    r"换个话题|另外|说说|聊聊|回到|再看看|接下来|顺便|至于|那.{0,6}呢|"
    r"\b(what about|how about|let's talk about|switch(ing)? to|back to|moving on|by the way|also,|now for)\b",
    re.IGNORECASE,
)


def _states_facts(text: str) -> bool:
    f = features(text)
    return f.constraint or f.hard or bool(f.slots or f.numbers or f.dates)


class TaskFocus:
    """The task text's vector, blended with the recent high-weight memories so it follows topic switches.

    With no task set, the focus is the importance-weighted mean of the last
    ``window`` kept memories.
    """

    def __init__(self, window: int = 8):
        self.window = window
        self.task = ""
        self.task_vec: np.ndarray | None = None
        self._recent: list[tuple[np.ndarray, float]] = []

    def set_task(self, text: str, vec: np.ndarray | None) -> None:
        self.task = text
        self.task_vec = vec

    def observe(self, vec: np.ndarray, weight: float) -> None:
        self._recent.append((vec, weight))
        del self._recent[: -self.window]

    def is_shift(self, vec: np.ndarray, text: str = "") -> bool:
        """True when a kept message lies far from the recent memories (a topic switch).

        "Far" is relative to how tightly the recent memories cluster (shared
        embedding prefixes lift every cosine); an explicit switch cue ("换个话题",
        "what about…") lowers the bar.
        """
        if len(self._recent) < 3:
            return False
        recent = np.stack([v for v, _ in self._recent[-3:]])
        centre = recent.mean(0)
        centre /= np.linalg.norm(centre) or 1.0
        cohesion = float((recent @ centre).mean())
        factor = 0.75 if _SWITCH.search(text) else 0.55
        return float(centre @ vec) < factor * cohesion

    def vector(self) -> np.ndarray | None:
        recent = None
        if self._recent:
            w = np.array([x for _, x in self._recent], dtype=np.float32)
            recent = (np.stack([v for v, _ in self._recent]) * w[:, None]).sum(0)
            recent /= np.linalg.norm(recent) or 1.0
        if self.task_vec is None:
            return recent
        if recent is None:
            return self.task_vec
        blended = 0.6 * self.task_vec + 0.4 * recent
        return blended / (np.linalg.norm(blended) or 1.0)


def focus_history(stored: list, decisions) -> list[dict]:
    """The space's focus history: the tasks (and older releases' shifts) kept in its meta record, merged with
    the shifts its decisions carry, in time order."""
    own = [h for h in stored if isinstance(h, dict) and "message_id" not in h]
    shifts = [
        {"shift": d.content[:120], "turn": d.turn, "at": d.focus_shift_at, "message_id": d.message_id}
        for d in decisions
        if d.focus_shift_at
    ]
    return sorted(own + shifts, key=lambda h: float(h.get("at") or 0.0))


def stored_meta(meta: dict) -> dict:
    """The meta record as stored: without the shifts that live on their decisions (see :func:`focus_history`)."""
    if "focus_history" not in meta:
        return meta
    return meta | {"focus_history": [h for h in meta["focus_history"] if "message_id" not in h]}


@dataclass
class FineVerdict:
    coarse: float
    result: ScoreResult
    total: float
    kept: bool
    reason: str
    latency_ms: float


def judge(
    reasoner: Reasoner,
    cfg: WeaverConfig,
    content: str,
    kind: str,
    vec: np.ndarray,
    focus: TaskFocus,
    memory_matrix: np.ndarray | None,
    memory_texts: Sequence[str],
    known_words: frozenset[str],
    known_numbers: frozenset[float],
) -> FineVerdict:
    t0 = time.perf_counter()
    fvec = focus.vector()
    coarse = float(fvec @ vec) if fvec is not None else 1.0
    nearest, nearest_text = 0.0, ""
    if memory_matrix is not None and len(memory_matrix):
        sims = memory_matrix @ vec
        i = int(np.argmax(sims))
        nearest, nearest_text = float(sims[i]), memory_texts[i]
    # the agent's own steps are on-task by construction: only user messages face the coarse gate, and
    # a message that states a constraint, a number or a date is never dropped by an embedding alone
    if kind == "user_input" and fvec is not None and coarse < cfg.coarse_threshold and not _states_facts(content):
        res = ScoreResult(1.0, 1.0, 1.0, f"off focus (coarse {coarse:.2f} < {cfg.coarse_threshold})", "coarse")
        return FineVerdict(
            coarse, res, 1.0, False, f"rejected at stage 1: {res.reason}", (time.perf_counter() - t0) * 1e3
        )
    if kind == "agent_response" and is_filler(content):
        # an agent's courtesy reply ("好的。还需要查什么吗？") is filler, as a user's would be
        res = ScoreResult(1.0, 1.0, 1.0, "filler reply: courtesy only, nothing to remember", "filler")
        return FineVerdict(coarse, res, 1.0, False, f"rejected: {res.reason}", (time.perf_counter() - t0) * 1e3)
    res = reasoner.score(
        ScoreRequest(content, kind, focus.task, coarse, nearest, nearest_text, known_words, known_numbers)
    )
    total = round(cfg.w_relevance * res.relevance + cfg.w_importance * res.importance + cfg.w_novelty * res.novelty, 3)
    kept = total >= cfg.keep_threshold
    verdict = "kept" if kept else "rejected"
    reason = f"{verdict}: total {total:.2f} {'>=' if kept else '<'} {cfg.keep_threshold} ({res.reason})"
    if not kept and kind == "user_input" and any(v.known for v in statement_values(content)):
        # "I'm vegetarian." / "我吃素。": short, but the slot reader finds a constraint in it; losing it would
        # let a later search ignore it
        kept = True
        reason = f"kept: states a constraint the slot reader reads (total {total:.2f}; {res.reason})"
    if not kept and kind == "user_input" and (domain := _asks_decision(content)):
        # "Where should we have dinner?": short, but the request the agent's next steps act on (their cause)
        kept = True
        reason = f"kept: asks for a {domain} decision (total {total:.2f}; {res.reason})"
    # a repeat of what memory holds, with nothing new in it, would only duplicate a node
    # (an agent step is an event of its own turn: only a verbatim repeat of one is a duplicate, or the
    # step's tool result and reply would lose the thought that made the call)
    if (
        kept
        and nearest >= cfg.duplicate_threshold
        and res.novelty <= 1.5
        and (kind != "agent_thought" or nearest_text.strip() == content.strip())
    ):
        kept = False
        reason = f"rejected: near-duplicate of memory (cosine {nearest:.2f}), total {total:.2f} ({res.reason})"
    return FineVerdict(coarse, res, total, kept, reason, (time.perf_counter() - t0) * 1e3)


def _asks_decision(content: str) -> str | None:
    """The domain of a question or request that asks for a decision ("晚饭去哪家餐厅？" -> restaurant), else None.

    >>> _asks_decision("Where should we have dinner?"), _asks_decision("哈哈，听起来不错")
    ('restaurant', None)
    """
    domain, _ = needed(content)
    return domain if domain and features(content).question else None
