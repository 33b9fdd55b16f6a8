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

from ..curation.arrival import restated_values
from ..models import WeaverError, new_id
from ..text import clean_text, detect_language
from .agent_steps import MAX_STEP_CHARS, fit_step
from .dayplan import day_plan
from .events import AgentEvent, events_for
from .history import is_history_question, is_plan_question
from .intent_cues import asks_own_experience
from .memory import Known, items_from_result, read_constraints, wishes_of, with_records
from .offline_turn import OfflineTurn
from .slot_bridge import constraints_from_records, records_from_statements
from .tools import ToolBox
from .turn_facts import turn_facts
from .understanding import DOMAINS, Parsed, parse

__all__ = ["TravelAgent", "retrieval_query", "MAX_STEP_CHARS", "fit_step"]

_TASK = {
    "zh": "为用户规划北京旅行：酒店、餐厅、景点、交通和预算",
    "en": "Plan the user's Beijing trip: hotels, restaurants, attractions, metro and budget",
}
# what each kind of request needs from memory: the retrieval query names those slots in both languages
_HINTS = {
    "hotel": "酒店 预算 每晚 价格 安静 地铁 附近 入住 日期 评分 hotel budget price per night quiet metro near dates 步行 分钟 太贵 walk minutes expensive",
    "restaurant": "餐厅 过敏 忌口 不吃 饮食 人均 预算 评分 附近 restaurant allergy allergic avoid diet per person budget 步行 太贵 walk expensive",
    "attraction": "景点 门票 预算 评分 附近 地铁 步行 太贵 attraction ticket budget rating near metro walk expensive",
    "book": "预订 入住 日期 几晚 预算 人数 book check-in dates nights budget people",
    "tally": "预算 总共 行程 计划 budget total plan",
    "why": "原因 失败 因为 reason failed because",
}


# a question ("有没有评分高一点的", "any with a higher rating?"), not a wish told ("我不想住太吵的地方。")
_ASKED = re.compile(r"[?？]|吗|有没有|有无|\b(?:any|anything|is there|are there)\b", re.I)
# options asked for without saying of what ("有推荐吗？", "any suggestions?")
_OPTIONS_ASKED = re.compile(
    r"(?:有|有什么|有没有|有啥)(?:好的?)?(?:推荐|建议)|^\s*(?:那)?推荐(?:一下|几个|几家)?(?:吧|呢|吗)?[?？!！。]*\s*$|"
    r"\bany (?:recommendations?|suggestions?|ideas|options)\b|\bwhat (?:do|would) you (?:recommend|suggest)\b",
    re.I,
)
# the slots that narrow a search already shown (not the trip's frame: party, dates, budget)
_REFINES = frozenset({"rating", "price", "cost", "ticket", "quiet", "near_metro", "facilities", "hotel_type", "avoid"})


def retrieval_query(text: str, p: Parsed) -> str:
    """The message plus the slots its tool call needs, so memory returns the constraints that apply."""
    hint = _HINTS.get(p.intent) or _HINTS.get(p.domain or "") or ""
    return f"{text}\n{hint}".strip()


class TravelAgent(OfflineTurn):
    """The agent: memory reads (``agent_reads``), step writes (``agent_steps``), the offline turn
    (``offline_turn``) and, here, the run of one message that ties them together."""

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

    def _same_list(self, p: Parsed) -> None:
        """A message that narrows the list in play keeps what that list asked for (its dishes, cuisine, meal and
        kind of sight) where the message names none of its own."""
        asked = ((self.previous_search(p.domain) or {}).get("arguments") or {}) if p.domain else {}
        p.dishes = p.dishes or list(asked.get("dishes") or [])
        p.cuisines = p.cuisines or list(asked.get("cuisine") or [])
        p.meal, p.kind = p.meal or asked.get("meal"), p.kind or asked.get("kind")

    def _run(self, text: str) -> Iterator[AgentEvent]:
        lang = detect_language(text)
        if not self.weaver.meta.get("task"):
            self.weaver.set_task(_TASK[lang])
        res = self.weaver.ingest(text, "user_input", {"agent": "travel"}, message_id=self._mid)
        self._turn = res.decision.turn
        self._user_node = res.node.id if res.node else None
        yield self._event("user", text, {"ingest": res.to_dict(), "language": lang})

        p = parse(text)
        if not p.constraints and p.intent == "statement" and self._user_node:
            # "Make that 12000 yuan." right after a budget: the amount alone names no slot, the statement before
            # does (the weaver read it so on arrival, and superseded the old value)
            again = restated_values(self.weaver, self._user_node)
            if again:
                node = (self._user_node, self._turn, text)
                p.constraints = constraints_from_records(records_from_statements([node], None, lambda *_: again))
        p.day_plan = day_plan(text)
        if p.day_plan:  # "第一天想去故宫，第二天去颐和园": each sight into the plan for its day
            p.intent, p.domain = "dayplan", "attraction"
            p.constraints = [c for c in p.constraints if c.slot != "place"]  # the sights are no place to search
        # "我之前的预算是多少？": the constraint records' history; "我们订的酒店是哪家？": the plan; nothing searched
        if is_history_question(text) or is_plan_question(text):
            p.intent, p.domain, p.constraints = "history", None, []
        if p.more and not p.domain and p.intent == "statement" and self.last_shown():
            p.domain, p.intent = next(iter(self.last_shown())), "search"  # "再帮我找一家": the topic searched last
        if p.intent == "statement" and not (p.domain or p.constraints) and _OPTIONS_ASKED.search(text):
            # "有推荐吗？" / "any recommendations?": the kind of place listed last, else the one whose wishes were
            # noted last, searched with what memory holds
            p.domain = self.topic_in_play(self._turn) or self.topic_noted(self._turn)
            p.intent = "search" if p.domain else p.intent
        refine = [c for c in p.constraints if c.slot in _REFINES]
        if refine and not p.domain and p.intent == "statement" and _ASKED.search(text) and self.last_shown():
            # "有没有评分高一点的" / "any with a higher rating?": the search of its scope (else the topic searched last)
            # again, refined; a statement of the same ("评分要4.5以上") is noted, as before
            scope = next((c.scope for c in refine if c.scope != "any"), None)
            p.domain, p.intent = scope or next(iter(self.last_shown())), "search"
            self._same_list(p)  # "评分4.8以上的有吗？" after dinner places: still dinner places
        named = [e for e in p.entities if e[1] in DOMAINS]
        if p.intent == "statement" and len(named) == 1 and asks_own_experience(text):
            p.intent, p.domain = "info", named[0][1]  # "Have you been to the Forbidden City?": not, but its row helps
        if p.intent == "statement" and not p.domain and any(c.slot == "not_pricey" for c in p.constraints):
            # "别太贵" right after a list of sights: that list again, the pricier half of what charges left out (the
            # wish is remembered for later searches too); after anything else it is noted for later
            p.domain = self.topic_in_play(self._turn)
            p.intent = "search" if p.domain else p.intent
            self._same_list(p)  # the same list (烤鸭 near 王府井), only cheaper
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

        self.own_constraints(p, text, known, res)  # this message's constraints, with its node, for either mode
        if self.llm_client is not None:
            from .llm import llm_steps

            # what the offline reply would say of this message (an unplaced place, a length against the dates, the
            # memories its change flagged): facts the model must state, appended if it leaves one out
            facts = turn_facts(p, known, self.flagged_by_this_message(lang), lang)

            # every record in force, not only the ones this message's query needed (the model may call a tool of
            # another kind): read now when the query has just read them (cached until the next memory is added)
            records = self.weaver.constraints() if result.decision is not None else None

            def in_force() -> Known:  # read when the model first calls a tool; this message's own are the newest
                held = with_records(
                    known, self.weaver.constraints() if records is None else records, current, self.weaver
                )
                return Known(held.constraints + p.constraints, held.wishes + wishes_of(p, self._user_node, self._turn))

            ok = yield from llm_steps(self, text, lang, result, memory_ids, facts, in_force)
            if ok:
                return
            self._outputs, self._thought_id, self._result_ids = (
                [],
                None,
                [],
            )  # fall back to the offline answer after an error event
        yield from self._offline(p, text, lang, items, known, memory_ids, res)
