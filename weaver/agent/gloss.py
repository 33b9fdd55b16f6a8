"""English for the database's Chinese: names transliterated (pinyin) with their kind glossed, types and durations.

>>> gloss_name("7天优品酒店(北京国贸劲松地铁站店)")
'7天优品酒店(北京国贸劲松地铁站店) (7 Tianyoupin Hotel, Beijing Guomao Jingsong Ditiezhan branch)'
>>> gloss_name("正隆斋素食餐厅")
'正隆斋素食餐厅 (Zhenglong Zhai Vegetarian Restaurant)'
>>> gloss_station("劲松地铁站D口"), gloss_type("经济型"), gloss_duration("2小时 - 3小时"), gloss_duration("3天")
('劲松地铁站D口 (Jingsong station, exit D)', 'economy', '2-3 hours', '3 days')
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["pinyin", "gloss_name", "gloss_station", "gloss_type", "gloss_duration", "gloss_text", "gloss_hours"]

_KINDS = [
    # a kind read as pinyin can mislead: 素食 is "Sushi" in pinyin, a vegetarian kitchen in meaning
    ("素食餐厅", "Vegetarian Restaurant"),
    ("素食", "Vegetarian"),
    ("素菜", "Vegetarian"),
    ("大酒店", "Grand Hotel"),
    ("酒店", "Hotel"),
    ("宾馆", "Hotel"),
    ("饭店", "Restaurant"),
    ("餐厅", "Restaurant"),
    ("餐馆", "Restaurant"),
    ("饭庄", "Restaurant"),
    ("烤鸭店", "Roast Duck"),
    ("火锅", "Hotpot"),
    ("博物馆", "Museum"),
    ("公园", "Park"),
    ("纪念馆", "Memorial Hall"),
    ("故居", "Former Residence"),
    ("寺", "Temple"),
    ("庙", "Temple"),
    ("大街", "Street"),
    ("胡同", "Hutong"),
    ("长城", "Great Wall"),
    ("客栈", "Inn"),
    ("公寓", "Apartments"),
    ("小吃店", "Snacks"),
    ("包子铺", "Buns"),
]
_TYPES = {"经济型": "economy", "舒适型": "mid-range", "高档型": "upscale", "豪华型": "luxury"}


@lru_cache(maxsize=4096)
def pinyin(text: str) -> str:
    """Chinese words in pinyin, one capitalised word per jieba word ("国贸劲松" -> "Guomao Jinsong")."""
    import jieba
    from pypinyin import lazy_pinyin

    words = []
    for w in jieba.lcut(text):
        if re.search(r"[\u4e00-\u9fff]", w):
            words.append("".join(lazy_pinyin(w)).capitalize())
        elif w.strip():
            words.append(w.strip())
    return " ".join(words)


# a hotel's name often ends in 饭店 ("北京饭店", "崇文门饭店"): for a hotel row that word is "Hotel", not "Restaurant"
_HOTEL_KINDS = [("大饭店", "Grand Hotel"), ("饭店", "Hotel")]


def _part(text: str, hotel: bool = False) -> str:
    for zh, en in (_HOTEL_KINDS if hotel else []) + _KINDS:
        if text.endswith(zh) and len(text) > len(zh):
            return f"{pinyin(text[: -len(zh)])} {en}"
    return pinyin(text)


def gloss_name(name: str, hotel: bool = False) -> str:
    """``name (Pinyin Kind[, branch])``; a name without Chinese is returned as it is; ``hotel``: the name is a
    hotel's (its 饭店 is a hotel).

    >>> gloss_name("北京崇文门饭店", hotel=True), gloss_name("南京大饭店", hotel=True)
    ('北京崇文门饭店 (Beijing Chongwenmen Hotel)', '南京大饭店 (Nanjing Grand Hotel)')
    """
    if not name or not re.search(r"[\u4e00-\u9fff]", name):
        return name
    m = re.match(r"(.+?)[（(](.+?)[)）]\s*$", name)
    if m:
        branch = m.group(2)
        branch = (pinyin(branch[:-1]) + " branch") if branch.endswith("店") else pinyin(branch)
        return f"{name} ({_part(m.group(1), hotel)}, {branch})"
    return f"{name} ({_part(name, hotel)})"


def gloss_station(value: str | None) -> str:
    if not value:
        return "no station listed"
    m = re.match(r"(.+?)地铁站(.*?)口?$", value)
    if not m:
        return pinyin(value)
    exit_ = f", exit {m.group(2)}" if m.group(2) else ""
    return f"{value} ({pinyin(m.group(1))} station{exit_})"  # the sign says the Chinese: keep it


def gloss_type(value: str | None) -> str:
    return _TYPES.get(value or "", pinyin(value or ""))


def gloss_duration(value: str | None) -> str:
    """ "2小时 - 3小时" -> "2-3 hours", "3天" -> "3 days", "12小时 - 3天" -> "12 hours - 3 days".

    >>> gloss_duration("1小时"), gloss_duration("1天 - 2天"), gloss_duration("0.5小时")
    ('1 hour', '1-2 days', '0.5 hours')
    """
    if not value:
        return "unknown"
    parts = [p.strip() for p in re.split(r"\s*-\s*", value)]
    matched = [re.match(r"([\d.]+)\s*(小时|天|分钟)", p) for p in parts]
    units = [u for u in matched if u is not None]
    if len(units) < len(matched):
        return pinyin(value)
    en = {"小时": "hours", "天": "days", "分钟": "minutes"}
    if len(units) == 2 and units[0].group(2) == units[1].group(2):
        return f"{units[0].group(1)}-{units[1].group(1)} {en[units[0].group(2)]}"
    # "1 hour", not "1 hours"
    return " - ".join(
        f"{u.group(1)} {en[u.group(2)][:-1] if float(u.group(1)) == 1 else en[u.group(2)]}" for u in units
    )


def gloss_text(text: str) -> str:
    """Any Chinese run in an English sentence, in pinyin (for a field the data holds only in Chinese)."""
    return re.sub(r"[\u4e00-\u9fff]+", lambda m: pinyin(m.group(0)), text or "")


_DAYS = {
    "周一": "Mon",
    "周二": "Tue",
    "周三": "Wed",
    "周四": "Thu",
    "周五": "Fri",
    "周六": "Sat",
    "周日": "Sun",
    "周末": "weekends",
    "节假日": "holidays",
    "全天": "all day",
    "次日": "next day",
    "至": "-",
    "到": "-",
    "和": " and ",
}


def gloss_hours(value: str | None) -> str:
    """ "周一至周日 11:00-14:00" -> "Mon-Sun 11:00-14:00"."""
    text = value or ""
    for zh, en in _DAYS.items():
        text = text.replace(zh, en)
    return gloss_text(text)
