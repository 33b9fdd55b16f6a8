"""A question asks, it does not tell: in a conversation between people, a turn that only asks ranks a little lower.

"Wow, sounds amazing! What was the event like?" shares the words of "What activities does Melanie partake in?",
but the answer is in the reply to it, not in it. In LoCoMo's conversations a question turn is evidence half as
often as any other turn (12.7% of 1,046 against 26.3% of 3,078), and the budget went to the named speaker's own
questions about the other's life. A question still lends its full relevance to its neighbours (the episode
context, weaver/neighbourhood.py): only its own place in the ranking drops, by ``weight``, so its answer gains
room. The weight (0.1) was chosen by leave-one-conversation-out on LoCoMo (docs/benchmarks/README.md).

Only memories with a named speaker in a space of two or more speakers: a chat between people. A user's question
to an agent is a request that states a need ("有没有评分4.5以上的景点？": 125 of CrossWOZ's 286 evidence turns end
with a question mark), and an agent's memories carry no speaker, so the agent, CrossWOZ and MADial are untouched.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .neighbourhood import NodeFacts

__all__ = ["asks", "question_offset"]

# a trailing attachment ("[shares a photo of ...]", "(image)") is not what the turn says
_ATTACHMENT = re.compile(r"(\s*[\[(（【][^\[\]()（）【】]*[\])）】])+\s*$")


def asks(text: str) -> bool:
    """Whether a turn ends by asking (a question mark, en or zh, before any trailing attachment).

    >>> asks("Melanie: Wow! What got you into running?"), asks("Caroline: I ran a charity race.")
    (True, False)
    >>> asks("Tim: Have you been to Paris? [shares a photo of the Eiffel Tower]"), asks("去哪儿好呢？")
    (True, True)
    >>> asks("Is it? No, it was fine."), asks("")
    (False, False)
    """
    return _ATTACHMENT.sub("", text or "").rstrip().endswith(("?", "？"))


def question_offset(facts: NodeFacts | None, weight: float) -> np.ndarray | float:
    """Minus ``weight`` for each memory that asks and has a named speaker, when the space has two or more
    speakers; 0.0 when nothing changes.

    >>> from weaver.neighbourhood import NodeFacts
    >>> f = NodeFacts.of([({"speaker": "Ann"}, 1, "How was it?"), ({"speaker": "Bo"}, 2, "Great."),
    ...                   ({}, 3, "Any hotel under 800?")])
    >>> [round(float(x), 2) for x in question_offset(f, 0.1)]
    [-0.1, 0.0, 0.0]
    >>> question_offset(NodeFacts.of([({"speaker": "Ann"}, 1, "How was it?")]), 0.1)  # one speaker
    0.0
    """
    if facts is None or not weight or len(facts.speaker_codes) < 2 or len(facts) == 0:
        return 0.0
    return np.where(facts.asks, np.float32(-weight), np.float32(0.0)).astype(np.float32)
