"""Content support for a guessed link in a user <-> agent conversation.

The link model learnt discourse attachment on multi-party chats (Molweni), where
almost every utterance replies to one just before it. Between a user and an agent
that prior is not a dependency: "my budget is 5000 yuan" does not depend on the
attraction list the agent showed before it, and two constraints stated one after
the other are siblings, not cause and effect. So when neither end names its
speaker (the two roles, ``user`` and ``agent``), a guessed link also needs
support in the content (precision first: an edge a curator would delete is worse
than none):

* the parent asked a question and the child is the other party's next turn (an answer);
* the two share a content word, a number or a name;
* the child opens by pointing back ("那家", "the second one", "so", "还有呢") or is a
  short reply on a different speaker's turn.

What the parent only repeats from memory (meta ``restates``: the agent's recap of
the constraints, a quoted earlier message) is not its content: a later message
that shares those words builds on where they were said, not on the echo.

Chats with named speakers (Molweni, LoCoMo) keep the link model's verdict, but for an **aside**: a message that
opens by turning away ("By the way, ...", "对了，...", "btw", "话说") starts a new subject, so in any chat it
is linked only where the content backs it (a shared content word, number or name): the turn just before is not
what it builds on ("Sunny on Saturday" -> "By the way, I started a new job" is no dependency).

>>> from weaver.models import MemoryNode
>>> node = lambda text, kind, turn: MemoryNode("n%d" % turn, text, kind, turn, "m")
>>> shown = node("共找到465个景点，前5个：万寿山、中和殿", "agent_response", 1)
>>> supported(shown, node("我的预算总共五千元", "user_input", 2))
False
>>> supported(node("请问您几号入住？", "agent_response", 1), node("五月一号", "user_input", 2))
True
>>> asked = node("How do I get from the airport?", "user_input", 1)
>>> supported(asked, node("Take the Airport Express.", "agent_response", 2))
True
>>> supported(asked, node("Dinner: no seafood, within budget.", "agent_thought", 3),
...           [node("Airport Express: every 10 min.", "tool_result", 2)])
False
>>> supported(shown, node("万寿山要门票吗？", "user_input", 2))
True
>>> supported(shown, node("第二个怎么样", "user_input", 2))
True
>>> supported(node("My total budget is 5000 yuan.", "user_input", 1),
...           node("I'm allergic to seafood, so no seafood please.", "user_input", 2))
False
>>> recap = MemoryNode("r", "Going by: total budget 6000. Hotel Jinjiang, 679/night", "agent_response", 3, "m",
...                    meta={"restates": ["total budget 6000"]})
>>> supported(recap, node("Actually, make the total budget 9000 yuan.", "user_input", 4))
False
>>> named = MemoryNode("a", "anyone here?", "user_input", 1, "m", meta={"speaker": "bob"})
>>> supported(named, MemoryNode("b", "my disk is full", "user_input", 2, "m", meta={"speaker": "amy"}))
True
>>> anna = lambda text, turn: MemoryNode("a%d" % turn, "Anna: " + text, "user_input", turn, "m", meta={"speaker": "Anna"})
>>> supported(anna("Sunny on Saturday, rain on Sunday.", 1), anna("By the way, I started a new job.", 2))
False
>>> supported(anna("We camped by a lake.", 1), anna("By the way, the lake was freezing.", 2))
True
>>> supported(node("请问您几号入住？", "agent_response", 1), node("对了，我对海鲜过敏", "user_input", 2))
False
>>> supported(node("您的预算是多少？", "agent_response", 1), node("对了，两千以内吧", "user_input", 2))
True
"""

from __future__ import annotations

import re

from ..cues import features, picks
from ..filler import without_label
from ..models import MemoryNode
from .features import speaker_of
from .references import own_content, shared_name

__all__ = ["two_roles", "supported", "own_content", "BACK_REFERENCE", "ASIDE"]

# the child's opening words point back at what was just said
BACK_REFERENCE = re.compile(
    r"^\s*(?:那(?!些年)|这(?:家|个|里|些)|那(?:家|个|里|些)|它|第[一二三四五六七八九十两\d]+|上面|刚才|前面|之前|还有|另外|"
    r"所以|然后|那么|于是|不过|但是|可是|好的?[，,]?那|"
    r"(?:the|that|this)\s+(?:first|second|third|last|one|place|hotel|restaurant|option)|that|those|these|it\b|"
    r"so\b|then\b|and\b|but\b|also\b|what about|how about|ok(?:ay)?,? (?:so|then))",
    re.IGNORECASE,
)
# the child's opening words turn away from what was just said: a new subject (after a speaker's name label)
ASIDE = re.compile(
    # "话说回来" returns to the point and "顺便帮我查…" asks for more of the same: neither turns away; "anyway"
    # as often resumes ("Anyway, the 5th of May.") and is left to the model
    r"^\s*(?:对了|话说(?!回来)|顺便(?:说|问|提)(?:一)?(?:下|句)?|题外话|换个话题|说点别的|另外说一下|"
    r"(?:(?:oh|also|and)[,，]?\s+(?:and\s+)?)?(?:by the way|btw)\b|"
    r"(?:on another note|on a different note|unrelated(?:ly)?|changing the subject|random question)\b)",
    re.IGNORECASE,
)
_ROLES = ("user", "agent")
# asks something: a question mark, or a sentence that ends in a question particle ("推荐" alone is a request)
_ASKS = re.compile(r"[?？]|[吗呢么吧][。.!！]?\s*$")


def two_roles(parent: MemoryNode, child: MemoryNode) -> bool:
    """Neither end names its speaker: a conversation between the user and the agent."""
    return speaker_of(parent.kind, parent.meta) in _ROLES and speaker_of(child.kind, child.meta) in _ROLES


def supported(parent: MemoryNode, child: MemoryNode, between: list[MemoryNode] | tuple = ()) -> bool:
    """Whether the content backs a link from ``parent`` to ``child`` (always, when speakers are named).

    ``between``: the memories between the two, in order (a question the child's side
    already answered there is not what the child answers).
    """
    aside = ASIDE.match(without_label(child.content, str(child.meta.get("speaker") or "")))
    if not two_roles(parent, child):
        return not aside or _shares(without_label(own_content(parent), str(parent.meta.get("speaker") or "")), child)
    own = own_content(parent)
    cf = features(child.content)
    me = speaker_of(child.kind, child.meta)
    other = speaker_of(parent.kind, parent.meta) != me
    if other and _ASKS.search(own) and all(speaker_of(n.kind, n.meta) != me for n in between):
        # the answer to the question just asked; after an aside opener only a value answers it ("对了，两千以内吧"
        # to "您的预算是多少？"), a new subject does not ("对了，我对海鲜过敏" to "请问您几号入住？")
        if not aside or cf.numbers or cf.dates:
            return True
    if aside:
        return _shares(own, child)
    if BACK_REFERENCE.match(child.content) or picks(child.content) or (other and cf.pleasantry):
        return True
    return _shares(own, child)


def _shares(parent_text: str, child: MemoryNode) -> bool:
    """A content word, a number or a name in common (the child's speaker label aside)."""
    text = without_label(child.content, str(child.meta.get("speaker") or ""))
    pf, cf = features(parent_text), features(text)
    if pf.words & cf.words or set(pf.numbers) & set(cf.numbers):
        return True
    return shared_name(text, parent_text) is not None
