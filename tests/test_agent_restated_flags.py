"""Each slot a message restates flags what used its old value: "three of us now, total budget 9000" after the
party and the budget were said apart supersedes both statements, and after they were said in one message with
the dates (which still hold, so it stays active) flags what used it all the same. Before, only a statement
superseded as a whole raised flags: the budget said with the party and dates changed and nothing was flagged.
"""

from __future__ import annotations

import pytest

from agent_chat import chat_turn

from weaver.agent import TravelAgent

APART = {
    "zh": [
        "我们两个人，五月一号到五月三号去北京。",
        "总预算五千块。",
        "帮我找一家王府井附近每晚六百以内的酒店。",
        "现在我们三个人，总预算改成八千。",
    ],
    "en": [
        "We're two people visiting Beijing from May 2nd to May 4th.",
        "Our total budget is 6000 yuan.",
        "Find a hotel near Wangfujing under 700 a night.",
        "Now we are three people and the total budget is 9000 yuan.",
    ],
}
TOGETHER = {
    "zh": [
        "我们两个人，总预算五千块，五月一号到五月三号。",
        "帮我找一家王府井附近每晚六百以内的酒店。",
        "现在我们三个人，总预算改成八千。",
    ],
    "en": [
        "We're two people with a total budget of 6000 yuan, May 2nd to May 4th.",
        "Find a hotel near Wangfujing under 700 a night.",
        "Now we are three people and the total budget is 9000 yuan.",
    ],
}
LINE = {"zh": ("这条更新了", "已标为待复查"), "en": ("This updates", "flagged for review")}


def _chat(runtime, name, msgs):
    agent = TravelAgent(runtime.open(name))
    for text in msgs[:-1]:
        chat_turn(agent, text)
    reply = chat_turn(agent, msgs[-1])[0]
    return agent.weaver, reply, [ln for ln in reply.splitlines() if all(s in ln for s in LINE[agent_lang(msgs)])]


def agent_lang(msgs):
    return "en" if msgs[0].isascii() else "zh"


def _search(w):
    return next(n.id for n in w.nodes.values() if n.kind == "tool_result" and n.content.startswith("search_hotels("))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_each_restated_slot_flags_what_used_its_old_value(runtime, lang):
    w, reply, lines = _chat(runtime, f"restate-apart-{lang}", APART[lang])
    said = {n.content: n.id for n in w.nodes.values() if n.kind == "user_input"}
    groups = {g.source: g for g in w.curation.flag_groups()}
    # the party's statement (with the dates, so it stays active) and the budget's: both flag the search
    assert set(groups) == {said[APART[lang][0]], said[APART[lang][1]]}, reply
    assert all(g.by == said[APART[lang][-1]] and _search(w) in g.targets for g in groups.values())
    assert len(lines) == 2, reply


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_statement_kept_for_its_other_slots_still_flags_and_undo_withdraws(runtime, lang):
    w, reply, lines = _chat(runtime, f"restate-together-{lang}", TOGETHER[lang])
    old = next(n for n in w.nodes.values() if n.content == TOGETHER[lang][0])
    assert old.status == "active"  # its dates still hold
    [g] = w.curation.flag_groups()
    assert g.source == old.id and g.status == "active" and w.nodes[g.by].content == TOGETHER[lang][-1]
    assert _search(w) in g.targets and len(lines) == 1 and TOGETHER[lang][0][:8] in lines[0], reply
    # undoing the arrival edge withdraws the flags it raised; redo raises them again
    edge = next(e for e in reversed(w.curation.log.entries) if e.key == f"{old.id}->{g.by}")
    w.curation.undo(edge.id)
    assert w.curation.flag_groups() == []
    w.curation.redo()
    assert [x.source for x in w.curation.flag_groups()] == [old.id]
    # accepted: what used the old value is replaced (superseded), not called wrong
    w.curation.resolve_flags(old.id, accept=True)
    assert all(w.nodes[t].status == "superseded" for t in g.targets) and w.nodes[old.id].status == "active"
