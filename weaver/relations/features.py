"""Transparent features of a (parent candidate, child) pair of memories.

The same function feeds the training script (on Molweni's annotated chats) and
the live builder, so the fitted weights mean the same thing in both. Every
feature is something a curator can read: how far back the candidate is, who
spoke, whether the child names the candidate's speaker, question -> answer
shape, similarity, shared words, and the bilingual cue classes of the child.

>>> a = Turn("anyone know how to mount an iso ?", "bob", vec=None)
>>> b = Turn("bob : sudo mount -o loop file.iso /mnt", "amy", vec=None)
>>> f = dict(zip(LINK_FEATURES, link_features([a], b, [a, b], 1)[0].tolist()))
>>> f["d1"], f["child_names_parent"], f["parent_question"], f["same_speaker"]
(1.0, 1.0, 1.0, 0.0)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ..cues import features as cue_features

__all__ = ["Turn", "LINK_FEATURES", "TYPE_FEATURES", "link_features", "type_features", "speaker_of", "WINDOW"]

WINDOW = 8  # how many earlier turns the local attachment model considers (Molweni: 99.8% of parents)


@dataclass
class Turn:
    """What the features need of a memory: its text, speaker, kind and (optional) unit vector."""

    text: str
    speaker: str
    vec: np.ndarray | None = None
    kind: str = "user_input"
    extra: dict = field(default_factory=dict)


def speaker_of(kind: str, meta: dict | None) -> str:
    """A node's speaker: the named one in its meta, else the user or the agent by kind.

    >>> speaker_of("user_input", {"speaker": "Caroline"}), speaker_of("tool_result", {})
    ('caroline', 'agent')
    """
    name = (meta or {}).get("speaker") or (meta or {}).get("user")
    if name:
        return str(name).strip().lower()
    return "user" if kind == "user_input" else "agent"


@lru_cache(maxsize=4096)
def _name_pattern(name: str) -> re.Pattern:
    if re.search(r"[\u4e00-\u9fff]", name):
        return re.compile(re.escape(name))
    return re.compile(r"(?<![\w])" + re.escape(name) + r"(?![\w])", re.IGNORECASE)


def _mentions(text: str, names: set[str]) -> set[str]:
    # generic role names are not mentions ("the user", "an agent")
    return {n for n in names if len(n) >= 2 and n not in ("user", "agent") and _name_pattern(n).search(text)}


def _words(text: str) -> frozenset[str]:
    return cue_features(text).words


LINK_FEATURES = (
    "d1",
    "d2",
    "d3",
    "d4plus",
    "log_distance",
    "same_speaker",
    "child_names_parent",
    "parent_names_child",
    "child_names_other",
    "parent_question",
    "child_question",
    "cosine",
    "shares_words",
    "share_ratio",
    "parent_latest_of_speaker",
    "parent_latest_naming_child",
    "parent_is_first",
    "child_short",
    "d1_x_question",
    "named_x_latest",
    "same_speaker_x_d1",
    "bias",
)


def link_features(
    cands: list[Turn], child: Turn, history: list[Turn], child_pos: int, cand_pos: list[int] | None = None
) -> np.ndarray:
    """One row of :data:`LINK_FEATURES` per candidate parent.

    ``history`` is every earlier turn in order with ``child`` at ``child_pos``
    (used for "latest of its speaker" features); ``cand_pos`` the candidates'
    positions in it (default: the ``len(cands)`` turns just before the child).
    """
    if cand_pos is None:
        cand_pos = list(range(child_pos - len(cands), child_pos))
    names = {t.speaker for t in history[: child_pos + 1]}
    child_named = _mentions(child.text, names - {child.speaker})
    cf = cue_features(child.text)
    cw = cf.words
    rows = []
    for cand, pos in zip(cands, cand_pos):
        d = child_pos - pos
        pf = cue_features(cand.text)
        between = history[pos + 1 : child_pos]
        latest_of_speaker = all(t.speaker != cand.speaker for t in between)
        parent_named = _mentions(cand.text, {child.speaker}) if child.speaker not in ("user", "agent") else set()
        latest_naming = bool(parent_named) and not any(_mentions(t.text, {child.speaker}) for t in between)
        cos = float(cand.vec @ child.vec) if cand.vec is not None and child.vec is not None else 0.0
        shared = len(cw & pf.words)
        names_parent = float(cand.speaker in child_named)
        row = [
            d == 1,
            d == 2,
            d == 3,
            d >= 4,
            np.log(d),
            cand.speaker == child.speaker,
            names_parent,
            bool(parent_named),
            bool(child_named) and not names_parent,
            pf.question,
            cf.question,
            cos,
            shared > 0,
            shared / max(1, min(len(cw), len(pf.words))),
            latest_of_speaker,
            latest_naming,
            pos == 0,
            len(cw) <= 3,
            (d == 1) * pf.question,
            names_parent * latest_of_speaker,
            (cand.speaker == child.speaker) * (d == 1),
            1.0,
        ]
        rows.append([float(x) for x in row])
    return np.asarray(rows, dtype=np.float64).reshape(len(rows), len(LINK_FEATURES))


TYPE_FEATURES = (
    "cause_cue",
    "condition_cue",
    "elaborate_cue",
    "child_question",
    "parent_question",
    "same_speaker",
    "child_ack",
    "d1",
    "cosine",
    "failure_cue",
    "child_names_parent",
    "bias",
)


def type_features(parent: Turn, child: Turn, distance: int) -> np.ndarray:
    """The features the relation typer reads for an attached pair (see :data:`TYPE_FEATURES`)."""
    cf, pf = cue_features(child.text), cue_features(parent.text)
    cos = float(parent.vec @ child.vec) if parent.vec is not None and child.vec is not None else 0.0
    named = float(parent.speaker in _mentions(child.text, {parent.speaker}))
    row = [
        cf.cause,
        cf.condition,
        cf.elaborate,
        cf.question,
        pf.question,
        parent.speaker == child.speaker,
        cf.pleasantry,
        distance == 1,
        cos,
        cf.failure,
        named,
        1.0,
    ]
    return np.asarray([float(x) for x in row], dtype=np.float64)
