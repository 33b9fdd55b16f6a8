"""Filler: a message that carries nothing to remember ("好的。还需要查什么吗？", "Sure, anything else?").

The filter's rules drop a user's bare pleasantry; an agent's courtesy reply
used to be kept as an on-task step (and even tagged a constraint). One test for
both speakers: every content word is a courtesy or offer word, and there is no
number, no slot value and no name.

>>> [is_filler(t) for t in ("好的。还需要查什么吗？", "Sure, anything else I can help with?", "好的，已记下。",
...                          "不客气！还需要查什么吗？")]
[True, True, True, True]
>>> [is_filler(t) for t in ("好的，已记下：每晚不超过600元。", "I'm vegetarian.", "我吃素。", "Noted: no seafood.")]
[False, False, False, False]
"""

from __future__ import annotations

from .constraints import statement_values
from .text import content_words, extract_numbers

__all__ = ["is_filler", "FILLER_WORDS"]

FILLER_WORDS = frozenset(
    "好的 好 行 不 不用 用 嗯 嗯嗯 哈哈 哈 已 已经 记下 记住 收到 明白 了解 知道 还 还有 需要 要 查 查询 什么 吗 别的 其他 其它 帮 帮忙 帮您 "
    "可以 随时 告诉 我 您 你 请问 没问题 不客气 客气 谢谢 感谢 再 问 继续 有 呢 吧 啊 呀 哦 噢 那 就 看 听起来 不错 太好了 棒 "
    "ok okay sure noted got anything else help let know need glad happy assist can do what would like "
    "welcome thanks thank great cool fine right alright more something just feel free ask tell sounds good nice "
    "perfect awesome wonderful problem".split()
)


def is_filler(text: str) -> bool:
    """True when ``text`` holds only courtesy, acknowledgement or an offer of more help."""
    if not text or not text.strip():
        return True
    if extract_numbers(text) or statement_values(text):
        return False
    words = content_words(text)
    return all(w.lower() in FILLER_WORDS for w in words)
