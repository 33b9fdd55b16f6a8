"""A query that is a conversation: each of its turns is heard, not only the average of all of them."""

import numpy as np

from weaver import WeaverConfig
from weaver.query_turns import LATEST_FADE, dense_similarity, fused_relevance, latest_similarity, query_turns
from weaver.retrieval import lexical_weight

MEMORIES = [
    "Bart danced at the Christmas party and everyone cheered.",
    "Bart won the 100 metre race at the school sports day.",
    "Bart tried mango ice cream at the new shop and loved it.",
    "Bart's grandmother taught him to fold paper cranes.",
    "Bart lost his blue bicycle at the park last spring.",
    "Bart is afraid of big dogs since one chased him.",
]
HISTORY = (
    "<BOD>\n"
    '<Bart>:"I am doing a magic show at the New Year party!"\n'
    '<Assistant>:"Wonderful! The audience will love it."\n'
    '<Bart>:"I am nervous, what should I wear?"\n'
    '<Assistant>:"Your favourite costume."\n'
    '<Bart>:"Maybe I could also dance like I did at Christmas?"\n'
    "<EOD>"
)


def test_a_transcript_splits_into_its_turns_and_a_question_does_not():
    turns = query_turns(HISTORY)
    assert len(turns) == 5 and turns[0].startswith("I am doing a magic show") and not turns[0].startswith("<")
    assert query_turns("what did Bart dance at?") == []
    assert query_turns("我对海鲜过敏\n餐厅 过敏 忌口") == []  # a message and the agent's hint: one query
    zh = query_turns("用户：我想去故宫\n助手：好的\n用户：预算八百")
    assert zh == ["我想去故宫", "好的", "预算八百"]


def test_the_turn_a_memory_matches_counts_as_much_as_the_whole(weaver, embedder):
    weaver.config = weaver.config.with_(coarse_threshold=-1.0, keep_threshold=0.0, duplicate_threshold=1.01)
    for text in MEMORIES:
        weaver.ingest(text)
    assert len(weaver.nodes) == len(MEMORIES)
    # the vectors the weaver queries with: the whole history, then each turn
    q = weaver.query_vector(HISTORY)
    assert q.shape == (1 + len(query_turns(HISTORY)), embedder.dim)
    whole = embedder.embed([HISTORY])[0]
    ids = weaver.node_ids
    dance = next(i for i, n in enumerate(ids) if "danced" in weaver.nodes[n].content)
    heard = dense_similarity(weaver.matrix, q)
    averaged = weaver.matrix @ whole
    # the memory the last turn is about gains on the averaged similarity, and no less than the others do
    gain = heard - averaged
    assert gain[dance] > 0 and gain[dance] >= np.median(gain)
    # retrieval and the debugger score with it: not with the averaged vector
    scored = weaver.score_nodes(HISTORY)
    np.testing.assert_allclose(scored.dense, heard, rtol=1e-5)
    assert not np.allclose(scored.dense, averaged, atol=1e-3)
    res = weaver.query(HISTORY, budget=4096, config=WeaverConfig().with_(w_lexical=0.0))
    assert res.ranked[0].id == ids[dance]
    assert abs(res.ranked[0].similarity - float(heard[dance])) < 1e-5
    # a one-line query is scored exactly as before: one vector
    one = weaver.query_vector("what did Bart do at Christmas?")
    assert one.ndim == 1
    np.testing.assert_allclose(dense_similarity(weaver.matrix, one), weaver.matrix @ one, rtol=1e-6)


# the child first talks about the bicycle, then, last, about the ice cream: what was said last calls up the memory
SWITCHED = (
    '<Bart>:"I lost my blue bicycle at the park last spring, it was awful."\n'
    '<Assistant>:"Oh no, that must have been sad."\n'
    '<Bart>:"Now I want something sweet and cold, like the mango one from the new shop!"\n'
)


def test_a_many_turn_query_hears_its_latest_turn_and_bm25_with_an_equal_say(weaver):
    weaver.config = weaver.config.with_(coarse_threshold=-1.0, keep_threshold=0.0, duplicate_threshold=1.01)
    for text in MEMORIES:
        weaver.ingest(text)
    ids = weaver.node_ids
    row = {k: next(i for i, n in enumerate(ids) if k in weaver.nodes[n].content) for k in ("bicycle", "mango")}
    q = weaver.query_vector(SWITCHED)
    scored = weaver.score_nodes(SWITCHED, WeaverConfig().with_(w_lexical=0.0))
    # the whole and the best turn alone (the previous rule) put the bicycle first; the latest turn's channel does not
    heard = dense_similarity(weaver.matrix, q)
    assert heard[row["bicycle"]] > heard[row["mango"]]
    assert scored.own[row["mango"]] > scored.own[row["bicycle"]]
    # the ranking is the four channels' fusion, BM25 in it with the say w_lexical gives it
    full = weaver.score_nodes(SWITCHED)
    expected = fused_relevance(weaver.matrix @ q.T, full.lexical, 1.0, 1.0)
    np.testing.assert_allclose(full.own, expected, rtol=1e-5)
    assert not np.allclose(full.own, scored.own, atol=1e-4)
    # on the whole's cosine scale: what context and edges add downstream keeps its size
    assert abs(float(full.own.mean()) - float((weaver.matrix @ q[0]).mean())) < 1e-4
    # a one-line query is scored exactly as before: dense plus the fixed BM25 weight
    line = "what flavour of ice cream did Bart like?"
    one = weaver.score_nodes(line)
    np.testing.assert_allclose(one.own, one.dense + lexical_weight(line, weaver.config) * one.lexical, rtol=1e-5)


# the last turn is an answer: what it is about is in the agent's question before it
ANSWERED = (
    '<Bart>:"School was a bit boring today."\n'
    '<Assistant>:"Did your grandmother teach you to fold paper cranes again?"\n'
    '<Bart>:"Yes, we did it all afternoon!"\n'
)


def test_the_latest_turn_is_heard_with_the_turn_it_answers(weaver):
    weaver.config = weaver.config.with_(coarse_threshold=-1.0, keep_threshold=0.0, duplicate_threshold=1.01)
    for text in MEMORIES:
        weaver.ingest(text)
    ids = weaver.node_ids
    cranes = next(i for i, n in enumerate(ids) if "cranes" in weaver.nodes[n].content)
    sims = weaver.matrix @ weaver.query_vector(ANSWERED).T
    alone, faded = latest_similarity(sims, 0.0), latest_similarity(sims)
    # the answer alone does not name the cranes; heard with the question before it, they lead the channel
    assert int(np.argmax(faded)) == cranes and int(np.argmax(alone)) != cranes
    np.testing.assert_allclose(alone, sims[:, -1])
    # the turn before counts LATEST_FADE as much as the latest, the one before that LATEST_FADE**2
    w = np.array([LATEST_FADE**2, LATEST_FADE, 1.0])
    np.testing.assert_allclose(faded, sims[:, 1:] @ w / w.sum(), rtol=1e-6)
    # and the weaver ranks with it: the fused relevance uses the faded channel, not the latest turn alone
    scored = weaver.score_nodes(ANSWERED)
    np.testing.assert_allclose(scored.own, fused_relevance(sims, scored.lexical, 1.0, 1.0), rtol=1e-5)
    assert not np.allclose(scored.own, fused_relevance(sims, scored.lexical, 1.0, 1.0, fade=0.0), atol=1e-4)
    assert weaver.query(ANSWERED, budget=4096).ranked[0].id == ids[cranes]
