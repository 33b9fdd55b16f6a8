"""A LangGraph agent whose long-term memory is a weaver space (WeaverStore, a LangGraph BaseStore).

    pip install "contextweaver[langgraph]"
    python examples/langgraph_memory.py

The model is scripted so the example runs offline; put a real chat model in ``answer``.
"""

import hashlib
from typing import TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from langgraph.store.base import BaseStore

from weaver import Runtime, Settings
from weaver.integrations import MemoryService
from weaver.integrations.langgraph_store import WeaverStore


class State(TypedDict, total=False):
    user: str
    message: str
    memories: list[str]
    answer: str


def remember(state: State, *, store: BaseStore) -> dict:
    # keyed by the text: running the example again stores nothing twice
    key = hashlib.sha1(state["message"].encode()).hexdigest()[:16]
    store.put(("users", state["user"], "memories"), key, {"content": state["message"]})
    return {}


def recall(state: State, *, store: BaseStore) -> dict:
    hits = store.search(("users", state["user"], "memories"), query=state["message"], limit=3)
    return {"memories": [h.value["content"] for h in hits]}


def answer(state: State) -> dict:  # a scripted model: replace with your chat model, memories in the prompt
    allergic = any("peanut" in m.lower() or "花生" in m for m in state["memories"])
    return {"answer": "No peanuts, noted." if allergic else "Tell me more."}


builder = StateGraph(State)
for name, fn in (("recall", recall), ("answer", answer), ("remember", remember)):
    builder.add_node(name, fn)
# recall before remember: the memories are what earlier turns said, not this message echoed back
builder.add_edge(START, "recall")
builder.add_edge("recall", "answer")
builder.add_edge("answer", "remember")

store = WeaverStore(MemoryService(Runtime.from_settings(Settings.from_env()), default_space="langgraph"))
graph = builder.compile(checkpointer=InMemorySaver(), store=store)

graph.invoke({"user": "u1", "message": "I'm allergic to peanuts / 我对花生过敏"}, {"configurable": {"thread_id": "1"}})
out = graph.invoke({"user": "u1", "message": "Book dinner for tonight?"}, {"configurable": {"thread_id": "2"}})
print(" | ".join(out["memories"]), "->", out["answer"])
