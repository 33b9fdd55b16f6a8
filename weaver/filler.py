"""Filler: a message that carries nothing to remember ("好的。还需要查什么吗？", "Sure, anything else?", "Wow, so cute!").

One test for every speaker: after the words of courtesy, acknowledgement and reaction, and the words the message
only echoes from the one before it ("That painting is awesome!" after "I painted this"), nothing is left: no
content word of its own, no number, no slot value. A message's own name label ("Caroline: ...") is not content.
What is left decides, not a score: a reaction that adds one word of its own ("Wow, did you see that band?") is kept.

>>> [is_filler(t) for t in ("好的。还需要查什么吗？", "Sure, anything else I can help with?", "好的，已记下。",
...                          "不客气！还需要查什么吗？", "哈哈，太好了", "嗯嗯，谢谢！", "Thanks! Can't wait to hear about it. Bye!")]
[True, True, True, True, True, True, True]
>>> [is_filler(t) for t in ("好的，已记下：每晚不超过600元。", "I'm vegetarian.", "我吃素。", "Noted: no seafood.",
...                          "I'd love to see it at 5!", "Wow! Did you see that band?", "太好了，就订这家吧")]
[False, False, False, False, False, False, False]
>>> is_filler("Melanie: That painting is so vivid!", echoes={"painting", "vivid"}, speaker="Melanie")
True
>>> is_filler("Melanie: That painting is so vivid!", speaker="Melanie")
False
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from .constraints import statement_values
from .text import STOPWORDS_EN, content_words, extract_dates, extract_numbers

__all__ = ["is_filler", "FILLER_WORDS", "without_label", "echo_words"]

# courtesy, acknowledgement and offers of more help (what an agent's filler reply is made of)
_COURTESY = (
    "好的 好 行 不 不用 用 嗯 嗯嗯 哈哈 哈 已 已经 记下 记住 收到 明白 了解 知道 还 还有 需要 要 查 查询 什么 吗 别的 其他 其它 帮 "
    "帮忙 帮您 可以 随时 告诉 我 您 你 请问 没问题 不客气 客气 谢谢 感谢 再 问 继续 有 呢 吧 啊 呀 哦 噢 那 就 看 听起来 不错 太好了 棒 "
    "ok okay sure noted got anything else help let know need glad happy assist can do what would like "
    "welcome thanks thank great cool fine right alright more something just feel free ask tell sounds good nice "
    "perfect awesome wonderful problem"
)
# reactions: interjections, praise, feelings towards what the other said, greetings and goodbyes, the light verbs
# of chat; in both languages. None of them says what happened, who, where or when.
_REACTION = (
    "哇 哇塞 嘿 嗨 你好 您好 再见 拜拜 回头 聊 哈哈哈 嘻嘻 呵呵 嗯呢 对 对啊 是啊 是的 确实 真的 真 太 好棒 太棒了 厉害 牛 漂亮 好看 "
    "可爱 开心 高兴 感动 喜欢 佩服 加油 辛苦 辛苦了 祝 祝你 希望 期待 恭喜 当然 一定 肯定 没错 同意 有趣 好玩 精彩 美 真美 很 非常 特别 "
    "wow aww awww yay yep yup nope nah hey hi hiya hello oh ooh omg lol haha hehe woohoo yoohoo whoa congrats "
    "congratulations amazing incredible beautiful lovely fantastic fabulous brilliant gorgeous stunning cute sweet "
    "adorable fun funny exciting excited inspiring inspired impressive proud thrilled stoked pumped super totally "
    "truly definitely absolutely much lot lots tons thanks appreciate appreciated means mean sorry hope hoping wish "
    "wishing luck best care sound look looks looking seem seems feel feels felt love loved loving likes keep going "
    "doing done rock rocks wait hear heard share sharing special agree true exactly thing things bye goodbye later "
    "soon chat talk talking catch see glad enjoy enjoyed yeah yes cheers hang hugs well"
)
FILLER_WORDS = frozenset((_COURTESY + " " + _REACTION).split())
_CLITICS = ("n't", "'ll", "'re", "'ve", "'d", "'m", "'s")


def _plain(word: str) -> str:
    """A word without its clitic, lower-cased ("didn't" -> "did", "can't" -> "can", "it'll" -> "it")."""
    w = word.lower().replace("’", "'")
    for c in _CLITICS:
        if w.endswith(c):
            w = w[: -len(c)]
            return {"ca": "can", "wo": "will", "sha": "shall"}.get(w, w)
    return w


def without_label(text: str, speaker: str = "") -> str:
    """``text`` without its speaker's name label ("Caroline: hi" -> "hi"), as a transcript line carries it.

    >>> without_label("Caroline: Thanks!", "Caroline"), without_label("Noted: no seafood.")
    ('Thanks!', 'Noted: no seafood.')
    """
    for sep in (":", "："):
        if speaker and text.startswith(speaker + sep):
            return text[len(speaker) + 1 :].lstrip()
    return text


def echo_words(text: str, speaker: str = "") -> frozenset[str]:
    """What a reply to ``text`` may echo without saying anything new: its content words and its speaker's name.

    >>> sorted(echo_words("Caroline: I painted a lake!", "Caroline"))
    ['caroline', 'lake', 'painted']
    """
    words = {_plain(w) for w in content_words(without_label(text or "", speaker))}
    return frozenset(words | ({speaker.lower()} if speaker else set()))


def is_filler(text: str, echoes: AbstractSet[str] = frozenset(), speaker: str = "", own: int = 0) -> bool:
    """True when ``text`` holds only courtesy, acknowledgement, reaction or an offer of more help: every content
    word is such a word or one of ``echoes`` (the lower-cased content words of the message before it), but for at
    most ``own`` words of its own. ``speaker``: the name the text may begin with as a label ("Caroline: ...")."""
    text = without_label(text or "", speaker)
    if not text.strip():
        return True
    if extract_numbers(text) or extract_dates(text) or statement_values(text):
        return False
    said = {_plain(w) for w in content_words(text)}
    own_words = {p for p in said if p not in FILLER_WORDS and p not in STOPWORDS_EN and p not in echoes}
    return len(own_words - {speaker.lower()}) <= own
