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
from collections.abc import Callable, Sequence, Set as AbstractSet
from dataclasses import dataclass

import numpy as np

from .backends.base import Reasoner, ScoreRequest, ScoreResult
from .constraints import statement_values
from .cues import features, picks
from .decision_context import needed
from .fact_frames import frames_of
from .filler import is_filler
from .settings import WeaverConfig
from .topic_shift import EXPLICIT, REQUEST, ShiftModel, default_model, opens_topic_form, shift_features

__all__ = ["TaskFocus", "FineVerdict", "judge", "focus_history", "stored_meta"]


def _states_facts(text: str) -> bool:
    f = features(text)
    # or a value the slot reader reads without a digit or a cue word: "Two more friends are joining us" (the
    # party grows by two), "我们又多了两个人" were dropped as off focus, and the party on record stayed four
    # or where the speaker lives or works ("We moved to Berlin and I got a new job at a bakery" was off focus)
    return f.constraint or f.hard or bool(f.slots or f.numbers or f.dates or statement_values(text) or frames_of(text))


class TaskFocus:
    """The task text's vector and the conversation's current topic, so the focus follows topic switches.

    The topic is the importance-weighted centre of the memories kept since the user last opened a new topic
    (:mod:`weaver.topic_shift`), at most the last ``window``; a message is as close to the focus as it is to
    the task, to the current topic or to the recent memories, whichever is nearest.
    """

    def __init__(self, window: int = 8, model: ShiftModel | None = None):
        self.window = window
        self.task = ""
        self.task_vec: np.ndarray | None = None
        self._recent: list[tuple[np.ndarray, float]] = []  # the last ``window`` kept memories
        self._topic: list[tuple[np.ndarray, float]] = []  # those since the current topic opened
        self._model = model
        self._previous: np.ndarray | None = None  # the user's previous kept message
        self._anchor: np.ndarray | None = None  # the user's latest kept request

    def set_task(self, text: str, vec: np.ndarray | None) -> None:
        self.task = text
        self.task_vec = vec

    def observe(self, vec: np.ndarray, weight: float, kind: str = "", text: str = "") -> None:
        for held in (self._recent, self._topic):
            held.append((vec, weight))
            del held[: -self.window]
        if kind == "user_input":
            self._previous = vec
            if REQUEST.search(text):
                self._anchor = vec

    def shift_features(self, vec: np.ndarray, text: str = "") -> np.ndarray:
        """A user message's topic-shift features against this focus (:func:`weaver.topic_shift.shift_features`)."""
        recent = np.stack([v for v, _ in self._recent[-3:]]) if self._recent else np.zeros((0, len(vec)))
        return shift_features(text, vec, recent, self._previous, self._anchor)

    def shift_probability(self, vec: np.ndarray, text: str = "") -> float:
        """How likely a user message opens a new topic (the fitted model of :mod:`weaver.topic_shift`)."""
        return (self._model or default_model()).probability(self.shift_features(vec, text))

    def is_shift(self, vec: np.ndarray, text: str = "") -> bool:
        """True when a user message opens a new topic; never for the first words of a conversation."""
        if not self._recent:
            return False
        if EXPLICIT.search(text):  # "换个话题", "back to the trip": the user says so
            return True
        if not opens_topic_form(text):
            return False
        model = self._model or default_model()
        return self.shift_probability(vec, text) >= model.threshold

    def begin_topic(self) -> None:
        """A new topic starts here: the memories of the old one leave the topic."""
        self._topic.clear()

    def vector(self) -> np.ndarray | None:
        """The current topic's importance-weighted centre, else the task's vector (None: no focus yet)."""
        return _centre(self._topic) if self._topic else self.task_vec

    def closeness(self, vec: np.ndarray) -> float | None:
        """How close a message is to the focus: to the task, the current topic or the recent memories, whichever
        is nearest (None without any). A 60/40 blend of the task and the recent memories was near neither after a
        switch: the first on-topic question after "I also have my driving exam next month" scored under the keep
        line in a trip-planning space."""
        parts = [self.task_vec] + [_centre(h) for h in (self._topic, self._recent) if h]
        sims = [float(x @ vec) for x in parts if x is not None]
        return max(sims) if sims else None


def _centre(held: list[tuple[np.ndarray, float]]) -> np.ndarray:
    w = np.array([x for _, x in held], dtype=np.float32)
    c = (np.stack([v for v, _ in held]) * w[:, None]).sum(0)
    return c / (np.linalg.norm(c) or 1.0)


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
    known_words: AbstractSet[str],
    known_numbers: AbstractSet[float],
    speaker: str = "",
    echoes: AbstractSet[str] = frozenset(),
    near: Callable[[np.ndarray], tuple[float, int] | None] | None = None,
    answers: bool = False,
) -> FineVerdict:
    """The filter's verdict on one message. ``speaker``: the name its text may begin with as a label;
    ``echoes``: what it may repeat of the message before it without saying anything new (:func:`echo_words`);
    ``near``: the nearest memory as (similarity, row) found through the store's index in a large space, or None
    (:func:`weaver.nearest.nearest_indexed`): the product with every memory is then skipped; ``answers``: the
    message replies to the other speaker's question (:func:`weaver.ingest` hears it so): never filler, and kept
    between named speakers."""
    t0 = time.perf_counter()
    closeness = focus.closeness(vec)
    coarse = 1.0 if closeness is None else closeness
    nearest, nearest_text = 0.0, ""
    if memory_matrix is not None and len(memory_matrix):
        found = near(vec) if near is not None else None
        if found is None:
            sims = memory_matrix @ vec
            i = int(np.argmax(sims))
            found = float(sims[i]), i
        nearest, nearest_text = found[0], memory_texts[found[1]]
    # a user's request for another of what was offered ("换一家", "Find another one."): no kind of place named
    another = kind == "user_input" and bool(_ANOTHER.search(content.strip()))
    # the agent's own steps are on-task by construction: only user messages face the coarse gate, and
    # a message that states a constraint, a number or a date is never dropped by an embedding alone
    # nor one that makes a choice ("Book the first one": far from any topic's words, but what the next steps act on)
    if (
        kind == "user_input"
        and closeness is not None
        and coarse < cfg.coarse_threshold
        and not _states_facts(content)
        and not features(content).decision
        and not picks(content)
        and not another
    ):
        res = ScoreResult(1.0, 1.0, 1.0, f"off focus (coarse {coarse:.2f} < {cfg.coarse_threshold})", "coarse")
        return FineVerdict(
            coarse, res, 1.0, False, f"rejected at stage 1: {res.reason}", (time.perf_counter() - t0) * 1e3
        )
    if kind == "agent_response" and is_filler(content):
        # an agent's courtesy reply ("好的。还需要查什么吗？") is filler, as a user's would be
        res = ScoreResult(1.0, 1.0, 1.0, "filler reply: courtesy only, nothing to remember", "filler")
        return FineVerdict(coarse, res, 1.0, False, f"rejected: {res.reason}", (time.perf_counter() - t0) * 1e3)
    if (
        kind not in ("agent_thought", "tool_result", "agent_response")
        and cfg.filler_own_words >= 0
        and is_filler(content, echoes, speaker, _own_words(cfg.filler_own_words, content))
        and not _ASKS.search(content)
        and not _steers(content)
        and not answers
        and not (kind == "user_input" and closeness is not None and picks(content))
    ):
        # a greeting, a thanks, a "wow, so cute!": past courtesy and what it echoes of the message before it,
        # nothing of its own to remember
        res = ScoreResult(1.0, 1.0, 1.0, "filler: courtesy or reaction, nothing of its own", "filler")
        return FineVerdict(coarse, res, 1.0, False, f"rejected: {res.reason}", (time.perf_counter() - t0) * 1e3)
    res = reasoner.score(
        ScoreRequest(content, kind, focus.task, coarse, nearest, nearest_text, known_words, known_numbers)
    )
    total = round(cfg.w_relevance * res.relevance + cfg.w_importance * res.importance + cfg.w_novelty * res.novelty, 3)
    kept = total >= cfg.keep_threshold
    verdict = "kept" if kept else "rejected"
    reason = f"{verdict}: total {total:.2f} {'>=' if kept else '<'} {cfg.keep_threshold} ({res.reason})"
    if not kept and answers and speaker:
        # an answer is what a later question about it asks for: "They were awestruck and humbled." after "How did
        # your kids react?" says little in words of its own and scores under the line (in LoCoMo a reply to the
        # other speaker's question is evidence 3x as often as any other turn). Only between named speakers: in an
        # agent's chat the user's answers state constraints or choices (kept below) and the agent's replies are
        # its steps, scored as such
        kept = True
        reason = f"kept: answers the other speaker's question (total {total:.2f}; {res.reason})"
    if not kept and kind == "user_input" and any(v.known for v in statement_values(content)):
        # "I'm vegetarian." / "我吃素。": short, but the slot reader finds a constraint in it; losing it would
        # let a later search ignore it
        kept = True
        reason = f"kept: states a constraint the slot reader reads (total {total:.2f}; {res.reason})"
    if not kept and kind == "user_input" and (domain := _asks_decision(content)):
        # "Where should we have dinner?": short, but the request the agent's next steps act on (their cause)
        kept = True
        reason = f"kept: asks for a {domain} decision (total {total:.2f}; {res.reason})"
    if not kept and another and closeness is not None:
        # "换一家" / "Find another one.": no kind of place named, but a request the agent's next search answers
        kept = True
        reason = f"kept: asks for another option (total {total:.2f}; {res.reason})"
    if not kept and kind == "user_input" and closeness is not None and (features(content).decision or picks(content)):
        # "Book the first one" in a task: short, but the choice the agent's next steps act on (their cause); a
        # general chat has no task focus and keeps its own scores
        kept = True
        reason = f"kept: makes a choice in the task (total {total:.2f}; {res.reason})"
    # a repeat of what memory holds, with nothing new in it, would only duplicate a node
    # (an agent step is an event of its own turn: only a verbatim repeat of one is a duplicate, or the
    # step's tool result and reply would lose the thought that made the call, and a widened search's result,
    # the one that found something, would be lost beside the empty first try it resembles; and a text that
    # changes a number of the nearest one, "Noted: budget ¥9,000" after "Noted: budget ¥6,000", updates it)
    # (a user's request for another, "再帮我找一家王府井附近的酒店", is new by what it asks though near in words: the
    # agent's next steps answer it, and without it their cause would be a guess; a request merely repeated is not)
    if (
        kept
        and nearest >= cfg.duplicate_threshold
        and res.novelty <= 1.5
        and (kind not in ("agent_thought", "tool_result") or nearest_text.strip() == content.strip())
        and not another
        and set(features(content).numbers) <= set(features(nearest_text).numbers)
    ):
        kept = False
        reason = f"rejected: near-duplicate of memory (cosine {nearest:.2f}), total {total:.2f} ({res.reason})"
    return FineVerdict(coarse, res, total, kept, reason, (time.perf_counter() - t0) * 1e3)


def _steers(text: str) -> bool:
    """A choice, a constraint or a slot ("Great, book it.", "那就这家吧", "安静一点的"): never filler, however
    much of it echoes the offer before it."""
    f = features(text)
    return f.decision or f.hard or bool(f.slots)


def _own_words(allowed: int, text: str) -> int:
    """How many words of its own a reaction may add: one fewer in Chinese, whose words carry more (as
    :mod:`weaver.cues` asks two Chinese content words of a statement where English needs three).

    >>> _own_words(2, "Wow, so cute!"), _own_words(2, "哇，好可爱")
    (2, 1)
    """
    return allowed - 1 if allowed > 0 and re.search(r"[\u4e00-\u9fff]", text) else allowed


# a question is what the answer after it builds on (its words are the answer's context): never filler
_ASKS = re.compile(r"[?？]|[吗呢][\s。.!！]*$")


def asks(text: str) -> bool:
    """True when ``text`` asks something (a question mark, or a Chinese question particle at its end)."""
    return bool(_ASKS.search(text))


# a request is no question but asks as much ("Recommend a restaurant for dinner.", "给我看看酒店"): an imperative
# opening a sentence, or a Chinese request verb; the cue words' question test only knew 推荐 on the Chinese side
_REQUEST = re.compile(
    r"(?:^|[.!?。！？;；]\s*)(?:please\s+|pls\s+|kindly\s+)?(?:recommend|suggest|find|show|give|get|list|book|"
    r"reserve|pick|choose|look\s+for|search\s+for|help\s+(?:me|us)\s+(?:find|choose|pick|plan))\b"
    r"|推荐|帮我|帮忙|给我|替我|找一|找个|找家|找几|来一|来个|安排一|想要一|物色|介绍一",
    re.IGNORECASE,
)


# a request for another of what was offered, said as one ("换一家", "Find another one.", "还有别的吗？")
_ANOTHER = re.compile(
    r"^(?:please\s+)?(?:find|show|give|get|suggest|recommend)\s+(?:me\s+|us\s+)?(?:another|one more|a different)\b"
    r"|^(?:another|one more)(?:\s+(?:one|please))?[\s.!?]*$|^(?:any|are there any)\s+others?\b"
    r"|换一|再来一|再(?:帮我|给我|替我)?(?:找|推荐|来一|看看)|还有(?:别的|其他的?)[吗呢]?",
    re.IGNORECASE,
)


def _asks_decision(content: str) -> str | None:
    """The domain of a question or request that asks for a decision ("晚饭去哪家餐厅？" -> restaurant), else None.

    >>> _asks_decision("Where should we have dinner?"), _asks_decision("哈哈，听起来不错")
    ('restaurant', None)
    >>> _asks_decision("Recommend a restaurant for dinner."), _asks_decision("给我看看酒店")
    ('restaurant', 'hotel')
    >>> _asks_decision("We had a great dinner yesterday."), _asks_decision("I love finding new restaurants.")
    (None, None)
    """
    domain, _ = needed(content)
    f = features(content)
    # a request that makes a choice ("Book the first one") is kept as the choice it is, by the rule after this one
    return domain if domain and (f.question or (not f.decision and _REQUEST.search(content.strip()))) else None
