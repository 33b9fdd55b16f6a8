"""LLM mode states what the offline reply would: a place the database cannot place, a trip length that disagrees
with the dates, and the memories this message's change flagged as stale reach the model as facts it must state,
and the reply carries each one even when the model leaves it out. Before, only the offline reply said them: with
a model answering, the user heard none of them. Driven against a real OpenAI-protocol server on 127.0.0.1.
"""

from __future__ import annotations

import pytest

from weaver.agent import TravelAgent
from weaver.backends.openai_llm import make_client

UNPLACED = {"en": ("Find a hotel near the Bund.", "couldn't place"), "zh": ("帮我找一家外滩附近的酒店", "没能定位")}
LENGTH = {
    "en": ("We're planning a 3-day trip to Beijing from May 1 to May 4.", "4 days (3 nights)"),
    "zh": ("我们五月一号到五月四号去北京玩三天。", "4天3晚"),
}
STALE = {
    "zh": (
        ["我们两个人，五月一号到五月三号。", "住宿每晚不要超过六百。", "帮我找一家王府井附近的酒店。"],
        "住宿每晚改成不超过七百。",
    ),
    "en": (
        ["We are two people, May 1st to May 3rd.", "Hotels at most 600 a night.", "Find a hotel near Wangfujing."],
        "Actually, make the hotel limit 700 a night.",
    ),
}
FLAGGED = {"zh": "已标为待复查", "en": "flagged for review"}


def _llm_agent(w, llm_settings):
    return TravelAgent(w, llm_client=make_client(llm_settings), model="stub-model")


def _reply(agent, text):
    events = list(agent.run(text))
    assert events[-1].type == "reply" and not [e for e in events if e.type == "error"]
    return events[-1].text


def _system(openai_stub) -> str:
    return openai_stub.chat_requests()[-1]["messages"][0]["content"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_unplaced_place_and_a_length_clash_reach_an_llm_reply(runtime, llm_settings, openai_stub, lang):
    agent = _llm_agent(runtime.open(f"llm-facts-{lang}"), llm_settings)
    for text, said in (UNPLACED[lang], LENGTH[lang]):
        openai_stub.push("OK." if lang == "en" else "好的。")
        reply = _reply(agent, text)
        assert reply.startswith("OK." if lang == "en" else "好的。") and said in reply, reply
        assert "must state" in _system(openai_stub) and said in _system(openai_stub)
    # a fact the model did state is not said twice
    openai_stub.push("Noted.")
    reply = _reply(agent, "Hotels at most 600 a night.")
    assert "must state" not in _system(openai_stub) and reply == "Noted."


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_stale_flag_line_reaches_an_llm_reply(runtime, llm_settings, openai_stub, lang):
    w = runtime.open(f"llm-stale-{lang}")
    before, change = STALE[lang]
    offline = TravelAgent(w)
    for text in before:  # the search that used the old limit, answered offline
        list(offline.run(text))
    openai_stub.push("OK, 700 a night." if lang == "en" else "好的，每晚七百。")
    reply = _reply(_llm_agent(w, llm_settings), change)
    [g] = w.curation.flag_groups()
    line = next(ln for ln in reply.splitlines() if FLAGGED[lang] in ln)
    assert str(len(g.targets)) in line and line in _system(openai_stub), reply
