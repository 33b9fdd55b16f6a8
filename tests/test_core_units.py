"""Core behaviours beyond the scenario: novelty, knobs, promotion, DAG, focus, embedding text, cache."""

import networkx as nx
import numpy as np
import pytest

from weaver import WeaverConfig, WeaverError
from weaver.embedding import CachedEmbedder, condense_tool_output, embed_text_for


def test_near_duplicates_are_not_novel(weaver):
    weaver.set_task("Plan a Beijing trip")
    first = weaver.ingest("My total budget for the trip is 5000 yuan.")
    again = weaver.ingest("My total budget for the trip is 5000 yuan!")
    changed = weaver.ingest("Actually my total budget for the trip is 8000 yuan.")
    assert first.kept and first.decision.novelty >= 4
    assert again.decision.novelty <= 2 and not again.kept
    assert changed.kept and changed.decision.novelty > again.decision.novelty  # a new number is news


def test_thresholds_and_weights_are_configurable(runtime):
    strict = runtime.open("strict", config=WeaverConfig(keep_threshold=4.9))
    strict.set_task("Plan a Beijing trip")
    assert not strict.ingest("Maybe we could see some museums.").kept
    lenient = runtime.open("lenient", config=WeaverConfig(keep_threshold=1.0))
    lenient.set_task("Plan a Beijing trip")
    assert lenient.ingest("Maybe we could see some museums.").kept
    weighted = runtime.open("weights", config=WeaverConfig(w_relevance=0.0, w_importance=1.0, w_novelty=0.0))
    d = weighted.ingest("I am allergic to peanuts.").decision
    assert d.total == pytest.approx(d.importance)


def test_every_message_gets_a_decision_and_rejected_ones_can_be_promoted(weaver):
    weaver.set_task("Plan a Beijing trip")
    res = weaver.ingest("ok thanks", message_id="m-ok")
    assert not res.kept and weaver.decisions["m-ok"].reason.startswith("rejected")
    promoted = weaver.promote("m-ok")
    assert promoted.kept and promoted.node and weaver.decisions["m-ok"].promoted
    assert promoted.node.id in weaver.graph
    with pytest.raises(WeaverError):
        weaver.promote("missing")


def test_same_message_id_is_idempotent(weaver):
    a = weaver.ingest("My budget is 5000 yuan.", message_id="m1")
    b = weaver.ingest("My budget is 5000 yuan.", message_id="m1")
    assert b.duplicate and b.node.id == a.node.id
    assert len(weaver.nodes) == 1 and len(weaver.decisions) == 1


@pytest.mark.parametrize("bad", ["", "   \n\t", "\x00\x01"])
def test_empty_messages_are_refused(weaver, bad):
    with pytest.raises(WeaverError, match="empty"):
        weaver.ingest(bad)


def test_unknown_kind_is_refused(weaver):
    with pytest.raises(WeaverError, match="unknown kind"):
        weaver.ingest("hello there", "shout")


CONVERSATION = [
    ("We want to spend four days in Beijing in October.", "user_input"),
    ("Our budget is around 6000 yuan for two people.", "user_input"),
    ("I'll look for hotels in central Beijing for early October.", "agent_thought"),
    ('{"results": [{"name": "Jianguo Hotel", "price": 520, "rating": 4.6}]}', "tool_result"),
    ("The Jianguo Hotel costs 520 per night and is rated 4.6.", "agent_response"),
    ("My wife is vegetarian, so restaurants need vegetarian dishes.", "user_input"),
    ("Because of the vegetarian requirement I will filter restaurants.", "agent_thought"),
    ('{"results": [{"name": "Green Garden", "dishes": ["tofu", "greens"], "cost": 80}]}', "tool_result"),
    ("Green Garden serves vegetarian food for about 80 per person.", "agent_response"),
    ("We'd also like to see the Great Wall on the second day.", "user_input"),
    ("如果天气好，我们想第三天去颐和园。", "user_input"),
    ("酒店最好离地铁站近一点。", "user_input"),
]


def test_graph_is_a_dag_with_edges_forward_in_time_and_full_provenance(weaver):
    weaver.set_task("Plan a Beijing trip")
    for content, kind in CONVERSATION:
        weaver.ingest(content, kind, {"tool": "search"} if kind == "tool_result" else {})
    g = weaver.graph
    assert nx.is_directed_acyclic_graph(g)
    order = {nid: i for i, nid in enumerate(weaver.node_ids)}
    # the agent's process is linked (thought -> its call's result -> the reply), a stated need -> the step
    # acting on it; user statements that only follow one another stay unlinked (weaver/relations/support.py)
    of = {n.content: nid for nid, n in weaver.nodes.items()}
    for i, (content, kind) in enumerate(CONVERSATION):
        if kind in ("tool_result", "agent_response"):
            assert g.has_edge(of[CONVERSATION[i - 1][0]], of[content]), content
    assert g.has_edge(of[CONVERSATION[5][0]], of[CONVERSATION[6][0]])  # vegetarian -> the plan to filter
    assert not g.has_edge(of[CONVERSATION[0][0]], of[CONVERSATION[1][0]])  # dates, then budget: siblings
    assert g.number_of_edges() <= 1.3 * len(weaver.nodes)
    for u, v, d in g.edges(data=True):
        assert order[u] < order[v]
        assert d["relation"] in ("causal", "temporal", "conditional", "elaborates")
        assert d["origin"] == "rules" and 0 <= d["confidence"] <= 1 and d["rationale"] and d["created_at"] > 0
    # a guessed parent is one at most (plus a long-range reference): several parents come from declared ones
    assert all(g.in_degree(n) <= 2 for n in g)


def test_focus_without_a_task_follows_the_conversation(weaver):
    assert weaver.focus.vector() is None
    weaver.ingest("We are planning a family trip to Beijing next month.")
    v1 = weaver.focus.vector()
    assert v1 is not None
    for text in (
        "Let's talk about restaurants now: we love spicy Sichuan food.",
        "Sichuan hotpot places with a rating above 4.5 would be great.",
        "Spicy noodles for lunch, hotpot for dinner.",
    ):
        weaver.ingest(text)
    v2 = weaver.focus.vector()
    food = weaver.embedder.embed(["spicy Sichuan restaurants"])[0]
    assert float(v2 @ food) > float(v1 @ food)


def test_tool_output_is_condensed_and_prefixed_before_embedding():
    raw = '{"results": [{"名称": "北京饭店", "价格": 400, "设施": ["wifi", "停车"]}], "count": 1}'
    text = embed_text_for(raw, "tool_result", {"tool": "hotel_search"})
    assert text.startswith("[工具结果] [工具:hotel_search]") and "名称=北京饭店" in text and "{" not in text
    assert embed_text_for("I'm allergic", "user_input") == "I'm allergic"
    assert embed_text_for("Found 3 hotels", "agent_response").startswith("[reply] ")
    assert condense_tool_output("not json") == "not json"


def test_embedding_cache_hits_and_batches(embedder):
    calls = []

    class Counting:
        name, dim = "count", 512

        def embed(self, texts):
            calls.append(list(texts))
            return embedder.embed(texts)

    cache = CachedEmbedder(Counting())
    a = cache.embed(["one", "two", "one"])
    b = cache.embed(["two", "three"])
    assert calls == [["one", "two"], ["three"]]
    assert np.allclose(a[0], a[2]) and np.allclose(a[1], b[0])
    assert cache.hits == 2 and cache.misses == 3


def test_retrieval_respects_budget_and_reports_cuts(weaver):
    weaver.set_task("Plan a Beijing trip")
    for content, kind in CONVERSATION:
        weaver.ingest(content, kind)
    res = weaver.query("vegetarian restaurant near the hotel", budget=80)
    assert res.tokens <= 80 and res.nodes
    assert res.cut and all(c.cut_reason for c in res.cut)
    full = weaver.query("vegetarian restaurant near the hotel", budget=4000)
    assert len(full.nodes) > len(res.nodes)
    roles = {n.role for n in full.nodes}
    assert roles == {"seed", "expanded"} or roles == {"seed"}
    assert weaver.query("vegetarian restaurant", expand=False).config["hops"] == 0


def test_topic_switches_are_recorded_in_the_focus_history(weaver, runtime):
    weaver.set_task("帮我规划旅行")
    for text in (
        "我想订一家上海外滩附近的酒店，预算每晚800元。",
        "酒店要有早餐，最好能看到江景。",
        "入住时间是6月10日，住两晚。",
    ):
        weaver.ingest(text)
    shift = weaver.ingest("换个话题：故宫的门票多少钱？周一开放吗？")
    history = weaver.meta["focus_history"]
    assert history[0]["task"] == "帮我规划旅行"
    assert any("故宫" in h.get("shift", "") for h in history)
    # the shift rides on its message's decision (the commit marker); the meta record keeps only the tasks
    assert shift.decision.focus_shift_at > 0
    assert [h["task"] for h in weaver.space.get_meta()["focus_history"]] == ["帮我规划旅行"]

    def same(a, b):  # Chroma's float metadata comes back within a microsecond of the time written
        return len(a) == len(b) and all(
            x | {"at": 0} == y | {"at": 0} and abs(x["at"] - y["at"]) < 1e-3 for x, y in zip(a, b)
        )

    again = runtime.open("test")
    assert same(again.meta["focus_history"], history)
    again.set_task("再规划一下")  # a later task write must not copy the shifts into the meta record
    assert same(runtime.open("test").meta["focus_history"], again.meta["focus_history"])
    assert len(again.meta["focus_history"]) == len(history) + 1


def test_warm_loads_the_local_model_and_never_calls_a_remote_embedder(settings, openai_stub):
    from weaver import Runtime, Settings

    local = Runtime.from_settings(settings)  # its own cache: the session's shared one has hits already
    local.warm()
    assert local.embedder.misses == 1  # one real embed: the model is loaded now, not in the first space switch
    remote = Runtime.from_settings(
        Settings.from_env(
            env={
                "OPENAI_BASE_URL": openai_stub.base_url,
                "OPENAI_API_KEY": "sk-test-secret-123",
                "WEAVER_EMBEDDER": "openai",
            },
            secrets_path=None,
            data_dir=settings.data_dir,
        )
    )
    before = len(openai_stub.requests)
    remote.warm()
    assert remote.embedder.misses == 0 and len(openai_stub.requests) == before  # no call before one is needed
