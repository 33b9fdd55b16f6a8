"""Bilingual cue lexicons and the features the rules backend reasons with.

These are general patterns of constraint, decision, failure and dependency
language in Chinese and English — never phrases from a particular demo.

>>> f = features("对了，我对海鲜过敏，订餐时要注意。")
>>> sorted(f.slots), f.constraint
(['diet'], True)
>>> features("ok thanks!").pleasantry
True
>>> features("I joined a pottery class last week.").personal, features("Do you like my dog?").personal
(True, False)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from .text import content_words, extract_dates, extract_numbers

__all__ = ["Features", "features", "SLOT_CUES", "has_cue", "picks", "PICK"]


def _re(words: list[str]) -> re.Pattern:
    en = [w for w in words if w.isascii()]
    zh = [w for w in words if not w.isascii()]
    parts = []
    if en:
        parts.append(r"\b(?:" + "|".join(re.escape(w) for w in sorted(en, key=len, reverse=True)) + r")\b")
    if zh:
        parts.append("(?:" + "|".join(re.escape(w) for w in sorted(zh, key=len, reverse=True)) + ")")
    return re.compile("|".join(parts), re.IGNORECASE)


SLOT_CUES: dict[str, re.Pattern] = {
    "budget": _re(
        "预算 花费 费用 总共 不超过 以内 以下 最多 元 块 人均 价格 便宜 贵 经济 实惠 门票 票价 多少钱 收费 免费 "
        "budget spend spending cost costs price prices cheap expensive afford affordable yuan rmb dollars usd "
        "ticket tickets fee fees fare free".split()
        + ["per night", "per person"]
    ),
    "diet": _re(
        "过敏 忌口 不吃 素食 吃素 清真 海鲜 辣 不辣 口味 饮食 "
        "allergy allergic allergies vegetarian vegan halal seafood shellfish peanut peanuts gluten spicy diet".split()
        + ["don't eat", "do not eat", "can't eat", "cannot eat"]
    ),
    "dates": _re(
        "号 日 月 天 晚 周末 明天 后天 下周 入住 退房 出发 抵达 到达 返回 "
        "tomorrow tonight weekend night nights days checkin check-in checkout arrive arrival depart departure "
        "monday tuesday wednesday thursday friday saturday sunday".split()
    ),
    "location": _re(
        "附近 周边 靠近 旁边 离 地铁 地铁站 步行 距离 市中心 区 "
        "near nearby close walking distance metro subway station downtown district around".split()
    ),
    "amenity": _re(
        "设施 早餐 停车 停车场 无烟 无烟房 洗衣 健身房 泳池 游泳池 空调 热水 接机 叫醒 行李 "
        "wifi breakfast parking non-smoking laundry gym pool shuttle amenities facilities".split()
    ),
    "quiet": _re("安静 吵 清静 噪音 quiet noisy noise peaceful calm".split()),
    "rating": _re("评分 好评 口碑 星级 星 rating rated stars star reviews".split()),
}

_CONSTRAINT = _re(
    "必须 一定 务必 不要 别 不能 不想 不可以 只要 只能 只想 希望 需要 要求 最好 至少 最多 不超过 以内 以下 以上 过敏 预算 偏好 喜欢 讨厌 "
    "must need needs require requires required prefer preference want wants avoid without only never allergic "
    "budget limit under within least most maximum minimum".split()
    + ["have to", "no more than", "at most", "at least", "can't", "cannot", "don't", "do not", "should not"]
)
# hard constraints: breaking them harms the user (health, money limits, absolute prohibitions)
_HARD = _re(
    "过敏 忌口 千万 绝对 禁止 务必 不超过 最多 以内 上限 "
    "allergic allergy allergies intolerant intolerance never maximum limit".split()
    + ["must not", "at most", "no more than", "cannot exceed", "can't exceed", "not more than", "under no"]
)
_DECISION = _re(
    "决定 选择 选 订 预订 预定 确认 取消 改成 改为 换成 定了 就这家 安排 计划 打算 删掉 删除 移除 拿掉 "
    "decide decided choose chose book booked booking reserve reserved confirm confirmed cancel cancelled remove "
    "switch change changed pick picked plan planning going".split()
)
_FAILURE = _re(
    "失败 售罄 满房 订满 客满 没有 无法 不能 错误 报错 异常 关闭 不可用 "
    "fail failed failure error unavailable sold full closed denied rejected".split()
    + ["sold out", "no rooms", "not available"]
)
_CAUSE = _re(
    "因为 所以 因此 导致 由于 于是 造成 以致 because therefore thus hence so consequently since caused due".split()
    + ["as a result", "due to", "led to", "that's why"]
)
_CONDITION = _re(
    "如果 假如 要是 前提 只要 除非 根据 按照 基于 考虑到 结合 满足 符合 "
    "if unless provided given assuming considering based according".split()
    + ["as long as", "in case", "on condition", "taking into account"]
)
_ELABORATE = _re(
    "具体 比如 例如 另外 还有 而且 补充 也就是 尤其 特别是 包括 "
    "specifically example instance also additionally including especially namely detail details plus".split()
    + ["for example", "in particular", "such as", "that is"]
)
_QUESTION = re.compile(
    r"[?？]|\b(what|which|where|when|how|why|who|could you|can you)\b|吗|呢|哪|什么|怎么|几|多少|推荐"
)
_PLEASANTRY = re.compile(
    r"^\s*(?:(?:好的?|好吧|行|嗯+|哦+|啊+|哈+|呵+|谢谢(?:你|您|啦)?|多谢|感谢|明白(?:了)?|知道了|收到|没问题|可以|对|是的?|不客气|再见|拜拜|你好|您好|"
    r"ok(?:ay)?|k|thanks?(?: you)?(?: so much)?|thx|ty|got it|sure|cool|great|nice|awesome|yes|yeah|yep|no problem|"
    r"np|lol|haha|hi|hello|hey|bye|goodbye|alright|right|wow|perfect|sounds good|will do)"
    r"[\s,，.。!！~～…、:：)）(（👍🙂😊]*)+$",
    re.IGNORECASE,
)


_FIRST_PERSON = re.compile(
    r"\b(?:I|I'm|I've|I'd|I'll|my|mine|me|myself|we|we're|we've|our|ours|us)\b|我", re.IGNORECASE
)
_ADDRESSEE = re.compile(r"\b(?:you|your|you're|you've|yours|yourself)\b|你|您", re.IGNORECASE)
_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]*")


def _personal_statement(text: str) -> bool:
    """A sentence that is not a question, in the first person, with a few content words: something
    the speaker tells about themselves ("I joined a pottery class last week", "我下个月要搬家")."""
    for sentence in _SENTENCE.findall(text):
        if sentence.rstrip().endswith(("?", "？")) or not _FIRST_PERSON.search(sentence):
            continue
        # Chinese words carry more per word: two content words make a statement ("我下周要搬家")
        if len(content_words(sentence)) >= (2 if re.search(r"[\u4e00-\u9fff]", sentence) else 3):
            return True
    return False


def has_cue(pattern: re.Pattern, text: str) -> bool:
    return bool(pattern.search(text))


@dataclass(frozen=True)
class Features:
    words: frozenset[str]
    numbers: tuple[float, ...]
    dates: tuple[tuple[int, int], ...]
    slots: frozenset[str]
    constraint: bool
    hard: bool
    decision: bool
    failure: bool
    cause: bool
    condition: bool
    elaborate: bool
    question: bool
    pleasantry: bool
    personal: bool = False  # the speaker states something about themselves
    addressed: bool = False  # speaks about or to the other party ("you", "你")
    extra: dict = field(default_factory=dict, compare=False)

    @property
    def information(self) -> int:
        """A crude count of facts: content words plus numbers and dates."""
        return len(self.words) + len(self.numbers) + len(self.dates)


@lru_cache(maxsize=20_000)
def features(text: str) -> Features:
    return Features(
        words=frozenset(content_words(text)),
        numbers=tuple(extract_numbers(text)),
        dates=tuple(extract_dates(text)),
        slots=frozenset(s for s, p in SLOT_CUES.items() if p.search(text)),
        constraint=has_cue(_CONSTRAINT, text),
        hard=has_cue(_HARD, text),
        decision=has_cue(_DECISION, text),
        failure=has_cue(_FAILURE, text),
        cause=has_cue(_CAUSE, text),
        condition=has_cue(_CONDITION, text),
        elaborate=has_cue(_ELABORATE, text),
        question=bool(_QUESTION.search(text)),
        pleasantry=bool(_PLEASANTRY.match(text)) or not text.strip(),
        personal=_personal_statement(text),
        addressed=bool(_ADDRESSEE.search(text)),
    )


# a pick of one of the options offered, said as nothing else ("那就第二家吧", "The second one then", "Ok that one")
PICK = re.compile(
    r"^\s*(?:ok(?:ay)?[,，]?\s*|好[的吧]?[,，]?\s*)?(?:那就?|就|要|选)?\s*"
    # "Let's go with the first one" / "I'll take that one": the choosing words the agent reads as a pick too
    r"(?:(?:let'?s|we'?ll|i'?ll|we will|i will)\s+(?:go with|take|have|pick|choose)\s+)?"
    r"(?:第[一二三四五六七八九十两\d]+(?:个|家|间|条|项|种)?"
    r"|这(?:个|家|间)|那(?:个|家|间)|the (?:first|second|third|fourth|fifth|last) one|that one|this one)"
    r"\s*(?:吧|好了|then|please|it is)?\s*[.!。！]?\s*$",
    re.IGNORECASE,
)


def picks(content: str) -> bool:
    """A message that only picks one of the options offered: a choice with no verb of choosing.

    >>> [picks(t) for t in ["那就第二家吧", "The second one then", "Ok that one", "第二家怎么样？", "That's the one I made!"]]
    [True, True, True, False, False]
    >>> [picks(t) for t in ["Let's go with the first one.", "I'll take that one", "Let's go with the flow"]]
    [True, True, False]
    """
    return bool(PICK.match(content))
