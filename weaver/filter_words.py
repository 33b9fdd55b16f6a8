"""The selective filter's reasons in the reader's language (no streamlit).

The filter records its reason in English ("rejected: total 2.60 < 3.0 (little information)"): the
CLI, the exports and the tests read that exact text. A person in the Chinese studio reads it here,
phrase by phrase, the numbers kept. A reason written by an LLM stays as the model wrote it.

>>> filter_reason_in_words("rejected: total 2.60 < 3.0 (little information)", "zh")
'拒绝：总分 2.60 < 3.0（信息很少）'
>>> filter_reason_in_words("kept: total 3.85 >= 3.0 (mentions budget/dates; constraint; hard limit)", "zh")
'保留：总分 3.85 >= 3.0（提到预算/日期；约束；硬性限制）'
>>> filter_reason_in_words("rejected at stage 1: off focus (coarse 0.12 < 0.2)", "zh")
'第一阶段拒绝：偏离任务焦点（粗筛 0.12 < 0.2）'
>>> filter_reason_in_words("kept: asks for a restaurant decision (total 2.60; little information)", "zh")
'保留：请求一个餐厅方面的决定（总分 2.60；信息很少）'
>>> filter_reason_in_words("rejected: filler: courtesy or reaction, nothing of its own", "zh")
'拒绝：客套或附和：没有自己的内容'
>>> filter_reason_in_words("rejected: total 2.60 < 3.0 (little information)", "en")
'rejected: total 2.60 < 3.0 (little information)'
"""

from __future__ import annotations

import re

__all__ = ["filter_reason_in_words", "SLOTS_ZH", "DOMAINS_ZH"]

# the slot readers' and the agent's names in Chinese (weaver/rationale_words.py reads them too)
SLOTS_ZH = {
    "budget": "预算",
    "diet": "饮食",
    "dates": "日期",
    "location": "位置",
    "amenity": "设施",
    "quiet": "安静",
    "rating": "评分",
    "people": "人数",
    "party": "人数",
    "nights": "晚数",
    "date": "日期",
    "place": "地点",
}
DOMAINS_ZH = {
    "hotel": "酒店",
    "restaurant": "餐厅",
    "attraction": "景点",
    "plan": "行程",
    "place": "地点",
    "total": "总",
}
# longest first, so "rejected at stage 1" is read before "rejected"
_PHRASES = [
    ("filler reply: courtesy only, nothing to remember", "客套回复：只是寒暄，没有要记住的内容"),
    ("filler: courtesy or reaction, nothing of its own", "客套或附和：没有自己的内容"),
    ("states a constraint the slot reader reads", "陈述了槽位读取器能读出的约束"),
    ("makes a choice in the task", "在任务中做出了选择"),
    ("pleasantry / no information", "寒暄 / 无信息"),
    ("reaction to the other party", "对对方的回应"),
    ("near-duplicate of memory", "与已有记忆几乎重复"),
    ("agent step on the task", "任务上的智能体步骤"),
    ("promoted by a curator", "由整理者提升"),
    ("rejected at stage 1", "第一阶段拒绝"),
    ("little information", "信息很少"),
    ("asks for another option", "请求换一个选择"),
    ("general content", "一般内容"),
    ("personal fact", "个人信息"),
    ("new numbers", "新数字"),
    ("hard limit", "硬性限制"),
    ("little new", "新内容少"),
    ("off focus", "偏离任务焦点"),
    ("constraint", "约束"),
    ("rejected", "拒绝"),
    ("decision", "决定"),
    ("failure", "失败"),
    ("cosine", "余弦"),
    ("coarse", "粗筛"),
    ("total", "总分"),
    ("kept", "保留"),
]
_PHRASE = re.compile("|".join(re.escape(en) for en, _ in _PHRASES))
_ZH = dict(_PHRASES)
_MENTIONS = re.compile(r"\bmentions ([a-z/]+)")
_ASKS = re.compile(r"\basks for an? (\w+) decision")
_PUNCT = {"(": "（", ")": "）", "; ": "；", ": ": "：", ", ": "，"}


def filter_reason_in_words(reason: str, lang: str = "en") -> str:
    """``reason`` as the filter wrote it, or in Chinese for ``lang`` "zh" (numbers and unknown words kept)."""
    if not reason or not str(lang).lower().startswith("zh"):
        return reason
    text = _MENTIONS.sub(lambda m: "提到" + "/".join(SLOTS_ZH.get(s, s) for s in m.group(1).split("/")), reason)
    text = _ASKS.sub(lambda m: f"请求一个{DOMAINS_ZH.get(m.group(1), m.group(1))}方面的决定", text)
    text = _PHRASE.sub(lambda m: _ZH[m.group(0)], text)
    for en, zh in _PUNCT.items():
        text = text.replace(en, zh)
    return re.sub(r"\s+(?=（)|(?<=：)\s+", "", text)
