"""Bilingual lexicon over the database: English place and dish names, diet categories, facilities, cities.

The database is Chinese; English users name places in English. These tables map
the common English names onto the database's Chinese names, and group dish
words into diet categories (an allergy to seafood excludes every dish whose name
holds a seafood word). They are general vocabularies, not demo sentences.

>>> dish_matches("鱼香肉丝", "seafood"), dish_matches("香煎鳕鱼", "seafood"), dish_matches("贝勒烤肉", "seafood")
(False, True, False)
>>> category_of("shellfish"), category_of("海鲜"), category_of("peanuts")
('shellfish', 'seafood', 'peanut')
"""

from __future__ import annotations

import re

__all__ = [
    "PLACE_ALIASES",
    "DISH_ALIASES",
    "DIET_CATEGORIES",
    "FACILITY_ALIASES",
    "HOTEL_TYPE_ALIASES",
    "OTHER_CITIES",
    "category_of",
    "dish_matches",
    "avoid_pattern",
]

# English (lower case) -> the database's Chinese name (an entity, or an area that names and addresses contain)
PLACE_ALIASES: dict[str, str] = {
    "forbidden city": "故宫",
    "palace museum": "故宫",
    "gugong": "故宫",
    "temple of heaven": "天坛",
    "tiantan": "天坛",
    "summer palace": "颐和园",
    "yiheyuan": "颐和园",
    "old summer palace": "圆明园",
    "yuanmingyuan": "圆明园",
    "great wall": "八达岭长城",
    "badaling": "八达岭长城",
    "mutianyu": "慕田峪长城",
    "juyongguan": "居庸关长城",
    "tiananmen square": "天安门广场",
    "tiananmen": "天安门广场",
    "tiananmen gate": "天安门城楼",
    "wangfujing": "王府井",
    "qianmen": "前门大街",
    "qianmen street": "前门大街",
    "beihai park": "北海公园",
    "beihai": "北海公园",
    "jingshan park": "景山公园",
    "jingshan": "景山公园",
    "lama temple": "雍和宫",
    "yonghe temple": "雍和宫",
    "yonghegong": "雍和宫",
    "shichahai": "什刹海",
    "houhai": "后海",
    "nanluoguxiang": "南锣鼓巷",
    "nanluogu lane": "南锣鼓巷",
    "bird's nest": "鸟巢（国家体育场）",
    "birds nest": "鸟巢（国家体育场）",
    "national stadium": "鸟巢（国家体育场）",
    "water cube": "水立方（国家游泳中心）",
    "olympic park": "奥林匹克公园",
    "798 art district": "798艺术区",
    "798": "798艺术区",
    "ming tombs": "明十三陵",
    "prince gong's mansion": "恭王府",
    "prince gong mansion": "恭王府",
    "national museum": "中国国家博物馆",
    "national museum of china": "中国国家博物馆",
    "capital museum": "首都博物馆",
    "beijing zoo": "北京动物园",
    "national centre for the performing arts": "国家大剧院",
    "national grand theater": "国家大剧院",
    "fragrant hills": "香山公园",
    "xiangshan": "香山公园",
    "peking university": "北京大学",
    "tsinghua university": "清华大学",
    "tsinghua": "清华大学",
    "guijie": "簋街小吃",
    "ghost street": "簋街小吃",
    "sanlitun": "三里屯",
    "xidan": "西单",
    "guomao": "国贸",
    "zhongguancun": "中关村",
    "wudaokou": "五道口",
    "dashilan": "大栅栏",
    "dashilar": "大栅栏",
    "beijing railway station": "北京站",
    "beijing south railway station": "北京南站",
    "beijing west railway station": "北京西站",
    "capital airport": "首都国际机场",
    "happy valley": "北京欢乐谷",
    "beijing aquarium": "北京海洋馆",
    "silk street": "秀水街",
    "drum tower": "钟鼓楼",
    "bell tower": "钟鼓楼",
    "yuyuantan park": "玉渊潭公园",
    "ritan park": "日坛公园",
    "ditan park": "地坛公园",
    "temple of earth": "地坛",
    "taoranting park": "陶然亭公园",
    "chaoyang park": "朝阳公园",
    "madame tussauds": "北京杜莎夫人蜡像馆",
}
# Chinese short forms people say -> the database's name
PLACE_ALIASES_ZH: dict[str, str] = {
    "长城": "八达岭长城",
    "鸟巢": "鸟巢（国家体育场）",
    "水立方": "水立方（国家游泳中心）",
    "国博": "中国国家博物馆",
    "国家博物馆": "中国国家博物馆",
    "紫禁城": "故宫",
    "故宫博物院": "故宫",
    "北大": "北京大学",
    "清华": "清华大学",
    "簋街": "簋街小吃",
    "十三陵": "明十三陵",
    "慕田峪": "慕田峪长城",
    "八达岭": "八达岭长城",
    "天安门": "天安门广场",
    "前门": "前门大街",
    "香山": "香山公园",
}
# Areas: not rows of their own, matched against names, addresses and metro stations
AREAS_ZH = (
    "王府井",
    "三里屯",
    "西单",
    "国贸",
    "中关村",
    "五道口",
    "南锣鼓巷",
    "后海",
    "北京站",
    "北京南站",
    "北京西站",
    "首都国际机场",
    "大栅栏",
    "东直门",
    "西直门",
    "望京",
    "崇文门",
    "建国门",
    "东单",
    "亚运村",
    "鼓楼",
    "朝阳门",
    "安贞",
    "双井",
    "酒仙桥",
    "方庄",
    "公主坟",
    "木樨园",
    "宣武门",
    "和平门",
)

DISH_ALIASES: dict[str, str] = {
    "peking duck": "烤鸭",
    "roast duck": "烤鸭",
    "beijing duck": "烤鸭",
    "hot pot": "火锅",
    "hotpot": "火锅",
    "dumplings": "饺子",
    "dumpling": "饺子",
    "buns": "包子",
    "steamed buns": "包子",
    "noodles": "面",
    "zhajiangmian": "炸酱面",
    "noodles with soybean paste": "炸酱面",
    "kung pao chicken": "宫保鸡丁",
    "lamb skewers": "羊肉串",
    "skewers": "串",
    "barbecue": "烤肉",
    "bbq": "烤肉",
    "grilled fish": "烤鱼",
    "mutton": "羊肉",
    "lamb": "羊肉",
    "beef": "牛肉",
    "steak": "牛排",
    "pizza": "比萨",
    "sushi": "寿司",
    "tofu": "豆腐",
    "porridge": "粥",
    "dessert": "甜点",
    "ice cream": "冰淇淋",
    "coffee": "咖啡",
    "sweet and sour pork": "糖醋里脊",
    "mapo tofu": "麻婆豆腐",
    "salad": "沙拉",
    "fried rice": "炒饭",
}

# diet category -> (words in dish names, words that look alike but are not the thing)
DIET_CATEGORIES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "seafood": (
        (
            "海鲜",
            "虾",
            "蟹",
            "鱼",
            "贝",
            "蚝",
            "蛤",
            "蛎",
            "鲍",
            "海参",
            "洞参",
            "刺参",
            "鱿",
            "墨鱼",
            "章鱼",
            "鳗",
            "鳕",
            "鲈",
            "鲶",
            "鲅",
            "三文",
            "金枪",
            "鱼翅",
            "刺身",
            "寿司",
            "螺",
            "蛏",
            "海胆",
            "蚬",
            "乌鱼蛋",
            "海蜇",
            "鲜贝",
            "带子",
        ),
        ("鱼香", "贝勒", "宝贝", "鱼腥草", "鲜贝勒"),
    ),
    "shellfish": (
        ("虾", "蟹", "贝", "蚝", "蛤", "蛎", "鲍", "鱿", "墨鱼", "章鱼", "螺", "蛏", "海胆", "蚬", "带子"),
        ("贝勒", "宝贝"),
    ),
    "fish": (
        ("鱼", "鳗", "鳕", "鲈", "鲶", "鲅", "三文", "金枪", "刺身", "生鱼片", "鱼生"),
        ("鱼香", "鱿鱼", "墨鱼", "章鱼", "鱼腥草", "鲍鱼"),
    ),
    "peanut": (("花生", "宫保", "宫爆", "果仁"), ()),
    "nuts": (("花生", "宫保", "宫爆", "果仁", "腰果", "核桃", "杏仁", "榛", "开心果", "松子", "坚果"), ()),
    "spicy": (
        ("辣", "麻辣", "水煮", "毛血旺", "剁椒", "椒麻", "香锅", "干锅", "串串", "冒菜", "川味", "重庆", "湘"),
        (),
    ),
    "pork": (
        (
            "猪",
            "五花肉",
            "红烧肉",
            "里脊",
            "肘",
            "排骨",
            "培根",
            "火腿",
            "叉烧",
            "卤煮",
            "炒肝",
            "腊肉",
            "东坡肉",
            "回锅肉",
            "锅包肉",
            "狮子头",
            "猪蹄",
        ),
        (),
    ),
    "beef": (("牛",), ("牛蛙", "牛油果", "蜗牛")),
    "lamb": (("羊",), ()),
    "egg": (("蛋",), ("乌鱼蛋",)),
    "meat": (
        (
            "肉",
            "鸡",
            "鸭",
            "鹅",
            "牛",
            "羊",
            "猪",
            "排骨",
            "肠",
            "肚",
            "肝",
            "腰子",
            "火腿",
            "培根",
            "串",
            "热狗",
            "香肠",
            "海鲜",
            "虾",
            "蟹",
            "鱼",
            "贝",
            "蚝",
            "鲍",
            "海参",
            "鱿",
            "墨鱼",
            "章鱼",
            "鳗",
            "三文",
            "金枪",
            "刺身",
            "寿司",
        ),
        ("素肉", "素鸡", "鱼香", "贝勒", "牛油果", "肉桂"),
    ),
    "dairy": (("奶", "芝士", "奶酪", "黄油", "酸奶", "冰淇淋"), ("奶白菜",)),
}
# words users say -> diet category
_CATEGORY_WORDS: dict[str, str] = {
    "海鲜": "seafood",
    "海产": "seafood",
    "水产": "seafood",
    "seafood": "seafood",
    "sea food": "seafood",
    "贝类": "shellfish",
    "甲壳": "shellfish",
    "虾蟹": "shellfish",
    "shellfish": "shellfish",
    "shrimp": "shellfish",
    "prawn": "shellfish",
    "prawns": "shellfish",
    "crab": "shellfish",
    "lobster": "shellfish",
    "oyster": "shellfish",
    "鱼": "fish",
    "鱼类": "fish",
    "fish": "fish",
    "花生": "peanut",
    "peanut": "peanut",
    "peanuts": "peanut",
    "坚果": "nuts",
    "nut": "nuts",
    "nuts": "nuts",
    "tree nuts": "nuts",
    "辣": "spicy",
    "吃辣": "spicy",
    "辣的": "spicy",
    "spicy": "spicy",
    "spicy food": "spicy",
    "chili": "spicy",
    "猪肉": "pork",
    "猪": "pork",
    "pork": "pork",
    "牛肉": "beef",
    "beef": "beef",
    "羊肉": "lamb",
    "lamb": "lamb",
    "mutton": "lamb",
    "鸡蛋": "egg",
    "蛋": "egg",
    "egg": "egg",
    "eggs": "egg",
    "奶": "dairy",
    "乳制品": "dairy",
    "牛奶": "dairy",
    "dairy": "dairy",
    "milk": "dairy",
    "lactose": "dairy",
    "素": "meat",
    "吃素": "meat",
    "素食": "meat",
    "荤": "meat",
    "肉": "meat",
    "meat": "meat",
    "vegetarian": "meat",
    "vegan": "meat",
}
CATEGORY_NAMES = {
    "zh": {
        "seafood": "海鲜",
        "shellfish": "虾蟹贝类",
        "fish": "鱼类",
        "peanut": "花生",
        "nuts": "坚果",
        "spicy": "辣味",
        "pork": "猪肉",
        "beef": "牛肉",
        "lamb": "羊肉",
        "egg": "蛋类",
        "dairy": "奶制品",
        "meat": "荤菜（素食）",
    },
    "en": {
        "seafood": "seafood",
        "shellfish": "shellfish",
        "fish": "fish",
        "peanut": "peanuts",
        "nuts": "nuts",
        "spicy": "spicy food",
        "pork": "pork",
        "beef": "beef",
        "lamb": "lamb",
        "egg": "eggs",
        "dairy": "dairy",
        "meat": "meat (vegetarian)",
    },
}

FACILITY_ALIASES: dict[str, str] = {
    "wifi": "wifi",
    "wi-fi": "wifi",
    "无线": "wifi",
    "internet": "宽带上网",
    "broadband": "宽带上网",
    "gym": "健身房",
    "fitness": "健身房",
    "健身": "健身房",
    "pool": "游泳池",
    "swimming pool": "游泳池",
    "泳池": "游泳池",
    "游泳": "游泳池",
    "parking": "停车位",
    "停车": "停车位",
    "breakfast": "早餐服务",
    "早餐": "早餐服务",
    "free breakfast": "早餐服务免费",
    "免费早餐": "早餐服务免费",
    "airport pickup": "接机服务",
    "airport shuttle": "接机服务",
    "接机": "接机服务",
    "station pickup": "接站服务",
    "接站": "接站服务",
    "spa": "SPA",
    "sauna": "桑拿",
    "桑拿": "桑拿",
    "laundry": "洗衣服务",
    "洗衣": "洗衣服务",
    "hot spring": "温泉",
    "温泉": "温泉",
    "non-smoking": "无烟房",
    "no smoking": "无烟房",
    "无烟": "无烟房",
    "bar": "酒吧",
    "meeting room": "会议室",
    "会议室": "会议室",
    "business centre": "商务中心",
    "business center": "商务中心",
    "car rental": "租车",
    "租车": "租车",
    "heating": "暖气",
    "暖气": "暖气",
    "accessible": "残疾人设施",
    "wheelchair": "残疾人设施",
    "无障碍": "残疾人设施",
    "luggage storage": "行李寄存",
    "行李寄存": "行李寄存",
    "babysitting": "看护小孩服务",
    "foreign guests": "接待外宾",
    "西餐厅": "西式餐厅",
    "western restaurant": "西式餐厅",
    "中餐厅": "中式餐厅",
    "chinese restaurant": "中式餐厅",
}
HOTEL_TYPE_ALIASES: dict[str, str] = {
    "经济型": "经济型",
    "经济": "经济型",
    "budget hotel": "经济型",
    "economy": "经济型",
    "cheap hotel": "经济型",
    "舒适型": "舒适型",
    "舒适": "舒适型",
    "comfort": "舒适型",
    "mid-range": "舒适型",
    "midrange": "舒适型",
    "高档型": "高档型",
    "高档": "高档型",
    "upscale": "高档型",
    "high-end": "高档型",
    "四星": "高档型",
    "豪华型": "豪华型",
    "豪华": "豪华型",
    "luxury": "豪华型",
    "五星": "豪华型",
    "five-star": "豪华型",
    "5-star": "豪华型",
}
# cities the database does not cover (Chinese and English names)
OTHER_CITIES: dict[str, str] = {
    "上海": "上海",
    "shanghai": "上海",
    "广州": "广州",
    "guangzhou": "广州",
    "深圳": "深圳",
    "shenzhen": "深圳",
    "杭州": "杭州",
    "hangzhou": "杭州",
    "成都": "成都",
    "chengdu": "成都",
    "西安": "西安",
    "xi'an": "西安",
    "xian": "西安",
    "南京": "南京",
    "nanjing": "南京",
    "天津": "天津",
    "tianjin": "天津",
    "重庆": "重庆",
    "chongqing": "重庆",
    "香港": "香港",
    "hong kong": "香港",
    "澳门": "澳门",
    "macau": "澳门",
    "苏州": "苏州",
    "suzhou": "苏州",
    "厦门": "厦门",
    "xiamen": "厦门",
    "青岛": "青岛",
    "qingdao": "青岛",
    "武汉": "武汉",
    "wuhan": "武汉",
    "长沙": "长沙",
    "changsha": "长沙",
    "昆明": "昆明",
    "kunming": "昆明",
    "三亚": "三亚",
    "sanya": "三亚",
    "哈尔滨": "哈尔滨",
    "harbin": "哈尔滨",
    "台北": "台北",
    "taipei": "台北",
    "东京": "东京",
    "tokyo": "东京",
    "首尔": "首尔",
    "seoul": "首尔",
    "new york": "纽约",
    "纽约": "纽约",
    "london": "伦敦",
    "伦敦": "伦敦",
    "paris": "巴黎",
    "巴黎": "巴黎",
}
CITY_EN = {v: k.title() for k, v in OTHER_CITIES.items() if k.isascii()}


def category_of(word: str) -> str | None:
    """The diet category a user's word names (``"shellfish"`` / ``"海鲜"`` ...), or None."""
    w = word.strip().lower()
    return _CATEGORY_WORDS.get(w) or _CATEGORY_WORDS.get(w.rstrip("s"))


_CATEGORY_FIND = re.compile(
    "|".join(
        re.escape(w) if not w.isascii() else r"(?<![a-z])" + re.escape(w) + r"(?![a-z])"
        for w in sorted(_CATEGORY_WORDS, key=len, reverse=True)
    ),
    re.IGNORECASE,
)


def categories_in(phrase: str) -> list[str]:
    """Every diet category a phrase names, in order ("海鲜和猪肉", "牛羊肉", "beef or lamb").

    >>> categories_in("海鲜和猪肉"), categories_in("牛羊肉"), categories_in("seafood and pork, beef or lamb")
    (['seafood', 'pork'], ['beef', 'lamb'], ['seafood', 'pork', 'beef', 'lamb'])
    """
    # "牛羊肉" is 牛肉 and 羊肉: a run of animals shares the one 肉
    text = re.sub(r"([猪牛羊鸡鸭鱼]+)([猪牛羊鸡鸭鱼])肉", lambda m: "肉".join(m.group(1) + m.group(2)) + "肉", phrase)
    return list(dict.fromkeys(_CATEGORY_WORDS[m.group(0).lower()] for m in _CATEGORY_FIND.finditer(text)))


def avoid_pattern(term: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Words to look for and false friends to ignore, for a category name or a plain dish word."""
    cat = term if term in DIET_CATEGORIES else category_of(term)
    if cat:
        return DIET_CATEGORIES[cat]
    return ((term,), ())


def dish_matches(dish: str, term: str) -> bool:
    """Does the dish name hold the avoided thing (a category or a dish word)?"""
    words, false_friends = avoid_pattern(term)
    text = dish
    for ff in false_friends:
        text = text.replace(ff, "")
    return any(w in text for w in words)


def english_alias_pattern(table: dict[str, str]) -> re.Pattern:
    keys = sorted(table, key=len, reverse=True)
    return re.compile(r"(?<![a-z])(?:" + "|".join(re.escape(k) for k in keys) + r")(?![a-z])", re.IGNORECASE)


# kinds of sight: the database has no type field, so a kind is read from the name (what the user says on the left,
# what a database name holds on the right); "故宫博物院" names a palace that is also a museum
SIGHT_KINDS = {
    "museum": (
        r"博物馆|博物院|纪念馆|美术馆|展览馆|艺术馆|科技馆|\b(?:museums?|galler(?:y|ies)|exhibitions?)\b",
        r"博物馆|博物院|纪念馆|美术馆|展览馆|陈列馆|艺术馆|科技馆",
    ),
    "park": (r"公园|植物园|动物园|园林|\b(?:parks?|gardens?|zoos?)\b", r"公园|植物园|动物园|园$|花园"),
    "temple": (
        r"寺庙|寺院|寺|庙|道观|教堂|\b(?:temples?|church(?:es)?|mosques?|monaster(?:y|ies))\b",
        r"寺|庙|观$|坛|教堂",
    ),
}
_KIND_SAID = {k: re.compile(said, re.IGNORECASE) for k, (said, _) in SIGHT_KINDS.items()}
_KIND_NAMED = {k: re.compile(named) for k, (_, named) in SIGHT_KINDS.items()}


def sight_kind(text: str) -> str | None:
    """The kind of sight a message asks for, the place names in it already removed.

    >>> sight_kind("Any museum you'd suggest?"), sight_kind("附近有什么公园"), sight_kind("有什么景点")
    ('museum', 'park', None)
    >>> sight_kind("a hotel with parking")
    >>> sight_kind("美术馆旁边有公园吗"), sight_kind("a museum near a park")
    ('park', 'museum')
    """
    # "国家博物馆附近的公园": the thing asked for is named last in Chinese, first in English ("a park near ...")
    hits = sorted((m.start(), k) for k, pat in _KIND_SAID.items() for m in pat.finditer(text or ""))
    if not hits:
        return None
    return hits[-1][1] if re.search(r"[\u4e00-\u9fff]", text) else hits[0][1]


def is_kind(name: str, kind: str) -> bool:
    """Is a database sight of this kind, by its name?

    >>> is_kind("首都博物馆", "museum"), is_kind("天坛", "temple"), is_kind("北海公园", "museum")
    (True, True, False)
    """
    return bool(_KIND_NAMED[kind].search(name))
