"""A bare amount with a change cue right after a slot was stated restates that slot.

"My total budget is 8000 yuan." then "Make that 12000 yuan." (and "改成一万二吧" / "那就12000吧" after
"总预算八千") changed nothing and drew the list of capabilities: the amount named no slot. It now restates the
most recent slot the amount fits, and the new statement supersedes the old one like any budget change.
"""

from __future__ import annotations

import pytest

from agent_chat import chat_turn

from weaver.agent import TravelAgent

RESTATE = [
    ("en", "My total budget is 8000 yuan.", "Make that 12000 yuan."),
    ("en", "Our total budget is 8000 yuan.", "Change it to 12000."),
    ("zh", "我们总预算八千。", "改成一万二吧"),
    ("zh", "我们总预算八千。", "那就12000吧"),
]


@pytest.mark.parametrize("lang,stated,restated", RESTATE)
def test_a_bare_amount_with_a_change_cue_restates_the_budget_just_stated(runtime, lang, stated, restated):
    agent = TravelAgent(runtime.open(f"restate-{lang}"))
    chat_turn(agent, stated)
    (budget,) = [r for r in agent.weaver.constraints() if r.key == "budget/total"]
    assert budget.value == 8000.0
    old = budget.node_id
    reply, _, _ = chat_turn(agent, restated)
    (budget,) = [r for r in agent.weaver.constraints() if r.key == "budget/total"]
    w = agent.weaver
    said = next(n.id for n in w.nodes.values() if n.kind == "user_input" and n.content == restated)
    assert (budget.value, budget.node_id) == (12000.0, said) and budget.history
    assert w.graph.edges[old, said]["relation"] == "supersedes" and w.nodes[old].status == "superseded"
    assert "12,000" in reply or "12000" in reply


@pytest.mark.parametrize("lang,first,again", [("en", "Hi there!", "Make that 12000."), ("zh", "你好", "改成一万二吧")])
def test_a_bare_amount_after_no_numeric_statement_sets_nothing(runtime, lang, first, again):
    agent = TravelAgent(runtime.open(f"restate-none-{lang}"))
    chat_turn(agent, first)
    chat_turn(agent, again)
    assert not [r for r in agent.weaver.constraints() if r.slot == "budget"]


@pytest.mark.parametrize(
    "lang,texts",
    [
        ("en", ["My total budget is 8000 yuan.", "Make that 12000 yuan.", "Make that 15000."]),
        ("zh", ["我们总预算八千。", "改成一万二吧", "那就15000吧"]),
    ],
)
def test_a_second_bare_amount_restates_the_restated_budget(runtime, lang, texts):
    agent = TravelAgent(runtime.open(f"restate-chain-{lang}"))
    for text in texts:
        chat_turn(agent, text)
    (budget,) = [r for r in agent.weaver.constraints() if r.key == "budget/total"]
    assert budget.value == 15000.0 and [h["value"] for h in budget.history] == [8000.0, 12000.0]
    w = agent.weaver
    first, second, third = (
        next(n.id for n in w.nodes.values() if n.kind == "user_input" and n.content == text) for text in texts
    )
    # each restatement supersedes the one before it at once: the second bare amount too, though its
    # predecessor states nothing by its own text (it restated the budget)
    assert w.graph.edges[first, second]["relation"] == "supersedes"
    assert w.graph.edges[second, third]["relation"] == "supersedes"
    assert [w.nodes[i].status for i in (first, second, third)] == ["superseded", "superseded", "active"]


@pytest.mark.parametrize(
    "lang,texts",
    [
        ("zh", ["我们一家四口，总预算八千。", "帮我找一家故宫附近的酒店", "改成一万二吧"]),
        (
            "en",
            [
                "There are four of us and our total budget is 8000 yuan.",
                "Find a hotel near the Forbidden City.",
                "Make that 12000 yuan.",
            ],
        ),
    ],
)
def test_a_bare_amount_after_a_request_restates_the_budget_said_before_it(runtime, lang, texts):
    """A search request between the budget and the change: the amount looks back past it to the slot it fits
    (a budget, not the party of four: an amount said with a currency, or too large for a party)."""
    agent = TravelAgent(runtime.open(f"restate-past-{lang}"))
    replies = [chat_turn(agent, text)[0] for text in texts]
    w = agent.weaver
    (budget,) = [r for r in w.constraints() if r.key == "budget/total"]
    first, _, third = (next(n.id for n in w.nodes.values() if n.content == text) for text in texts)
    assert (budget.value, budget.node_id) == (12000.0, third)
    # the budget is superseded; the first statement stays active for the party it also states
    assert w.graph.edges[first, third]["relation"] == "supersedes" and w.nodes[first].status == "active"
    assert [r.value for r in w.constraints() if r.slot == "party"] == [4.0]
    assert "12,000" in replies[-1] or "12000" in replies[-1]
