"""What a user sees without scrolling, in a real Chromium: the Graph page's canvas and newest turn above the fold
at 1400x1000, the chat page's live graph usable at 900 px with the sidebar open, and input hints in the UI's
language (Streamlit's own "Press Enter to apply" is English everywhere).

The space is a Beijing trip of a new user's own, chatted with the agent in this process before the studio starts.
"""

from __future__ import annotations

import re

import pytest
from studio_server import open_page, running_studio, steady_boxes, woven_data

from ui.css import input_hint_css, stack_when_narrow_css


@pytest.fixture(scope="module")
def trip(tmp_path_factory):
    messages = [
        "你好！我和父母打算12月20日到12月24日去北京，一共三个人",
        "总预算大概8000元，住的地方每晚不超过600",
        "我妈妈不吃辣，爸爸是素食者",
        "帮我找一家天安门附近的酒店",
        "第二天想去长城，有什么建议？",
        "预算改成一万二吧，酒店可以好一点",
        "为什么推荐这家酒店？",
    ]
    return woven_data(tmp_path_factory, "fold", messages)[0]


_opened = open_page


# the canvas and the newest turn's nodes (the view's focus, labels included) in window px, before any scrolling
_IN_WINDOW = """(key) => {
  const net = window.__cwGraphs && window.__cwGraphs[key];
  if (!net || !net.__cwFocus || !net.__cwFocus.length) return null;
  const c = net.body.container.getBoundingClientRect();
  const focus = {top: Infinity, bottom: -Infinity};
  for (const id of net.__cwFocus) {
    const b = net.getBoundingBox(id);
    focus.top = Math.min(focus.top, c.top + net.canvasToDOM({x: b.left, y: b.top}).y);
    focus.bottom = Math.max(focus.bottom, c.top + net.canvasToDOM({x: b.right, y: b.bottom}).y);
  }
  return {canvas: {top: c.top, bottom: c.bottom, left: c.left, width: c.width}, focus, H: window.innerHeight,
          scrolled: document.querySelector('[data-testid="stMain"]')?.scrollTop || window.scrollY};
}"""


@pytest.mark.slow
@pytest.mark.browser
def test_graph_page_shows_the_canvas_and_newest_turn_without_scrolling_and_every_control_works(trip, chromium):
    with running_studio(trip, trip.parent / "streamlit-graph.log", start_timeout=60) as base:
        ctx, page, runs = _opened(chromium, base + "/graph?lang=zh&space=demo", 1400, 1000)
        page.locator('.cw-graph[data-ready="1"]').first.wait_for(timeout=60_000)
        v = page.evaluate(_IN_WINDOW, "graph_page_demo")
        assert v, "the Graph page drew its canvas with a focus (the newest turn)"
        assert v["scrolled"] == 0
        # the canvas started ~490 px down under three rows of controls: its lower half and the newest turn were below
        assert v["canvas"]["top"] < 300 and v["canvas"]["bottom"] <= v["H"], v
        assert v["canvas"]["top"] <= v["focus"]["top"] and v["focus"]["bottom"] <= v["H"], v
        # the inspector's empty state points at the node list where it is: above it ("pick one below" it said)
        hint = page.locator('[data-testid="stAlert"]').filter(has_text="点击图中的节点")
        picker = page.get_by_label("节点", exact=True)
        assert "上方" in hint.inner_text() and picker.bounding_box()["y"] < hint.bounding_box()["y"]
        # the path's two pickers, beside the canvas now, each as wide as the column (side by side: "[1] agent thou")
        page.get_by_text("两节点间路径").click()
        widths = [page.get_by_label(x, exact=True).bounding_box()["width"] for x in ("起点", "终点")]
        assert min(widths) > 250, widths
        # the controls still work: the filters (in their popover) hide a relation and say so on the closed button
        page.get_by_role("button", name="筛选").click()
        with runs.rerun():
            page.get_by_role("button", name="Remove 时序").click()  # the chip's × (Streamlit's own aria-label)
        edges = page.locator('.cw-graph[data-ready="1"]').first.get_attribute("data-edges")
        page.keyboard.press("Escape")
        label = page.locator('[data-testid="stPopover"] button').first.inner_text()
        # the replay steps back a turn; the search highlights
        with runs.rerun():
            page.get_by_role("button", name="◀ 上一轮").click()
        replay = page.locator('[data-testid="stAlert"]').filter(has_text="第 6 轮").count()
        ctx.close()
    assert int(edges) < 32, edges  # the temporal edges are gone (32 with them)
    assert "已隐藏" in label and "3" in label, label  # two retracted-status kinds + the relation
    assert replay >= 1  # stepped into the past: the page says so


@pytest.mark.slow
@pytest.mark.browser
def test_chat_page_live_graph_is_full_width_under_the_chat_at_900_px_and_beside_it_at_1400(trip, chromium):
    with running_studio(trip, trip.parent / "streamlit-chat.log", start_timeout=60) as base:
        seen = {}
        for width in (900, 1400):
            ctx, page, _ = _opened(chromium, base + "/?lang=zh&space=demo", width, 1000)
            page.locator('.cw-graph[data-ready="1"]').first.wait_for(timeout=60_000)
            assert page.locator('[data-testid="stSidebar"]').first.is_visible()  # the sidebar is open at both
            g = page.locator(".cw-graph").first.bounding_box()
            chat = page.locator('[data-testid="stChatInput"]').first.bounding_box()
            main = page.locator('[data-testid="stMainBlockContainer"]').first.bounding_box()
            seen[width] = (g, chat, main)
            ctx.close()
    g, chat, main = seen[900]
    # beside the chat it was ~220 px wide (one node): now under it, as wide as the page's column
    assert g["width"] >= 0.8 * (main["width"] - 2 * 48), seen[900]
    assert g["y"] > chat["y"] + chat["height"] - 1, seen[900]
    g, chat, main = seen[1400]
    assert g["x"] >= chat["x"] + chat["width"], seen[1400]  # a wide window keeps the two side by side


_HINTS = """() => [...document.querySelectorAll('[data-testid="InputInstructions"]')].map((el) => ({
  shown: [...el.querySelectorAll('span')].filter((s) => s.offsetParent !== null && getComputedStyle(s).visibility !== 'hidden').map((s) => s.innerText),
  own: getComputedStyle(el, '::before').content}))"""


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_input_hints_are_in_the_interface_language(trip, chromium, lang):
    import re

    with running_studio(trip, trip.parent / f"streamlit-hints-{lang}.log", start_timeout=60) as base:
        ctx, page, _ = _opened(chromium, base + f"/graph?lang={lang}&space=demo", 1400, 1000)
        seen = []
        page.get_by_label("搜索并高亮" if lang == "zh" else "Search and highlight").fill("酒店")  # no Enter yet
        page.wait_for_timeout(300)
        seen.append(page.evaluate(_HINTS))
        page.locator('[data-testid="stSidebar"] textarea').first.fill("北京三日游")  # the task focus (a form)
        page.wait_for_timeout(300)
        seen.append(page.evaluate(_HINTS))
        ctx.close()
    assert all(len(s) == 1 for s in seen), seen  # one hint under the one edited input
    (search,), (task,) = seen
    if lang == "zh":
        # Streamlit's "Press Enter to apply" / "Press Ctrl+Enter to submit form" was shown on the Chinese UI
        for hint in (search, task):
            assert not any(re.search(r"[A-Za-z]{3}", s) for s in hint["shown"]), hint
        assert "回车" in search["own"] and "应用" in search["own"], search
        assert "Ctrl+Enter" in task["own"] and "提交" in task["own"], task
    else:
        assert "Press Enter to apply" in search["own"] and "submit" in task["own"], seen
        assert not any("Press" in s for h in (search, task) for s in h["shown"]), seen  # not twice
    assert task["shown"] == ["5/2000"], task  # the character count is kept


# what a filtered dropdown says, and the Streamlit chrome's aria-labels (sidebar button, dataframe toolbar)
_CHROME_WORDS = """() => ({
  empty: [...document.querySelectorAll('body span, body li, body div')]
    .filter((e) => e.children.length === 0 && e.offsetParent !== null && /^(No results|无匹配结果)$/.test(e.textContent.trim()))
    .map((e) => e.textContent.trim()),
  collapse: document.querySelector('[data-testid="stSidebarCollapseButton"] button, [data-testid="stSidebar"] [data-testid="stBaseButton-headerNoPadding"]')?.getAttribute('aria-label'),
  toolbar: [...document.querySelectorAll('[data-testid="stElementToolbar"] button')].map((b) => b.getAttribute('aria-label')),
  script: getComputedStyle(document.querySelector('script.cw-chrome').closest('[data-testid="stElementContainer"]')).display,
})"""


@pytest.mark.slow
@pytest.mark.browser
def test_streamlit_own_words_are_chinese_on_the_chinese_ui_and_english_again_after_switching(trip, chromium):
    with running_studio(trip, trip.parent / "streamlit-chrome.log", start_timeout=60) as base:
        ctx, page, runs = _opened(chromium, base + "/?lang=zh&space=demo", 1400, 1000)
        seen = {}
        for lang in ("zh", "en"):
            page.get_by_role("tab").nth(1).click()  # the filter scores: a dataframe with its toolbar
            page.locator('[data-testid="stDataFrame"]').first.wait_for(timeout=30_000)
            page.locator('[data-testid="stDataFrame"]').first.hover()
            box = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"] input').first  # the space picker
            box.click()
            page.keyboard.type("zzzzqq")  # matches no option
            page.wait_for_timeout(500)
            seen[lang] = page.evaluate(_CHROME_WORDS)
            page.keyboard.press("Escape")
            if lang == "zh":  # the same page, no reload: React would not rewrite an attribute it thinks unchanged
                with runs.rerun():
                    page.locator('[data-testid="stSidebar"]').get_by_text("English").click()
                runs.settled()
                page.wait_for_timeout(500)
        ctx.close()
    zh, en = seen["zh"], seen["en"]
    assert zh["script"] == en["script"] == "none", seen  # the script's empty element took a gap atop every page
    # Streamlit's "No results", "Collapse sidebar" and "Download as CSV" / "Search" showed on the Chinese UI
    assert "无匹配结果" in zh["empty"] and "No results" not in zh["empty"], zh
    assert zh["collapse"] == "收起侧边栏", zh
    assert {"下载 CSV", "搜索", "全屏"} <= set(zh["toolbar"]), zh
    assert not any(a and re.search(r"[A-Za-z]{3}", a) and "CSV" not in a for a in zh["toolbar"]), zh
    # and back in English once the interface is English again
    assert "No results" in en["empty"] and "无匹配结果" not in en["empty"], en
    assert en["collapse"] == "Collapse sidebar", en
    assert {"Download as CSV", "Search", "Fullscreen"} <= set(en["toolbar"]), en


def test_the_chrome_script_swaps_only_whole_known_words_and_cannot_be_closed():
    from ui.chrome_zh import ZH, chrome_script

    zh, en = chrome_script("zh"), chrome_script("en")
    assert zh.count("<script") == 1 and zh.count("</script>") == 1 and zh.endswith("</script>")
    assert all(w in zh for w in ZH.values()) and not any(w in en for w in ZH.values())
    assert all(re.fullmatch(r"[A-Za-z][A-Za-z /.,-]*[A-Za-z.]", k) for k in ZH), "keys are Streamlit's English words"


_ANCESTORS = """el => { const out = []; for (let e = el; e && out.length < 12; e = e.parentElement) {
  const r = e.getBoundingClientRect(), cs = getComputedStyle(e);
  out.push([e.getAttribute('data-testid') || e.className.toString().slice(0, 40), Math.round(r.x), Math.round(r.y),
            Math.round(r.width), Math.round(r.height), cs.display, cs.position]); } return out; }"""


@pytest.mark.slow
@pytest.mark.browser
def test_an_empty_chat_has_its_message_box_under_its_hint(tmp_path, chromium):
    with running_studio(tmp_path / "data", tmp_path / "streamlit-empty.log", start_timeout=60) as base:
        seen = {}
        for width in (1400, 900):
            ctx, page, _ = _opened(chromium, base + "/?lang=zh", width, 1000)
            hint_loc = page.locator('[data-testid="stAlert"]').filter(has_text="还没有消息").first
            hint, box = steady_boxes(page, hint_loc, page.locator('[data-testid="stChatInput"]').first)
            # the hint's ancestors and their boxes, for the failure message: CI's Chromium is newer than ours
            chain = hint_loc.evaluate(_ANCESTORS)
            seen[width] = (hint, box, chain)
            ctx.close()
    for width, (hint, box, chain) in seen.items():
        # the empty history kept its 640 px scrolling box: a blank band between the hint and the message box
        assert 0 <= box["y"] - (hint["y"] + hint["height"]) <= 80, (width, hint, box, chain)


def test_page_css_is_built_safely():
    css = input_hint_css({"enter": 'a"</style><b>', "enter_form": "x", "ctrl": "y", "ctrl_form": "z"})
    assert "</style><b>" not in css.removesuffix("</style>") and "\\22 " in css
    with pytest.raises(ValueError):
        stack_when_narrow_css("x{}", 700)


# the visible elements matching a selector whose text is cut (an ellipsis: a box narrower than its text)
_CUT = """(sel) => [...document.querySelectorAll(sel)]
  .filter((m) => m.offsetParent !== null && [m, ...m.querySelectorAll('*')].some((e) => e.scrollWidth > e.clientWidth + 1))
  .map((m) => m.innerText)"""
_METRICS = '[data-testid="stMetricValue"], [data-testid="stMetricLabel"]'


@pytest.mark.slow
@pytest.mark.browser
def test_no_metric_is_cut_at_900_px(trip, chromium):
    with running_studio(trip, trip.parent / "streamlit-metrics.log", start_timeout=60) as base:
        ctx, page, runs = _opened(chromium, base + "/retrieval?lang=en&space=demo", 900, 1000)
        box = page.locator('[data-testid="stMain"] textarea').first
        box.fill("Why this hotel?")
        with runs.rerun():
            box.press("Control+Enter")
        page.locator('[data-testid="stMetricValue"]').first.wait_for(timeout=60_000)
        page.wait_for_timeout(300)  # the row's five figures are drawn together
        n_retrieval = page.locator('[data-testid="stMetricValue"]').count()
        cut = page.evaluate(_CUT, _METRICS)
        # the vertical space between the wrapped rows of figures (a row's top minus the row above's bottom)
        tops = page.evaluate(
            """() => [...document.querySelectorAll('[data-testid="stMetric"]')].map((m) => {
              const r = m.getBoundingClientRect(); return [Math.round(r.top), Math.round(r.bottom)]; })"""
        )
        with runs.rerun():
            page.goto(base + "/benchmarks?lang=zh&space=demo")
        runs.settled()
        page.locator('[data-testid="stMetricValue"]').first.wait_for(timeout=30_000)
        n_bench = page.locator('[data-testid="stMetricValue"]').count()
        cut += page.evaluate(_CUT, _METRICS)
        ctx.close()
    assert n_retrieval == 5 and n_bench >= 4, (n_retrieval, n_bench)
    # five equal columns beside the sidebar cut them to "974 ⋯", "memorie…", "seed…", "90 …", "过滤器保留的…"
    assert cut == [], cut
    rows = sorted({t for t, _ in tops})
    assert len(rows) == 2, tops  # five figures in two rows at 900 px
    between = rows[1] - max(b for t, b in tops if t == rows[0])
    assert 8 <= between <= 24, tops  # the row's 64 px "large" gap between figures, used between rows too


@pytest.mark.slow
@pytest.mark.browser
def test_review_queue_buttons_are_whole_at_900_px(trip, chromium):
    with running_studio(trip, trip.parent / "streamlit-review.log", start_timeout=60) as base:
        ctx, page, _ = open_page(chromium, base + "/review?lang=en&space=demo", 900, 1000)
        page.get_by_text("The memories that used it").click()  # the budget changed: its dependents are flagged
        accept = page.get_by_role("button", name="Accept", exact=True)
        accept.first.wait_for(timeout=30_000)
        n = accept.count()
        cut = page.evaluate(_CUT, '[data-testid="stMain"] button')
        ctx.close()
    assert n >= 2, n
    # in [6, 1, 1] columns beside the sidebar "Accept" / "Reject" were cut to "A." / "R."
    assert cut == [], cut
