"""A later request about a place's surroundings links to where that place was named (weaver/relations/places.py).

Chats of our own (not benchmark sentences), ingested for real: the place in focus is the latest memory that
named one place, whoever named it and whether or not it was "recommended"; a list of places around something is
not the place; an address describes the place and names none; a speaker who sets a request around a place they
named themselves ("在X附近找…", "near X") depends on where they named it.
"""

from __future__ import annotations

import networkx as nx
import pytest

from weaver.relations.places import is_name, place_names
from weaver.relations.references import anchors, in_focus


def _ingest(w, said):
    return [w.ingest(text, kind).node.id for kind, text in said]


def _parents(w, node_id):
    return {u: w.graph.edges[u, node_id]["rationale"] for u in w.graph.predecessors(node_id)}


def test_a_bare_nearby_question_links_to_the_place_the_user_named_last(runtime):
    w = runtime.open("focus-zh")
    ids = _ingest(
        w,
        [
            ("user_input", "请推荐一家评分高的川菜馆。"),
            ("agent_response", "推荐您去蜀香园川菜馆(西单店)，人均80元。"),
            ("user_input", "好的。另外帮我查一下雁栖湖风景区的门票多少钱？"),
            ("agent_response", "门票是60元，旺季要早点到。"),
            ("user_input", "周边有什么酒店吗？"),
            ("agent_response", "周边的酒店有雁栖湖国际会都酒店、北京日出东方凯宾斯基酒店。"),
            ("user_input", "那就在刚才那个景点附近帮我找一家舒适型的酒店吧。"),
        ],
    )
    # the question about the surroundings is about the lake the user asked after, not the restaurant recommended
    assert ids[2] in _parents(w, ids[4]) and ids[1] not in _parents(w, ids[4])
    # the later request reaches the place within two hops, and not through the list of hotels as "the place"
    assert nx.shortest_path_length(w.graph, ids[2], ids[6]) <= 2
    assert "refers to the place" not in _parents(w, ids[6]).get(ids[5], "")


def test_the_same_speaker_setting_a_request_around_their_own_place_links_to_it(runtime):
    w = runtime.open("anchor-zh")
    ids = _ingest(
        w,
        [
            ("user_input", "我们周六想去雁栖湖风景区，那里要门票吗？"),
            ("agent_response", "需要，门票60元。"),
            ("user_input", "我们一共三个人，周六早上出发。"),
            ("agent_response", "三个人周六早上出发，已记下。"),
            ("user_input", "我们还想吃烤鱼，预算人均一百左右。"),
            ("agent_response", "人均一百左右的烤鱼，已记下。"),
            ("user_input", "请在雁栖湖风景区附近帮我们找一家烤鱼馆。"),
        ],
    )
    assert ids[0] in _parents(w, ids[6])
    assert "雁栖湖风景区" in _parents(w, ids[6])[ids[0]]


def test_english_a_request_near_a_place_links_to_where_it_was_named(runtime):
    w = runtime.open("focus-en")
    ids = _ingest(
        w,
        [
            ("user_input", "Can you recommend a quiet teahouse?"),
            ("agent_response", "I recommend the Laoshe Teahouse, tea from 40 yuan."),
            ("user_input", "Thanks. How much is a ticket for the Summer Palace?"),
            ("agent_response", "Tickets are 30 yuan in winter."),
            ("user_input", "Any hotels near it?"),
        ],
    )
    assert ids[2] in _parents(w, ids[4]) and ids[1] not in _parents(w, ids[4])
    # a request that names its own place ("near Daxing Airport") takes no place in focus from earlier turns
    w2 = runtime.open("own-place-en")
    ids = _ingest(
        w2,
        [
            ("user_input", "We land at Daxing Airport on Friday evening."),
            ("agent_response", "I recommend the Laoshe Teahouse for your first evening."),
            ("user_input", "Find us a hotel near the Temple of Heaven for the first night."),
        ],
    )
    assert not any("refers to the place" in why for why in _parents(w2, ids[2]).values())


@pytest.mark.parametrize(
    "text, names",
    [
        ("地址是在门头沟区潭柘寺镇。", None),  # an address: names no place in focus
        ("为您推荐绿岛乐园，门票39元。", "绿岛乐园"),
        ("我要找一家经济型酒店。", ""),
        ("你能把酒店电话发给我吗？", ""),
    ],
)
def test_place_names_by_how_names_are_made(text, names):
    if names is None:
        assert not in_focus(text)
    elif names:
        assert place_names(text) == (names,) and in_focus(text)
    else:
        assert place_names(text) == ()


def test_common_phrases_are_not_names_and_anchors_need_nearby():
    assert not is_name("营业时间") and not is_name("人均消费是") and not is_name("酒店周边")
    assert is_name("北京泰山饭店") and is_name("干锅传奇")
    assert anchors("请在雁栖湖风景区附近找酒店", "雁栖湖风景区")
    assert not anchors("雁栖湖风景区的门票多少钱", "雁栖湖风景区")


LONG_RANGE = {
    # a place another speaker named turns before, named again: the later message links to where it was named
    "zh": (
        [
            ("user_input", "我们想找个地方喝茶。"),
            ("agent_response", "可以去老舍茶馆，也可以去颐和园里的茶座。"),
            ("user_input", "喝茶的预算是每人一百元左右。"),
            ("agent_response", "已记下：喝茶预算每人一百元。"),
            ("user_input", "我们一共两个人，周六下午去。"),
            ("agent_response", "已记下：两个人，周六下午。"),
            ("user_input", "颐和园里的茶座几点开门？"),
        ],
        "颐和园里的茶座",
    ),
    "en": (
        [
            ("user_input", "We would like somewhere to have tea."),
            ("agent_response", "You could try the Laoshe Teahouse, or the tea house in the Summer Palace."),
            ("user_input", "Our tea budget is about 100 yuan per person."),
            ("agent_response", "Noted: a tea budget of 100 yuan per person."),
            ("user_input", "There are two of us, going on Saturday afternoon."),
            ("agent_response", "Noted: two people on Saturday afternoon."),
            ("user_input", "When does the tea house in the Summer Palace open?"),
        ],
        "Summer Palace",
    ),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_name_said_again_turns_later_links_to_where_another_speaker_named_it(runtime, lang):
    """English proper names of two or more capitalised words link like a Chinese name of four characters or
    more (before, a Latin name never did: the link asked for four CJK characters); a word alone does not."""
    said, name = LONG_RANGE[lang]
    w = runtime.open(f"long-range-{lang}")
    ids = [w.ingest(text, kind).node for kind, text in said]
    ids = [n.id if n else None for n in ids]  # an acknowledgement may be dropped as saying little
    parents = _parents(w, ids[-1])
    assert ids[1] in parents and name in parents[ids[1]], parents
    if lang == "en":  # "Louvre" alone stays no link: a single capitalised word is too often a person or a day
        w2 = runtime.open("one-word-en")
        said = [
            ("agent_response", "The Louvre is open late on Fridays, until nine."),
            ("user_input", "We arrive in Paris on Thursday evening."),
            ("agent_response", "Noted: arriving on Thursday evening."),
            ("user_input", "Is the Louvre busy on Friday nights?"),
        ]
        last = [w2.ingest(text, kind).node for kind, text in said][-1]
        assert last and not any("Louvre" in why for why in _parents(w2, last.id).values())


def test_proper_noun_tags_are_the_taggers_own():
    """The proper-noun table read straight from the segmenter's dictionary is the one ``jieba.posseg`` builds from
    it (restricted to the proper-noun tags), so the links do not change with the cheaper reader."""
    import jieba.posseg as posseg

    from weaver.relations.places import proper_noun_tags

    tagger = {w: t for w, t in posseg.dt.word_tag_tab.items() if t in ("ns", "nt", "nr", "nz")}
    table = proper_noun_tags()
    assert len(table) > 50_000
    assert table == tagger
    assert (table["慕田峪长城"], table["人民大会堂"]) == ("ns", "nt") and "酒店" not in table
