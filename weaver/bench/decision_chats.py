"""Multi-turn travel chats generated from CrossWOZ *test* goals, in Chinese and English, for ``bench decisions``.

One chat per test dialogue, built from its goal alone (the dialogue's messages are
never read) by a seeded generator — no chat is written or tuned by hand:

1. a trip frame the goal does not hold, drawn from the dialogue id's seed: party
   size, arrival date, nights, a total budget and, for half the chats, a diet;
2. per sub-goal (酒店 / 餐馆 / 景点, in the goal's order) its constraints: hotel
   price per night (a range, a floor or a ceiling), class, required facilities,
   rating; restaurant cost per person, rating, a wanted dish; ticket price, rating
   — each stated in one of several phrasings (amounts in digits or Chinese numerals),
   two constraints sometimes in one message;
3. between them: filler ("哈哈，听起来不错"), unrelated questions with their
   answers, agent acknowledgements, a topic switch between sub-goals, and at each
   sub-goal's end a decision point whose agent reply lists real database rows
   (names, prices, ratings: the numbers a haystack really holds);
4. then one or two updates to a stated value ("其实总预算改成八千吧"), more filler,
   and a final decision point per sub-goal.

Each decision point carries the constraints then in force that bear on its domain
(``active``, with the turn that stated each) and the values updated away
(``stale``). Which constraints bear on which decision is the bench's own table
(:data:`RELEVANT`), not the weaver's. What the chats say besides constraints is
:mod:`weaver.bench.decision_words`; how amounts, budgets and ratings are said is
:mod:`weaver.bench.decision_amounts`.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from .decision_amounts import cn_number, range_of, say_amount, say_money, say_rating
from .decision_words import ACK, AMENITY_KEYS, AMENITY_ZH, ASIDES, DECIDE, DIETS, FILLER, HOTEL_TYPES

__all__ = ["Chat", "Decision", "Gold", "make_chat", "RELEVANT", "cn_number"]

# which constraint keys bear on a decision in each domain (the bench's definition; "*": any scope)
RELEVANT = {
    "hotel": (
        "budget/night",
        "rating/hotel",
        "amenity/*",
        "hotel_type",
        "budget/total",
        "date/start",
        "party",
        "nights",
    ),
    "restaurant": ("budget/person", "rating/restaurant", "dish/*", "diet/*", "budget/total", "party"),
    "attraction": ("budget/ticket", "rating/attraction", "budget/total", "date/start", "party"),
}
_DOMAIN = {"酒店": "hotel", "餐馆": "restaurant", "景点": "attraction"}
_MONTHS = "January February March April May June July August September October November December".split()


@dataclass
class Gold:
    key: str
    value: float | str
    bound: str
    high: float | None
    turn: str  # the key of the turn that stated it


@dataclass
class Decision:
    at: int  # index of the turn the question is (everything before it is the haystack)
    domain: str
    question: str
    active: list[Gold]
    stale: list[Gold]


@dataclass
class Chat:
    id: str
    language: str
    turns: list[tuple[str, str, str]] = field(default_factory=list)  # (key, kind, content)
    decisions: list[Decision] = field(default_factory=list)


class _Builder:
    def __init__(self, did: str, lang: str, db):
        self.rng = random.Random(f"decisions:{did}")  # the same draws for both languages of one chat
        self.chat = Chat(f"{did}-{lang}", lang)
        self.lang, self.db = lang, db
        self.active: dict[str, Gold] = {}
        self.stale: list[Gold] = []

    def say(self, kind: str, text: str) -> str:
        key = f"{self.chat.id}:{len(self.chat.turns)}"
        self.chat.turns.append((key, kind, text))
        return key

    def state(self, text: str, golds: list[tuple[str, float | str, str, float | None]]) -> None:
        key = self.say("user_input", text)
        for k, v, bound, high in golds:
            old = self.active.get(k)
            if old is not None and (old.value, old.bound, old.high) != (v, bound, high):
                self.stale.append(old)
            self.active[k] = Gold(k, v, bound, high, key)
        self.say("agent_response", self.rng.choice(ACK[self.lang]))

    def chatter(self, n: int) -> None:
        for _ in range(n):
            if self.rng.random() < 0.5:
                self.say("user_input", self.rng.choice(FILLER[self.lang]))
                self.say("agent_response", self.rng.choice(ACK[self.lang]))
            else:
                q, a = self.rng.choice(ASIDES[self.lang])
                self.say("user_input", q)
                self.say("agent_response", a)

    def decide(self, domain: str) -> None:
        q = self.rng.choice(DECIDE[domain][self.lang])
        rel = RELEVANT[domain]
        active = [g for k, g in self.active.items() if k in rel or f"{k.split('/')[0]}/*" in rel]
        stale = [g for g in self.stale if g.key in rel or f"{g.key.split('/')[0]}/*" in rel]
        self.chat.decisions.append(Decision(len(self.chat.turns), domain, q, active, stale))
        self.say("user_input", q)
        rows = self.rng.sample(self.db.table(domain), 3)
        price = {"hotel": "价格", "restaurant": "人均消费", "attraction": "门票"}[domain]
        if self.lang == "zh":
            unit = {"hotel": "元/晚", "restaurant": "元/人", "attraction": "元门票"}[domain]
            text = "为您找到：" + "；".join(f"{r['名称']}（{r.get(price)}{unit}，评分{r.get('评分')}）" for r in rows)
        else:
            unit = {"hotel": "CNY/night", "restaurant": "CNY per person", "attraction": "CNY ticket"}[domain]
            text = "I found: " + "; ".join(f"{r['名称']} ({r.get(price)} {unit}, rated {r.get('评分')})" for r in rows)
        self.say("agent_response", text)


def _frame(b: _Builder) -> None:
    rng, zh = b.rng, b.lang == "zh"
    party, month, day = rng.randint(2, 4), rng.randint(4, 10), rng.randint(1, 28)
    nights, total = rng.randint(2, 4), rng.randrange(3000, 9001, 500)
    date = f"{month:02d}-{day:02d}"
    if zh:
        b.state(
            rng.choice(
                [f"我们{party}个人，{month}月{day}号出发去北京", f"我们一共{party}个人，打算{month}月{day}日到北京"]
            ),
            [("party", float(party), "eq", None), ("date/start", date, "eq", None)],
        )
        b.state(
            rng.choice(
                [
                    f"住{nights}晚，总预算{say_amount(rng, total, 'zh')}元",
                    f"大概住{nights}晚，整个行程预算别超过{say_amount(rng, total, 'zh')}",
                ]
            ),
            [("nights", float(nights), "eq", None), ("budget/total", float(total), "max", None)],
        )
    else:
        b.state(
            rng.choice(
                [
                    f"There are {party} of us, and we arrive in Beijing on {_MONTHS[month - 1]} {day}",
                    f"We're a group of {party}, arriving on {_MONTHS[month - 1]} {day}",
                ]
            ),
            [("party", float(party), "eq", None), ("date/start", date, "eq", None)],
        )
        b.state(
            rng.choice(
                [
                    f"We'll stay {nights} nights; our total budget is {total} yuan",
                    f"{nights} nights, and keep the whole trip under {total} yuan",
                ]
            ),
            [("nights", float(nights), "eq", None), ("budget/total", float(total), "max", None)],
        )
    if rng.random() < 0.5:
        key, value, zh_text, en_text = rng.choice(DIETS)
        b.state(zh_text if zh else en_text, [(key, value, "restrict", None)])


def _subgoal(b: _Builder, domain: str, goals: list) -> None:
    rng, lang = b.rng, b.lang
    said: list[tuple[str, list]] = []
    for _, _, slot, value, *_ in goals:
        if domain == "hotel" and slot == "价格" and (money := range_of(str(value))):
            bound, lo, hi = money
            said.append((say_money(rng, lang, "night", bound, lo, hi), [("budget/night", lo, bound, hi)]))
        elif domain == "restaurant" and slot == "人均消费" and (money := range_of(str(value))):
            bound, lo, hi = money
            said.append((say_money(rng, lang, "person", bound, lo, hi), [("budget/person", lo, bound, hi)]))
        elif domain == "attraction" and slot == "门票" and (money := range_of(str(value))):
            bound, lo, hi = money
            said.append((say_money(rng, lang, "ticket", bound, lo, hi), [("budget/ticket", lo, bound, hi)]))
        elif slot == "评分" and (rating := re.match(r"(\d(?:\.\d)?)分", str(value))):
            v = float(rating.group(1))
            said.append((say_rating(rng, lang, domain, v), [(f"rating/{domain}", v, "min", None)]))
        elif slot == "酒店类型" and value in HOTEL_TYPES:
            key, zh_word, en_word = HOTEL_TYPES[value]
            text = (
                rng.choice([f"想住{zh_word}酒店", f"酒店最好是{zh_word}的"])
                if lang == "zh"
                else (f"We'd like {en_word} hotel")
            )
            said.append((text, [("hotel_type", key, "eq", None)]))
        elif slot.startswith("酒店设施-") and value == "是" and slot[5:] in AMENITY_KEYS:
            key = AMENITY_KEYS[slot[5:]]
            text = (
                rng.choice([f"酒店要有{AMENITY_ZH[key]}", f"酒店最好提供{AMENITY_ZH[key]}"])
                if lang == "zh"
                else (rng.choice([f"The hotel needs {key}", f"We need a hotel with {key}"]))
            )
            said.append((text, [(f"amenity/{key}", key, "eq", None)]))
        elif slot == "推荐菜" and isinstance(value, list) and value:
            dish = re.sub(r"[\u200b-\u200f\ufeff]", "", str(value[0])).strip()  # the data holds zero-width joiners
            text = (
                rng.choice([f"推荐菜要有{dish}", f"想吃{dish}"])
                if lang == "zh"
                else (f"The restaurant should serve {dish}")
            )
            said.append((text, [(f"dish/{dish}", dish, "eq", None)]))
    rng.shuffle(said)
    i = 0
    while i < len(said):
        if i + 1 < len(said) and rng.random() < 0.3:  # two constraints in one message
            (t1, g1), (t2, g2) = said[i], said[i + 1]
            b.state(
                t1
                + ("，" if lang == "zh" else ", and ")
                + (t2 if lang == "zh" or t2.startswith("I ") else t2[0].lower() + t2[1:]),
                g1 + g2,
            )
            i += 2
        else:
            b.state(said[i][0], said[i][1])
            i += 1
        b.chatter(rng.randint(0, 2))


def _update(b: _Builder) -> bool:
    rng, zh = b.rng, b.lang == "zh"
    keys = [k for k in ("budget/total", "budget/night", "budget/person", "party", "date/start") if k in b.active]
    if not keys:
        return False
    k = rng.choice(keys)
    g = b.active[k]
    if k == "budget/total":
        new = float(int(g.value) + rng.randrange(1000, 4001, 500))
        text = (
            rng.choice(
                [
                    f"其实总预算改成{say_amount(rng, int(new), 'zh')}吧",
                    f"总预算提高到{say_amount(rng, int(new), 'zh')}元",
                ]
            )
            if zh
            else rng.choice(
                [f"Actually, make the total budget {int(new)} yuan", f"Let's raise the total budget to {int(new)} yuan"]
            )
        )
        b.state(text, [(k, new, "max", None)])
    elif k in ("budget/night", "budget/person"):
        step = 100 if k == "budget/night" else 50
        lo = float(int(g.value) + step)
        hi = float(int(g.high) + step) if g.high is not None else None
        a, c = say_amount(rng, int(lo), b.lang), (say_amount(rng, int(hi), b.lang) if hi else "")
        what = (
            ("每晚" if k == "budget/night" else "人均")
            if zh
            else ("per night" if k == "budget/night" else "per person")
        )
        if zh:
            text = (
                f"其实{what}改成{a}到{c}元吧"
                if hi
                else f"其实{what}改成{a}元{'以上' if g.bound == 'min' else '以内'}吧"
            )
        else:
            text = (
                f"Actually, change it to between {a} and {c} yuan {what}"
                if hi
                else f"Actually, make it {'at least' if g.bound == 'min' else 'at most'} {a} yuan {what}"
            )
        b.state(text, [(k, lo, g.bound, hi)])
    elif k == "party":
        new = float(int(g.value) + 1)
        text = f"我们改成{int(new)}个人了" if zh else f"Change of plan: there will be {int(new)} of us"
        b.state(text, [(k, new, "eq", None)])
    else:
        mo, d = int(str(g.value)[:2]), int(str(g.value)[3:])
        d = d + 2 if d <= 26 else d - 2
        text = f"出发日期改到{mo}月{d}号" if zh else f"We now arrive on {_MONTHS[mo - 1]} {d} instead"
        b.state(text, [(k, f"{mo:02d}-{d:02d}", "eq", None)])
    return True


def make_chat(did: str, goal: list, lang: str, db) -> Chat | None:
    """The chat for one test dialogue's goal in ``lang`` ("zh" / "en"); None when it has no usable sub-goal."""
    subgoals: dict[int, list] = {}
    for g in goal:
        if g[1] in _DOMAIN:
            subgoals.setdefault(g[0], []).append(g)
    order = [(gid, _DOMAIN[gs[0][1]]) for gid, gs in sorted(subgoals.items())]
    if not order:
        return None
    b = _Builder(did, lang, db)
    _frame(b)
    b.chatter(1)
    for n, (gid, domain) in enumerate(order):
        if n and b.rng.random() < 0.7:  # a topic switch, said as such
            b.say("user_input", "换个话题。" if lang == "zh" else "Switching topics.")
            b.say("agent_response", b.rng.choice(ACK[lang]))
        _subgoal(b, domain, subgoals[gid])
        b.chatter(b.rng.randint(1, 2))
        b.decide(domain)
    for _ in range(b.rng.randint(1, 2)):
        _update(b)
        b.chatter(b.rng.randint(1, 2))
    for _, domain in order:
        b.decide(domain)
        b.chatter(b.rng.randint(0, 1))
    return b.chat
