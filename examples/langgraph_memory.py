"""A LangGraph agent whose long-term memory is a weaver space (WeaverStore, a LangGraph BaseStore).

    pip install "contextweaver[langgraph]"
    python examples/langgraph_memory.py

The model is scripted so the example runs offline; put a real chat model in ``answer``.
"""

import uuid
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
    store.put(("users", state["user"], "memories"), uuid.uuid4().hex, {"content": state["message"]})
    return {}


def recall(state: State, *, store: BaseStore) -> dict:
    hits = store.search(("users", state["user"], "memories"), query=state["message"], limit=3)
    return {"memories": [h.value["content"] for h in hits]}


def answer(state: State) -> dict:  # a scripted model: replace with your chat model, memories in the prompt
    allergic = any("peanut" in m.lower() or "花生" in m for m in state["memories"])
    return {"answer": "No peanuts, noted." if allergic else "Tell me more."}


builder = StateGraph(State)
for name, fn in (("remember", remember), ("recall", recall), ("answer", answer)):
    builder.add_node(name, fn)
builder.add_edge(START, "remember")
builder.add_edge("remember", "recall")
builder.add_edge("recall", "answer")

store = WeaverStore(MemoryService(Runtime.from_settings(Settings.from_env()), default_space="langgraph"))
graph = builder.compile(checkpointer=InMemorySaver(), store=store)

graph.invoke({"user": "u1", "message": "I'm allergic to peanuts / 我对花生过敏"}, {"configurable": {"thread_id": "1"}})
out = graph.invoke({"user": "u1", "message": "Book dinner for tonight?"}, {"configurable": {"thread_id": "2"}})
print(" | ".join(out["memories"]), "->", out["answer"])
