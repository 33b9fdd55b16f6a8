"""The LangGraph store adapter: BaseStore operations on a real space, and a real LangGraph graph using it.

The graph runs two conversations (threads) with a scripted model: what the first one
stored is what the second one recalls, in Chinese and in English.
"""

from __future__ import annotations

import asyncio
import operator
from typing import Annotated, TypedDict

import pytest

pytest.importorskip("langgraph")
from langgraph.checkpoint.memory import InMemorySaver  # noqa: E402
from langgraph.graph import END, START, StateGraph  # noqa: E402
from langgraph.store.base import BaseStore  # noqa: E402

from weaver.integrations import MemoryService  # noqa: E402
from weaver.integrations.langgraph_store import WeaverStore  # noqa: E402


@pytest.fixture
def store(runtime):
    return WeaverStore(MemoryService(runtime), space="lg")


def test_put_get_search_delete_with_namespaces(store, runtime):
    user = ("users", "u1", "memories")
    store.put(user, "budget", {"content": "我的预算总共是5000元。", "topic": "budget", "priority": 3})
    store.put(user, "allergy", {"content": "I am allergic to peanuts.", "topic": "diet", "priority": 5})
    store.put(("users", "u2", "memories"), "pet", {"text": "My cat is called Mochi.", "priority": 1})
    store.put(user, "note", {"rating": 4.5})  # no text field: the value's JSON is what is embedded

    item = store.get(user, "budget")
    assert item.value == {"content": "我的预算总共是5000元。", "topic": "budget", "priority": 3}
    assert item.namespace == user and item.key == "budget" and item.created_at <= item.updated_at
    assert store.get(user, "nothing") is None and store.get(("users", "u3"), "budget") is None

    # a new value for a key supersedes the old memory; created_at is the first put's
    store.put(user, "budget", {"content": "预算改成八千元了。", "topic": "budget", "priority": 4})
    again = store.get(user, "budget")
    assert again.value["content"] == "预算改成八千元了。" and again.created_at == item.created_at
    w = runtime.open("lg", create=False)
    old = [n for n in w.nodes.values() if n.content == "我的预算总共是5000元。"]
    assert [n.status for n in old] == ["superseded"]  # kept, audited, undoable: never erased

    # search: by prefix, by filter, and by meaning (the weaver's own ranking)
    assert {i.key for i in store.search(("users",))} == {"budget", "allergy", "note", "pet"}
    assert {i.key for i in store.search(("users", "u1"))} == {"budget", "allergy", "note"}
    assert [i.key for i in store.search(("users",), filter={"topic": "diet"})] == ["allergy"]
    assert {i.key for i in store.search(("users",), filter={"priority": {"$gte": 4}})} == {"budget", "allergy"}
    assert store.search(("users",), filter={"priority": {"$gt": 9}}) == []
    hits = store.search(("users",), query="what can't I eat? peanuts", limit=2)
    assert hits[0].key == "allergy" and hits[0].score is not None and len(hits) == 2
    hits = store.search(("users", "u1"), query="预算是多少", limit=1)
    assert hits[0].key == "budget" and hits[0].value["content"] == "预算改成八千元了。"
    assert len(store.search(("users",), limit=2)) == 2 and len(store.search(("users",), limit=2, offset=3)) == 1

    assert store.list_namespaces() == [("users", "u1", "memories"), ("users", "u2", "memories")]
    assert store.list_namespaces(prefix=("users", "u2")) == [("users", "u2", "memories")]
    assert store.list_namespaces(suffix=("memories",), max_depth=2) == [("users", "u1"), ("users", "u2")]

    # delete retracts: gone from get and search, still in the audit log and undoable
    store.delete(user, "allergy")
    assert store.get(user, "allergy") is None
    assert "allergy" not in {i.key for i in store.search(("users",))}
    assert any(
        e.action == "node.status" and e.after.get("status") == "retracted"
        for e in runtime.open("lg", create=False).curation.log.entries
    )
    # putting the same value again brings the same memory back
    store.put(user, "allergy", {"content": "I am allergic to peanuts.", "topic": "diet", "priority": 5})
    assert store.get(user, "allergy").value["priority"] == 5


def test_a_filler_value_is_kept_anyway_and_async_works(store, runtime):
    ns = ("agent", "scratch")

    async def run():
        await store.aput(ns, "ack", {"content": "ok"})  # the filter would drop this chit-chat: a put keeps it
        got = await store.aget(ns, "ack")
        found = await store.asearch(("agent",), query="ok")
        await store.adelete(ns, "ack")
        return got, found, await store.aget(ns, "ack")

    got, found, gone = asyncio.run(run())
    assert got.value == {"content": "ok"} and [i.key for i in found] == ["ack"] and gone is None
    (d,) = runtime.open("lg", create=False).decisions.values()
    assert d.promoted and "promoted" in d.reason  # the filter's verdict is recorded, and overridden


class ScriptedModel:
    """A chat model with a script: it answers from the memories in its prompt, and records every prompt."""

    def __init__(self):
        self.prompts: list[str] = []

    def invoke(self, messages: list[dict]) -> str:
        prompt = "\n".join(m["content"] for m in messages)
        self.prompts.append(prompt)
        if "peanut" in prompt.lower() or "花生" in prompt:
            return "Noted: no peanuts. / 好的，不放花生。"
        return "Tell me more. / 请多说一点。"


class State(TypedDict):
    user: str
    question: str
    remember: str
    memories: Annotated[list[str], operator.add]
    answer: str


def build_graph(model: ScriptedModel, store: BaseStore):
    def remember(state: State, *, store: BaseStore) -> dict:
        if state.get("remember"):
            store.put(
                ("users", state["user"], "memories"), f"m{len(state['remember'])}", {"content": state["remember"]}
            )
        return {}

    def recall(state: State, *, store: BaseStore) -> dict:
        hits = store.search(("users", state["user"], "memories"), query=state["question"], limit=3)
        return {"memories": [h.value["content"] for h in hits]}

    def answer(state: State) -> dict:
        system = "What you remember about the user:\n" + "\n".join(state["memories"])
        return {
            "answer": model.invoke(
                [{"role": "system", "content": system}, {"role": "user", "content": state["question"]}]
            )
        }

    g = StateGraph(State)
    g.add_node("remember", remember)
    g.add_node("recall", recall)
    g.add_node("answer", answer)
    g.add_edge(START, "remember")
    g.add_edge("remember", "recall")
    g.add_edge("recall", "answer")
    g.add_edge("answer", END)
    return g.compile(checkpointer=InMemorySaver(), store=store)


def test_inside_a_real_langgraph_graph(store):
    model = ScriptedModel()
    app = build_graph(model, store)
    # thread 1 learns the allergy; thread 2, a new conversation, recalls it from the store
    app.invoke(
        {"user": "u1", "remember": "I'm allergic to peanuts, 我对花生过敏。", "question": "hi"},
        {"configurable": {"thread_id": "t1"}},
    )
    out = app.invoke(
        {"user": "u1", "remember": "", "question": "Which dishes should I avoid tonight?"},
        {"configurable": {"thread_id": "t2"}},
    )
    assert "peanuts" in out["memories"][0] and out["answer"].startswith("Noted: no peanuts")
    assert "花生" in model.prompts[-1]
    # another user shares nothing
    other = app.invoke(
        {"user": "u2", "remember": "", "question": "Which dishes should I avoid tonight?"},
        {"configurable": {"thread_id": "t3"}},
    )
    assert other["memories"] == [] and other["answer"].startswith("Tell me more")


def test_bad_input_is_one_line_and_a_bad_batch_writes_nothing(store, runtime):
    from langgraph.store.base import PutOp, SearchOp

    from weaver.models import WeaverError

    ns = ("用户", "张三")
    store.put(ns, "diet", {"content": "我对花生过敏。", "prefs": {"spicy": False, "level": 2}, "tags": ["a", "b"]})
    for call, words in (
        # a string is no namespace: tuple("users") made five one-letter labels and a prefix ("u",) matched them
        (lambda: store.put("users", "k", {"content": "x"}), "tuple of strings"),
        (lambda: store.search("用户"), "tuple of strings"),
        (lambda: store.get("用户", "diet"), "tuple of strings"),
        # a misspelt or unsupported operator matched nothing, silently
        (lambda: store.search(("用户",), filter={"tags": {"$in": ["a"]}}), "unknown filter operator '$in'"),
        (lambda: store.search(("用户",), filter={"prefs": {"level": {"$gtt": 1}}}), "unknown filter operator"),
        (lambda: store.search(("用户",), offset=-1), "offset must be an integer >= 0"),
        (lambda: store.search(("用户",), limit=-2), "limit must be an integer >= 0"),
        (lambda: store.list_namespaces(limit=-1), "limit must be an integer >= 0"),
    ):
        with pytest.raises(WeaverError) as err:
            call()
        assert words in str(err.value) and "\n" not in str(err.value), str(err.value)

    # one bad operation refuses the whole batch before anything is written
    before = runtime.open("lg", create=False).node_count
    with pytest.raises(WeaverError, match="unknown filter operator"):
        store.batch([PutOp(ns, "atom", {"content": "先写入的一条"}), SearchOp(("用户",), {"x": {"$in": [1]}})])
    assert store.get(ns, "atom") is None and runtime.open("lg", create=False).node_count == before
    assert store.list_namespaces() == [ns]

    # LangGraph's filters as its own stores read them: a dict matches the fields it names, operators nest
    assert [i.key for i in store.search(("用户",), filter={"prefs": {"spicy": False}})] == ["diet"]
    assert [i.key for i in store.search(("用户",), filter={"prefs": {"level": {"$gte": 2}}})] == ["diet"]
    assert store.search(("用户",), filter={"prefs": {"level": {"$gt": 2}}}) == []
    assert store.search(("用户",), filter={"tags": ["a"]}) == []  # a list matches item by item, whole
    # a blank query is no query (it was "the query is empty"), as "" already was
    assert [i.key for i in store.search(("用户",), query="   ")] == ["diet"]


def test_the_store_sees_every_change_to_its_space(store, runtime):
    """The store keeps its (namespace, key) index between calls: a curator's edit, another weaver's write and its
    own puts are each seen by the next call."""
    ns = ("users", "u1")
    store.put(ns, "city", {"content": "I live in Lyon."})
    assert store.get(ns, "city").value == {"content": "I live in Lyon."}
    store.service.set_status(first_node(runtime, "I live in Lyon."), "retracted", space="lg")  # a curator forgets it
    assert store.get(ns, "city") is None
    store.service.set_status(first_node(runtime, "I live in Lyon."), "active", space="lg")  # and restores it
    assert store.get(ns, "city").value == {"content": "I live in Lyon."}
    # another writer (the studio, a CLI, another store) on the same space
    other = WeaverStore(MemoryService(runtime), space="lg")
    other.put(ns, "job", {"content": "I work at a bakery."})
    assert store.get(ns, "job").value == {"content": "I work at a bakery."}
    assert [i.key for i in store.search(ns)] == ["job", "city"]


def first_node(runtime, content: str) -> str:
    w = runtime.open("lg", create=False)
    return next(n.id for n in w.nodes.values() if n.content == content)


@pytest.mark.parametrize(
    "lang, first, second, hidden, query",
    [
        (
            "zh",
            "我的预算总共是5000元。",
            "预算改成八千元了。",
            "护照号码是E12345678，放在酒店保险箱里。",
            "护照放在哪里",
        ),
        (
            "en",
            "My total budget is 5000 yuan.",
            "Make the total budget 8000 yuan.",
            "My passport number is E12345678; it is in the hotel safe.",
            "where is my passport",
        ),
    ],
)
def test_a_value_put_with_index_false_is_kept_but_no_query_finds_it(store, runtime, lang, first, second, hidden, query):
    """LangGraph's BaseStore: index=False keeps the item for get and listing, out of semantic search; here it is
    no memory either (the weaver's retrieval does not find it), and it replaces the key's value whole."""
    ns = ("users", "u1")
    store.put(ns, "passport", {"content": hidden, "topic": "docs"}, index=False)
    item = store.get(ns, "passport")
    assert item is not None and item.value == {"content": hidden, "topic": "docs"}
    assert [i.key for i in store.search(ns)] == ["passport"]  # listed without a query, and by filter
    assert [i.key for i in store.search(ns, filter={"topic": "docs"})] == ["passport"]
    assert store.list_namespaces() == [ns]
    assert store.search(ns, query=query) == []  # the store's semantic search
    w = runtime.open("lg", create=False)
    assert not any(hidden in n.content for n in w.nodes.values())  # not woven: the weaver's recall cannot find it
    assert hidden not in w.query(query, budget=512).context

    # an indexed key given a value with index=False: its memories are taken back, every earlier value too
    store.put(ns, "budget", {"content": first})
    store.put(ns, "budget", {"content": second})
    created = store.get(ns, "budget").created_at
    store.put(ns, "budget", {"content": "(see the spreadsheet)"}, index=False)
    again = store.get(ns, "budget")
    assert again.value == {"content": "(see the spreadsheet)"} and again.created_at == created
    assert "budget" not in {i.key for i in store.search(ns, query=first)}
    w = runtime.open("lg", create=False)
    assert {n.content: n.status for n in w.nodes.values()} == {first: "retracted", second: "retracted"}
    assert w.constraints() == []

    # a key with two values deleted: no earlier value comes back (a retraction gives back what it superseded)
    store.put(("trip",), "budget", {"content": first})
    store.put(("trip",), "budget", {"content": second})
    store.delete(("trip",), "budget")
    assert store.get(("trip",), "budget") is None and store.search(("trip",), query=first) == []

    # put again with indexing, it is a memory again; deleted, it is gone everywhere
    store.put(ns, "passport", {"content": hidden, "topic": "docs"})
    assert [i.key for i in store.search(ns, query=query, limit=1)] == ["passport"]
    store.delete(ns, "passport")
    store.delete(ns, "budget")
    assert store.get(ns, "passport") is None and store.get(ns, "budget") is None
    assert store.search(ns) == [] and store.list_namespaces() == []


def test_reading_a_space_not_made_yet_is_empty_and_creates_nothing(runtime):
    """As MCP recall: a get, a search (with a query, zh and en, or none) or a listing of a space nothing was put in
    reads as empty and does not create it; the first put creates it."""
    store = WeaverStore(MemoryService(runtime), space="not yet")
    ns = ("users", "u1")
    assert store.get(ns, "budget") is None
    assert store.search(ns, query="预算是多少") == [] and store.search(ns, query="what is my budget") == []
    assert store.search(ns) == [] and store.list_namespaces() == []
    store.delete(ns, "budget")  # nothing to delete: nothing to create either
    assert "not yet" not in runtime.store.list_spaces()
    store.put(ns, "budget", {"content": "My total budget is 5000 yuan."})
    assert "not yet" in runtime.store.list_spaces() and store.get(ns, "budget") is not None
