"""The long interleaved stream ``bench lifecycle`` feeds both spaces, and the questions asked of them.

LoCoMo's conversations' sessions in time order (each session keeps its own episode), with CrossWOZ dialogues
spread evenly between them, until the stream holds ``turns`` turns; the questions are those whose evidence is
in the stream. The run itself is :mod:`weaver.bench.lifecycle`.
"""

from __future__ import annotations

from datetime import datetime

from .common import Turn
from .crosswoz import dialogue_questions, dialogue_turns, load_crosswoz
from .locomo import conversation_turns, load_locomo, questions

__all__ = ["lifecycle_stream"]


def _date(raw: str) -> datetime:
    try:
        return datetime.strptime(raw, "%d %B %Y")
    except ValueError:
        return datetime.max


def lifecycle_stream(
    locomo_path, crosswoz_path, turns: int, locomo_questions: int = 20, crosswoz_questions: int = 200
) -> tuple[list[Turn], list[dict]]:
    """(stream turns, questions with ``dataset``, ``question``, ``evidence``)."""
    sessions: list[tuple[datetime, str, list[Turn]]] = []
    qs: list[dict] = []
    for sample in load_locomo(locomo_path):
        sid = sample.get("sample_id", f"conv{len(qs)}")
        conv = [
            Turn(f"{sid}:{t.key}", t.content, dict(t.meta, session=f"{sid}/{t.meta['session']}"))
            for t in conversation_turns(sample)
        ]
        by: dict[str, list[Turn]] = {}
        for t in conv:
            by.setdefault(t.meta["session"], []).append(t)
        sessions += [(_date(ts[0].meta.get("date", "")), k, ts) for k, ts in by.items()]
        got = [q for q in questions(sample, {t.key.split(":", 1)[1] for t in conv}) if q["category"] != 5]
        for q in got[:locomo_questions]:
            qs.append(
                {"dataset": "locomo", "question": q["question"], "evidence": {f"{sid}:{e}" for e in q["evidence"]}}
            )
    sessions.sort(key=lambda s: (s[0], s[1]))
    locomo_n = sum(len(s[2]) for s in sessions)
    dialogues, n = [], 0
    for did, d in load_crosswoz(crosswoz_path):
        if n >= max(turns - locomo_n, turns // 2):  # at least half the stream's worth, so a short one mixes both
            break
        ts = dialogue_turns(did, d)
        dialogues.append((did, d, ts))
        n += len(ts)
    taken = list(dialogues)
    stream: list[Turn] = []
    per, owed = len(dialogues) / max(1, len(sessions)), 0.0
    for _, _, ts in sessions:  # CrossWOZ dialogues spread evenly between the LoCoMo sessions
        stream += ts
        owed += per
        while owed >= 1 and dialogues:
            stream += dialogues.pop(0)[2]
            owed -= 1
    for _, _, ts in dialogues:
        stream += ts
    for did, d, _ in taken:
        qs += [
            {"dataset": "crosswoz", "question": q["question"], "evidence": q["evidence"]}
            for q in dialogue_questions(did, d)
        ]
    stream = stream[:turns]
    keys = {t.key for t in stream}
    qs = [q for q in qs if q["evidence"] <= keys]
    cw = [q for q in qs if q["dataset"] == "crosswoz"][:crosswoz_questions]
    return stream, [q for q in qs if q["dataset"] == "locomo"] + cw
