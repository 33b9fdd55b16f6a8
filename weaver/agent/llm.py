"""LLM mode: OpenAI-compatible function calling over the same tools, with the weaver's narrative as context.

The system prompt holds the retrieved narrative (causes first); the model calls
tools by their JSON schemas; each call and result goes through the agent's
steps (so results are ingested and linked to the thought, and to each memory that
states one of the model's arguments, read back by :mod:`.call_sources`). Any fault of the
endpoint (HTTP error, timeout, empty or malformed reply) yields an "error"
event and returns False, and the agent answers offline instead.
"""

from __future__ import annotations

import json
from typing import Callable, Generator

from .call_sources import argument_sources, call_domain
from .events import AgentEvent
from .memory import Known
from .tools import tool_schemas
from .turn_facts import with_facts

__all__ = ["agent_messages", "call_links", "llm_steps", "MAX_ROUNDS"]

MAX_ROUNDS = 4  # model calls per user message (tool rounds plus the final answer)


def agent_messages(user_text: str, context: str, lang: str, facts: list[str] | None = None) -> list[dict]:
    """The prompt: role, the database's scope, honesty rules, the user's language, the retrieved memory, and the
    facts of this message the reply must state (``facts``)."""
    language = "Chinese (简体中文)" if lang == "zh" else "English"
    system = (
        "You are a travel-planning assistant for Beijing. Your tools query the CrossWOZ Beijing database "
        "(hotels, restaurants, attractions, metro) and keep the trip plan and its budget. The database covers "
        "Beijing only: for any other city say plainly that you have no data. You cannot make real reservations: "
        "book_hotel and add_to_plan only record the plan. You are an AI assistant and have never travelled: "
        "asked 'have you been?' or 'have you tried it?', say so plainly, then help with what the data holds. "
        "Apply every constraint the user stated earlier (allergies and foods to avoid, budget, dates, quiet, near the "
        "metro, rating, place) to your tool calls: they are in the memory below. Use only facts from tool results and memory; never invent places or prices. "
        "Map English place names to the database's Chinese names (Forbidden City = 故宫, Temple of Heaven = 天坛, "
        f"Summer Palace = 颐和园, Great Wall = 八达岭长城, Wangfujing = 王府井). Reply in {language}.\n\n"
        "Memory retrieved for this message (causes before effects):\n" + (context or "(nothing relevant yet)")
    )
    if facts:  # checked by the agent, not guesses: the user must hear each of them
        system += "\n\nFacts about this message you must state in your reply:\n" + "\n".join(f"- {f}" for f in facts)
    return [{"role": "system", "content": system}, {"role": "user", "content": user_text}]


def _payload(out) -> str:
    rows = [{k: v for k, v in r.items() if not k.startswith("周边")} for r in out.rows]
    return json.dumps(
        {
            "ok": out.ok and not out.error,
            "error": out.error or None,
            "reason": out.reason or None,
            "count": out.count,
            "rows": rows,
            "facts": out.facts,
        },
        ensure_ascii=False,
        default=str,
    )


def _describe(calls) -> str:
    return "; ".join(f"{c.function.name}({c.function.arguments})" for c in calls)


def call_links(agent, tool: str, args: dict, known: Known) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """(because, set_by, sources) of a model's call, as the offline planner declares them for its own calls:
    each memory that states an argument; a search that leaves out what an earlier one offered ("another one")
    continues it, and the constraints that set both reach this one through it (linked once, not stacked)."""
    sources = argument_sources(tool, args, known, agent.plan_items())
    set_by = list(dict.fromkeys(i for ids in sources.values() for i in ids))
    excluded = set(args.get("exclude") or []) if tool.startswith("search_") else set()
    previous = agent.previous_search(call_domain(tool, args)) if excluded else None
    if previous and excluded & set(previous["offered"]):
        through = set(previous["set_by"])
        sources = {**sources, "exclude": [previous["node_id"]]}  # what that search offered is left out
        return [i for i in set_by if i not in through] + [previous["node_id"]], set_by, sources
    return set_by, set_by, sources


def llm_steps(
    agent,
    text: str,
    lang: str,
    result,
    memory_ids: list[str],
    facts: list[str] | None = None,
    in_force: Callable[[], Known] | None = None,
) -> Generator[AgentEvent, None, bool]:
    """The model's rounds for one message (``in_force``: the constraints in force, this message's own included,
    read when the model first calls a tool); True when it ended with a reply, False after an error event."""
    known: Known | None = None
    messages = agent_messages(text, result.context, lang, facts)
    tools = tool_schemas()
    thought_done = False
    for round_no in range(MAX_ROUNDS):
        try:
            resp = agent.llm_client.chat.completions.create(
                model=agent.model, messages=messages, tools=tools, temperature=0
            )
            msg = resp.choices[0].message
        except Exception as exc:  # noqa: BLE001 - every endpoint fault becomes an error event, then offline
            from ..backends.openai_llm import describe_error

            err = describe_error(exc, getattr(agent.llm_client, "api_key", None), 500)  # never the key
            yield agent.error(f"LLM call failed: {err}", {"stage": "llm", "error": err})
            return False
        calls = list(msg.tool_calls or [])
        if not thought_done:
            thought = (msg.content or "").strip() or (
                ("调用工具：" if lang == "zh" else "Calling tools: ") + _describe(calls)
                if calls
                else ("直接根据记忆回答。" if lang == "zh" else "Answering from memory, no tool needed.")
            )
            yield agent.thought(thought, {"mode": "llm", "tool_calls": [c.function.name for c in calls]})
            thought_done = True
        if not calls:
            content = (msg.content or "").strip()
            if not content:
                yield agent.error("the model returned an empty reply", {"stage": "llm"})
                return False
            yield agent.reply(with_facts(content, facts or []), memory_ids, {"rounds": round_no + 1})
            return True
        messages.append(
            {
                "role": "assistant",
                "content": msg.content,
                "tool_calls": [
                    {
                        "id": c.id,
                        "type": "function",
                        "function": {"name": c.function.name, "arguments": c.function.arguments},
                    }
                    for c in calls
                ],
            }
        )
        for c in calls:
            try:
                args = json.loads(c.function.arguments or "{}")
                if not isinstance(args, dict):
                    raise ValueError("arguments are not a JSON object")
            except ValueError as exc:
                err = f"bad arguments for {c.function.name}: {exc}"
                yield agent.error(err, {"stage": "tool", "tool": c.function.name, "error": err})
                messages.append({"role": "tool", "tool_call_id": c.id, "content": json.dumps({"error": err})})
                continue
            if known is None:
                known = in_force() if in_force else Known([])
            because, set_by, sources = call_links(agent, c.function.name, args, known)
            yield from agent.tool_events(
                c.function.name, args, lang, because, call_id=c.id, set_by=set_by, sources=sources
            )
            messages.append({"role": "tool", "tool_call_id": c.id, "content": _payload(agent.last_output)})
    yield agent.error(f"no final answer after {MAX_ROUNDS} model calls", {"stage": "llm"})
    return False
