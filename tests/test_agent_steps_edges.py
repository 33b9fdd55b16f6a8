"""An agent trace logged without ``depends_on`` is linked as the chain it is (zh and en).

Found logging a debugging session through the CLI as a library user would (user message, tool result, thought,
reply): the link model, fitted on human chat, gave the thought's tool result 0.13 and the user's message 0.44, the
content did not back the user's message, so the thought that reads the traceback got no parent at all and the tool
result none either; four kept memories, one edge. Steps of one turn now follow the step before them, and the first
step follows the request that opened the turn, when the content backs the pair (weaver/relations/steps.py; an
agent may turn to another task within one turn: tests/test_debugger.py's dinner plan after a metro lookup).
"""

from __future__ import annotations

import pytest

TRACES = {
    "en": [
        ("user_input", "The login page of my Flask app returns a 500 error since yesterday"),
        ("tool_result", "Traceback: KeyError: 'SECRET_KEY' in config.py line 12"),
        ("agent_thought", "Because SECRET_KEY is missing the session cannot be signed, so login fails"),
        ("tool_result", "grep SECRET_KEY /etc/systemd/system/app.service: no match"),
        ("agent_response", "Set SECRET_KEY in the systemd unit that runs gunicorn, then restart it"),
        ("user_input", "Done, I set SECRET_KEY in the unit file and login works now"),
    ],
    "zh": [
        ("user_input", "我的Flask应用登录页从昨天开始报500错误"),
        ("tool_result", "报错信息：config.py第12行 KeyError: 'SECRET_KEY'"),
        ("agent_thought", "因为缺少SECRET_KEY，会话无法签名，所以登录失败"),
        ("tool_result", "在 /etc/systemd/system/app.service 里查找 SECRET_KEY：没有找到"),
        ("agent_response", "请在运行gunicorn的systemd服务里设置SECRET_KEY，然后重启"),
        ("user_input", "好了，我在服务文件里设置了SECRET_KEY，现在能登录了"),
    ],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_agent_loop_is_linked_step_by_step(runtime, lang):
    w = runtime.open(f"steps-{lang}")
    w.set_task("Fix the login bug of a Flask app" if lang == "en" else "修复Flask应用的登录问题")
    ids = [w.ingest(text, kind).node.id for kind, text in TRACES[lang]]
    assert all(ids)
    got = {(ids.index(e.source), ids.index(e.target), e.relation) for e in w.edges() if e.target in ids[1:5]}
    assert got == {
        # the traceback shares no word with the request: the content does not back a link, none is made
        (1, 2, "causal"),  # the thought reasons from the traceback
        (2, 3, "temporal"),  # the next call follows the thought
        (3, 4, "causal"),  # the reply reports the call's result
    }
    # the review pass (rules) finds nothing to undo in them
    summary = w.curation.review(apply=False)
    assert summary.proposed == {} and summary.queued == []


def test_a_plain_dialogue_reply_is_still_the_link_models_call(runtime):
    """A reply with no agent step before it in its turn is not forced onto the turn's message: in a dialogue it may
    answer an older one; only thoughts and tool results take the opening request."""
    w = runtime.open("steps-dialogue")
    w.set_task("Plan a trip to Beijing")
    first = w.ingest("We arrive on May 3 and leave May 6", "user_input").node.id
    reply = w.ingest("Your trip is May 3 to May 6; I will look for hotels for those three nights.", "agent_response")
    assert reply.node is not None
    reasons = [e.rationale for e in w.edges() if e.source == first]
    assert not any("opened this turn" in r for r in reasons), reasons
