"""The bilingual cue patterns the understanding reads a message's intent and kind of place from.

Regular expressions only (search, book, remove, tally, why, metro, greetings,
ordinals, counts, "near ...", "quiet", "another one") and the one scoring over them,
``domain_hits``: which kind of place a message asks for. Kept apart from ``parse``
so the grammar of cues can be read (and grown) in one place.
"""

from __future__ import annotations

import re

__all__ = [
    "ASKS_MAY",
    "TAXI",
    "party_told",
    "SEARCH_ASKED",
    "GOING",
    "BEEN",
    "NOT_PRICEY",
    "CHEAPEST",
    "not_pricey",
    "chose_one",
    "names_one",
    "FAMILY_ASK",
    "HOSTEL",
    "SHOWN_BEFORE",
    "domain_hits",
    "DOMAIN_CUES",
    "CLOSING",
    "ORD_WORDS",
    "HOTEL_BREAKFAST",
    "NEAR_KIND",
    "SIGHT_NOUN",
    "NEAR_IT",
    "ROUTE",
    "REMOVE",
    "PLAN_WORD",
    "FIELD_Q",
    "YES_NO",
    "REQUEST",
    "PREFER",
    "WHY",
    "FAILURE",
    "TALLY",
    "BOOK",
    "METRO",
    "METRO_Q",
    "FIRST_PERSON",
    "NEAR",
    "NEAR_METRO",
    "QUIET",
    "GREETING",
    "MEAL_TIME",
    "meal_by_time",
    "asks_own_experience",
    "GREETING_WORDS",
    "ORDINAL",
    "ASKS",
    "COUNT",
    "CHEAPER",
    "MORE",
    "THIS",
    "called_off",
]


def _cue(words: str) -> re.Pattern:
    parts = words.split("|")
    en = [w for w in parts if w.isascii()]
    zh = [w for w in parts if not w.isascii()]
    pats = []
    if en:
        pats.append(r"(?<![a-z])(?:" + "|".join(en) + r")(?![a-z])")
    if zh:
        pats.append("(?:" + "|".join(zh) + ")")
    return re.compile("|".join(pats), re.IGNORECASE)


# "带早餐的" / "breakfast included": a hotel's breakfast, not a meal to go out for
HOTEL_BREAKFAST = re.compile(
    r"(?:带|含|包|提供)早(?:餐|饭)?|早餐(?:包含|含在)|breakfast included|with breakfast|includes? breakfast", re.I
)
NEAR_KIND = re.compile(
    r"\b(?:near|close to|around|next to|by)\s+(?:the|our|my|that|this|your)\s+(hotel|restaurant|museum|park)\b"
    r"|(酒店|宾馆|民宿|餐厅|餐馆|饭馆|景点|公园|博物馆)的?(?:附近|周边|周围|旁边|边上)"
    r"|离(酒店|宾馆|民宿|餐厅|餐馆|饭馆|景点|公园|博物馆)(?:很|比较|最)?近",
    re.IGNORECASE,
)
SIGHT_NOUN = re.compile(
    r"景点|景区|门票|参观|博物馆|美术馆|纪念馆|公园|寺|名胜|attraction|sight|museum|galler|park|temple|things to do|ticket",
    re.IGNORECASE,
)
# "附近有什么景点", "anything nearby?": near what was talked about last (a place named before the word is its own)
BARE_NEAR = re.compile(
    r"附近|周边|周围|旁边|边上|一带|\bnearby\b|\bclose by\b|\baround here\b|\bnear (?:here|there)\b", re.I
)
NEAR_IT = re.compile(r"\bnear (?:it|that one|this one)\b|它(?:的)?(?:附近|周边)", re.I)  # "there" is the area
REMOVE = re.compile(
    r"取消|删掉|删除|去掉|移除|拿掉|\b(?:remove|cancel|drop|delete|take (?:it|that|this|the \w+) (?:off|out))\b", re.I
)
# "那家可以取消吗？" / "can we cancel that one for free?": whether it can be, asked of the place, nothing taken out
ASKS_MAY = re.compile(
    r"(?:可以|能|可不可以|能不能|能否)(?:免费)?(?:取消|退)|免费取消|\bcan (?:i|we) cancel\b|cancell?ation (?:policy|fee)"
    r"|free cancell?ation",
    re.I,
)
PLAN_WORD = re.compile(r"行程|计划|预订|订的|\b(?:plan|itinerary|booking|reservation)\b", re.IGNORECASE)
FIELD_Q = re.compile(
    r"门票|票价|多少钱|价格|价钱|人均|评分|地址|电话|营业时间|几点|开门|在哪|游玩时间|玩多久|多长时间|ticket|price|cost|"
    r"how much|per person|how long|rating|address|phone|hours|open",
    re.IGNORECASE,
)
# "Thanks, that's all for now!" / "就这些，谢谢": a close, answered with a courtesy
CLOSING = re.compile(
    r"that'?s all|that is all|nothing else|all for now|就这些|就这样|先这样|没别的了|没有别的了|\bbye\b|再见", re.I
)
YES_NO = re.compile(r"有没有|有无|是否|吗|多少|几|[?？]|\b(?:does|do|is there|are there|has it|have)\b", re.IGNORECASE)
_CLAUSE = re.compile(r"[，,。；;！!？?]|\band\b|然后|再")
# "晚饭不用找了" / "never mind dinner" / "no need to look for restaurants": a search called off, not asked for
_CALLED_OFF = re.compile(
    r"(?:不用|不需要|不必|先不|别)(?:再|帮我|给我)?(?:找|查|搜|推荐|订|安排)|\bnever mind\b|"
    r"\bno need (?:to|for)\b|\b(?:don't|do not) (?:need|want) (?:to )?(?:look|find|search|book|suggest|recommend)|"
    r"\bforget (?:about )?(?:the |a )?(?:restaurants?|hotels?|dinner|lunch|breakfast|sights?|attractions?)\b",
    re.IGNORECASE,
)


def called_off(text: str) -> bool:
    """True when the message calls a search off and asks for nothing else (the clauses that call it off taken out).

    >>> called_off("算了，晚饭不用找了"), called_off("Never mind dinner, no need to look for restaurants.")
    (True, True)
    >>> called_off("不用找酒店了，帮我推荐一家餐厅"), called_off("Never mind, find me a hotel near Houhai instead")
    (False, False)
    >>> called_off("推荐一家餐厅"), called_off("我不需要安静的酒店")
    (False, False)
    """
    if not _CALLED_OFF.search(text):
        return False
    rest = " ".join(c for c in _CLAUSE.split(text) if c and not _CALLED_OFF.search(c))
    return not (REQUEST.search(rest) or any(c.search(rest) for c in DOMAIN_CUES.values()))


_ASK_VERB = re.compile(r"推荐|找|搜|\b(?:recommend|suggest|find|search for|look for|show me)\b", re.IGNORECASE)
DOMAIN_CUES = {
    "hotel": _cue(
        "酒店|宾馆|旅馆|旅店|旅舍|青旅|住宿|住处|住在|客栈|民宿|住哪|住的|入住|房间|落脚|hotels?|hostels?|"
        "accommodations?|lodging|guest ?houses?|"
        "place to stay|stay|rooms?|inn"
    ),
    "restaurant": _cue(
        "餐厅|餐馆|饭馆|吃饭|好吃|美食|晚餐|午餐|早餐|晚饭|午饭|夜宵|用餐|吃什么|吃的|馆子|菜|"
        "restaurants?|food|eat|eating|dinner|lunch|breakfast|meals?|dishes|cuisine|dine|dining"
    ),
    "attraction": _cue(
        "景点|景区|门票|游玩|玩|参观|逛|名胜|博物馆|美术馆|纪念馆|公园|寺庙|寺院|attractions?|sights?|"
        "sightseeing|tickets?|visit|visiting|museums?|galleries|gallery|parks?|temples?|"
        "things to do|tour"
    ),
}
REQUEST = _cue(
    "推荐|找|查|搜|有什么|有没有|有哪些|哪家|哪个|哪里|哪儿|哪些|什么|给我|帮我|想去|想吃|想住|能不能|可以|"
    "怎么样|多少钱|多少|几点|多久|要多长|吗|？|recommend|suggest|find|search|look for|looking for|show|"
    r"any|anything|anywhere|where|which|what|how much|how long|can you|could you|options|list|need a|want a|want to|want some|"
    r"would like|i'd like|tell me about|介绍|说说|讲讲|想吃|想要|\?"
)
PREFER = _cue(
    "喜欢|希望|偏好|倾向|最好|注意|记住|记得|请留意|prefer|like|love|would rather|keep in mind|remember|"
    "note that|please note"
)
WHY = _cue("为什么|为何|为啥|干嘛|怎么会|什么原因|原因|why|how come|what went wrong|reason")
FAILURE = _cue("失败|没成功|没订上|订不了|不成功|fail|failed|didn't work|did not work|couldn't|could not|wasn't")
TALLY = _cue(
    "花了多少|(?:一共|总共|总计|加起来)(?:大概|大约|差不多)?(?:要|得|会)?(?:花)?多少(?!人|个人|天|晚)|总花费|总费用|还剩|剩多少|预算够|超预算|花销|账单|行程单|我的计划|目前的计划|"
    "[定订]了(?:什么|哪些)|决定了什么|"
    # "现在的计划是什么？" / "计划是什么样的？": the plan asked after, as "What's the plan so far?" is
    "(?:现在|目前|当前)的?(?:计划|行程)(?:是)?(?:什么|啥|怎样|怎么样|如何)|计划(?:现在)?(?:是)?(?:什么样|怎么样|怎样|什么|啥)|"
    "行程里|行程上|行程(?:都|还)?有|行程(?:现在)?(?:是)?(?:什么样|怎么样|怎样)|how much is everything|everything (?:cost|come to)|"
    r"how much\b.{0,30}\b(?:in total|altogether|all together)|"
    # "总预算是4000，够吗？" / "our budget is 4000, am I within it?": the plan against the budget just said
    r"预算.{0,12}(?:够(?:吗|不够)|会超|超了吗|超不超)|\b(?:am i|are we) (?:within|over|under|inside)\b|"
    r"\b(?:whole|full|entire|complete) (?:plan|itinerary)\b|"
    "tally|spent|total cost|total so far|so far|remaining|left in the budget|how much in total|"
    "within budget|my plan|the plan|itinerary|summary|how much (?:do|have|is) (?:we|i|there) (?:have )?left|"
    "how much is left|money left|budget left|还有多少钱|还能花多少|"
    # "how much of our budget is left?" / "how much budget do we have left?": the words between are the budget's
    r"how much (?:of (?:the|our|my) )?(?:budget|money) (?:is |do (?:we|i) have |have (?:we|i) got )?left"
)
BOOK = _cue(
    "预订|预定|订|就要|就选|选这|选那|选第|加入|加到|加进|加回|放回|放进|放到|排到|安排到|安排在|算上|安排上|定了|book|reserve|add|take the(?! (?:metro|subway))|take that|go with|"
    "choose|pick|put (?:it|that|them|\\w+) back|bring (?:it|that) back|"
    # "put the first one on day 1" / "put it in the plan"
    r"put (?:it|that|this|them|the \w+(?: one)?) (?:on|in|into|for)\b"
)
# a message that only picks an item shown ("那就这家吧", "就第一家", "ok, that one then", "the second one please"):
# the whole message is the pick, so a longer one that merely mentions "it" ("I think it's too far then") is none
_CHOICE = re.compile(
    r"^\s*(?:(?:好的?|行|嗯+|ok(?:ay)?)[，,\s]*)?(?:那(?:么)?)?(?:我们?)?(?:就|要|选)?(?:要|选)?\s*"
    r"(?:这|那|第\s*[一二两三四五六七八九十\d]\s*)(?:一)?[家个间处](?:酒店|宾馆|餐厅|饭店|馆子|景点|地方)?"
    r"(?:吧|了|好了|呗)?[。！!～~\s]*$|^\s*(?:就它|就是它)(?:吧|了)?[。！!\s]*$|"
    r"^\s*(?:(?:ok(?:ay)?|alright|fine|great|sure|yes|yeah)[,\s!.]*)?(?:(?:let'?s|we'?ll|i'?ll) (?:go with|take|have|"
    r"do|pick|choose) )?(?:that|this|the (?:first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)|number \d|"
    r"option \d)(?: (?:one|hotel|restaurant|place|sight|attraction))?(?:,?\s*(?:then|please|it is|sounds good))*"
    r"[\s.!]*$",
    re.IGNORECASE,
)
# what makes a bare "第二个" / "the second one" (a look-up of that item) a pick
_PICKED = re.compile(
    r"就|要|选|吧|了|呗|好|行|嗯|\b(?:then|please|let'?s|we'?ll|i'?ll|ok(?:ay)?|alright|sure|fine|great|yes|yeah)\b|"
    r"sounds good",
    re.IGNORECASE,
)


def chose_one(text: str) -> bool:
    """Whether ``text`` only picks one item shown (to take it: a booking, or a meal or sight added to the plan).

    >>> chose_one("那就这家吧"), chose_one("Ok that one then"), chose_one("第二个"), chose_one("那这家呢？")
    (True, True, False, False)
    """
    return bool(_CHOICE.search(text) and _PICKED.search(text))


def names_one(text: str, lang: str) -> bool:
    """A message about as long as naming one item: 24 characters in Chinese, six words in English ("what about the
    second one?" is as short as "第二个怎么样")."""
    return len(text) <= 24 if lang == "zh" else len(text.split()) <= 6


# "亲子酒店" / "kid-friendly sights": a tag the data does not have (said beside what is found without it)
FAMILY_ASK = re.compile(
    r"亲子|适合(?:带)?(?:孩子|小孩|儿童|宝宝|一家人|家庭)|(?:儿童|孩子|小孩)(?:友好|喜欢|爱玩)|"
    r"\b(?:family|kid|kids|child|children|baby)[- ](?:friendly|oriented)\b|"
    r"\b(?:good|great|suitable|fun) for (?:the )?(?:kids|children|families|a family|toddlers)\b",
    re.IGNORECASE,
)


# "青旅" / "a hostel": a type the data does not have (four classes only: 经济型 .. 豪华型); the cheapest hotels are
# offered instead, and the rows a name calls a hostel are named
HOSTEL = re.compile(
    r"青旅|青年旅[舍社馆]|旅舍|背包客|\b(?:youth )?hostels?\b|\bbackpackers?\b|\bdorm(?:itory)? beds?\b", re.I
)


# a station or a way there asked for ("八达岭长城怎么去", "how do I get to ..."): the data has stations, no lines
METRO = _cue(
    "地铁站|哪站|地铁怎么|坐地铁|怎么去|怎么走|怎么过去|如何去|怎样去|metro station|subway station|nearest station|"
    "which station|metro stop|subway stop|by metro|by subway|how (?:do|can|should) (?:i|we) get (?:to|there)|"
    "how to get (?:to|there)|directions to|how (?:do|can|should) (?:i|we) get from|how to get from"
)
# a way from one place to another asked ("从那里坐地铁去天坛方便吗"): a route, even when it says "方便" / "近"
ROUTE = re.compile(
    r"从.{1,12}(?:坐|乘|搭)地铁.{0,3}去|(?:坐|乘|搭)地铁去|\bhow (?:do|can|should) (?:i|we) get (?:from|to|there)\b|"
    r"\b(?:take|ride) the (?:metro|subway) (?:from|to)\b",
    re.IGNORECASE,
)
# a taxi asked about ("打车去故宫多少钱？", "how much is a taxi to ..."): the data has no fares, no hotel is asked for
TAXI = re.compile(r"打车|打的|出租车|的士|滴滴|\b(?:taxi|taxis|cab|cabs|uber|didi)\b", re.IGNORECASE)
# asking which station is near: a metro question, not a "near the metro" preference
METRO_Q = re.compile(
    r"哪个地铁站|哪一?站|什么地铁站|最近的地铁站|地铁站最近|地铁站是|(?:which|what|nearest|closest)\s+"
    r"(?:metro |subway )?(?:station|stop)|(?:metro|subway) station (?:is )?(?:closest|nearest)",
    re.IGNORECASE,
)
# a statement about oneself, not a request ("I'm allergic to ...", "我打算 ...")
FIRST_PERSON = _cue(
    "我想|我们想|我要|我们要|我打算|我们打算|我计划|我们计划|我会|我们会|我是|我的|我对|我们的|我们可以|我可以|"
    # "我一个人去北京出差" / "我们两个人到北京": who travels where, a statement ("我去哪吃" asks: a request)
    "我们?(?:[一两二三四五六七八九十几0-9]+个人)?[去到来](?!哪)|"
    "i'm|i am|i'll|i will|we're|we are|we'll|my|our|we can|i can|we could|i could|"
    "we don't|i don't|we do not|i do not|we can't|i can't"
)
NEAR = _cue("附近|周边|周围|旁边|靠近|边上|一带|离.{0,6}近|near|nearby|around|close to|next to|walking distance")
NEAR_METRO = re.compile(
    r"(?:地铁|metro|subway)站?.{0,4}(?:近|附近|旁边|方便|边上)|(?:靠近|离|近|near|close to|"
    r"walking distance (?:of|to|from)|next to)\s*(?:the |a )?(?:地铁|metro|subway)|"
    # "a hotel near Dongzhimen subway station": near a station named, as "东直门地铁站附近"
    r"\b(?:near|close to|next to|by)\s+(?:the\s+)?(?:[A-Za-z'-]+\s+){1,3}(?:metro|subway)\s+station",
    re.IGNORECASE,
)
QUIET = _cue(
    "安静|清静|僻静|不吵|太吵|嘈杂|远离喧嚣|quiet|peaceful|calm|not noisy|no noise|away from the noise|too noisy"
)
GREETING = re.compile(
    r"^\s*(?:(?:你好|您好|嗨|哈喽|hi|hello|hey|谢谢你?|多谢|感谢|thanks?|thank you|好的|好|行|ok(?:ay)?|"
    r"嗯+|bye|再见|great|cool|got it)[\s!！.。,，~]*)+$",
    re.IGNORECASE,
)
MEAL_TIME = re.compile(r"(中午|晚上|傍晚|早上)[^，,。；;！!？?]{0,12}?吃(?!过|了)")
GREETING_WORDS = re.compile(r"^(?:ok(?:ay)?|好的?|行|嗯+)[\s,，!！]*", re.I)
_TIME_MEALS = (
    ("breakfast", re.compile(r"早上|早晨|清早|\b(?:in the morning|for breakfast)\b", re.I)),
    ("lunch", re.compile(r"中午|午饭|午餐|\b(?:at noon|at lunchtime|midday)\b", re.I)),
    ("dinner", re.compile(r"晚上|傍晚|晚饭|晚餐|\b(?:in the evening|tonight|this evening)\b", re.I)),
)


def meal_by_time(text: str) -> str | None:
    """The meal a time of day names when a restaurant is taken for it ("订第一家餐厅，第二天晚上去": dinner).

    >>> meal_by_time("订第一家餐厅，第二天晚上去"), meal_by_time("Book it for day 2 in the evening"), meal_by_time("订第一家")
    ('dinner', 'dinner', None)
    """
    return next((meal for meal, pat in _TIME_MEALS if pat.search(text)), None)


# a question about the assistant's own life: whether it has been somewhere, eaten or stayed somewhere
_OWN_EXPERIENCE = re.compile(
    # "你试过订第一家吗？" / "Have you been able to find one?" / "Have you gone through all the options?" ask about
    # the task, not the assistant's life
    r"你(?:自己|本人)?(?:也|有没有|以前|之前|曾经|真的)*(?:(?:去|来|到|吃|住|玩|逛|爬|坐)过|试过(?!订|搜|查|找|问|预|联系|打))|"
    r"\b(?:have|did) you (?:ever |personally |yourself )?(?:been(?! (?:able|\w+ing)\b)|visited|"
    r"gone(?! (?:through|over|ahead|back|with)\b)|tasted|eaten|stayed|climbed|"
    # "have you tried searching near X?" asks about the search, not the assistant's life
    r"travel(?:l)?ed|tried(?! (?:to|searching|looking|finding|checking|asking|using|booking)\b))\b",
    re.IGNORECASE,
)


_EATEN = re.compile(r"吃|试|尝|tried|tasted|eaten", re.I)
_STAYED = re.compile(r"住|stayed", re.I)


def asks_own_experience(text: str) -> str | None:
    """What the message asks whether the assistant has done ("你去过吗？", "Have you been?": ``"been"``; "吃过" /
    "tried": ``"eaten"``; "住过" / "stayed": ``"stayed"``), or None: it has done none of them.

    >>> asks_own_experience("我住在上海。你去过吗？"), asks_own_experience("Have you ever tried Peking duck?")
    ('been', 'eaten')
    >>> asks_own_experience("你住过这家酒店吗？"), asks_own_experience("Have you booked the hotel?")
    ('stayed', None)
    >>> asks_own_experience("我去过故宫了"), asks_own_experience("Have you tried looking near Wangfujing?")
    (None, None)
    """
    m = _OWN_EXPERIENCE.search(text)
    if not m:
        return None
    return "eaten" if _EATEN.search(m.group(0)) else "stayed" if _STAYED.search(m.group(0)) else "been"


ORDINAL = re.compile(
    r"第\s*([一二两三四五六七八九十\d])\s*[家个间处]|(?:the\s+)?(first|second|third|fourth|fifth|"
    r"1st|2nd|3rd|4th|5th)\b|(?:option|number|no\.?|#)\s*(\d)",
    re.IGNORECASE,
)
# "the first hotel you showed me" / "你最开始推荐的第一家": an item counted in the order things were shown, over
# every list (the latest list alone is "the first one")
SHOWN_BEFORE = re.compile(
    r"最开始|一开始|最早|最初|起初|刚开始|你(?:之前|以前|先前|最先|先)?(?:推荐|给我看|列出|发|说)(?:过)?的|"
    r"\b(?:at first|originally|at the (?:start|beginning)|in the beginning|very first)\b|"
    r"\byou (?:first |originally |earlier )?(?:showed|recommended|suggested|listed|gave|sent|found)\b",
    re.IGNORECASE,
)
ASKS = re.compile(r"[?？吗呢]|\b(?:how|what|which|when|where|is|are|do|does|can)\b", re.IGNORECASE)
# how many results are wanted: "推荐一家餐厅" / "a restaurant" / "one hotel" / "三家" / "3 options"
COUNT = re.compile(
    r"(?<![第\d])([一两二三四五]|\d)\s*(?:家|个|间|处)(?=[^人晚天号日月口子]|$)(?![一二三四五六七八九两\d]\s*口|小时|钟头)|"
    r"\b(a|an|one|single|two|three|four|five|\d)\s+(?:good\s+|nice\s+|cheap\s+|quiet\s+|suitable\s+|"
    r"dinner\s+|lunch\s+)?(?:restaurant|hotel|place|attraction|sight|option|spot)s?\b",
    re.IGNORECASE,
)
# "再帮我找一家" / "find me another one": more of the same search, none offered before
# "别太贵" / "nothing too expensive": a wish about price with no number (the search keeps the cheaper half, said)
NOT_PRICEY = re.compile(
    r"(?:别|不要|不用|不能|不想|不会)(?:太|很|特别)?贵|不太贵|不贵的|便宜的|价格适中|价位适中|经济实惠|实惠的|性价比高|"
    r"\bnothing (?:too |very |that |overly )?(?:expensive|pricey|fancy)\b|\bnot (?:too |very |that |overly )?"
    r"(?:expensive|pricey)\b|\binexpensive\b|\baffordable\b|\breasonably priced\b|\bbudget[- ]friendly\b|"
    r"\bcheap\b|\bwon'?t break the bank\b|\bmoderately priced\b",
    re.I,
)
# "最便宜的" / "the cheapest": the one cheapest (of a list shown, or a search sorted by price)
CHEAPEST = re.compile(r"最便宜|最实惠|最省钱|\bcheapest\b|\bleast expensive\b|\blowest (?:price|ticket)", re.I)
CHEAPER = re.compile(r"cheaper|less expensive|more affordable|便宜(?:一)?点|更便宜|便宜些|实惠(?:一)?点|更实惠", re.I)


def not_pricey(text: str) -> bool:
    """ "别太贵" / "nothing too expensive": a wish about price with no number; "cheaper" continues a search and "最便宜的
    是哪个" asks for the cheapest one, neither keeps a cheaper half.

    >>> not_pricey("别太贵"), not_pricey("有没有便宜点的"), not_pricey("它们中门票最便宜的是哪个？")
    (True, False, False)
    """
    return bool(NOT_PRICEY.search(text)) and not CHEAPER.search(text) and not CHEAPEST.search(text)


MORE = re.compile(
    r"再(?:帮我|给我|替我)?(?:找|推荐|来|换|查|搜|看看)|换一[家个间处]|另(?:外)?一[家个间处]|别的|其他的|"
    r"还有(?:别的|其他|吗)|(?<![a-z])(?:another|one more|something else|a different one|other options?|"
    r"anything else|more options|any others?|are there others)(?![a-z])",
    re.IGNORECASE,
)
THIS = _cue("这家|那家|这个|那个|它|this one|that one|it")
ORD_WORDS = {
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "1st": 1,
    "2nd": 2,
    "3rd": 3,
    "4th": 4,
    "5th": 5,
}


def domain_hits(text: str) -> dict[str, int]:
    """How strongly each kind of place is asked for: its cue words, those in a clause that asks ("find a
    restaurant") counted twice, a kind named as the place to be near ("near the hotel", "酒店附近的餐厅") not at
    all when another kind is named.

    >>> domain_hits("Make the hotel limit 900 a night, and find a vegetarian restaurant near the hotel.")
    {'hotel': 1, 'restaurant': 2, 'attraction': 0}
    >>> domain_hits("帮我找酒店附近的酒店")["hotel"] > 0
    True
    """

    def count(t: str) -> dict[str, int]:
        return {d: len(c.findall(t)) for d, c in DOMAIN_CUES.items()}

    masked = NEAR_KIND.sub(lambda m: " " * len(m.group(0)), text)
    if not any(count(masked).values()):
        masked = text  # only the place to be near is named: it is also what is asked for
    hits = count(masked)
    for clause in _CLAUSE.split(masked):
        if _ASK_VERB.search(clause):
            for d, n in count(clause).items():
                hits[d] += n
    return hits


# words that ask for places (a search), not for a field of a place shown
SEARCH_ASKED = re.compile(
    r"推荐|找|搜|有什么|有哪些|哪些|哪家|哪个|附近|周边|\b(?:recommend|suggest|find|search|look for|show|any|which|near|"
    r"around|cheap(?:er|est)?)\b",
    re.IGNORECASE,
)


# a trip said to be to (another) city, a correction included; a city been to or come from is no trip there
GOING = re.compile(
    r"去|到|飞|是|\b(?:meant|going to|trip to|travel(?:l?ing)? to|fly(?:ing)? to|headed to|visiting)\b", re.I
)
BEEN = re.compile(r"去过|到过|从|来自|\b(?:been to|went to|visited|used to|from)\b", re.I)


def party_told(cons: list, text: str) -> bool:
    """Who travels said beside the other constraints ("我们一家三口，每晚住宿四五百吧"), not asked as a question:
    a description of the trip to note, like "we are ..." (options are searched when asked for)."""
    return any(c.slot == "people" for c in cons) and not re.search(r"[?？吗]", text)
