"""One message's steps as the travel agent writes them: thought, tool call and result, reply, error.

A mixin of ``TravelAgent``: each step is ingested into the weaver with the edges the
agent knows it used (the thought a result answers, the constraints that set a call's
arguments, the results a reply reports) and yielded as an :class:`AgentEvent`;
events are saved in one write per run end. ``fit_step`` cuts an oversized step.
"""

from __future__ import annotations

from typing import Any, Iterator

from ..text import detect_language
from .agent_reads import MemoryReads
from .events import AgentEvent, save_events
from .replies import tool_memory_text
from .tools import ToolBox, ToolOutput

__all__ = ["StepWriter", "fit_step", "MAX_STEP_CHARS"]

# a reply, thought or tool step longer than this is cut (and says so): a 5 MB model reply must still end
# the turn with a reply, and neither the chat nor memory wants megabytes of one step
MAX_STEP_CHARS = 20_000


def fit_step(text: str, limit: int = MAX_STEP_CHARS) -> str:
    r"""``text`` if it fits, else its first ``limit`` characters and a note saying what was cut.

    >>> fit_step("abcdef", 3)
    'abc\n\n[… cut: 6 characters, the first 3 kept]'
    """
    if len(text) <= limit:
        return text
    note = (
        f"[… 已截断：共 {len(text):,} 个字符，保留前 {limit:,} 个]"
        if detect_language(text[:2000]) == "zh"
        else f"[… cut: {len(text):,} characters, the first {limit:,} kept]"
    )
    return text[:limit].rstrip() + "\n\n" + note


class StepWriter(MemoryReads):
    """The writing half of a run: one message's state (set by ``TravelAgent.run``) and its steps."""

    llm_client: Any
    tools: ToolBox
    # one message's state, set by run()
    _mid: str
    _turn: int
    _seq: int
    _started: float
    _outputs: list[ToolOutput]
    _thought_id: str | None
    _ntool: int
    _about: dict | None = None  # the one item the reply singles out (a comparison's winner, a side question's item)
    _awaiting: dict | None = None  # what the reply asks the user for, to complete next turn (a pick's dates)
    _user_node: str | None
    _result_ids: list[str]
    _widened: set[str]  # results a widened retry replaced: the reply reaches them through the retry
    _restates: list[str]  # what the reply about to be written repeats from memory (a recap, a quote)
    _unsaved: list[AgentEvent]
    _chain: list[str]

    @property
    def mode(self) -> str:
        return "llm" if self.llm_client is not None else "offline"

    def _event(self, type_: str, text: str, data: dict) -> AgentEvent:
        ev = AgentEvent(type_, text, data, self._turn, self._mid, self._seq, self._started)
        self._seq += 1
        self._unsaved.append(ev)
        if type_ in ("user", "reply"):  # one write per run end (a Chroma upsert costs ~70 ms here)
            self._flush()
        return ev

    def _flush(self) -> None:
        if self._unsaved:
            save_events(self.weaver, self._unsaved)
            self._unsaved = []

    def _ingest(self, text: str, kind: str, meta: dict, suffix: str, depends_on: list | None = None):
        # the agent knows what each step used: it declares those edges (origin "agent") instead of guessing
        return self.weaver.ingest(text, kind, meta, message_id=f"{self._mid}:{suffix}", depends_on=depends_on)

    def error(self, text: str, data: dict) -> AgentEvent:
        """An error event of this run (the LLM loop in :mod:`.llm` reports its faults through here)."""
        return self._event("error", text, data)

    @property
    def last_output(self):
        """The latest tool output of this run (what the LLM loop sends back to the model)."""
        return self._outputs[-1]

    def thought(self, text: str, meta: dict | None = None) -> AgentEvent:
        text = fit_step(text)
        asked = [(self._user_node, "causal", "the user's message this step answers")] if self._user_node else []
        res = self._ingest(text, "agent_thought", {"agent": "travel", **(meta or {})}, "thought", asked)
        self._thought_id = res.node.id if res.node else None
        return self._event("thought", text, {"ingest": res.to_dict(), **(meta or {})})

    def tool_events(
        self,
        tool: str,
        arguments: dict,
        lang: str,
        because: list[str] | None = None,
        call_id: str | None = None,
        widens: str | None = None,
        set_by: list[str] | None = None,
        sources: dict[str, list[str]] | None = None,
    ) -> Iterator[AgentEvent]:
        """tool_call -> run -> tool_result (ingested, linked to the thought); an error event on a fault.

        ``because``: what this call is linked to directly; ``set_by``: every constraint that set an argument, also
        those reached through the earlier search in ``because`` that this one continues; ``sources``: argument ->
        the nodes that set it, when known per argument (a model's call read back), said in each edge's rationale."""
        yield self._event(
            "tool_call",
            fit_step(f"{tool}({', '.join(f'{k}={v}' for k, v in arguments.items())})"),
            {"tool": tool, "arguments": arguments},
        )
        out = self.tools.run(tool, arguments)
        self._outputs.append(out)
        text = fit_step(tool_memory_text(out, lang))
        meta = {
            "tool": tool,
            "agent": "travel",
            "arguments": out.arguments,
            "ok": out.ok and not out.error,
            "count": out.count,
            "names": [r.get("名称") for r in out.rows if r.get("名称")][:10],
            "domain": (out.rows[0].get("domain") if out.rows else None) or _tool_domain(tool),
        }
        if out.rows and tool.startswith("search_"):
            # the rows as structured records (entity, key fields): queryable later without re-running the tool
            meta["records"] = [
                {
                    "entity": r.get("名称"),
                    "domain": r.get("domain"),
                    "fields": {k: r.get(k) for k in _RECORD_FIELDS if r.get(k) is not None},
                }
                for r in out.rows
                if r.get("名称")
            ]
        if self._thought_id:
            meta["thought_id"] = self._thought_id
        if out.plan_item:
            meta["plan_item"] = out.plan_item
        if out.reason:
            meta["reason"] = out.reason
        if because:
            meta["because"] = because
        if set_by and set(set_by) - set(because or []):
            meta["set_by"] = set_by
        if call_id:
            meta["call_id"] = call_id
        if sources:
            meta["argument_sources"] = sources
        self._ntool += 1
        if self._thought_id:
            deps = [(self._thought_id, "temporal", f"result of the {tool} call this step made")]
        else:  # the step's thought was not kept (a repeat): the call still answers the user's message
            deps = [(self._user_node, "causal", f"the {tool} call this message asked for")] if self._user_node else []
        said = ", ".join(f"{k}={v}" for k, v in out.arguments.items())[:120]
        if widens:  # the same call with its place widened: its thought and constraints reach it through the first
            # (causal: the empty first try is why this one ran, and a cascade from a constraint flows on through it)
            deps = [(widens, "causal", f"{tool} widened after nothing fit there")]
            self._widened.add(widens)
        else:  # every constraint that set an argument, this turn's message included (it is also the call's cause)
            deps += [
                (
                    nid,
                    "conditional",
                    _set_what(tool, out.arguments, nid, sources) or f"set the arguments of {tool}({said})",
                )
                for nid in dict.fromkeys(because or [])
                if nid and nid != self._thought_id
            ]
        shown = self._shown_in(str(out.arguments.get("name") or ""))
        if shown and shown not in {d[0] for d in deps}:  # "book the first one": the result that listed it
            deps.append(
                (
                    shown,
                    "causal" if tool.startswith("book") else "elaborates",
                    f"{tool} acts on {out.arguments['name']}, listed there",
                )
            )
        res = self._ingest(text, "tool_result", meta, f"tool{self._ntool}", deps)
        if res.node:
            self._result_ids.append(res.node.id)
        elif out.plan_item and (back := self._taken_out(out.plan_item)):
            # "put it back": the very item taken out of the plan (a duplicate memory is not kept), so its memory is
            # the user's again, an audited edit like the removal
            self.weaver.curation.set_status(back, "active", "added to the plan again in chat", message_id=self._mid)
            self._result_ids.append(back)
        if out.error:
            yield self._event("error", text, {"tool": tool, "error": out.error})
        yield self._event(
            "tool_result",
            text,
            {
                "tool": tool,
                "rows": out.rows,
                "count": out.count,
                "ok": out.ok,
                "error": out.error,
                "reason": out.reason,
                "facts": out.facts,
                "ingest": res.to_dict(),
            },
        )

    def reply(
        self, text: str, memory_ids: list[str], extra: dict | None = None, noted: list[dict] | None = None
    ) -> AgentEvent:
        text = fit_step(text)  # an oversized reply is cut and says so: the turn still ends with a reply
        meta: dict[str, Any] = {"agent": "travel", "memory_ids": memory_ids, "mode": self.mode}
        if noted:  # the constraints this reply confirms: memory of them besides the user's own words
            meta["noted"] = noted
            extra = dict(extra or {}, noted=noted)
        if self._about:  # the one item the reply singled out ("the cheapest of them")
            meta["about"], self._about = self._about, None
        if self._awaiting:  # "几号入住？" after a pick: the next message's dates complete that booking
            meta["awaiting"], self._awaiting = self._awaiting, None
        if self._restates:  # a recap or quote in the reply is not what it adds: no guessed link rests on it
            meta["restates"] = self._restates
            self._restates = []
        # a result a widened retry replaced reaches the reply through the retry (result -> retry -> reply)
        deps = [
            (nid, "causal", "the reply reports this result") for nid in self._result_ids if nid not in self._widened
        ]
        if not deps and self._thought_id:
            deps = [(self._thought_id, "temporal", "the reply of this step")]
        if not deps and self._user_node:  # the step's thought was a repeat, not kept: the reply answers the message
            deps = [(self._user_node, "causal", "the reply to this message")]
        res = self._ingest(text, "agent_response", meta, "reply", deps)
        return self._event(
            "reply", text, {"memory_ids": memory_ids, "ingest": res.to_dict(), "mode": self.mode, **(extra or {})}
        )


def _set_what(tool: str, arguments: dict, nid: str, sources: dict[str, list[str]] | None) -> str:
    """The arguments ``nid`` set ("set price=<800 of search_hotels"), when they are known one by one ("" if not)."""
    keys = [k for k, ids in (sources or {}).items() if nid in ids]
    said = ", ".join(f"{k}={arguments.get(k)}" for k in keys)[:120]
    return f"set {said} of {tool}" if said else ""


_RECORD_FIELDS = ("价格", "人均消费", "门票", "评分", "酒店类型", "地铁", "营业时间", "游玩时间")


def _tool_domain(tool: str) -> str | None:
    return {
        "search_hotels": "hotel",
        "search_restaurants": "restaurant",
        "search_attractions": "attraction",
        "book_hotel": "hotel",
        "metro_station": "metro",
    }.get(tool)
