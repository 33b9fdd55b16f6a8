"""The Retrieval page: AppTest for its flow, and a real Chromium that sees seeds and expanded nodes marked.

The space is woven before the studio starts (the studio's default space, "demo"), through the
library with the real embedder and a real Chroma directory.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from studio_server import ScriptRuns, running_studio
from streamlit.testing.v1 import AppTest

from debugger_data import CONV, weave

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _woven(data_dir: Path, embedder, lang: str = "en") -> dict:
    from weaver import Runtime, Settings

    rt = Runtime.from_settings(Settings.from_env(env={}, secrets_path=None, data_dir=data_dir), embedder=embedder)
    w = rt.open("demo")
    w.config = w.config.with_(review_every=0)
    tags = weave(w, lang)
    return {t: (r.node.id if r.node else r.decision.message_id) for t, r in tags.items()}


def _clear_caches():
    import streamlit as st

    st.cache_resource.clear()
    st.cache_data.clear()


@pytest.fixture
def page(tmp_path, monkeypatch, embedder):
    monkeypatch.setenv("WEAVER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(ROOT)
    ids = _woven(tmp_path / "data", embedder)
    _clear_caches()
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/retrieval.py").run()
    assert not at.exception, [e.value for e in at.exception]
    yield at, ids
    _clear_caches()


def _ok(at):
    assert not at.exception, [e.value for e in at.exception]
    return at


def _frame(at, *columns: str):
    for df in at.dataframe:
        if set(columns) <= set(df.value.columns):
            return df.value
    raise AssertionError(f"no table with columns {columns!r}")


def test_page_flow_trace_knobs_why_not_and_probes(page):
    at, ids = page
    assert any("Type a query" in i.value for i in at.info)  # the empty state says what to do
    at.text_area(key="rd_query").set_value(CONV["en"]["query"]).run()
    _ok(at)
    at.number_input(key="rd_budget").set_value(160).run()
    _ok(at)
    at.number_input(key="rd_seeds").set_value(2).run()
    at.number_input(key="rd_adaptive").set_value(0.0).run()
    _ok(at)
    metrics = {m.label: m.value for m in at.metric}
    used, budget = (int(x) for x in metrics["context tokens"].split(" / "))
    assert budget == 160 and 0 < used <= 160
    ranking = _frame(at, "cut reason")
    assert {"score", "similarity", "lexical", "relevance", "propagated", "centrality", "hops"} <= set(ranking.columns)
    assert (ranking["in context"] | (ranking["cut reason"] != "")).all()  # every candidate in, or cut with a reason
    steps = _frame(at, "direction")
    assert len(steps) and set(steps["direction"]) <= {"cause", "effect"}
    # the final context: the constraints in force (when the query decides something), then the narrative
    context = next(c.value for c in at.code if c.value.startswith(("Constraints in force", "Relevant memory")))
    lines = context.splitlines()
    lines = lines[1:] if lines[0].startswith("Constraints in force") else lines
    assert lines[0].startswith("Relevant memory"), context
    assert metrics["memories in context"] == str(len(lines) - 1), context  # one line per memory
    assert int(metrics["expanded"]) > 0

    # live knobs: no hops means no walk over graph edges (only neighbouring turns), re-run at once
    before = set(steps["relation"])
    at.number_input(key="rd_hops").set_value(0).run()
    _ok(at)
    after = next((df.value for df in at.dataframe if "direction" in df.value.columns), None)
    assert before - {"adjacent"}, before
    assert after is None or set(after["relation"]) == {"adjacent"}
    at.number_input(key="rd_hops").set_value(2).run()

    # vector comparison at the same budget
    cmp_graph, cmp_vec = _frame(at, "mark", "role"), _frame(at, "mark", "similarity")
    assert "+ added" in set(cmp_graph["mark"]) or "- displaced" in set(cmp_vec["mark"])

    # why not X: a rejected message, then the metro answer
    at.selectbox(key="space_ui:rd_why").set_value(ids["pleasantry"]).run()
    _ok(at)
    md = "\n".join(m.value for m in at.markdown).replace("\\", "")  # read the escaped Markdown as text
    assert "Never stored: the filter judged this message not worth remembering" in md  # said in words
    assert "filtered out at ingest" in md  # the exact numbers stay one click away
    at.selectbox(key="space_ui:rd_why").set_value(ids["metro_result"]).run()
    md = "\n".join(m.value for m in _ok(at).markdown).replace("\\", "")
    assert any(k in md for k in ("Not found: not similar enough", "Left out: the budget didn't fit", "Left out: it is"))

    # save a probe that expects the budget, then a review pass supersedes it: the page shows the diff
    at.text_area(key="rd_query").set_value("What is the total budget for the trip?").run()
    at.multiselect(key="space_ui:rd_expect").set_value([ids["budget"]]).run()
    at.button(key="rd_save_probe").click().run()
    _ok(at)
    assert any("Saved probe" in s.value for s in at.success)
    from ui.state import _weavers

    w = _weavers()["demo"]  # the studio's own weaver (one per space per process)
    w.config = w.config.with_(review_every=0)  # only the explicit pass below
    new = w.ingest(CONV["en"]["new_budget"], "user_input").node.id
    w.curation.set_status(ids["budget"], "superseded", why="the budget changed", by=new, actor="review")
    w.curation.review(apply=False)  # the pass itself re-runs the probes (nothing left to apply here)
    at.run()
    probes = _frame(_ok(at), "expected lost")
    assert len(probes) == 1
    row = probes.iloc[0]
    assert row["last run"].startswith("after review pass") and row["changed"]
    # the lost memory is named by its words, not its id
    assert w.nodes[ids["budget"]].content[:12] in row["expected lost"] and row["hits"].startswith("1 → 0")
    assert ids["budget"] not in row["expected lost"]


def test_page_replays_a_past_agent_turn(page):
    at, ids = page
    from ui.state import _weavers
    from weaver.agent import TravelAgent

    w = _weavers()["demo"]
    w.config = w.config.with_(review_every=0)
    list(TravelAgent(w).run("Find a quiet hotel near Wangfujing for May 1st please."))
    at.run()
    at.radio(key="rd_source").set_value("turn").run()
    _ok(at)
    captions = "\n".join(c.value for c in at.caption)
    assert "Replaying turn" in captions and "matches what the agent was given" in captions
    assert any(c.value.startswith("Relevant memory") for c in at.code)
    at.session_state["lang"] = "zh"
    at.run()
    picked = at.selectbox(key="space_ui:rd_turn")
    # the Chinese picker said "turn 2: …"
    assert all(o.startswith("第 ") and " 轮：" in o for o in picked.options), picked.options
    # the picker shows what the user said, not the words the agent's query added ("... hotel budget")
    said = "Find a quiet hotel near Wangfujing for May 1st please."
    assert picked.options[-1].endswith(" 轮：" + said), picked.options


# ------------------------------------------------------------------ browser

_STYLES = """(key) => {
  const net = window.__cwGraphs && window.__cwGraphs[key];
  if (!net) return null;
  return net.body.data.nodes.get().map(n => ({id: String(n.id), border: n.color && n.color.border,
                                              opacity: n.opacity === undefined ? 1 : n.opacity}));
}"""


@pytest.mark.slow
@pytest.mark.browser
def test_browser_query_marks_seeds_and_expanded_nodes(tmp_path, embedder):
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed at /usr/bin/chromium")
    from playwright.sync_api import sync_playwright

    from ui import graph_render

    ids = _woven(tmp_path / "data", embedder, "zh")
    with running_studio(tmp_path / "data", tmp_path / "streamlit.log", start_timeout=60) as base:
        requests: list[str] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1500, "height": 1100})
            page.on("request", lambda r: requests.append(r.url))
            runs = ScriptRuns(page)
            with runs.rerun():
                page.goto(base + "/retrieval")
            box = page.get_by_label("Query", exact=True)
            box.wait_for(timeout=60_000)
            box.fill(CONV["zh"]["query"])
            with runs.rerun():
                box.press("Control+Enter")
            page.get_by_text("Why each memory is in the context").wait_for(timeout=60_000)
            # one seed: in a ten-memory space the default six would cover nearly every memory
            page.get_by_text("Knobs (local to this page").click()
            for label, value in (("seeds", "1"), ("adaptive seeds", "0")):
                box = page.locator('[data-testid="stMain"]').get_by_label(label, exact=True)  # not the sidebar's
                box.fill(value)
                with runs.rerun():
                    box.press("Enter")
            page.get_by_role("tab", name="Graph").click()
            page.locator('.cw-graph[data-ready="1"]').first.wait_for(timeout=60_000)
            page.wait_for_function("() => window.__cwGraphs && window.__cwGraphs['rd_graph']", timeout=30_000)
            nodes = {n["id"]: n for n in page.evaluate(_STYLES, "rd_graph")}
            browser.close()

    seed_border = graph_render.NODE_STYLES["seed"]["color"]["border"]
    expanded_border = graph_render.NODE_STYLES["expanded"]["color"]["border"]
    seeds = {i for i, n in nodes.items() if n["border"] == seed_border}
    expanded = {i for i, n in nodes.items() if n["border"] == expanded_border}
    dimmed = {i for i, n in nodes.items() if n["opacity"] < 1}
    assert ids["dinner_thought"] in seeds, nodes  # the dinner plan is the query's best match
    assert expanded, "the graph marks nodes reached by expansion"
    assert seeds.isdisjoint(expanded) and (seeds | expanded).isdisjoint(dimmed)
    outside = [u for u in requests if not u.startswith((base, base.replace("http", "ws"), "blob:", "data:", "about:"))]
    assert not outside, outside


def test_a_conversation_query_is_debugged_turn_by_turn(page):
    at, ids = page
    convo = "User: " + CONV["en"]["query"] + "\nAgent: let me check.\nUser: and keep it within what I said before"
    at.text_area(key="rd_query").set_value(convo).run()
    _ok(at)
    metrics = {m.label: m.value for m in at.metric}
    used, budget = (int(x) for x in metrics["context tokens"].split(" / "))
    assert 0 < used <= budget


def test_trace_says_why_each_memory_is_in_the_context_first_in_both_languages(page):
    at, ids = page
    at.text_area(key="rd_query").set_value(CONV["en"]["query"]).run()
    _ok(at)
    metrics = {m.label: m.value for m in at.metric}
    n_mem = int(metrics["memories in context"])
    # the seeds metric counts what the Graph tab calls seeds: the ones in the context, of all the query found
    used, found = (int(x) for x in metrics["seeds used / found"].split(" / "))
    assert 0 < used <= found and used + int(metrics["expanded"]) == n_mem
    md = [m.value.replace("\\", "") for m in at.markdown]
    # words before numbers: the why comes first, the seed table's heading later
    first = md.index("**Why each memory is in the context**")
    assert first < md.index("**Seeds (most similar to the query)**")
    why = md[first + 1].splitlines()
    items = [line for line in why if line[:1].isdigit()]
    assert len(items) == n_mem, why  # one numbered line per memory of the context, its sentence under it
    sentences = [line.strip() for line in why if line.strip().startswith("*")]
    assert len(sentences) == n_mem and all(
        s.startswith(("*matches the query directly:", "*reached in", "*said right next to")) for s in sentences
    ), sentences
    # a seed names the signal that found it, with its score
    assert any("similarity 0." in s for s in sentences)
    # the exact numbers are one click away (an expander), not in the way
    assert any(e.label.startswith("The exact numbers") for e in at.expander)
    # the vector comparison's sizes say "tokens" in English on both sides (one side said "token")
    assert sum(" tokens)" in m for m in md if m.startswith("**Graph retrieval") or m.startswith("**Plain vector")) == 2

    at.session_state["lang"] = "zh"
    at.run()
    _ok(at)
    md = [m.value.replace("\\", "") for m in at.markdown]
    first = md.index("**每条记忆为什么在上下文中**")
    sentences = [line.strip() for line in md[first + 1].splitlines() if line.strip().startswith("*")]
    assert sentences and all(s.startswith(("*与查询直接相关：", "*从 «", "*与 «")) for s in sentences), sentences
    assert all(" tokens" not in m for m in md if m.startswith(("**图检索", "**纯向量")))
    # the comparison's roles in the Graph tab's short words (the long ones were cut in the narrow column)
    roles = next(df.value for df in at.dataframe if {"标记", "角色"} <= set(df.value.columns))["角色"]
    assert set(roles) <= {"种子", "扩展", "裁掉", "无关"} and "种子" in set(roles), set(roles)
    # no English default placeholder left in the Chinese page (the probe picker said "Choose options")
    assert at.multiselect(key="space_ui:rd_expect").placeholder == "选择它应当找到的记忆…"


def test_probes_tab_in_chinese_says_how_to_make_one_and_names_runs_in_chinese(page):
    at, ids = page
    at.session_state["lang"] = "zh"
    at.text_area(key="rd_query").set_value("这次旅行的总预算是多少？").run()
    _ok(at)
    # it said only "还没有探针。" (no probes yet) and left the reader to guess how to make one
    empty = [i.value for i in at.info if "还没有探针" in i.value]
    assert empty and "将此查询保存为探针" in empty[0], empty
    at.multiselect(key="space_ui:rd_expect").set_value([ids["budget"]]).run()
    at.button(key="rd_save_probe").click().run()
    at.button(key="rd_run_probes").click().run()
    probes = _frame(_ok(at), "最近一次运行")
    assert list(probes["最近一次运行"]) == ["手动重跑"], probes  # it read "manual re-run"
