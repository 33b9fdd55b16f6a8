"""Topic switches: does the task focus notice when the user moves on, and only then?

CrossWOZ labels every user turn with dialog acts ``[intent, domain, slot, value]``.
A turn's **topic** is the domain most of its non-general acts are about (a
request for a hotel near an attraction names the attraction once and the hotel
several times); a **switch** is a user turn whose topic differs from the topic
of the user's previous turn that had one. Greetings, thanks and goodbyes have no
topic: they are neither switches nor judged.

Each dialogue is ingested into its own space through the real ``ingest_many``
(user turns as ``user_input``, system turns as ``agent_response``); a user turn
was judged a switch when its filter decision carries ``focus_shift_at``.
Precision and recall are over the user turns that have a topic and a previous
one. The first user turn of a dialogue has no previous topic and is not judged.

Systems: ``weaver`` through the real ingest path (filter included: a rejected
message moves no focus); ``weaver-replay`` and ``drift`` replay every turn
through a bare :class:`~weaver.filtering.TaskFocus` (no filter), the first with
the shipped model, the second with the rule this release replaced (a message
far from the last three memories' centre, relative to how tightly they cluster;
a switch cue lowers the bar). The model is fitted on val
(``python -m weaver.topic_shift_train``): test is the held-out split.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

from tqdm import tqdm

import numpy as np

from .common import temp_runtime
from .crosswoz import dialogue_turns, load_crosswoz
from ..embedding import embed_text_for
from ..filtering import TaskFocus
from ..models import Message
from ..settings import WeaverConfig
from ..topic_shift import FEATURES, ShiftModel

__all__ = ["turn_topic", "gold_switches", "run_switches", "switches_markdown", "DriftRule", "replay"]


def turn_topic(acts: list) -> str | None:
    """The domain most of a turn's non-general acts are about (ties: the first named), or None.

    >>> turn_topic([["Inform", "景点", "名称", "天安门"], ["Inform", "酒店", "评分", "5"], ["Request", "酒店", "名称", ""]])
    '酒店'
    >>> turn_topic([["General", "thank", "none", "none"]]) is None
    True
    """
    domains = [a[1] for a in acts if len(a) > 1 and a[0] != "General"]
    if not domains:
        return None
    counts = Counter(domains)
    best = max(counts.values())
    return next(d for d in domains if counts[d] == best)


def gold_switches(dialogue: dict) -> dict[int, bool]:
    """Message index -> whether that user turn switches topic, for the user turns that are judged.

    >>> d = {"messages": [
    ...     {"role": "usr", "dialog_act": [["Request", "景点", "名称", ""]]},
    ...     {"role": "sys", "dialog_act": [["Recommend", "景点", "名称", "故宫"]]},
    ...     {"role": "usr", "dialog_act": [["Request", "景点", "地址", ""]]},
    ...     {"role": "usr", "dialog_act": [["General", "thank", "none", "none"]]},
    ...     {"role": "usr", "dialog_act": [["Request", "酒店", "名称", ""]]}]}
    >>> gold_switches(d)
    {2: False, 4: True}
    """
    out: dict[int, bool] = {}
    previous: str | None = None
    for i, m in enumerate(dialogue.get("messages", [])):
        if m.get("role") != "usr":
            continue
        topic = turn_topic(m.get("dialog_act", []))
        if topic is None:
            continue
        if previous is not None:
            out[i] = topic != previous
        previous = topic
    return out


def _prf(tp: int, fp: int, fn: int) -> dict:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": round(100 * p, 1), "recall": round(100 * r, 1), "f1": round(100 * f, 1)}


class DriftRule(ShiftModel):
    """The detector this release replaced, in the model's shape: a switch when the message's cosine to the
    recent centre is under 0.55 (0.75 after a switch cue) of the recent memories' cohesion."""

    def __init__(self) -> None:
        super().__init__(np.zeros(len(FEATURES)), 0.5, {"rule": "drift"})

    def probability(self, x: np.ndarray) -> float:
        f = dict(zip(FEATURES, x))
        return float(f["drift"] < (0.75 if f["switch_cue"] else 0.55))


def replay(items: list, embedder, model: ShiftModel | None) -> list[tuple[bool, bool]]:
    """(said, gold) per judged user turn, every turn fed to a bare TaskFocus with ``model``."""
    out = []
    for did, d in items:
        turns = dialogue_turns(did, d)
        vecs = embedder.embed([embed_text_for(t.content, t.kind, t.meta) for t in turns])
        gold = gold_switches(d)
        focus = TaskFocus(model=model)
        for i, (t, v) in enumerate(zip(turns, vecs)):
            if i in gold:
                said = focus.is_shift(v, t.content)
                out.append((said, gold[i]))
                if said:
                    focus.begin_topic()
            focus.observe(v, 1.0, t.kind, t.content)
    return out


def _score(pairs: list[tuple[bool, bool]]) -> dict:
    tp = sum(s and g for s, g in pairs)
    fp = sum(s and not g for s, g in pairs)
    fn = sum(g and not s for s, g in pairs)
    return {**_prf(tp, fp, fn), "confusion": {"tp": tp, "fp": fp, "fn": fn, "tn": len(pairs) - tp - fp - fn}}


def run_switches(data: str | Path, embedder, dialogues: int = 200, task: str | None = None) -> dict:
    """Precision / recall of switch detection on the first ``dialogues`` CrossWOZ dialogues with a judged turn."""
    t0 = time.time()
    items = [(did, d) for did, d in load_crosswoz(data) if gold_switches(d)][:dialogues]
    pairs: list[tuple[bool, bool]] = []
    misses: list[dict] = []
    with temp_runtime(embedder, WeaverConfig()) as rt:
        for did, d in tqdm(items, desc="switches", unit="dialogue", leave=False):
            w = rt.open(f"sw-{did}")
            if task:
                w.set_task(task)
            turns = dialogue_turns(did, d)
            results = w.ingest_many([Message(t.content, t.kind, dict(t.meta), f"sw:{t.key}") for t in turns])
            for i, is_switch in gold_switches(d).items():
                said = bool(results[i].decision.focus_shift_at)
                pairs.append((said, is_switch))
                if said != is_switch and len(misses) < 40:
                    misses.append({"dialogue": did, "turn": i, "gold": is_switch, "text": turns[i].content[:80]})
            rt.store.delete_space(f"sw-{did}")
    systems = {
        "weaver": _score(pairs),
        "weaver-replay": _score(replay(items, embedder, None)),
        "drift": _score(replay(items, embedder, DriftRule())),
    }
    return {
        "data": Path(data).name,
        "dialogues": len(items),
        "judged": len(pairs),
        "switches": sum(g for _, g in pairs),
        "task": task or "",
        "systems": systems,
        "misses": misses,
        "wall_s": round(time.time() - t0, 1),
    }


def switches_markdown(res: dict) -> str:
    rows = "".join(
        f"| {name} | {r['precision']} | {r['recall']} | {r['f1']} | {r['confusion']['tp']} | {r['confusion']['fp']} "
        f"| {r['confusion']['fn']} |\n"
        for name, r in res["systems"].items()
    )
    return (
        f"# Topic switches (CrossWOZ {res['data']})\n\n"
        f"{res['dialogues']} dialogues, {res['judged']} user turns judged, {res['switches']} of them switch topic "
        "(gold: the domain most of the turn's dialog acts are about differs from that of the user's previous "
        "turn). `weaver`: the real ingest path; `weaver-replay`: the same model over a bare focus that sees every "
        "turn; `drift`: the rule it replaced.\n\n"
        "| system | precision | recall | F1 | tp | fp | fn |\n|---|---|---|---|---|---|---|\n"
        + rows
        + f"\nTask focus set: {res['task'] or '(none)'}. Wall time {res['wall_s']} s. "
        "Reproduce: `python -m weaver bench switches` (test, held out) / `--data ../shared/data/crosswoz/val.json.zip "
        "--name switches_val` (val, fitted on; without `--name` it writes over the test page).\n"
    )
