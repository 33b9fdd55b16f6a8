"""Questions about an earlier value ("我之前的预算是多少？", "what was the party size before?"), answered from
the weaver's constraint records: each slot's current value, the statement that set it and the values it
replaced (the history behind its ``supersedes`` edges). Nothing is searched and nothing is noted.

Questions about what was decided ("我们一共几个人？", "What budget did we settle on, and what did I say about my
diet?") are answered the same way: every slot the question names, each with the statement that set it.

>>> asked_keys("我之前的预算是多少？"), asked_keys("what was the party size before?"), asked_keys("之前每晚多少钱？")
(['budget'], ['party'], ['budget/night'])
>>> asked_keys("我们之前定的预算是多少？我有什么过敏？"), asked_keys("之前的总预算是多少？")
(['budget', 'diet'], ['budget/total'])
>>> is_history_question("What was my budget before?"), is_history_question("Change the budget to 9000.")
(True, False)
>>> is_history_question("预算之前说过了，帮我找酒店"), is_history_question("我之前说的人数是多少？")
(False, True)
>>> is_history_question("我们一共几个人？订的是哪家酒店？"), is_history_question("这家餐厅人均多少钱？")
(True, False)
>>> is_history_question("What budget did we settle on, and what did I say about my diet?")
True
>>> is_history_question("How many of us are there, and which hotel did we book?"), is_history_question("Book the hotel")
(True, False)
>>> is_history_question("我们订的酒店是哪天入住？"), is_history_question("When do we check in at the hotel we booked?")
(True, True)
>>> is_history_question("我们订的酒店几点可以入住？"), is_history_question("What time can we check in at the hotel we booked?")
(False, False)
"""

from __future__ import annotations

import re

from ..slots import asks_history

__all__ = ["asked_keys", "is_history_question", "history_text", "agent_readings"]

# the agent's own slot for a record key: it reads some statements the library's reader leaves alone ("3 ppl",
# "3 people" with no "for"), and what it applied is part of the history the user asks about
_AGENT_SLOT = {"party": "people", "budget/total": "budget", "budget": "budget"}
_READ_AS = {"budget": "budget/total"}  # the agent reads a bare budget as the trip's total

# which slot a question names (the most specific first: "每晚预算" is the hotel's, not the trip's)
_KEYS = [
    ("budget/night", re.compile(r"每晚|一晚|房价|per night|a night|nightly|room rate", re.I)),
    ("budget/person", re.compile(r"人均|每人|per person|a head", re.I)),
    ("budget/total", re.compile(r"总预算|总共.{0,4}预算|total budget|overall budget|whole trip", re.I)),
    ("budget", re.compile(r"预算|budget|spend", re.I)),  # a budget of any scope: each one on record is said
    ("party", re.compile(r"人数|几个人|几人|多少人|party|how many (?:of us|people)|people|group size", re.I)),
    ("nights", re.compile(r"几晚|多少晚|住几天|how many nights|nights", re.I)),
    ("date/start", re.compile(r"入住|到达|出发|check[- ]?in|arriv|start", re.I)),
    ("date/end", re.compile(r"退房|离开|走的|check[- ]?out|leav|depart", re.I)),
    ("date", re.compile(r"日期|几号|哪天|什么时候|dates?|when", re.I)),
    ("diet", re.compile(r"忌口|过敏|不吃|allerg|diet|avoid", re.I)),
]
# a question, not a statement ("Change the budget to 9000" names a change but asks nothing)
_QUESTION = re.compile(r"[?？]|多少|几|什么|哪|吗|来着|\b(?:what|how|which|when|was|were|did)\b", re.I)
# a request ("帮我订…", "book it"), not a question about one made ("订的是哪家", "which hotel did we book")
_REQUEST = re.compile(r"帮我|找|推荐|订(?!的)|\b(?:find|(?<!did we )(?<!did i )book|search|recommend|add)\b", re.I)
# a question about what the user said or decided ("我们一共几个人", "我有什么过敏", "what did I say about my diet"),
# not about a place ("这家餐厅人均多少钱": no speaker of its own)
_RECALL = re.compile(
    r"我们?(?:之前|刚才|当时)?(?:说|定|订|讲|提|选)(?:过|了|的)|我们?(?:一共|总共)|我有|我的|我们的|咱们的|"
    # "我刚才说我对什么过敏来着？" / "what am I allergic to?": the speaker's own fact asked back
    r"来着|我们?对(?:什么|哪些)|\b(?:am i|are we|was i|were we)\b|"
    r"\b(?:did (?:i|we)|have (?:i|we)|(?:i|we) (?:said|told|decided|agreed|settled|picked|chose|booked|reserved)|"
    r"settled? on|my|our)\b",
    re.I,
)
# "订的是哪家酒店" / "which hotel did we book": the plan is part of what was decided
# "订的酒店几点可以入住？": an hour of the day is the place's (no record holds it), not a date we decided
_CLOCK = re.compile(r"几点|什么时间|\bwhat time\b|\bhours?\b", re.I)
PLAN_ASKED = re.compile(
    r"订的|定的(?:是)?哪|行程(?:里|上)?(?:有|是)|\b(?:did (?:i|we) book|(?:we|i) booked|in (?:my|our|the) plan)\b", re.I
)


def asked_keys(text: str) -> list[str]:
    """The constraint keys (or key prefixes: "budget", "date", "diet") a question names, most specific first; a
    prefix is left out when a key under it is named ("每晚预算" asks the hotel's, not every budget)."""
    keys: list[str] = []
    for key, pat in _KEYS:
        if pat.search(text) and not any(k.startswith(key + "/") or k == key.partition("/")[0] for k in keys):
            keys.append(key)
    return keys


def is_plan_question(text: str) -> bool:
    """A question about what the plan holds ("我们订的酒店是哪家？", "Which hotel did we book?"), naming no
    constraint (those are :func:`is_history_question`'s) and asking for nothing new: answered from the plan.

    >>> is_plan_question("我们订的酒店是哪家？"), is_plan_question("Which hotel did we book?")
    (True, True)
    >>> is_plan_question("帮我订一家酒店"), is_plan_question("我们订的酒店是哪天入住？"), is_plan_question("What's in the plan?")
    (False, False, False)
    """
    from .intent_cues import TALLY  # "What's in the plan?": the tally, with the costs

    asked = PLAN_ASKED.search(text) and _QUESTION.search(text) and not (_REQUEST.search(text) or TALLY.search(text))
    return bool(asked) and not asked_keys(text)


def is_history_question(text: str) -> bool:
    """A question about what a constraint was before ("之前的预算是多少") or what was decided ("我们一共几个人？"),
    asking nothing else."""
    from .intent_cues import TALLY

    if not (_QUESTION.search(text) and asked_keys(text)) or _REQUEST.search(text) or _CLOCK.search(text):
        return False
    return bool(asks_history(text) or (_RECALL.search(text) and not TALLY.search(text)))


def agent_readings(weaver, keys: list[str]) -> dict[str, list[tuple[int, float, str]]]:
    """``{key: [(turn, value, node id)]}``: what the agent's own reader finds in each user statement, oldest first."""
    from .understanding import parse

    out: dict[str, list[tuple[int, float, str]]] = {}
    for key in keys:
        slot = _AGENT_SLOT.get(key)
        if slot is None:
            continue
        for nid in weaver.node_ids:
            n = weaver.nodes[nid]
            if n.kind != "user_input" or n.status not in ("active", "superseded"):
                continue
            for c in parse(n.content).constraints:
                if c.slot == slot and c.scope == "any" and isinstance(c.value, (int, float)):
                    out.setdefault(_READ_AS.get(key, key), []).append((n.turn, float(c.value), nid))
    return out


def _earlier(rec, readings: list[tuple[int, float, str]]) -> list[dict]:
    """The agent's readings before the record's first statement that differ from it, as history entries."""
    first_turn = rec.history[0]["turn"] if rec.history else rec.turn
    first = rec.history[0]["value"] if rec.history else rec.value
    out: list[dict] = []
    for turn, value, nid in readings:
        if turn < first_turn and value != (out[-1]["value"] if out else None):
            out.append({"value": value, "high": None, "bound": "eq", "turn": turn, "node_id": nid})
    return out if out and out[-1]["value"] != first else out[:-1] if out else []


def _value(rec, value, high, bound, lang: str) -> str:
    zh = lang == "zh"
    if rec.slot == "budget" and isinstance(value, (int, float)):
        money = f"{float(value):,.0f}元" if zh else f"¥{float(value):,.0f}"
        if bound == "range" and high is not None:
            money = f"{float(value):,.0f}-{float(high):,.0f}元" if zh else f"¥{float(value):,.0f}-{float(high):,.0f}"
        return money
    if rec.slot == "party" and isinstance(value, (int, float)):
        return f"{value:g}人" if zh else f"{value:g} {'person' if value == 1 else 'people'}"
    if rec.slot == "nights" and isinstance(value, (int, float)):
        return f"{value:g}晚" if zh else f"{value:g} night{'' if value == 1 else 's'}"
    if rec.slot == "date" and isinstance(value, str) and value[:2].isdigit():
        return f"{int(value[:2])}月{int(value[3:])}日" if zh else value
    return str(value)


def history_text(records: list, keys: list[str], lang: str, readings: dict | None = None) -> tuple[str, list[str]]:
    """The answer, and the statement nodes it cites (the current one and each it replaced); ``readings``: the
    agent's own (:func:`agent_readings`), for statements the records' reader did not read."""
    zh = lang == "zh"
    from ..constraints import label

    lines: list[str] = []
    cited: list[str] = []
    for key in keys or [""]:
        wanted = [r for r in records if r.status == "current" and key and (r.key == key or r.slot == key)]
        wanted.sort(key=lambda r: not r.history)  # what changed first: that is what "之前" asks about
        if not wanted:
            what = _GENERIC.get(key, {}).get(lang) or (label(key, lang) if key else ("这个" if zh else "that"))
            lines.append(f"记忆里没有找到你说过的{what}。" if zh else f"I found no {what} you stated in memory.")
        elif key == "diet" and not any(r.history for r in wanted):
            # foods are many values of one slot: said together, each with the turn it was said in
            said = [f"{r.line(lang)}（第{r.turn}轮）" if zh else f"{r.line(lang)} (turn {r.turn})" for r in wanted]
            lines.append(
                ("你说过：" if zh else "You told me: ") + ("；" if zh else "; ").join(said) + ("。" if zh else ".")
            )
            cited += [r.node_id for r in wanted]
        else:
            cited += _slot_lines(wanted, lang, readings, lines)
    return "\n".join(lines), list(dict.fromkeys(cited))


# the words for a key prefix that names several keys (``constraints.label`` names one key)
_GENERIC = {"budget": {"zh": "预算", "en": "budget"}, "date": {"zh": "日期", "en": "dates"}}


def _slot_lines(wanted: list, lang: str, readings: dict | None, lines: list[str]) -> list[str]:
    """One line per record (its value now and what it replaced) appended to ``lines``; returns the nodes cited."""
    from ..constraints import label

    zh = lang == "zh"
    cited: list[str] = []
    for rec in wanted:
        name = label(rec.key, lang)
        now = _value(rec, rec.value, rec.high, rec.bound, lang)
        history = _earlier(rec, (readings or {}).get(rec.key, [])) + list(rec.history)
        cited += [h["node_id"] for h in history] + [rec.node_id]
        if not history:
            lines.append(
                f"{name}一直是{now}（第{rec.turn}轮说的），没有改过。"
                if zh
                else f"Your {name} has been {now} since turn {rec.turn}; you have not changed it."
            )
            continue
        steps = [(h["value"], h.get("high"), h.get("bound"), h["turn"]) for h in history]
        first = _value(rec, steps[0][0], steps[0][1], steps[0][2], lang)
        if zh:
            text = f"你之前说的{name}是{first}（第{steps[0][3]}轮）"
            for v, hi, b, _t in steps[1:]:
                text += f"，后来改成{_value(rec, v, hi, b, lang)}"
            lines.append(text + f"；第{rec.turn}轮改成了{now}，现在按{now}算。")
        else:
            text = f"Your {name} was {first} (turn {steps[0][3]})"
            for v, hi, b, _t in steps[1:]:
                text += f", then {_value(rec, v, hi, b, lang)}"
            lines.append(text + f"; at turn {rec.turn} you changed it to {now}, which is what I use now.")
    return cited
