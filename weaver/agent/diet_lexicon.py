"""Dishes and diets: English dish names, the diet categories dish words fall into, and matching one against a dish.

An allergy to seafood excludes every dish whose name holds a seafood word (but not
its false friends: 鱼香肉丝 holds no fish). General vocabularies, not demo sentences.

>>> dish_matches("鱼香肉丝", "seafood"), dish_matches("香煎鳕鱼", "seafood"), dish_matches("贝勒烤肉", "seafood")
(False, True, False)
>>> category_of("shellfish"), category_of("海鲜"), category_of("peanuts")
('shellfish', 'seafood', 'peanut')
"""

from __future__ import annotations

import re

__all__ = [
    "DISH_ALIASES",
    "DIET_CATEGORIES",
    "CATEGORY_NAMES",
    "category_of",
    "categories_in",
    "avoid_pattern",
    "dish_matches",
]

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
            # offal, bones, game and small birds the words above miss (a vegetarian's "meat" is every animal)
            "百叶",
            "骨",
            "血",
            "蹄",
            "凤爪",
            "风爪",
            "翅",
            "杂碎",
            "脑花",
            "巴脑",
            "上脑",
            "板筋",
            "鸽",
            "鹌鹑",
            "蛙",
            "兔",
            "鹿",
            "丸子",
            "贡丸",
            "腊味",
            "烧腊",
            "蜇",
            "胖头",
            "汉堡",
            "烧烤",
            "BBQ",
            "bbq",
            # dishes whose names hide their minced or ground meat
            "麻婆",
            "蚂蚁上树",
            "狮子头",
        ),
        (
            "素肉",
            "素鸡",
            "鱼香",
            "贝勒",
            "牛油果",
            "肉桂",
            "鱼腥草",
            "宝贝",
            "马蹄",
            "鹌鹑蛋",
            "兔爷",
            "兔儿",
            "豆腐丸子",
            "牛舌饼",
        ),
    ),
    "dairy": (("奶", "芝士", "奶酪", "黄油", "酸奶", "冰淇淋"), ("奶白菜",)),
}
# meat is every animal the narrower categories name too (糖醋里脊 is pork, 鳕鱼 fish), under meat's own false friends
DIET_CATEGORIES["meat"] = (
    tuple(
        dict.fromkeys(
            DIET_CATEGORIES["meat"][0]
            + tuple(w for c in ("seafood", "shellfish", "fish", "pork", "beef", "lamb") for w in DIET_CATEGORIES[c][0])
        )
    ),
    DIET_CATEGORIES["meat"][1],
)
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
