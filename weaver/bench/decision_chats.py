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
(:data:`RELEVANT`), not the weaver's.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from ..numerals import CN_DIGITS

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
_AMENITY_KEYS = {  # CrossWOZ facility -> the canonical key a user would say (facilities without one are skipped)
    "无烟房": "non-smoking",
    "24小时热水": "hot water",
    "宽带上网": "broadband",
    "叫醒服务": "wake-up call",
    "吹风机": "hair dryer",
    "行李寄存": "luggage storage",
    "中式餐厅": "chinese restaurant",
    "会议室": "meeting room",
    "公共区域和部分房间提供wifi": "wifi",
    "酒店各处提供wifi": "wifi",
    "所有房间提供wifi": "wifi",
    "部分房间提供wifi": "wifi",
    "公共区域提供wifi": "wifi",
    "接待外宾": "foreign guests",
    "国际长途电话": "international calls",
    "早餐服务": "breakfast",
    "早餐服务免费": "free breakfast",
    "暖气": "heating",
    "洗衣服务": "laundry",
    "残疾人设施": "accessible",
    "接机服务": "airport pickup",
    "健身房": "gym",
    "西式餐厅": "western restaurant",
    "租车": "car rental",
    "商务中心": "business centre",
    "室内游泳池": "pool",
    "室外游泳池": "pool",
    "SPA": "spa",
    "桑拿": "sauna",
    "接站服务": "station pickup",
    "温泉": "hot spring",
    "看护小孩服务": "babysitting",
}
_AMENITY_ZH = {
    "non-smoking": "无烟房",
    "hot water": "24小时热水",
    "broadband": "宽带上网",
    "wake-up call": "叫醒服务",
    "hair dryer": "吹风机",
    "luggage storage": "行李寄存",
    "chinese restaurant": "中餐厅",
    "meeting room": "会议室",
    "wifi": "wifi",
    "foreign guests": "接待外宾",
    "international calls": "国际长途电话",
    "breakfast": "早餐",
    "free breakfast": "免费早餐",
    "heating": "暖气",
    "laundry": "洗衣服务",
    "accessible": "无障碍设施",
    "airport pickup": "接机服务",
    "gym": "健身房",
    "western restaurant": "西餐厅",
    "car rental": "租车",
    "business centre": "商务中心",
    "pool": "游泳池",
    "spa": "SPA",
    "sauna": "桑拿",
    "station pickup": "接站服务",
    "hot spring": "温泉",
    "babysitting": "看护小孩服务",
}
_TYPES = {
    "经济型": ("economy", "经济型", "an economy"),
    "舒适型": ("comfort", "舒适型", "a mid-range"),
    "高档型": ("upscale", "高档型", "an upscale"),
    "豪华型": ("luxury", "豪华型", "a luxury"),
}
_DIETS = [
    ("diet/seafood", "seafood", "我对海鲜过敏", "I'm allergic to seafood"),
    ("diet/spicy", "spicy", "我不吃辣", "I don't eat spicy food"),
    ("diet/style", "vegetarian", "我吃素", "I'm vegetarian"),
    ("diet/peanut", "peanut", "我对花生过敏", "I'm allergic to peanuts"),
]
_DOM_ZH = {"hotel": "酒店", "restaurant": "餐厅", "attraction": "景点"}

FILLER = {
    "zh": ["哈哈，听起来不错", "好的谢谢", "嗯嗯", "太好了！", "这个我再想想", "谢谢你的帮助", "好的，没问题"],
    "en": [
        "Haha, sounds good",
        "Thanks!",
        "Okay",
        "Great!",
        "Let me think about it",
        "Cool, thank you",
        "Alright, no problem",
    ],
}
ACK = {
    "zh": ["好的。", "明白，已记下。", "好的，还需要查什么吗？", "没问题。", "收到。"],
    "en": ["Okay.", "Got it, noted.", "Sure, anything else I can help with?", "No problem.", "Noted."],
}
ASIDES = {
    "zh": [
        ("北京五月的天气怎么样？", "五月的北京白天二十多度，早晚偏凉，偶尔有风沙，建议带一件薄外套。"),
        ("北京地铁一般几点停运？", "大部分线路在晚上十一点左右收车，首班车一般在早上五点多，具体以各线路时刻表为准。"),
        ("有什么特产可以带回去？", "常见的有稻香村糕点、果脯、茯苓饼和六必居酱菜，老字号店里都能买到。"),
        ("在北京打车方便吗？", "打车很方便，用手机叫车即可；早晚高峰比较堵，地铁通常更快。"),
        ("需要办交通卡吗？", "可以用手机上的交通卡或扫码乘车，不一定要办实体卡。"),
        ("北京的胡同有什么讲究吗？", "胡同是老北京的街巷，四合院多在其中，逛的时候注意不要打扰居民。"),
    ],
    "en": [
        (
            "What's the weather like in Beijing in May?",
            "Days in May are usually in the twenties Celsius, with "
            "cool mornings and evenings and the odd windy day; a light jacket helps.",
        ),
        (
            "When does the Beijing metro stop running?",
            "Most lines stop around 11 pm and start a little after 5 am; each line has its own timetable.",
        ),
        (
            "What souvenirs could I bring back?",
            "Popular ones are Daoxiangcun pastries, preserved fruit, "
            "fuling cakes and Liubiju pickles from the old shops.",
        ),
        (
            "Is it easy to get a taxi in Beijing?",
            "Yes, ride-hailing apps work well; rush hours are slow, when the metro is often quicker.",
        ),
        (
            "Do I need a transport card?",
            "A phone transport card or QR code works on the metro and buses, so a physical card is optional.",
        ),
        (
            "Anything to know about the hutongs?",
            "Hutongs are old Beijing's lanes with courtyard houses; locals live there, so keep the noise down.",
        ),
    ],
}
DECIDE = {
    "hotel": {
        "zh": ["住哪家酒店好？", "帮我挑一家酒店吧", "推荐一家合适的酒店"],
        "en": ["Which hotel should we stay at?", "Pick a hotel for us", "Recommend a suitable hotel"],
    },
    "restaurant": {
        "zh": ["晚饭去哪家餐厅？", "午饭吃什么好？", "推荐一家餐厅吧"],
        "en": ["Where should we go for dinner?", "What's a good place for lunch?", "Recommend a restaurant"],
    },
    "attraction": {
        "zh": ["去哪个景点玩？", "推荐个景点吧", "明天去哪个景点逛逛？"],
        "en": [
            "Which attraction should we visit?",
            "Recommend a sight to see",
            "Which sight should we visit tomorrow?",
        ],
    },
}


def cn_number(n: int) -> str:
    """An amount in Chinese numerals as people say it: 600 -> 六百, 2500 -> 两千五, 8000 -> 八千, 350 -> 三百五.

    >>> [cn_number(x) for x in (600, 2500, 8000, 350, 1200, 50, 4000, 12000)]
    ['六百', '两千五', '八千', '三百五', '一千二', '五十', '四千', '一万二']
    """
    digits = {v: k for k, v in CN_DIGITS.items() if k not in "〇两零"}
    if n >= 10000:
        w, rest = divmod(n, 10000)
        if w >= 10 or rest % 1000:
            return str(n)  # said in digits: rarer Chinese forms are not what this bench measures
        return ("一" if w == 1 else digits[w]) + "万" + (digits[rest // 1000] if rest else "")
    out, units = "", [(1000, "千"), (100, "百"), (10, "十")]
    for i, (u, name) in enumerate(units):
        d, n = divmod(n, u)
        if d:
            out += ("两" if d == 2 and u >= 100 else digits[d]) + name
            lower = u // 10
            if n and u >= 100 and n % lower == 0 and n // lower < 10:
                return out + digits[n // lower]  # 两千五 = 2500, 三百五 = 350: the next unit is left unsaid
    return out + (digits[n] if n else "")


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


def _amount(rng, n: int, lang: str) -> str:
    return cn_number(n) if lang == "zh" and rng.random() < 0.5 and n >= 50 and n % 50 == 0 else str(n)


def _range_of(text: str) -> tuple[str, float, float | None] | None:
    """A CrossWOZ range value ('300-400元', '1000元以上', '50元以下', '免费') -> (bound, low, high)."""
    if text == "免费":
        return ("max", 0.0, None)
    m = re.fullmatch(r"(\d+)-(\d+)元", text)
    if m:
        return ("range", float(m.group(1)), float(m.group(2)))
    m = re.fullmatch(r"(\d+)元以上", text)
    if m:
        return ("min", float(m.group(1)), None)
    m = re.fullmatch(r"(\d+)元以下", text)
    if m:
        return ("max", float(m.group(1)), None)
    return None


def _say_money(rng, lang: str, scope: str, bound: str, lo: float, hi: float | None) -> str:
    a, b = _amount(rng, int(lo), lang), (_amount(rng, int(hi), lang) if hi is not None else "")
    if lang == "zh":
        what = {
            "night": rng.choice(["住宿每晚", "酒店每晚", "酒店价格每晚"]),
            "person": rng.choice(["吃饭人均", "餐厅人均"]),
            "ticket": "景点门票",
            "total": rng.choice(["总预算", "整个行程的预算"]),
        }[scope]
        if scope == "ticket" and bound == "max" and lo == 0:
            return rng.choice(["景点门票免费的最好", "想去门票免费的景点"])
        if bound == "range":
            return rng.choice([f"{what}在{a}到{b}元之间", f"{what}{a}到{b}块"])
        if bound == "min":
            return rng.choice([f"{what}不低于{a}元", f"{what}{a}元以上"])
        return rng.choice([f"{what}别超过{a}", f"{what}{a}元以内", f"{what}最多{a}块"])
    what = {
        "night": rng.choice(["per night for the hotel", "a night for the hotel"]),
        "person": rng.choice(["per person for meals", "per person at restaurants"]),
        "ticket": "for attraction tickets",
        "total": "for the whole trip",
    }[scope]
    if scope == "ticket" and bound == "max" and lo == 0:
        return rng.choice(["I'd prefer attractions with free entry", "Attraction tickets should be free"])
    if bound == "range":
        return rng.choice([f"We want to spend between {a} and {b} yuan {what}", f"Between {a} and {b} yuan {what}"])
    if bound == "min":
        return rng.choice([f"At least {a} yuan {what}", f"We'd spend no less than {a} yuan {what}"])
    if scope == "total":
        return rng.choice([f"Our total budget is at most {a} yuan", f"Keep the whole trip under {a} yuan"])
    return rng.choice([f"At most {a} yuan {what}", f"No more than {a} yuan {what}"])


def _say_rating(rng, lang: str, domain: str, v: float) -> str:
    if lang == "zh":
        return rng.choice([f"{_DOM_ZH[domain]}评分要{v:g}分以上", f"{_DOM_ZH[domain]}的评分不低于{v:g}分"])
    return rng.choice([f"The {domain} should be rated {v:g} or above", f"I want a {domain} rating of at least {v:g}"])


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
                    f"住{nights}晚，总预算{_amount(rng, total, 'zh')}元",
                    f"大概住{nights}晚，整个行程预算别超过{_amount(rng, total, 'zh')}",
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
        key, value, zh_text, en_text = rng.choice(_DIETS)
        b.state(zh_text if zh else en_text, [(key, value, "restrict", None)])


def _subgoal(b: _Builder, domain: str, goals: list) -> None:
    rng, lang = b.rng, b.lang
    said: list[tuple[str, list]] = []
    for _, _, slot, value, *_ in goals:
        if domain == "hotel" and slot == "价格" and (money := _range_of(str(value))):
            bound, lo, hi = money
            said.append((_say_money(rng, lang, "night", bound, lo, hi), [("budget/night", lo, bound, hi)]))
        elif domain == "restaurant" and slot == "人均消费" and (money := _range_of(str(value))):
            bound, lo, hi = money
            said.append((_say_money(rng, lang, "person", bound, lo, hi), [("budget/person", lo, bound, hi)]))
        elif domain == "attraction" and slot == "门票" and (money := _range_of(str(value))):
            bound, lo, hi = money
            said.append((_say_money(rng, lang, "ticket", bound, lo, hi), [("budget/ticket", lo, bound, hi)]))
        elif slot == "评分" and (rating := re.match(r"(\d(?:\.\d)?)分", str(value))):
            v = float(rating.group(1))
            said.append((_say_rating(rng, lang, domain, v), [(f"rating/{domain}", v, "min", None)]))
        elif slot == "酒店类型" and value in _TYPES:
            key, zh_word, en_word = _TYPES[value]
            text = (
                rng.choice([f"想住{zh_word}酒店", f"酒店最好是{zh_word}的"])
                if lang == "zh"
                else (f"We'd like {en_word} hotel")
            )
            said.append((text, [("hotel_type", key, "eq", None)]))
        elif slot.startswith("酒店设施-") and value == "是" and slot[5:] in _AMENITY_KEYS:
            key = _AMENITY_KEYS[slot[5:]]
            text = (
                rng.choice([f"酒店要有{_AMENITY_ZH[key]}", f"酒店最好提供{_AMENITY_ZH[key]}"])
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
                [f"其实总预算改成{_amount(rng, int(new), 'zh')}吧", f"总预算提高到{_amount(rng, int(new), 'zh')}元"]
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
        a, c = _amount(rng, int(lo), b.lang), (_amount(rng, int(hi), b.lang) if hi else "")
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
