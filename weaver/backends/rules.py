"""The offline reasoning backend: transparent heuristics over cues, entities and embeddings.

Every score and relation it gives comes with the reasons it used, so a curator
can see why. It learns from human corrections by shifting its priors for the
corrected pattern (kind pair plus the cue classes present in the child).
"""

from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np

from ..cues import Features, features
from ..fact_frames import frames_of
from .base import Correction, Judgement, RelateRequest, RelateResult, ScoreRequest, ScoreResult

__all__ = ["RulesReasoner"]


def _interp(x: float, xs: list[float], ys: list[float]) -> float:
    return float(np.interp(x, xs, ys))


def _clamp(x: float) -> float:
    return round(min(5.0, max(1.0, x)), 2)


# Kind-pair priors: the relation a child of this kind most often has to a parent of that kind.
KIND_PRIORS: dict[tuple[str, str], str] = {
    ("agent_thought", "tool_result"): "temporal",
    ("tool_result", "agent_thought"): "causal",
    ("tool_result", "agent_response"): "causal",
    ("user_input", "agent_thought"): "conditional",
    ("user_input", "tool_result"): "conditional",
    ("user_input", "agent_response"): "conditional",
    ("agent_thought", "agent_response"): "temporal",
    ("agent_response", "user_input"): "temporal",
    ("user_input", "user_input"): "elaborates",
    ("agent_thought", "agent_thought"): "temporal",
    ("tool_result", "tool_result"): "temporal",
    ("agent_response", "agent_response"): "elaborates",
    ("agent_response", "agent_thought"): "temporal",
    ("agent_thought", "user_input"): "temporal",
    ("tool_result", "user_input"): "causal",
    ("agent_response", "tool_result"): "temporal",
}


def _pattern_key(parent_kind: str, child_kind: str, f: Features) -> tuple:
    cues = tuple(
        name
        for name, on in (
            ("cause", f.cause),
            ("condition", f.condition),
            ("elaborate", f.elaborate),
            ("failure", f.failure),
            ("constraint", f.constraint),
        )
        if on
    )
    return (parent_kind, child_kind, cues)


class RulesReasoner:
    name = "rules"
    kind = "rules"

    # ---------------------------------------------------------------- scoring
    def score(self, req: ScoreRequest) -> ScoreResult:
        f = features(req.content)
        reasons: list[str] = []
        agent_kind = req.kind in ("agent_thought", "tool_result", "agent_response")
        if f.pleasantry or (f.information == 0 and not agent_kind):
            return ScoreResult(1.0, 1.0, 1.0, "pleasantry / no information", self.name)

        # relevance: closeness to the task focus, lifted by task-shaped content
        relevance = _interp(req.coarse, [0.0, 0.1, 0.25, 0.45], [1.5, 2.4, 3.4, 4.5])
        if f.slots:
            relevance += 0.5 + 0.25 * (len(f.slots) - 1)
            reasons.append("mentions " + "/".join(sorted(f.slots)))
        if f.numbers or f.dates:
            relevance += 0.5
        if f.constraint or f.decision:
            relevance += 0.5
        if agent_kind:
            relevance = max(relevance, 3.5)
            reasons.append("agent step on the task")

        # novelty: distance from what memory holds, lifted by facts memory does not hold yet
        novelty = _interp(req.nearest_similarity, [0.45, 0.65, 0.8, 0.92], [5.0, 4.0, 2.5, 1.0])
        new_words = f.words - req.known_words
        # membership tests, not a copy of every number the space holds (O(space) per message: 16 ms at 10k)
        new_numbers = {n for n in f.numbers if n not in req.known_numbers}
        if new_numbers:
            novelty += 1.5
            reasons.append("new numbers " + ", ".join(f"{n:g}" for n in sorted(new_numbers)[:3]))
        if f.words and len(new_words) / len(f.words) < 0.2 and not new_numbers:
            novelty -= 1.0
            reasons.append("little new")
        if req.nearest_similarity > 0.92 and not new_numbers:
            reasons.append("near-duplicate of memory")

        # decision importance: constraints, decisions, failures and concrete facts steer later choices
        importance = 1.5
        if f.constraint:
            importance += 1.5
            reasons.append("constraint")
        if f.hard:
            importance += 1.0
            reasons.append("hard limit")
        if f.decision:
            importance += 1.0
            reasons.append("decision")
        if f.failure:
            importance += 1.0
            reasons.append("failure")
        if f.numbers or f.dates:
            importance += 0.75
        if f.slots:
            importance += 0.5
        if req.kind == "tool_result":
            importance += 1.0
        # where the speaker lives or works ("I live in Paris.") is a fact about them however short it is
        framed = not agent_kind and bool(frames_of(req.content))
        if not agent_kind and (f.personal or framed):
            # what people tell about themselves (events, plans, likes) is what later questions ask about
            importance += 1.0
            reasons.append("personal fact")
        elif not agent_kind and f.addressed and not (f.constraint or f.slots or f.numbers or f.dates or f.decision):
            importance -= 0.75  # a reaction to the other party ("That's great, you must be proud!")
            reasons.append("reaction to the other party")
        if f.question and not (f.constraint or f.slots or f.numbers):
            importance -= 0.5
        if f.information <= 2 and not (f.numbers or f.dates or f.constraint or framed):
            importance -= 0.5
            relevance -= 0.5
            reasons.append("little information")
        return ScoreResult(
            _clamp(relevance),
            _clamp(novelty),
            _clamp(importance),
            "; ".join(reasons) or "general content",
            self.name,
        )

    # -------------------------------------------------------------- relations
    def __init__(self) -> None:
        # learned from human corrections: pattern -> Counter(relation)
        self._learned: dict[tuple, Counter] = defaultdict(Counter)

    def learn(self, corrections: list[Correction]) -> None:
        self._learned.clear()
        for c in corrections:
            key = _pattern_key(c.parent_kind, c.child_kind, features(c.child_content))
            self._learned[key][c.relation or "none"] += 1

    def relate(self, req: RelateRequest, corrections: list[Correction] | None = None) -> RelateResult:
        if corrections is not None:
            self.learn(corrections)
        f = features(req.content)
        out = [self._judge(req, cand, f) for cand in req.candidates]
        return RelateResult(out, self.name)

    def _judge(self, req: RelateRequest, cand, f: Features) -> Judgement:
        pf = features(cand.content)
        shared = f.words & pf.words
        shared_slots = f.slots & pf.slots
        sim = cand.similarity
        pair = (cand.kind, req.kind)
        adjacent = 0 <= req.turn - cand.turn <= 1

        # rule shortcut: the tool result of the thought that asked for it
        asked_by = req.meta.get("thought_id") or req.meta.get("source_thought")
        if pair == ("agent_thought", "tool_result") and (asked_by == cand.id or (asked_by is None and adjacent)):
            return Judgement(cand.id, "temporal", 0.95, "tool result of the thought that called it")

        learned = self._learned.get(_pattern_key(cand.kind, req.kind, f))
        if learned:
            relation, votes = learned.most_common(1)[0]
            conf = min(0.95, 0.6 + 0.1 * votes)
            return Judgement(
                cand.id, None if relation == "none" else relation, conf, f"learned from {votes} human correction(s)"
            )

        related = sim >= 0.35 or len(shared) >= 2 or bool(shared_slots) or (adjacent and sim >= 0.2)
        if not related:
            return Judgement(cand.id, None, round(1 - sim, 2), f"weakly similar ({sim:.2f}), nothing shared")

        evidence = []
        if shared_slots:
            evidence.append("same slot " + "/".join(sorted(shared_slots)))
        if shared:
            evidence.append("shares " + ", ".join(sorted(shared)[:4]))
        base_conf = min(0.9, 0.45 + 0.5 * sim + 0.05 * len(shared) + (0.1 if shared_slots else 0))

        if f.cause or (f.failure and (pf.dates or pf.constraint or pf.decision)):
            relation, why = "causal", "cause/effect cue in the later node"
        elif f.condition or (pf.constraint and req.kind != "user_input" and (shared_slots or shared)):
            relation, why = "conditional", "later node holds under the earlier constraint"
        elif f.elaborate or (req.kind == cand.kind == "user_input" and (shared_slots or sim >= 0.5)):
            relation, why = "elaborates", "adds detail to the earlier node"
        else:
            relation = KIND_PRIORS.get(pair, "temporal")
            why = f"kind prior {cand.kind}->{req.kind}"
        return Judgement(cand.id, relation, round(base_conf, 2), "; ".join([why] + evidence))
