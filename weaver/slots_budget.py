"""Budgets in a message: amounts framed as a budget, with their bound (max / min / about / range / delta) and scope.

Precision first: an amount is a budget only when it is framed as one (预算 / budget,
a bound such as 以内 / at most, a scope such as 每晚 / per person); a change by an
amount ("预算再加两千") is a delta, money spent is no budget at all.
"""

from __future__ import annotations

import re

from .numerals import find_numbers
from .slot_value import SlotValue, around_span, compile_ci, is_change

__all__ = ["read_budgets", "BUDGET_FRAMES", "HOTEL_WORDS", "FOOD_WORDS"]

# ------------------------------------------------------------------ budgets
_CURRENCY_AFTER = compile_ci(r"^\s*(?:元|块钱|块|rmb|yuan|cny|kuai|dollars?|usd|bucks|euros?|欧元|美元|美金|刀)")
_CURRENCY_BEFORE = compile_ci(r"(?:[$¥￥€]|rmb|cny|usd)\s*$")
_NOT_MONEY_AFTER = compile_ci(
    r"^\s*(?:个|晚|天|日|号|月|年|人|位|口|岁|点|分钟|小时|公里|千米|米|颗|星|层|间|张|次|%|％|:|："
    r"|nights?\b|days?\b|people\b|persons?\b|adults?\b|guests?\b|stars?\b|years?\b|hours?\b|minutes?\b|km\b|"
    r"miles?\b|st\b|nd\b|rd\b|th\b|am\b|pm\b|of us\b)"
)
_NAMED = compile_ci(
    r"预算|经费|价位|价格区间|价格|价钱|房价|可以花|能花|打算花|budget|price range|price|"
    r"(?:can|could|will|want to|plan to|going to) spend"
)
_MAX = compile_ci(
    r"别超过|不超过|不能超过|不要超过|不得超过|以内|之内|以下|最多|顶多|封顶|上限|不高于|(?<!不)低于|(?<!不)少于|不到|"
    r"under|below|at most|no more than|not more than|max(?:imum)?|up to|within|(?<!no )(?<!not )less than|or less|"
    r"cap|tops"
)
_MIN = compile_ci(r"不低于|不少于|至少|起码|最低|以上|or more|at least|minimum|no less than|more than|over|above")
_ABOUT = compile_ci(r"左右|上下|大约|大概|约|差不多|around|about|roughly|approximately|approx|~")
# the word right before the amount, however long ("hotels around 600": six characters back reach only "round ")
_ABOUT_RIGHT_BEFORE = compile_ci(r"\b(?:around|about|roughly|approximately|approx)\s*(?:[$¥￥€]|rmb|cny)?\s*$")
_NIGHT = compile_ci(
    r"每晚|一晚|每天晚上|每夜|/晚|房价|per night|a night|each night|every night|/night|nightly|room rate"
)
_PERSON = compile_ci(
    r"人均|每人|一人|一个人(?=\s*(?:预算|大概|大约|差不多))|每位|per person|a head|per head|each|/person|\bpp\b"
)
_TICKET = compile_ci(r"门票|票价|ticket|entrance|admission")
_TOTAL = compile_ci(r"总共|一共|总预算|总计|整个|全部|全程|总|total|overall|altogether|whole trip|in all|all in")
HOTEL_WORDS = compile_ci(
    r"酒店|宾馆|旅馆|旅店|旅舍|青旅|客栈|住宿|住处|房间|民宿|hotel|room|stay|accommodation|hostel|guest ?house"
)
FOOD_WORDS = compile_ci(r"餐厅|饭店|吃饭|吃|餐|restaurant|meal|dinner|lunch|food|eat")
_RANGE_JOIN = compile_ci(r"^\s*(?:到|至|-|–|~|～|to|and)\s*$")
_CHANGE_JOIN = compile_ci(
    r"^\s*(?:改成|改为|改到|提高到|提到|增加到|加到|涨到|降到|降低到|减到|调整到|调整为|调到|变成|换成|到|"
    r"->|→|to)\s*$"
)
_FROM = compile_ci(r"(?:从|由|from)\s*$")
# "改成100到150" / "change it to 100-150": the new value is the range that follows
_CHANGED_TO = compile_ci(
    r"(?:改成|改为|改到|换成|调到|调整到|调整为|提高到|降到|变成|(?:change|make|set) (?:it|that) to|"
    r"make it)\s*$"
)
_NEGATED = compile_ci(r"(?:不是|并非|而不是|而非|instead of|rather than|not)\s*$")
# "预算再加两千" / "raise the budget by 2,000": a change by an amount, not a new amount ("加到一万" is one)
_MORE_BY = compile_ci(
    r"(?:再|又)?(?<!参)(?:加|增加|添|追加|多加|提高|上调|涨|多给)了?\s*$|(?:再|又)多\s*$|(?<![最至顶差不])多了\s*$|"
    r"\b(?:up|rais(?:e|ed|ing)|increas(?:e|ed|ing)|bump(?:ed)?(?: it)?(?: up)?|add(?:ed|ing)?|extend(?:ed)?)\b"
    r"[^,.;]{0,24}?\bby\s*$|\b(?:add(?:ed|ing)?|another|an extra|extra)\s*$"
)
_LESS_BY = compile_ci(
    r"(?:减|减少|少|降低|下调|砍|缩减|压缩|省)了?(?:掉)?\s*$|"
    r"\b(?:down|cut|lower(?:ed)?|reduc(?:e|ed|ing)|decreas(?:e|ed|ing)|trim(?:med)?)\b[^,.;]{0,24}?\bby\s*$"
)
_MORE_AFTER = compile_ci(r"^\s*(?:元|块钱|块|yuan|rmb|cny|kuai|dollars?)?\s*(?:more|extra)\b")
_SPENT = compile_ci(r"花了|花掉|付了|用了|spent|paid|cost me|it cost|was charged")
_VAGUE = compile_ci(
    r"几千|几百|几万|上千|上万|数千|数百|好几千|a few (?:hundred|thousand)|several (?:hundred|thousand)|"
    r"hundreds|thousands"
)


_BUDGET_WORD = compile_ci(r"预算|经费|budget")
_WORD_REST = re.compile(r"[A-Za-z]*")


def _reach(after: str, n: int) -> str:
    """The first ``n`` characters after an amount, the last English word whole ("150 per person": ten characters
    reach only " per perso")."""
    cut = min(n, len(after))
    rest = _WORD_REST.match(after, cut)
    return after[: rest.end() if rest else cut]


def _money(text: str, start: int, end: int) -> bool:
    # 24 characters back (within the clause): "The budget per night is 800" names its budget 21 before the amount
    before, after = around_span(text, start, end, 24, 24)
    if _NOT_MONEY_AFTER.match(after):
        return False
    # "Budget per person for dinner about 150": a bounded amount whose budget was named earlier in the clause
    far = around_span(text, start, end, 40, 0)[0]
    return bool(
        _CURRENCY_AFTER.match(after)
        or _CURRENCY_BEFORE.search(before)
        or _NAMED.search(before)
        or (_BUDGET_WORD.search(far) and _ABOUT_RIGHT_BEFORE.search(before))
        or _NIGHT.search(before[-8:] + " " + _reach(after, 10))
        or _PERSON.search(before[-8:] + " " + _reach(after, 10))
        or _MAX.search(before[-8:] + " " + after[:6])
        or _MIN.search(before[-8:] + " " + after[:6])
    )


_PRICE = compile_ci(r"价格|价钱|price")
# a scope said as the budget's adjective, further back than the words next to the amount: "Raise the nightly budget
# to 800" is per night (12 characters back reach only "budget to ")
_NIGHTLY_BUDGET = compile_ci(r"(?:nightly|per[- ]night|night's|a[- ]night)\s+budget\b[^,.;\d]{0,20}$")
_PERSON_BUDGET = compile_ci(r"(?:per[- ]person|per[- ]head|per[- ]capita)\s+budget\b[^,.;\d]{0,20}$")


def _budget_scope(local: str, clause: str, sentence: str = "") -> str:
    if _NIGHT.search(local):
        return "night"
    if _PERSON.search(local):
        return "person"
    if _PRICE.search(local) and not _BUDGET_WORD.search(local):
        # a price is the price of something: the hotel's is per night, a meal's per person
        if HOTEL_WORDS.search(clause):
            return "night"
        if FOOD_WORDS.search(clause):
            return "person"
        if _TICKET.search(clause):
            return "ticket"
    if not _NAMED.search(local) and not _TOTAL.search(local):
        if _NIGHT.search(clause):  # "per night, I can now go up to 800"
            return "night"
        if _PERSON.search(clause):
            return "person"
        if _TICKET.search(clause) and not (HOTEL_WORDS.search(clause) or FOOD_WORDS.search(clause)):
            return "ticket"  # "between 20 and 50 yuan for attraction tickets"
    if _TICKET.search(local):
        return "ticket"
    if _TOTAL.search(local):
        return "total"
    if HOTEL_WORDS.search(clause) and not _NAMED.search(local):
        return "night"
    if FOOD_WORDS.search(clause) and not _NAMED.search(local):
        return "person"
    if not _NAMED.search(local):
        # "a cheap hotel near X, max 300": the amount's own clause names nothing, its sentence names the hotel
        # alone (or a meal alone): the cap is that one's price (a total is said as one: 预算 / 一共 / total)
        hotel, food = HOTEL_WORDS.search(sentence), FOOD_WORDS.search(sentence)
        if hotel and not food:
            return "night"
        if food and not hotel:
            return "person"
    return "total"


_SENTENCE_END = re.compile(r"[。.!！?？;；\n](?!\d)")


def _sentence(text: str, at: int) -> str:
    """The sentence around a position (a decimal point ends none)."""
    return _SENTENCE_END.split(text[:at])[-1] + _SENTENCE_END.split(text[at:])[0]


def read_budgets(text: str, taken: list[tuple[int, int]]) -> list[SlotValue]:
    # numbers another slot already read (a rating, a date, a party size) are not amounts
    nums = [n for n in find_numbers(text) if not any(s < n.end and n.start < e for s, e in taken)]
    out: list[SlotValue] = []
    skip: set[int] = set()
    for i, n in enumerate(nums):
        if i in skip:
            continue
        nxt = nums[i + 1] if i + 1 < len(nums) else None
        gap = text[n.end : nxt.start] if nxt else ""
        before, after = around_span(text, n.start, n.end)
        clause_b, clause_a = around_span(text, n.start, n.end, 40, 40)
        side = bool(nxt and nxt.start == n.end)  # "四五百": two amounts with nothing between are a range
        joined = bool(
            nxt
            and (side or _RANGE_JOIN.match(gap) or _CHANGE_JOIN.match(gap))
            and not _NOT_MONEY_AFTER.match(text[n.end :])
        )
        if not _money(text, n.start, nxt.end if joined and nxt is not None else n.end):
            continue
        to_range = bool(joined and (side or _RANGE_JOIN.match(gap)) and _CHANGED_TO.search(before))
        if joined and not to_range and _CHANGE_JOIN.match(gap) and (_FROM.search(before) or is_change(clause_b + gap)):
            continue  # "from 5000 to 8000": the first is the old value, the next one is read as the new
        if _NEGATED.search(before):
            continue  # "不是五千" / "instead of 5000": the value said not to hold
        high, lo, end = None, n.value, n.end
        if joined and nxt is not None and (side or _RANGE_JOIN.match(gap)):
            high, end = nxt.value, nxt.end
            skip.add(i + 1)
            if high < lo:
                lo, high = high, lo
            after = around_span(text, n.start, end)[1]
        # the words after the amount, past its currency: "1000 yuan a night" is per night
        cur = _CURRENCY_AFTER.match(after)
        rest = around_span(text, n.start, end, 0, 40)[1]  # past a range's second amount
        local = before[-12:] + " " + (clause_a[: 12 + cur.end()] if cur else _reach(rest, 10))
        scope = _budget_scope(local, clause_b + clause_a, _sentence(text, n.start))
        if _NIGHTLY_BUDGET.search(clause_b):
            scope = "night"
        elif _PERSON_BUDGET.search(clause_b):
            scope = "person"
        by = (
            +1 if _MORE_BY.search(clause_b) or _MORE_AFTER.match(text[end:]) else -1 if _LESS_BY.search(clause_b) else 0
        )
        if high is not None:
            bound = "range"
        elif by:
            bound, lo = "delta", by * lo  # resolved against the value it changes (constraints.records_from_statements)
        elif _ABOUT.search(before[-6:] + " " + after[:4]) or _ABOUT_RIGHT_BEFORE.search(before):
            bound = "about"
        elif _MAX.search(before + " " + after[:6]):
            bound = "max"
        elif _MIN.search(before + " " + after[:6]):
            bound = "min"
        else:
            bound = "max"  # a budget is a ceiling unless said otherwise
        named = bool(_NAMED.search(clause_b) or _NIGHT.search(local) or _PERSON.search(local) or _TOTAL.search(local))
        bounded = bool(_MAX.search(local) or _MIN.search(local) or _ABOUT.search(local) or high is not None or by)
        if not (named or bounded) or _SPENT.search(before):
            continue  # an amount that is neither a budget nor a limit (a price paid, a sum mentioned)
        explicit = named
        unit = "USD" if re.search(r"\$|dollar|usd|bucks|美元|美金|刀", local, re.I) else "CNY"
        out.append(SlotValue("budget", lo, bound, unit, scope, (n.start, end), text[n.start : end], high, explicit))
    for m in _VAGUE.finditer(text):  # an amount said but not readable: kept as text, never a bound
        before, after = around_span(text, m.start(), m.end(), 16, 8)
        if _NAMED.search(before) or _CURRENCY_AFTER.match(after):
            scope = _budget_scope(before[-12:] + " " + after[:10], before + after)
            out.append(SlotValue("budget", None, "", "", scope, m.span(), m.group(0), None, True))
    return out


# the words that frame an amount as a budget (what ``slots.residue`` takes out besides the values)
BUDGET_FRAMES = (_MAX, _MIN, _ABOUT, _NAMED, _TOTAL, _NIGHT, _PERSON, _TICKET)
