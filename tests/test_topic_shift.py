"""Topic shifts: the focus notices a new topic (and only then), and the filter follows it."""

from __future__ import annotations

import json

import numpy as np
import pytest

from weaver.filtering import TaskFocus
from weaver.topic_shift import FEATURES, WEIGHTS_PATH, ShiftModel, default_model

TRIP = "Plan a one-week trip to Norway for two people in June"
NORWAY = [
    "We want to see the fjords near Bergen.",
    "Our budget is 3000 euros in total.",
    "Also we need to rent a car in Oslo.",
]
EXAM = "By the way, I also have my driving exam next month and need to prepare for it."


def _chat(weaver, texts):
    return [weaver.ingest(t, "user_input").decision for t in texts]


def test_an_on_topic_question_after_a_switch_is_kept(weaver):
    # a focus blended 60/40 from the task and the recent memories was near neither after the switch:
    # "Which parts of the theory test are hardest?" scored coarse 0.03, total 1.0, and was dropped
    weaver.set_task(TRIP)
    _chat(weaver, NORWAY)
    exam, practice, theory = _chat(
        weaver,
        [EXAM, "How many practice hours should I plan before the exam?", "Which parts of the theory test are hardest?"],
    )
    assert exam.focus_shift_at > 0
    assert practice.kept and theory.kept, (practice.reason, theory.reason)
    assert not practice.focus_shift_at and not theory.focus_shift_at  # follow-ups of the new topic


def test_statements_and_follow_ups_are_not_shifts(weaver):
    weaver.set_task(TRIP)
    decisions = _chat(weaver, NORWAY + [EXAM, "I keep failing parallel parking."])
    # the budget and the car belong to the trip; the parking trouble to the exam: none opens a topic
    assert [bool(d.focus_shift_at) for d in decisions] == [False, False, False, True, False]


def test_chinese_requests_open_topics_and_follow_ups_do_not(weaver):
    weaver.set_task("帮我规划北京三日游")
    said = {
        d.content: bool(d.focus_shift_at)
        for d in _chat(
            weaver,
            [
                "我想去一个评分4.5分以上、门票免费的景点。",
                "故宫的地址在哪里？",
                "它周边有什么餐馆吗？",
                "玩完以后我想找一家400到500元的经济型酒店住宿，推荐一家吧。",
                "这家酒店的电话是多少？",
            ],
        )
    }
    assert said == {
        "我想去一个评分4.5分以上、门票免费的景点。": False,  # the first request: nothing to leave
        "故宫的地址在哪里？": False,
        "它周边有什么餐馆吗？": False,
        "玩完以后我想找一家400到500元的经济型酒店住宿，推荐一家吧。": True,
        "这家酒店的电话是多少？": False,
    }


def test_the_focus_restarts_at_a_shift_and_after_reopening(weaver, runtime, embedder):
    weaver.set_task(TRIP)
    _chat(weaver, NORWAY + [EXAM])
    exam_vec, fjord_vec = embedder.embed([EXAM, NORWAY[0]])
    # the recent part holds the new topic alone: the exam message is its whole centre
    assert weaver.focus.vector() @ exam_vec == pytest.approx(1.0, abs=1e-5)
    again = runtime.open("test")
    assert again.focus.vector() @ exam_vec == pytest.approx(1.0, abs=1e-5)
    assert again.focus.closeness(fjord_vec) == pytest.approx(weaver.focus.closeness(fjord_vec), abs=1e-5)


def test_an_explicit_change_of_subject_is_always_a_shift():
    focus = TaskFocus()
    v = np.eye(3, dtype=np.float32)
    focus.observe(v[0], 3.0, "user_input", "我想订一家外滩附近的酒店")
    assert focus.is_shift(v[0], "换个话题：这家酒店的电话？")
    assert not focus.is_shift(v[0], "这家酒店的电话？")
    assert not TaskFocus().is_shift(v[0], "换个话题")  # nothing to leave yet


def test_the_shipped_weights_match_their_features_and_card():
    data = json.loads(WEIGHTS_PATH.read_text(encoding="utf-8"))
    assert data["features"] == list(FEATURES)
    model = default_model()
    assert 0.0 < model.threshold < 1.0 and "CrossWOZ val" in model.card["data"]
    with pytest.raises(ValueError, match="other features"):
        ShiftModel.from_json(dict(data, features=data["features"][:-1]))


@pytest.mark.slow
def test_training_reproduces_the_shipped_model_and_beats_the_old_rule(shared_data, embedder):
    from weaver.bench.crosswoz import load_crosswoz
    from weaver.bench.switches import DriftRule, gold_switches, replay
    from weaver.topic_shift_train import examples, fit_model

    X, y = examples(shared_data / "crosswoz" / "val.json.zip", embedder)
    model = fit_model(X, y, "CrossWOZ val")
    assert np.allclose(model.weights, default_model().weights, atol=1e-4)  # the shipped file is what the script fits
    assert model.threshold == default_model().threshold
    test = [(k, d) for k, d in load_crosswoz(shared_data / "crosswoz" / "test.json.zip") if gold_switches(d)][:40]

    def f1(pairs):
        tp = sum(s and g for s, g in pairs)
        return 2 * tp / max(1, sum(s for s, _ in pairs) + sum(g for _, g in pairs))

    assert f1(replay(test, embedder, None)) > f1(replay(test, embedder, DriftRule())) + 0.2  # held out


def test_the_switches_page_says_how_to_rerun_val_without_overwriting_test():
    from weaver.bench.switches import switches_markdown

    r = {"precision": 1.0, "recall": 1.0, "f1": 1.0, "confusion": {"tp": 1, "fp": 0, "fn": 0}}
    res = {"data": "val.json.zip", "dialogues": 1, "judged": 1, "switches": 1, "task": "", "wall_s": 0.1}
    md = switches_markdown({**res, "systems": {"weaver": r}})
    assert "| weaver | 1.0 | 1.0 | 1.0 | 1 | 0 | 0 |" in md
    assert "--data ../shared/data/crosswoz/val.json.zip --name switches_val" in md  # the bare --data wrote switches.md
