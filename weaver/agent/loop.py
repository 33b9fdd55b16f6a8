"""The travel agent's ReAct loop over the weaver.

Per user message: ingest it -> retrieve memory for it -> think (ingested as
``agent_thought``) -> call tools (each result ingested as ``tool_result`` with
``{"tool", "thought_id"}`` so the builder links it to its thought) -> reply
(ingested as ``agent_response`` with the retrieved node ids). Each step is
yielded as an :class:`AgentEvent` as it happens and persisted in the space.

Offline mode reads the user's constraints from the retrieved memories only; LLM
mode (``llm_client`` given) lets the model call the same tools (weaver/agent/llm.py).
"""

from __future__ import annotations

import re
import time
from typing import Any, Iterator

from ..filler import is_filler
from ..models import WeaverError, new_id
from ..text import clean_text, detect_language
from ..tool_records import tool_records
from .cuisine import cuisine_note
from .events import AgentEvent, events_for, save_events
from .dayplan import day_plan
from .history import agent_readings, asked_keys, history_text, is_history_question
from .memory import Known, MemoryItem, items_from_result, read_constraints, with_records
from .planner import AROUND, plan_turn
from .replan import rebook_text, rebookings
from .replies import (
    ack_text,
    display_name,
    fmt_money,
    has_text,
    honest_text,
    results_text,
    route_text,
    sourced,
    thought_text,
    tool_memory_text,
)
from .side import caveat_text, side_text
from .slot_bridge import changes_by_amount, moved_constraints
from .tools import ToolBox, ToolOutput
from .understanding import Constraint, Parsed, nights_between, parse
from .why import explain_why

__all__ = ["TravelAgent", "retrieval_query", "MAX_STEP_CHARS", "fit_step"]

# a reply, thought or tool step longer than this is cut (and says so): a 5 MB model reply must still end
# the turn with a reply, and neither the chat nor memory wants megabytes of one step
MAX_STEP_CHARS = 20_000

_TASK = {
    "zh": "为用户规划北京旅行：酒店、餐厅、景点、交通和预算",
    "en": "Plan the user's Beijing trip: hotels, restaurants, attractions, metro and budget",
}
# what each kind of request needs from memory: the retrieval query names those slots in both languages
_HINTS = {
    "hotel": "酒店 预算 每晚 价格 安静 地铁 附近 入住 日期 评分 hotel budget price per night quiet metro near dates",
    "restaurant": "餐厅 过敏 忌口 不吃 饮食 人均 预算 评分 附近 restaurant allergy allergic avoid diet per person budget",
    "attraction": "景点 门票 预算 评分 附近 地铁 attraction ticket budget rating near metro",
    "book": "预订 入住 日期 几晚 预算 人数 book check-in dates nights budget people",
    "tally": "预算 总共 行程 计划 budget total plan",
    "why": "原因 失败 因为 reason failed because",
}


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


def retrieval_query(text: str, p: Parsed) -> str:
    """The message plus the slots its tool call needs, so memory returns the constraints that apply."""
    hint = _HINTS.get(p.intent) or _HINTS.get(p.domain or "") or ""
    return f"{text}\n{hint}".strip()


class TravelAgent:
    # one message's state, set by run()
    _mid: str
    _turn: int
    _seq: int
    _started: float
    _outputs: list[ToolOutput]
    _thought_id: str | None
    _ntool: int
    _user_node: str | None
    _result_ids: list[str]
    _widened: set[str]  # results a widened retry replaced: the reply reaches them through the retry
    _restates: list[str]  # what the reply about to be written repeats from memory (a recap, a quote)
    _unsaved: list[AgentEvent]
    _chain: list[str]

    def __init__(
        self,
        weaver,
        llm_client: Any = None,
        model: str | None = None,
        toolbox: ToolBox | None = None,
        retrieval_budget: int | None = None,
    ):
        self.weaver = weaver
        self.llm_client = llm_client
        self.model = model or "gpt-4o-mini"
        self.tools = toolbox or ToolBox(plan=self.plan_items)
        if toolbox is not None:
            toolbox.plan = self.plan_items
        self.retrieval_budget = retrieval_budget

    @property
    def mode(self) -> str:
        return "llm" if self.llm_client is not None else "offline"

    # ------------------------------------------------------------ memory reads
    def plan_items(self) -> list[dict]:
        """The plan: every successful booking / addition the weaver holds as a tool-result memory."""
        out = []
        for nid in self.weaver.node_ids:
            n = self.weaver.nodes[nid]
            item = n.meta.get("plan_item") if n.kind == "tool_result" and n.status == "active" else None
            if item:
                out.append(dict(item, node_id=nid, turn=n.turn))
        return out

    def _shown_in(self, name: str) -> str | None:
        """The latest search result in memory that listed ``name``, if any."""
        for nid in reversed(self.weaver.node_ids) if name else ():
            n = self.weaver.nodes[nid]
            if n.kind == "tool_result" and n.status == "active" and name in (n.meta.get("names") or []):
                return nid
        return None

    def last_shown(self, lists_only: bool = False) -> dict[str, list[str]]:
        """Per topic, the names of the latest search results in memory (for "the first one"); ``lists_only``:
        skip the look-ups of one item by name ("第二个" then "第二个怎么样": the second of the list, still)."""
        if lists_only:  # a topic with look-ups only keeps them (the one item shown is still "the first one")
            return {**self.last_shown(), **self._lists_shown()}
        return self._lists_shown(lookups=True)

    def _lists_shown(self, lookups: bool = False) -> dict[str, list[str]]:
        shown: dict[str, list[str]] = {}
        for nid in reversed(self.weaver.node_ids):
            n = self.weaver.nodes[nid]
            if not lookups and "name" in (n.meta.get("arguments") or {}):
                continue
            if n.kind == "tool_result" and str(n.meta.get("tool", "")).startswith("search_") and n.meta.get("names"):
                shown.setdefault(n.meta.get("domain"), list(n.meta["names"]))
        return shown

    def _with_noted_dates(self, known):
        """``known`` with the latest trip dates the agent noted back to the user (a reply's ``meta["noted"]``), for a
        booking whose retrieval missed them: "下周三" is resolved when said, and no slot reader can read it again."""
        for nid in reversed(self.weaver.node_ids):
            n = self.weaver.nodes[nid]
            if n.kind != "agent_response" or n.status != "active":
                continue
            for c in n.meta.get("noted") or []:
                if c.get("slot") == "dates" and isinstance(c.get("value"), dict) and c["value"].get("check_in"):
                    return Known(known.constraints + [Constraint("dates", c["value"], "any", n.turn, nid)])
        return known

    def previous_search(self, domain: str | None) -> dict | None:
        """The latest search of ``domain`` in memory and every name offered in it so far ("another one")."""
        offered = list(
            dict.fromkeys(
                r.entity for r in tool_records(self.weaver, domain=domain) if r.tool.startswith("search_") and r.entity
            )
        )
        for nid in reversed(self.weaver.node_ids):
            n = self.weaver.nodes[nid]
            args = n.meta.get("arguments") or {}
            if (
                n.kind == "tool_result"
                and n.status == "active"
                and n.meta.get("domain") == domain
                and str(n.meta.get("tool", "")).startswith("search_")
                and "name" not in args
            ):
                return {"node_id": nid, "arguments": dict(args), "offered": offered}
        return None

    # ------------------------------------------------------------------ steps
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
    ) -> Iterator[AgentEvent]:
        """tool_call -> run -> tool_result (ingested, linked to the thought); an error event on a fault."""
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
        if call_id:
            meta["call_id"] = call_id
        self._ntool += 1
        if self._thought_id:
            deps = [(self._thought_id, "temporal", f"result of the {tool} call this step made")]
        else:  # the step's thought was not kept (a repeat): the call still answers the user's message
            deps = [(self._user_node, "causal", f"the {tool} call this message asked for")] if self._user_node else []
        set_by = ", ".join(f"{k}={v}" for k, v in out.arguments.items())[:120]
        if widens:  # the same call with its place widened: its thought and constraints reach it through the first
            # (causal: the empty first try is why this one ran, and a cascade from a constraint flows on through it)
            deps = [(widens, "causal", f"{tool} widened after nothing fit there")]
            self._widened.add(widens)
        else:  # every constraint that set an argument, this turn's message included (it is also the call's cause)
            deps += [
                (nid, "conditional", f"set the arguments of {tool}({set_by})")
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

    # -------------------------------------------------------------------- run
    def run(self, user_text: str, message_id: str | None = None) -> Iterator[AgentEvent]:
        """Handle one user message, yielding each step. LLM and tool faults become "error" events, never raises."""
        text = clean_text(user_text or "")
        if not text:
            raise WeaverError("the message is empty")
        if message_id:
            done = events_for(self.weaver, message_id)
            if any(e.type == "reply" for e in done):  # a rerun (e.g. Streamlit) replays, never duplicates
                yield from done
                return
        self._mid = message_id or new_id("msg")
        self._seq, self._started, self._outputs, self._thought_id, self._ntool = 0, time.time(), [], None, 0
        self._user_node = None
        self._result_ids, self._widened, self._restates = [], set(), []
        self._unsaved = []
        try:
            yield from self._run(text)
        finally:  # also when the caller stops early: what was shown is kept
            self._flush()

    def _run(self, text: str) -> Iterator[AgentEvent]:
        lang = detect_language(text)
        if not self.weaver.meta.get("task"):
            self.weaver.set_task(_TASK[lang])
        res = self.weaver.ingest(text, "user_input", {"agent": "travel"}, message_id=self._mid)
        self._turn = res.decision.turn
        self._user_node = res.node.id if res.node else None
        yield self._event("user", text, {"ingest": res.to_dict(), "language": lang})

        p = parse(text)
        p.day_plan = day_plan(text)
        if p.day_plan:  # "第一天想去故宫，第二天去颐和园": each sight into the plan for its day
            p.intent, p.domain = "dayplan", "attraction"
            p.constraints = [c for c in p.constraints if c.slot != "place"]  # the sights are no place to search
        if is_history_question(text):  # "我之前的预算是多少？": the constraint records' history, nothing searched
            p.intent, p.domain, p.constraints = "history", None, []
        if p.more and not p.domain and p.intent == "statement" and self.last_shown():
            p.domain, p.intent = next(iter(self.last_shown())), "search"  # "再帮我找一家": the topic searched last
        if p.intent == "info" and not p.domain and self.last_shown():
            p.domain = next(iter(self.last_shown()))  # "what's the rating of the second one?": of the latest list
        result = self.weaver.query(retrieval_query(text, p), budget=self.retrieval_budget)
        items = items_from_result(self.weaver, result)
        current = {res.node.id} if res.node else set()
        known = read_constraints(items, skip_ids=current)
        if result.decision is not None:  # the constraints in force the weaver put before the narrative
            known = with_records(known, result.decision.records, skip_ids=current, weaver=self.weaver)
        # the memories used: the narrative's and the statements behind the constraints in force
        used_ids = list(dict.fromkeys(result.node_ids + (result.decision.node_ids if result.decision else [])))
        yield self._event(
            "memory",
            result.context,
            {
                "context": result.context,
                "tokens": result.tokens,
                "node_ids": used_ids,
                "query": result.query,
                "constraints": [
                    {"slot": c.slot, "value": c.value, "scope": c.scope, "turn": c.turn, "node_id": c.node_id}
                    for c in known.constraints
                ],
            },
        )
        memory_ids = used_ids

        if self.llm_client is not None:
            from .llm import llm_steps

            ok = yield from llm_steps(self, text, lang, result, memory_ids)
            if ok:
                return
            self._outputs, self._thought_id, self._result_ids = (
                [],
                None,
                [],
            )  # fall back to the offline answer after an error event
        yield from self._offline(p, text, lang, items, known, memory_ids, res)

    def _offline(self, p: Parsed, text: str, lang: str, items: list[MemoryItem], known, memory_ids, res):
        p.constraints += moved_constraints(self.weaver, text, res.node.id if res.node else None)
        _keep_stay_end(p, known)
        for c in p.constraints:
            c.turn, c.node_id = self._turn, res.node.id if res.node else ""
        if p.intent == "book" and not _has_check_in(known):
            known = self._with_noted_dates(known)
        shown = self.last_shown(lists_only=bool(p.ordinal))  # an ordinal counts in a list, not in a look-up
        tp = plan_turn(p, known, self.plan_items(), shown, self.previous_search(p.domain))
        yield self.thought(
            thought_text(
                lang,
                tp.intent,
                tp.domain,
                [c for c in tp.used if c.node_id not in {res.node.id if res.node else None}],
                tp.calls,
                tp.missing,
            ),
            {
                "intent": tp.intent,
                "domain": tp.domain,
                "mode": "offline",
                "constraints": [
                    {"slot": c.slot, "value": c.value, "scope": c.scope, "turn": c.turn, "node_id": c.node_id}
                    for c in tp.used
                ],
                **_restating([c for c in tp.used if c.node_id not in {res.node.id if res.node else None}], lang),
            },
        )
        because = [c.node_id for c in tp.used if c.node_id] + ([tp.follows] if tp.follows else [])
        if tp.remove and tp.remove.get("node_id"):
            # the user's own decision, audited as a human edit: the booking memory is retracted (its dependents
            # flagged) and leaves the plan, which is read from the active bookings in memory
            self.weaver.curation.set_status(
                tp.remove["node_id"], "retracted", f"removed from the plan in chat: {text[:80]}", message_id=self._mid
            )
        relaxed = False
        for call in tp.calls:
            yield from self.tool_events(call.tool, call.arguments, lang, because)
            for alt in call.fallbacks:  # nothing near a remembered place: widen step by step
                out = self._outputs[-1]
                if out.count or out.error:
                    break
                relaxed = True
                args = {k: v for k, v in call.arguments.items() if k != "near"}
                if alt.value:
                    args["near"] = alt.value
                if alt.slot == AROUND:
                    args["around"] = True
                first = self._result_ids[-1] if self._result_ids else None
                yield from self.tool_events(call.tool, args, lang, because, widens=first)
        rebooked = yield from self._rebook(p, known, lang)
        self._chain = []
        text = self._compose(p, tp, lang, items, relaxed)
        if rebooked:  # "改成6月9号入住" after a booking: the plan follows, and the reply says what changed
            head = text if tp.calls else ack_text(lang, p.constraints)
            text = "\n\n".join(
                [head]
                + [
                    results_text(out, lang, []) + "\n" + rebook_text(old, out.ok, lang, fmt_money)
                    for old, out in rebooked
                ]
            )
        # a why-answer also cites the chain it walked in the graph
        ids = memory_ids + [i for i in self._chain if i not in memory_ids]
        noted = [{"slot": c.slot, "value": c.value, "scope": c.scope} for c in p.constraints] if not p.city else []
        yield self.reply(
            text, ids, {"constraints_used": [c.node_id for c in tp.used if c.node_id], "chain": self._chain}, noted
        )

    def _rebook(self, p: Parsed, known, lang: str):
        """Bookings made under dates or a party size this message changes, made again (the same tools, so the
        budget is checked again); each new booking supersedes the old one in memory (an audited edit)."""
        if p.intent in ("remove", "history", "city", "why") or not p.constraints:
            return []
        budget = Known(known.constraints + p.constraints).latest("budget", ("any",))
        done = []
        total = float(budget.value) if budget is not None and isinstance(budget.value, (int, float)) else None
        for old, tool, args in rebookings(p.constraints, self.plan_items(), total):
            yield from self.tool_events(tool, args, lang, [self._user_node] if self._user_node else [])
            out = self._outputs.pop()  # said apart from this turn's own results
            new = self._result_ids[-1] if self._result_ids else None
            if out.ok and out.plan_item and new and old.get("node_id"):
                why = f"the plan follows the changed trip: {p.text[:80]}"
                self.weaver.curation.set_edge(old["node_id"], new, "supersedes", why, message_id=self._mid)
                self.weaver.curation.set_status(old["node_id"], "superseded", why, by=new, message_id=self._mid)
            done.append((old, out))
        return done

    def _compose(self, p: Parsed, tp, lang: str, items: list[MemoryItem], relaxed: bool) -> str:
        if p.intent == "city":
            what = {
                "hotel": ("酒店", "hotels"),
                "restaurant": ("餐厅", "restaurants"),
                "attraction": ("景点", "attractions"),
            }.get(p.domain or "", ("信息", "anything"))
            return honest_text("city", lang, city=p.city, what=what[0], what_en=what[1])
        if p.intent == "why":
            text, chain = explain_why(self.weaver, p, items, self._turn, lang)
            self._chain = chain  # the answer quotes each memory of the chain
            self._restates = [self.weaver.nodes[i].content for i in chain if i in self.weaver.nodes]
            return text or honest_text("why_none", lang)
        if p.intent == "history":
            keys = asked_keys(p.text)
            text, self._chain = history_text(self.weaver.constraints(), keys, lang, agent_readings(self.weaver, keys))
            return text
        if tp.missing and tp.missing[0] == "beyond":  # "the second one" of a list of one
            lists = self.last_shown(lists_only=True)
            names = lists.get(p.domain or "") or next(iter(lists.values()), [])
            said = ("、" if lang == "zh" else ", ").join(display_name(n, lang) for n in names)
            return honest_text("beyond", lang, n=len(names), names=said, ordinal=p.ordinal)
        if tp.missing and tp.missing[0] == "already":
            return honest_text("already", lang, name=display_name(str(tp.target), lang), day=p.day)
        if tp.missing:
            return honest_text(tp.missing[0], lang)
        if tp.remove:
            name = display_name(str(tp.remove.get("name", "")), lang)
            return f"已从行程中移除：{name}。" if lang == "zh" else f"Removed from your plan: {name}."
        if p.intent == "side" and self._outputs and not self._outputs[-1].error:
            return side_text(self._outputs[-1].facts, lang)
        if p.intent == "has" and self._outputs and self._outputs[-1].rows:
            return has_text(self._outputs[-1].rows[0], p.asks_has, lang)
        if p.intent == "metro" and len(self._outputs) > 1:  # from one place to another
            return route_text(self._outputs, lang)
        if self._outputs:
            used = [c for c in tp.used if c.turn != self._turn]
            shown = self._outputs[-1:] if relaxed else self._outputs
            if relaxed:
                near = shown[0].arguments.get("near")
                alts = [a for call in tp.calls for a in call.fallbacks]
                used = [c for c in used if c.slot != "place"] + [c for c in alts if c.value == near and c.turn]
            first = self._outputs[0].arguments.get("near") if relaxed else None
            self._restates = _restating(used, lang).get("restates", [])
            text = _note_once(
                "\n\n".join(results_text(o, lang, used if i == 0 else [], first) for i, o in enumerate(shown))
            )
            if tp.cheaper_than:
                cheap = fmt_money(tp.cheaper_than)
                text = (
                    (
                        f"（比之前推荐里最便宜的{cheap}更便宜。）"
                        if lang == "zh"
                        else f"(Cheaper than {cheap}, the cheapest so far.)"
                    )
                    + "\n"
                    + text
                )
            found = any(o.count for o in shown)
            text += "\n\n" + caveat_text(p.caveat, lang) if p.caveat and (found or p.caveat == "paid_parking") else ""
            asked = shown[-1].arguments.get("cuisine") if shown else None
            text = (cuisine_note(asked, int(found), lang) + "\n" + text) if asked else text
            # "make the hotel limit 900, and find a restaurant": what the search did not use is still said back
            aside = [c for c in p.constraints if c.scope not in (p.domain, "any") and c.slot != "place"]
            return (ack_text(lang, aside) + "\n\n" + text) if aside else text
        if not p.constraints and changes_by_amount(p.text):  # "预算再加两千" with no budget on record to move
            return honest_text("no_base", lang)
        if p.intent == "greeting" or (not p.constraints and is_filler(p.text)):  # "哈哈，太好了": a courtesy back
            return honest_text("greeting", lang, text=p.text)
        # the acknowledgement restates what the message said (without turns)
        self._restates = _restating([Constraint(c.slot, c.value, c.scope) for c in p.constraints], lang).get(
            "restates", []
        )
        return ack_text(lang, p.constraints)


def _has_check_in(known) -> bool:
    return any(c.slot == "dates" and isinstance(c.value, dict) and c.value.get("check_in") for c in known.constraints)


def _keep_stay_end(p: Parsed, known) -> None:
    """ "改成五月二号出发": a new start keeps the stay's known end, so the nights follow (2 -> 4 is 2 nights);
    "we'll stay until June 5": a new end keeps the known start."""
    for c in p.constraints:
        v = c.value if c.slot == "dates" and isinstance(c.value, dict) else None
        before = known.latest("dates", ("any",))
        if v is not None and "check_in" not in v and v.get("check_out"):
            start = before.value.get("check_in") if before is not None and isinstance(before.value, dict) else None
            nights = nights_between(str(start), str(v["check_out"])) if start else None
            if nights:
                c.value = {"check_in": start, **v, "nights": nights}
            continue
        if v is None or "nights" in v or "check_in" not in v:
            continue
        end = before.value.get("check_out") if before is not None and isinstance(before.value, dict) else None
        nights = nights_between(str(v["check_in"]), str(end)) if end else None
        if nights:
            c.value = {**v, "check_out": end, "nights": nights}


def _restating(used: list, lang: str) -> dict:
    """Meta naming the recap of ``used`` a step's text repeats (the support of a guessed link ignores it)."""
    return {"restates": [sourced(used, lang)]} if used else {}


_RECORD_FIELDS = ("价格", "人均消费", "门票", "评分", "酒店类型", "地铁", "营业时间", "游玩时间")


def _tool_domain(tool: str) -> str | None:
    return {
        "search_hotels": "hotel",
        "search_restaurants": "restaurant",
        "search_attractions": "attraction",
        "book_hotel": "hotel",
        "metro_station": "metro",
    }.get(tool)


def _note_once(text: str) -> str:
    r"""A note in brackets said after each of several results ("（这里只记录行程…）") is said once, at the end.

    >>> _note_once("A\n(note)\n\nB\n(note)")
    'A\n\nB\n(note)'
    """
    lines = text.split("\n")
    notes = {ln for ln in lines if ln[:1] in "(（" and ln[-1:] in ")）" and lines.count(ln) > 1}
    last = {ln: max(i for i, x in enumerate(lines) if x == ln) for ln in notes}
    kept = [ln for i, ln in enumerate(lines) if ln not in notes or last[ln] == i]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip("\n")
