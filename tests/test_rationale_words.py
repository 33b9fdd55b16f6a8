"""The rules' rationales (edges, review proposals) read in Chinese in the Chinese studio: the Review queue and the
node inspector showed "later node holds under the earlier constraint; same slot budget/location" there."""

from __future__ import annotations

import re

import pytest

from test_curation import weave
from test_curation_review import CHANGED

from weaver.rationale_words import rationale_in_words

_CJK = re.compile(r"[\u4e00-\u9fff]")
# what may stay in Latin letters: ids, tool names and arguments, and the memories' own words the rationale quotes
_KEPT = re.compile(r"n_[0-9a-f]+|[a-z_]+\(.*?\)|[a-z]+_[a-z_]+")


def test_every_rule_rationale_of_a_woven_space_reads_in_chinese(runtime):
    w = runtime.open("rationales")
    w.config = w.config.with_(review_every=0, supersede_on_arrival=False)
    weave(w, "en")
    weave(w, "zh")
    w.curation.review(apply=False)
    arrive = runtime.open("rationales-arrival")  # a restated budget supersedes the old one on arrival
    arrive.config = arrive.config.with_(review_every=0)
    weave(arrive, "en")
    weave(arrive, "zh")
    arrive.ingest(CHANGED["en"], "user_input")
    arrive.ingest(CHANGED["zh"], "user_input")
    restated = {d.get("rationale", "") for _, _, d in arrive.graph.edges(data=True)}
    assert any("restated with a new value" in r for r in restated), restated
    texts = (
        restated
        | {d.get("rationale", "") for _, _, d in w.graph.edges(data=True)}
        | {i.rationale for i in w.curation.items()}
    )
    texts.discard("")
    assert len(texts) >= 3, texts
    words = {}
    for text in texts:
        zh = rationale_in_words(text, "zh")
        assert _CJK.search(zh), (text, zh)  # every one was read, not passed through
        # no English phrase is left: at most the memories' words it quotes ("shares ...") and names
        shared = re.search(r"共有的词：([^；（）]+)", zh)
        rest = _KEPT.sub("", zh.replace(shared.group(1), "") if shared else zh)
        left = re.findall(r"[A-Za-z]{3,}", rest)
        words[text] = left
    assert not any(words.values()), {t: v for t, v in words.items() if v}
    assert all(rationale_in_words(t, "en") == t for t in texts)  # English is the record, unchanged


# rationales as the rules record them, quoting what the user said (values, shared words, names, tool arguments);
# each pair: the recorded text and the words it quotes, which must come through untouched (zh and en users alike)
QUOTING = [
    (
        "what they work as said anew: guard at a max security prison -> teacher at a school",
        ["guard at a max security prison", "teacher at a school"],
    ),
    ("where they live said anew: 上海（浦东），最多住两年 -> 北京", ["上海（浦东），最多住两年", "北京"]),
    (
        "says it again with another value: max security, about town -> open prison (0.71)",
        ["max security, about town", "open prison"],
    ),
    (
        "says what they work as again with another value: same speaker at min wage -> closest fit",
        ["same speaker at min wage", "closest fit"],
    ),
    (
        "restated with a new value: location/hotel: near the max security prison -> Wangfujing; budget/total: max 5000 -> max 8000",
        ["near the max security prison"],
    ),
    (
        "names 'Max Range (about town), similar content', brought up by another speaker",
        ["'Max Range (about town), similar content'"],
    ),
    ("revisits 'same speaker; shares words' from session 3 (similarity 0.80)", ["'same speaker; shares words'"]),
    ("set the arguments of search_hotels(area='max range, same speaker')", ["area='max range, same speaker'"]),
    (
        "similar (0.70), same slot, no path between them: later node holds under the earlier constraint; same slot budget; shares max, about",
        ["共有的词：max、about"],
    ),
]


@pytest.mark.parametrize("text, quoted", QUOTING)
def test_the_users_own_words_in_a_rationale_are_never_translated(text, quoted):
    zh = rationale_in_words(text, "zh")
    assert _CJK.search(zh.replace("上海（浦东），最多住两年", "").replace("北京", "")), zh  # the template was read
    for words in quoted:
        assert words in zh, (zh, words)
    assert "最多 security" not in zh and "约 town" not in zh and "同一说话人 at" not in zh
    assert rationale_in_words(text, "en") == text  # English is the record, unchanged


def test_the_template_around_quoted_words_is_still_translated():
    zh = rationale_in_words("restated with a new value: budget/total: max 5000 -> max 8000", "zh")
    assert zh == "以新值重述：预算/总：最多 5000 -> 最多 8000"
    zh = rationale_in_words("link model 0.97: that speaker's latest turn, continues the speaker's own turn", "zh")
    assert zh == "连接模型 0.97：那位说话人的最近一轮，接着说话人自己的上一轮"  # apostrophes are not quotes
