"""Topic shifts: does a user message open a new topic, or follow up on the one in focus?

A new topic is almost always a new *request*: the user asks to find, book or go
to something else ("吃完饭我想找个酒店住宿，400-500元的", "now find me a hotel"),
and states its requirements. A follow-up asks about what is already in focus,
usually by a definite reference ("这家酒店的电话？", "is it open late?"). How far
the message lies from the recent memories helps, but alone it is a weak signal:
two requests for the same kind of thing look alike, and so do a request and the
question about its answer.

A small logistic model weighs twelve readable features (below); it is fitted by
``python -m weaver.topic_shift_train`` on CrossWOZ val, where each user turn's
topic is labelled by its dialog acts, and scored on CrossWOZ test by
``python -m weaver bench switches`` (data card: docs/topic-shifts.md).

>>> import numpy as np
>>> v = np.eye(4, dtype=np.float32)
>>> x = shift_features("吃完饭我想找一家评分4.5分以上的酒店住宿。", v[1], v[:1], v[0], v[0])
>>> dict(zip(FEATURES, x.round(2).tolist()))["request"], dict(zip(FEATURES, x.round(2).tolist()))["definite"]
(1.0, 0.0)
>>> model = default_model()
>>> model.probability(x) > model.threshold
True
>>> y = shift_features("这家酒店的电话是多少？", v[0], v[:1], v[0], v[0])
>>> model.probability(y) < model.threshold
True
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .cues import features as cue_features

__all__ = [
    "FEATURES",
    "SWITCH_CUE",
    "REQUEST",
    "EXPLICIT",
    "opens_topic_form",
    "shift_features",
    "ShiftModel",
    "default_model",
    "WEIGHTS_PATH",
]

WEIGHTS_PATH = Path(__file__).with_name("topic_shift.json")

# an explicit change of subject
SWITCH_CUE = re.compile(
    r"换个话题|另外|说说|聊聊|回到|再看看|接下来|顺便|至于|那.{0,6}呢|"
    r"\b(what about|how about|let's talk about|switch(ing)? to|back to|moving on|by the way|also,|now for)\b",
    re.IGNORECASE,
)
# the user says so: always a new topic
EXPLICIT = re.compile(
    r"换个话题|换个事|聊点别的|说点别的|说回|回到正题|言归正传|"
    r"\b(?:let's talk about|change the subject|changing the subject|switch(?:ing)? to|moving on|back to)\b",
    re.IGNORECASE,
)
# asking for something (to be found, recommended, booked, gone to): what opens a topic
REQUEST = re.compile(
    r"找|推荐|物色|预定|预订|订一|想去|要去|去.{0,12}(?:玩|吃|住|逛)|想吃|爱吃|想住|想玩|介绍一|还想|再给|再帮|再找|"
    r"换一|有没有.{0,30}的|"
    r"\b(?:find|recommend|suggest|looking for|book|want to|take a|get to|another|where can)\b",
    re.IGNORECASE,
)
# pointing at what is in focus: a follow-up
DEFINITE = re.compile(
    r"这家|那家|这个|那个|该|它|他家|她家|这几|这两|那几|这里|那里|周边|附近|"
    r"\b(?:the|it|its|that|there|they|them)\b",
    re.IGNORECASE,
)
# asking for an attribute of a thing (its address, phone, price, hours...)
ATTRIBUTE = re.compile(
    r"地址|电话|评分|价格|多少|几点|营业|时间|门票|类型|推荐菜|设施|周边有|附近有|吗[？?]?$|"
    r"\b(?:address|phone|number|price|cost|rating|hours|open|when|how much)\b",
    re.IGNORECASE,
)
# an activity the request is for (eating, staying, visiting, getting somewhere)
ACTIVITY = re.compile(
    r"游玩|住宿|吃饭|用餐|打车|出租车|地铁|乘坐|坐车|"
    r"\b(?:eat|dinner|lunch|breakfast|stay|visit|taxi|cab|metro|subway|train|flight)\b",
    re.IGNORECASE,
)


def opens_topic_form(text: str) -> bool:
    """Whether a message has the form that opens a topic: a request, a question, an activity or a switch cue.
    A plain statement ("Our budget is 3000 euros.", "I keep failing parallel parking.") adds to the topic in focus.

    >>> opens_topic_form("Our budget is 3000 euros in total."), opens_topic_form("Can you find a hotel in Bergen?")
    (False, True)
    >>> opens_topic_form("吃完饭我想找个酒店住宿"), opens_topic_form("我的预算是五千。")
    (True, False)
    """
    return bool(REQUEST.search(text) or ACTIVITY.search(text) or SWITCH_CUE.search(text) or cue_features(text).question)


FEATURES = (
    "request",  # REQUEST matches
    "definite",  # DEFINITE matches
    "cos_previous",  # cosine to the user's previous message
    "cos_anchor",  # cosine to the user's latest request
    "drift",  # cosine to the recent memories' centre, relative to how tightly they cluster
    "switch_cue",  # SWITCH_CUE matches
    "attribute",  # ATTRIBUTE matches
    "numbers",  # numbers stated (up to 3) / 3
    "constraint",  # the cue lexicon reads a constraint
    "slots",  # constraint slots named (up to 3) / 3
    "activity",  # ACTIVITY matches
    "bias",
)


def shift_features(
    text: str,
    vec: np.ndarray,
    recent: np.ndarray,
    previous: np.ndarray | None,
    anchor: np.ndarray | None,
) -> np.ndarray:
    """The features of a user message (``vec``, unit length) against the recent memories (rows of
    ``recent``, unit length), the user's previous message and the user's latest request (each None when there
    is none: then the message is compared with itself, as a conversation's first word has nothing to leave)."""
    centre = recent.mean(0) if len(recent) else vec
    centre = centre / (np.linalg.norm(centre) or 1.0)
    cohesion = float((recent @ centre).mean()) if len(recent) else 1.0
    prev = vec if previous is None else previous
    anch = prev if anchor is None else anchor
    f = cue_features(text)
    return np.array(
        [
            float(bool(REQUEST.search(text))),
            float(bool(DEFINITE.search(text))),
            float(prev @ vec),
            float(anch @ vec),
            float(centre @ vec) / max(cohesion, 1e-6),
            float(bool(SWITCH_CUE.search(text))),
            float(bool(ATTRIBUTE.search(text))),
            min(len(f.numbers), 3) / 3,
            float(f.constraint),
            min(len(f.slots), 3) / 3,
            float(bool(ACTIVITY.search(text))),
            1.0,
        ],
        dtype=np.float64,
    )


@dataclass(frozen=True)
class ShiftModel:
    weights: np.ndarray  # (len(FEATURES),)
    threshold: float  # a shift at or above this probability
    card: dict

    def probability(self, x: np.ndarray) -> float:
        return float(1.0 / (1.0 + np.exp(-np.clip(x @ self.weights, -30, 30))))

    def to_json(self) -> dict:
        return {
            "features": list(FEATURES),
            "weights": [round(float(w), 6) for w in self.weights],
            "threshold": self.threshold,
            "card": self.card,
        }

    @classmethod
    def from_json(cls, data: dict) -> "ShiftModel":
        if list(data.get("features", [])) != list(FEATURES):
            raise ValueError(
                "topic-shift weights were fitted on other features: rerun python -m weaver.topic_shift_train"
            )
        return cls(np.asarray(data["weights"], dtype=np.float64), float(data["threshold"]), dict(data.get("card", {})))


@lru_cache(maxsize=1)
def default_model() -> ShiftModel:
    """The shipped model (fitted on CrossWOZ val; see docs/topic-shifts.md)."""
    return ShiftModel.from_json(json.loads(WEIGHTS_PATH.read_text(encoding="utf-8")))
