"""English for the database's Chinese: names transliterated (pinyin) with their kind glossed, types and durations.

>>> gloss_name("7天优品酒店(北京国贸劲松地铁站店)")
'7天优品酒店(北京国贸劲松地铁站店) (7 Tianyoupin Hotel, Beijing Guomao Jingsong Station branch)'
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
        branch = (_branch(branch[:-1]) + " branch") if branch.endswith("店") else _branch(branch)
        return f"{name} ({_part(m.group(1), hotel)}, {branch})"
    return f"{name} ({_part(name, hotel)})"


def _branch(text: str) -> str:
    """A branch's place: a metro station named as a station ("国贸劲松地铁站" -> "Guomao Jingsong Station", not
    "... Ditiezhan")."""
    for zh in ("地铁站", "站"):
        if text.endswith(zh) and len(text) > len(zh):
            return f"{pinyin(text[: -len(zh)])} Station"
    return pinyin(text)


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

    >>> gloss_duration("1小时"), gloss_duration("1天 - 2天"), gloss_duration("0.5小时"), gloss_duration("0.3小时 - 0.3小时")
    ('1 hour', '1-2 days', '0.5 hours', '0.3 hours')
    """
    if not value:
        return "unknown"
    parts = [p.strip() for p in re.split(r"\s*-\s*", value)]
    matched = [re.match(r"([\d.]+)\s*(小时|天|分钟)", p) for p in parts]
    units = [u for u in matched if u is not None]
    if len(units) < len(matched):
        return pinyin(value)
    en = {"小时": "hours", "天": "days", "分钟": "minutes"}
    if len(units) == 2 and units[0].group(0) == units[1].group(0):  # "0.3小时 - 0.3小时": one length, said once
        units = units[:1]
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
    # the data's words around the hours, longest first where one holds another ("午市营业时间" before "午市")
    "非营业时段": "; closed",
    "午市营业时间": "lunch",
    "晚市营业时间": "dinner",
    "营业时间为": "",
    "营业时间": "",
    "二十四小时营业": "24 hours",
    "二十四小时": "24 hours",
    "24小时营业": "24 hours",
    "小时营业": " hours",
    "晚上第一场": "first evening sitting",
    "晚上第二场": "second evening sitting",
    "客人走为止": "until the last guest leaves",
    "即将开业": "opening soon",
    "工作日": "weekdays",
    "放假": "holidays",
    "春季": "spring",
    "夏季": "summer",
    "秋季": "autumn",
    "冬季": "winter",
    "早市": "breakfast",
    "午市": "lunch",
    "晚市": "dinner",
    "早点": "breakfast",
    "早餐": "breakfast",
    "午餐": "lunch",
    "晚餐": "dinner",
    "正餐": "meals",
    "上午": "morning",
    "中午": "noon",
    "下午": "afternoon",
    "晚上": "evening",
    "晚间": "evening",
    "点半": ":30",
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


# full-width punctuation in the hours, as an English line writes it
_PUNCT = str.maketrans({"：": ":", "—": "-", "，": ", ", "。": ".", "；": "; ", "、": ", "})


def gloss_hours(value: str | None) -> str:
    """ "周一至周日 11:00-14:00" -> "Mon-Sun 11:00-14:00"; the data's words around the hours in English, not pinyin.

    >>> gloss_hours("周一至周日 11:00-23:00 非营业时段 2018-02-14至2018-02-16 全天")
    'Mon-Sun 11:00-23:00; closed 2018-02-14 to 2018-02-16 all day'
    >>> gloss_hours("周一至周日 午市 11:30-14:00 晚市 17:30-22:00"), gloss_hours("早点6:00-9:00，正餐11:00-23:00。")
    ('Mon-Sun lunch 11:30-14:00 dinner 17:30-22:00', 'breakfast 6:00-9:00, meals 11:00-23:00.')
    """
    text = re.sub(r"(\d{4}-\d\d-\d\d)\s*至\s*(\d{4}-\d\d-\d\d)", r"\1 to \2", value or "")  # a closed period
    # "早9：00—晚11：00": morning as it is, an evening hour on the 24-hour clock the rest of the data uses
    text = re.sub(r"早\s*(?=\d)", "", text)
    text = re.sub(r"晚\s*(\d{1,2})(?=\D|$)", lambda m: str(int(m.group(1)) + 12 * (int(m.group(1)) < 12)), text)
    for zh, en in _DAYS.items():
        text = text.replace(zh, en)
    text = text.replace("小时", " hours")
    text = text.translate(_PUNCT)
    text = re.sub(r"(\d)点", r"\1:00", text)  # "11点" (a bare 点 left after "点半")
    text = re.sub(r"([a-z])(?=\d)|(\d)(?=[a-z])", lambda m: (m.group(1) or m.group(2)) + " ", text)  # "breakfast6:00"
    return re.sub(r"\s+;", ";", re.sub(r" {2,}", " ", gloss_text(text))).strip()
