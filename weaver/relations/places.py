"""Places a message names: what a later "near it" / "它家周边" / "near X" points back to.

A follow-up about the surroundings ("周边有什么酒店吗？", "那它家周边有景点吗", "any bars
near it?") refers to the place in focus: the latest memory that named a place. A
place is recognised by how names are made, not by a list of places:

* Chinese: two or more name characters before a venue or toponym head noun
  ("北京金龙建国温泉酒店", "大三元酒家", "六渡河村", "冶仙塔旅游风景区"), not after a
  function word ("你能把酒店", "舒适型的酒店", "经济型酒店" name no place), or a branch
  in brackets ("东来顺(前门大街店)"), or a word the segmenter's dictionary tags as a
  place, organisation or person and that is rare in general text ("慕田峪长城",
  "人民大会堂"; "北京" is too common to single a place out);
* English: a capitalised word that does not open a sentence ("the Louvre", "Grand Hyatt").

>>> place_names("推荐您去绿岛乐园，门票39元。"), place_names("好的，它家的电话是多少？")
(('绿岛乐园',), ())
>>> place_names("你能把酒店电话发给我吗"), place_names("只为你们找到一家是 大三元酒家。")
((), ('大三元酒家',))
>>> place_names("东来顺(前门大街店)就能完全符合你的要求"), place_names("We loved the Louvre.")
(('东来顺(前门大街店)',), ('Louvre',))
>>> is_name("营业时间"), is_name("酒店周边"), is_name("北京泰山饭店"), is_name("慕田峪长城")
(False, False, True, True)
"""

from __future__ import annotations

import re
import zlib
from functools import lru_cache

from ..table_cache import cached_table
from ..text import jieba_segmenter

__all__ = ["place_names", "names_place", "is_name", "proper_noun_tags", "PLACE_HEADS", "RARE_PROPER"]

# head nouns a Chinese place name ends in: venues and toponym suffixes (multi-character, so "上山" is no place)
PLACE_HEADS = (
    "大酒店 酒店 宾馆 饭店 旅馆 客栈 公寓 民宿 招待所 青年旅舍 "
    "餐厅 餐馆 饭馆 饭庄 酒家 酒楼 食堂 饭堂 面馆 菜馆 火锅 烤肉 烤鸭店 小吃 咖啡馆 茶馆 "
    "景区 风景区 旅游区 度假区 公园 乐园 广场 博物馆 美术馆 纪念馆 图书馆 科技馆 展览馆 海洋馆 体育馆 "
    "动物园 植物园 博览园 文化园 故居 长城 胡同 大街 剧院 剧场 舞台 寺 庙 塔 宫 坛 陵 村 镇 湖 山 桥"
).split()
# one-character heads ("潭柘寺", "六渡河村") need three name characters before them
_SHORT = tuple(h for h in PLACE_HEADS if len(h) == 1)
_LONG = tuple(h for h in PLACE_HEADS if len(h) > 1)
# a name does not end in a function or degree word before its head ("把酒店", "的餐馆", "型酒店", "这家店")
_NOT_NAME_END = set("的家个边近围型级些种类把被给在到去从回找订住是有这那该此哪每好新个位间座")
_HEAD = re.compile(
    "(?P<name>[\u4e00-\u9fffA-Za-z0-9·]{2,}?)(?P<head>%s)|(?P<short>[\u4e00-\u9fff]{3,}?)(?:%s)"
    % ("|".join(sorted(_LONG, key=len, reverse=True)), "|".join(_SHORT))
)
_BRANCH = re.compile(r"([\u4e00-\u9fffA-Za-z0-9·]{2,})[（(][\u4e00-\u9fffA-Za-z0-9·]{1,12}店[)）]")
_PROPER_EN = re.compile(r"(?<![.!?。！？]\s)(?<!^)\b[A-Z][a-z]{2,}(?:\s+[A-Z][a-z]+)*\b")
_EN_COMMON = frozenset(
    "I The This That What When Where How Yes Thanks Hi Hello Okay Sure Monday Tuesday Wednesday Thursday Friday "
    "Saturday Sunday January February March April May June July August September October November December".split()
)  # words capitalised by rule, not because they name a place
RARE_PROPER = 3000  # a place / organisation / person word at most this frequent in jieba's dictionary singles one out
_PROPER_FLAGS = ("ns", "nt", "nr", "nz")
_LOCATIVE_WORD = re.compile("周边|附近|周围|旁边|边上")


@lru_cache(maxsize=4096)
def _proper_words(text: str) -> tuple[str, ...]:
    """Dictionary words tagged as proper nouns that are rare in general text ("慕田峪长城", not "北京").

    The tag is the dictionary's (the segmenter's own tagger is ~8x slower and tags fragments of unknown names)."""
    jieba = jieba_segmenter()
    freq, tags = jieba.dt.FREQ, proper_noun_tags()
    return tuple(
        w for w in jieba.lcut(text) if len(w) >= 3 and tags.get(w) in _PROPER_FLAGS and freq.get(w, 0) <= RARE_PROPER
    )


# a dictionary line "word frequency tag" whose tag names a place, organisation, person or other proper noun
_PROPER_LINE = re.compile(r"^(\S+) \d+ (%s)\r?$" % "|".join(_PROPER_FLAGS), re.M)


@lru_cache(maxsize=1)
def proper_noun_tags() -> dict[str, str]:
    """The proper-noun words of the segmenter's dictionary and their tags: what ``jieba.posseg`` reads from the
    same file (its ``word_tag_tab`` restricted to these tags), read without importing the tagger, whose import
    parses every line of the dictionary and its HMM tables (0.2-0.6 s, once per process, paid by the first
    Chinese message a space links; this is ~0.1 s)."""
    jieba = jieba_segmenter()
    with jieba.dt.get_dict_file() as fh:
        data = fh.read()
    # kept on disk between processes, keyed by the dictionary and the rule (a scan ~0.09 s, a read ~0.03 s)
    key = f"{zlib.crc32(data)}:{len(data)}:{_PROPER_LINE.pattern}"
    return cached_table("jieba-proper-nouns", key, lambda: dict(_PROPER_LINE.findall(data.decode("utf-8"))))


@lru_cache(maxsize=4096)
def place_names(text: str) -> tuple[str, ...]:
    """The places ``text`` names, in order of appearance (see the module docstring)."""
    out: list[str] = []
    for m in _BRANCH.finditer(text):
        out.append(m.group(0))
    for m in _HEAD.finditer(text):
        name = m.group("name") or m.group("short")
        start = m.start()
        # the name runs back to the last function word ("我想去绿岛乐园" names 绿岛乐园)
        for cut in ("去", "在", "是", "到", "从", "有", "叫", "推荐", "选", "您", "你", "我"):
            k = name.rfind(cut)
            if 0 <= k < len(name) - 1:
                start += k + len(cut)
                name = name[k + len(cut) :]
        if len(name) < 2 or name[-1] in _NOT_NAME_END or (m.group("short") and len(name) < 3):
            continue
        full = text[start : m.end()]
        if not any(full in o or o in full for o in out):
            out.append(full)
    if any("\u4e00" <= ch <= "\u9fff" for ch in text):
        out += [w for w in _proper_words(text) if not any(w in o for o in out)]
    out += [w for w in _PROPER_EN.findall(text) if w.split()[0] not in _EN_COMMON and w not in out]
    return tuple(out)


def names_place(text: str) -> bool:
    """Whether ``text`` names a place.

    >>> names_place("哦，你再帮我查一下六渡河村的电话是多少？"), names_place("酒店周边没有餐馆。")
    (True, False)
    """
    return bool(place_names(text))


@lru_cache(maxsize=4096)
def is_name(run: str) -> bool:
    """Whether a run two memories share is a name (a place, a branch, a proper or out-of-dictionary word), not a
    common phrase that a short chat happens to repeat ("营业时间", "人均消费是", "酒店周边")."""
    if not any("\u4e00" <= ch <= "\u9fff" for ch in run):
        return True  # Latin names are judged by their capital letter elsewhere
    if _LOCATIVE_WORD.search(run):
        return False  # "酒店周边": a kind and where, no name
    if place_names(run):
        return True
    jieba = jieba_segmenter()
    freq, tags = jieba.dt.FREQ, proper_noun_tags()
    return any(
        len(w) >= 2
        and any("\u4e00" <= ch <= "\u9fff" for ch in w)
        and (not freq.get(w) or (tags.get(w) in _PROPER_FLAGS and freq[w] <= RARE_PROPER))
        for w in jieba.lcut(run)
    )
