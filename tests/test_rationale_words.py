"""The rules' rationales (edges, review proposals) read in Chinese in the Chinese studio: the Review queue and the
node inspector showed "later node holds under the earlier constraint; same slot budget/location" there."""

from __future__ import annotations

import re

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
