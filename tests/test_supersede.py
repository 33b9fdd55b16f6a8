"""Supersede on arrival: a restated slot value replaces the earlier statement at once (real Chroma, real embedder)."""

from __future__ import annotations

import pytest

from weaver.slots import asks_history, changes, is_change, read_slots

TASK = {"en": "Plan a three-day trip to Beijing for the user", "zh": "为用户规划一次北京三日游"}

# (earlier statement, later statement, slot scope that changed) — paraphrases, not one sentence per case
CHANGED = [
    ("en", "My total budget is 5000 yuan.", "Actually, I changed my mind: my budget is now 8000 yuan.", "budget/total"),
    ("en", "I can spend at most 5000 RMB on the whole trip.", "Let's raise the budget to 8000.", "budget/total"),
    ("en", "Let's keep the trip budget under 5,000 yuan.", "My budget went up to 8,000 yuan.", "budget/total"),
    (
        "en",
        "Budget: no more than five thousand yuan in total.",
        "Make the total budget eight thousand yuan instead.",
        "budget/total",
    ),
    ("zh", "我的总预算是五千元。", "预算提高到八千吧。", "budget/total"),
    ("zh", "整个行程花费最多不能超过5000块。", "其实我改主意了，预算提高到8000元。", "budget/total"),
    ("zh", "预算别超过五千。", "预算改成八千。", "budget/total"),
    ("zh", "这次旅行预算控制在五千以内。", "把预算从五千改成八千。", "budget/total"),
    ("zh", "酒店每晚六百以内。", "每晚八百也可以。", "budget/night"),
    ("zh", "住的地方每晚不超过六百块。", "酒店每晚的预算改成八百。", "budget/night"),
    ("en", "Hotels up to 600 yuan per night, please.", "Per night I can now go up to 800.", "budget/night"),
    ("zh", "我们五月一号出发。", "出发日期改成五月二号。", "date/start"),
    ("zh", "我打算5月1日去北京。", "改成5月2日出发吧。", "date/start"),
    ("zh", "五月一号入住酒店。", "我们改到五月二号入住。", "date/start"),
    ("en", "We arrive in Beijing on May 1st.", "Actually we'll arrive on May 2nd instead.", "date/start"),
    ("en", "I'm planning to start the trip on May 1.", "Change the start date to May 2.", "date/start"),
    # (the rules filter drops bare diet statements such as "I'm vegetarian.": these carry a little more)
    (
        "en",
        "I'm a vegetarian, please keep that in mind when picking restaurants.",
        "I'm no longer vegetarian, so meat dishes are fine for dinner now.",
        "diet/style",
    ),
    (
        "en",
        "I'm a vegetarian, so please skip restaurants that only serve meat.",
        "I've started eating meat again, so steak restaurants are fine for dinner.",
        "diet/style",
    ),
    ("zh", "我不吃辣，点菜的时候请注意。", "现在可以吃辣了，点川菜也没问题。", "diet/spicy"),
    ("zh", "我吃素，推荐餐厅时请注意。", "我现在不吃素了，推荐餐厅不用再考虑这个。", "diet/style"),
    ("en", "I can't eat spicy food.", "I can handle spicy food now, so Sichuan restaurants are fine.", "diet/spicy"),
    ("zh", "我对海鲜过敏。", "我对海鲜已经不过敏了。", "diet/seafood"),
]
UNCHANGED = [  # restated, added to, or another scope: nothing is superseded
    ("en", "My budget is 5000 yuan.", "Just to confirm, the budget is still 5000."),
    ("zh", "预算五千。", "预算还是5000元。"),
    ("zh", "五月一号出发。", "对，还是5月1日出发。"),
    ("en", "I'm allergic to peanuts.", "I'm also allergic to shellfish."),
    ("zh", "我对花生过敏。", "我还对虾过敏。"),
    (
        "en",
        "I'm a vegetarian, please keep that in mind when picking restaurants.",
        "I'm vegetarian, and I don't eat spicy food either.",
    ),
    ("zh", "总预算五千。", "酒店每晚八百以内。"),
    ("en", "My budget is 5000 in total.", "Hotels should be under 800 per night."),
    ("en", "Our total budget is 8000 yuan.", "Restaurants around 100 per person would be nice."),
]
# a question about a shown item's value states no constraint of the user's (CrossWOZ: "这个景点的评分是5分吗？"):
# the reader sees two values; arrival knows the second one was asked, not said
ASKED = [
    ("zh", "帮我找一个评分4分以上的景点。", "这个景点的评分是5分吗？"),
    ("en", "Find me a hotel rated at least 4.", "Is it rated 4.5 or more?"),
]


def _key(v) -> str:
    return f"{v.slot}/{v.scope}"


# ------------------------------------------------------------------ the reader (pure)
@pytest.mark.parametrize("lang,old,new,slot", CHANGED)
def test_reader_sees_each_change(lang, old, new, slot):
    pairs = changes(read_slots(old), read_slots(new), is_change(new))
    assert [_key(a) for a, _ in pairs] == [slot], (read_slots(old), read_slots(new))


@pytest.mark.parametrize("lang,old,new", UNCHANGED)
def test_reader_sees_no_change(lang, old, new):
    assert changes(read_slots(old), read_slots(new), is_change(new)) == []


@pytest.mark.parametrize(
    "text,expected",
    [
        ("预算别超过五千", ("budget", "total", "max", 5000.0, None)),
        ("预算不低于两千五", ("budget", "total", "min", 2500.0, None)),
        ("每晚六百以内", ("budget", "night", "max", 600.0, None)),
        ("人均三百五十左右", ("budget", "person", "about", 350.0, None)),
        ("总预算一万二", ("budget", "total", "max", 12000.0, None)),
        ("预算1.5万以内", ("budget", "total", "max", 15000.0, None)),
        ("budget of 5k at most", ("budget", "total", "max", 5000.0, None)),
        ("no more than five thousand yuan for the trip", ("budget", "total", "max", 5000.0, None)),
        ("at least 300 per night", ("budget", "night", "min", 300.0, None)),
        ("between 300 and 450 per night", ("budget", "night", "range", 300.0, 450.0)),
        ("每晚三百到四百五", ("budget", "night", "range", 300.0, 450.0)),
        # an amount "per person" with nothing else framing it (the scope said after the amount, whole)
        ("150 per person", ("budget", "person", "max", 150.0, None)),
        ("人均150", ("budget", "person", "max", 150.0, None)),
        ("120 to 180 per person", ("budget", "person", "range", 120.0, 180.0)),
        ("人均120到180", ("budget", "person", "range", 120.0, 180.0)),
        ("around 150 per person", ("budget", "person", "about", 150.0, None)),
        ("人均150左右", ("budget", "person", "about", 150.0, None)),
        ("我们一共三个人", ("party", "", "eq", 3.0, None)),
        ("there are four of us", ("party", "", "eq", 4.0, None)),
        ("住两晚", ("nights", "", "eq", 2.0, None)),
        ("for 3 nights", ("nights", "", "eq", 3.0, None)),
        ("酒店评分4.5以上", ("rating", "hotel", "min", 4.5, None)),
        # a negated item itself, and a counted place that names none ("一家附近")
        ("再帮我找一家附近不辣的餐厅", ("diet", "spicy", "restrict", "spicy", None)),
        ("找一家不要太辣的", ("diet", "spicy", "restrict", "spicy", None)),
        ("a restaurant that is not spicy", ("diet", "spicy", "restrict", "spicy", None)),
        ("I am not allergic to peanuts", ("diet", "peanut", "lift", "peanut", None)),
        ("I am allergic to peanuts", ("diet", "peanut", "restrict", "peanut", None)),
        ("我们下个月十号到北京", ("date", "start", "eq", "--10", None)),  # a day of a month named in words
        ("we arrive next month the 10th", ("date", "start", "eq", "--10", None)),
    ],
)
def test_reader_values_and_bounds(text, expected):
    got = [(v.slot, v.scope, v.bound, v.value, v.high) for v in read_slots(text)]
    assert got == [expected]


def test_a_change_by_an_amount_moves_the_current_value():
    from weaver.constraints import records_from_statements

    said = [
        ("n1", 1, "总预算八千块"),
        ("n2", 2, "预算再加两千吧。"),
        ("n3", 3, "每晚别超过六百"),
        ("n4", 4, "每晚再加一百"),
    ]
    said += [("n5", 5, "cut the budget by 500 yuan")]
    recs = {r.key: r for r in records_from_statements(said)}
    total, night = recs["budget/total"], recs["budget/night"]
    assert (total.value, total.bound, total.node_id) == (9500.0, "max", "n5")
    assert [h["value"] for h in total.history] == [8000.0, 10000.0]
    assert (night.value, night.bound) == (700.0, "max")
    alone = records_from_statements([("x", 1, "预算再加两千吧。")])
    assert [(r.status, r.value) for r in alone] == [("unread", None)]  # nothing to add to: never a 2,000 bound
    assert [(v.bound, v.value) for v in read_slots("预算提高到一万")] == [("max", 10000.0)]  # "to" is a new value


def test_a_question_is_no_diet_and_a_count_is_no_place():
    assert read_slots("这家菜辣不辣？") == []  # asks, restricts nothing
    assert [v.slot for v in read_slots("帮我找一家附近的餐厅")] == []  # "一家附近" counts, names no place
    assert [(v.slot, v.value) for v in read_slots("我们住王府井附近")] == [("location", "王府井")]
    # a station is the named place's ("东直门地铁站"); a station alone names no place
    assert [(v.slot, v.value) for v in read_slots("帮我找东直门地铁站附近的酒店")] == [("location", "东直门地铁站")]
    assert read_slots("帮我找个地铁站附近的酒店") == []
    said = "is there any good restaurant near Wangfujing for dinner, around 150 per person?"
    assert [(v.slot, v.scope, v.bound, v.value) for v in read_slots(said)][1:] == [("budget", "person", "about", 150.0)]
    assert [v.value for v in read_slots("三月十号到十二号")] == ["03-10", "03-12"]  # the end takes the month
    assert read_slots("我生日是十号") == []  # a bare day with no trip word is no trip date
    # the food named before the verb is refused; "not too expensive" refuses nothing
    assert [(v.value, v.bound) for v in read_slots("我其实海鲜也不吃")] == [("seafood", "restrict")]
    assert [(v.value, v.bound) for v in read_slots("辣的不要")] == [("spicy", "restrict")]
    assert read_slots("海鲜不要太贵") == []
    # "near the hotel" points back (a kind, not a name); a name may hold "of"
    assert read_slots("What about restaurants near the hotel for dinner?") == []
    assert [v.value for v in read_slots("a hotel near the Temple of Heaven")] == ["Temple of Heaven"]


@pytest.mark.parametrize(
    "text",
    [
        "预算大概几千块",
        "budget: a few thousand yuan",
        "我花了两千块买衣服",
        "I spent $200 on shoes",
        "千万别点海鲜",
        "The museum has 5000 visitors a day",
    ],
)
def test_unreadable_or_unframed_amounts_never_become_a_bound(text):
    assert all(v.value is None for v in read_slots(text) if v.slot == "budget")


@pytest.mark.parametrize(
    "query,history",
    [
        ("what was my budget before?", True),
        ("what was the original budget?", True),
        ("我之前的预算是多少？", True),
        ("预算原来是多少", True),
        ("how has my budget changed?", True),
        ("what did I say earlier about dates?", True),
        ("what is my budget?", False),
        ("我的预算是多少？", False),
        ("推荐一家餐厅", False),
    ],
)
def test_history_questions(query, history):
    assert asks_history(query) is history


# ------------------------------------------------------------------ on arrival (real Chroma)
def _space(runtime, name, lang):
    w = runtime.open(name)
    w.config = w.config.with_(review_every=0)
    w.set_task(TASK[lang])
    return w


def _kept(w, text):
    res = w.ingest(text, "user_input")
    assert res.kept, text
    return res


@pytest.mark.parametrize("lang,old,new,slot", CHANGED)
def test_arrival_supersedes_at_once(runtime, lang, old, new, slot):
    w = _space(runtime, "arrive", lang)
    a = _kept(w, old).node.id
    res = _kept(w, new)
    b = res.node.id
    d = w.graph.edges[a, b]
    assert d["relation"] == "supersedes" and d["origin"] == "rules" and 0.8 <= d["confidence"] <= 1.0
    assert slot.split("/")[0] in d["rationale"] and "->" in d["rationale"]
    assert any(e.relation == "supersedes" and e.source == a for e in res.edges)  # reported with the ingest
    again = runtime.open("arrive")  # persisted with the message, audited
    assert again.nodes[a].status == "superseded" and again.nodes[a].meta["superseded_by"] == b
    assert again.nodes[b].status == "active"
    acts = [(e.actor, e.action) for e in again.curation.log.entries if e.key in (a, f"{a}->{b}")]
    assert ("builder", "node.status") in acts and any(x[1].startswith("edge.") for x in acts)
    assert again.curation.verify() == []


@pytest.mark.parametrize("lang,old,new", UNCHANGED + ASKED)
def test_no_supersede_for_a_restatement_an_addition_or_another_scope(runtime, lang, old, new):
    w = _space(runtime, "same", lang)
    a = _kept(w, old).node.id
    b = _kept(w, new).node.id
    assert w.nodes[a].status == "active"
    assert not (w.graph.has_edge(a, b) and w.graph.edges[a, b]["relation"] == "supersedes")


def test_budget_and_night_price_each_follow_their_own_updates(runtime):
    w = _space(runtime, "scopes", "zh")
    total = _kept(w, "我的总预算是五千元。").node.id
    night = _kept(w, "酒店每晚六百以内。").node.id
    new_night = _kept(w, "酒店每晚的预算改成八百。").node.id
    assert w.nodes[night].status == "superseded" and w.nodes[total].status == "active"
    new_total = _kept(w, "总预算提高到八千。").node.id
    assert w.nodes[total].meta["superseded_by"] == new_total and w.nodes[new_night].status == "active"


def test_a_statement_with_other_facts_keeps_its_place(runtime):
    w = _space(runtime, "partial", "en")
    a = _kept(w, "My total budget is 5000 yuan, and there are three of us.").node.id
    b = _kept(w, "Actually the budget is now 8000 yuan.").node.id
    assert w.graph.edges[a, b]["relation"] == "supersedes" and "still hold" in w.graph.edges[a, b]["rationale"]
    assert w.nodes[a].status == "active"  # the party size still holds
    c = _kept(w, "And now we are four people.").node.id
    assert w.nodes[a].status == "superseded" and w.nodes[a].meta["superseded_by"] == c


def test_speakers_do_not_supersede_each_other(runtime):
    w = _space(runtime, "speakers", "en")
    a = w.ingest("My total budget is 5000 yuan.", "user_input", {"speaker": "Ann"}).node.id
    w.ingest("My total budget is 8000 yuan.", "user_input", {"speaker": "Bob"})
    assert w.nodes[a].status == "active"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_undo_restores_the_old_value_and_the_guessed_edge(runtime, lang):
    old, new = {
        "en": ("My total budget is 5000 yuan.", "Let's raise the budget to 8000."),
        "zh": ("我的总预算是五千元。", "预算提高到八千吧。"),
    }[lang]
    w = _space(runtime, f"undo-{lang}", lang)
    a = _kept(w, old).node.id
    build = w.curation.log.entries[-1]
    b = _kept(w, new).node.id
    guessed = next((x for x in w.curation.log.entries if x.action == "build" and x.key == b))
    was = [e["relation"] for e in guessed.after["edges"] if e["source"] == a]
    status = next(e for e in w.curation.log.entries if e.action == "node.status" and e.key == a)
    assert status.actor == "builder" and build.action == "build"

    w.curation.undo(status.id)  # one undo restores both halves of the pair
    again = runtime.open(w.space.name)
    assert again.nodes[a].status == "active" and "superseded_by" not in again.nodes[a].meta
    if was:
        assert again.graph.edges[a, b]["relation"] == was[0]  # the builder's guess is back
    else:
        assert not again.graph.has_edge(a, b)
    assert again.curation.verify() == []
    ctx = again.query("我的预算是多少？" if lang == "zh" else "what is my budget?").context
    assert "已更新前" not in ctx and "superseded" not in ctx

    again.curation.redo()
    assert again.nodes[a].status == "superseded" and again.graph.edges[a, b]["relation"] == "supersedes"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_query_gives_the_current_value_and_the_old_one_only_for_history(runtime, lang):
    w = _space(runtime, f"history-{lang}", lang)
    if lang == "zh":
        _kept(w, "我们五月一号出发。")
        _kept(w, "我的总预算是五千元。")
        _kept(w, "我对海鲜过敏。")
        _kept(w, "其实我改主意了，预算提高到八千元。")
        now, before, label = "我的预算是多少？", "我之前的预算是多少？", "（已更新前）"
        old_v, new_v = "五千", "八千"
    else:
        _kept(w, "We arrive in Beijing on May 1st.")
        _kept(w, "My total budget is 5000 yuan.")
        _kept(w, "I'm allergic to seafood.")
        _kept(w, "Actually, I changed my mind: my budget is now 8000 yuan.")
        now, before, label = "what is my budget?", "what was my budget before?", "(earlier, superseded)"
        old_v, new_v = "5000", "8000"
    ctx = w.query(now).context
    assert new_v in ctx and old_v not in ctx and label not in ctx
    hist = w.query(before).context
    assert new_v in hist and old_v in hist
    old_line = next(line for line in hist.splitlines() if old_v in line)
    assert label in old_line and label not in next(line for line in hist.splitlines() if new_v in line)


def test_an_ingest_that_never_committed_leaves_the_old_value_current(runtime):
    w = _space(runtime, "crash", "en")
    a = _kept(w, "My total budget is 5000 yuan.").node.id
    res = _kept(w, "Actually, I changed my mind: my budget is now 8000 yuan.")
    assert w.nodes[a].status == "superseded"
    # a crash just before the commit marker: everything of the message landed except its decision
    w.flush()  # (with write-behind the message's section is in the log: apply it, then take the marker away)
    w.space.decisions.delete(ids=[res.decision.message_id])
    again = runtime.open("crash")
    assert res.node.id not in again.nodes and again.nodes[a].status == "active"
    assert "superseded_by" not in again.nodes[a].meta and again.curation.verify() == []
    assert "5000" in again.query("what is my budget?").context


@pytest.mark.parametrize("asked", ["这个景点的评分是5分吗？", "Is it rated 4.5 or more?"])
def test_a_question_about_a_shown_item_sets_no_constraint(runtime, asked):
    w = _space(runtime, "asked", "en")
    said = _kept(w, "Find me a place rated at least 4." if asked.isascii() else "帮我找一个评分4分以上的地方。").node.id
    _kept(w, asked)
    rating = [r for r in w.constraints() if r.key.startswith("rating")]
    assert rating and all(r.node_id == said and r.value == 4 for r in rating)


@pytest.mark.parametrize(
    "lang,first,change,made",
    [
        ("zh", "这次旅行总预算五千。", "预算再加两千吧。", "7000"),
        ("en", "Our total budget is 5,000 yuan.", "Raise the budget by 2,000 yuan.", "7000"),
    ],
)
def test_a_change_by_an_amount_supersedes_and_its_line_says_the_value(runtime, lang, first, change, made):
    from weaver.constraints import constraint_records

    w = _space(runtime, f"by-{lang}", lang)
    old = _kept(w, first).node.id
    new = _kept(w, change).node
    assert w.nodes[old].status == "superseded" and w.graph.has_edge(old, new.id)
    (rec,) = [r for r in constraint_records(w) if r.key == "budget/total"]
    assert (rec.value, rec.node_id) == (float(made), new.id)
    ctx = w.query("预算是多少？" if lang == "zh" else "What is our budget?").context
    assert made in ctx and change.rstrip("。.") in ctx  # the line alone says what the budget now is
