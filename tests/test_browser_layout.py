"""Layout defects a first-time user saw, in a real Chromium: the page title under the phone header, the live
graph's newest turn centred with an empty lower half and its labels cut at the canvas's sides.

The space is the Beijing demo (trip_zh), woven by the agent in this process before the studio starts.
"""

from __future__ import annotations

import pytest
from studio_server import open_page, running_studio, woven_data

pytestmark = [pytest.mark.slow, pytest.mark.browser]


@pytest.fixture(scope="module")
def beijing(tmp_path_factory):
    from ui.agent_bridge import demo_scripts, load_demo
    from weaver import Runtime, Settings
    from weaver.agent import TravelAgent

    data_dir = tmp_path_factory.mktemp("layout") / "data"
    rt = Runtime.from_settings(Settings.from_env(env={}, secrets_path=None, data_dir=data_dir))
    w = rt.open("demo")
    agent = TravelAgent(w)
    for i, (msg, _) in enumerate(load_demo(str(demo_scripts()["trip_zh"]))[1], 1):
        list(agent.run(msg, message_id=f"demo-trip_zh-{i:03d}"))
    w.flush()
    return data_dir


# where the newest turn's nodes (the view's focus), labels included, are drawn inside the canvas
_FOCUS_BOX = """(key) => {
  const net = window.__cwGraphs && window.__cwGraphs[key];
  if (!net || !net.__cwFocus || !net.__cwFocus.length) return null;
  const H = net.body.container.clientHeight, W = net.body.container.clientWidth;
  const box = {left: Infinity, right: -Infinity, top: Infinity, bottom: -Infinity};
  for (const id of net.__cwFocus) {
    const b = net.getBoundingBox(id);
    const a = net.canvasToDOM({x: b.left, y: b.top}), z = net.canvasToDOM({x: b.right, y: b.bottom});
    box.left = Math.min(box.left, a.x); box.top = Math.min(box.top, a.y);
    box.right = Math.max(box.right, z.x); box.bottom = Math.max(box.bottom, z.y);
  }
  // the node centres: the newest turn is one band, so all of them are drawn
  const pos = net.getPositions(net.__cwFocus);
  const centres = Object.values(pos).map((p) => net.canvasToDOM(p));
  return {W, H, scale: net.getScale(), box, centres};
}"""


def _opened(chromium, url: str, width: int, height: int):
    """A fresh browser context at this window size, on ``url`` once the studio has drawn it."""
    ctx, page, _ = open_page(chromium, url, width, height)
    return ctx, page


def test_narrow_window_title_clears_the_header_and_live_graph_frames_the_newest_turn(beijing, chromium):
    with running_studio(beijing, beijing.parent / "streamlit.log", start_timeout=60) as base:
        ctx, page = _opened(chromium, base + "/graph?lang=zh", 420, 900)
        title = page.get_by_text("依赖图 · demo").bounding_box()
        header = page.locator('[data-testid="stHeader"]').bounding_box()
        # the title used to start under the header bar (its upper half hidden by the sidebar button's bar)
        assert title and header and title["y"] >= header["y"] + header["height"] - 1, (title, header)
        ctx.close()

        ctx, page = _opened(chromium, base + "/?lang=zh", 1400, 1000)
        page.locator('.cw-graph[data-ready="1"]').first.wait_for(timeout=60_000)
        v = page.evaluate(_FOCUS_BOX, "chat_graph_demo")
        ctx.close()
    assert v, "the chat page's live graph has a focus (the newest turn)"
    assert v["scale"] >= 0.6 - 1e-6  # legible
    # every node of the newest turn is on the canvas, and the turn sits at the bottom edge, not mid-canvas (centred,
    # it had ~200 px empty below it); the band below may be up to about a gap between rows (~45 px) high, so that
    # the canvas's top edge falls between the rows above rather than through one (this box stops ~7 px short of
    # the last label line: vis-network's own)
    assert all(0 <= c["x"] <= v["W"] and 0 <= c["y"] <= v["H"] for c in v["centres"]), v
    assert 0 <= v["box"]["top"] and v["box"]["bottom"] <= v["H"], v
    assert v["H"] - v["box"]["bottom"] < 60, f"an empty band of {v['H'] - v['box']['bottom']:.0f} px below it: {v}"


# every pair of drawn nodes whose boxes (labels included) touch: side by side, less than 10 canvas px apart
# vertically (a ringed node right under a label reads as one blob)
_OVERLAPS = """(key) => {
  const net = window.__cwGraphs && window.__cwGraphs[key];
  if (!net) return null;
  const ids = Object.keys(net.getPositions());
  const box = Object.fromEntries(ids.map((id) => [id, net.getBoundingBox(id)]));
  const out = [];
  for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) {
    const a = box[ids[i]], b = box[ids[j]];
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 4 && h > -10) out.push([net.body.nodes[ids[i]].options.label, net.body.nodes[ids[j]].options.label]);
  }
  return {n: ids.length, out};
}"""


_woven = woven_data


@pytest.fixture(scope="module")
def own_chat(tmp_path_factory):
    """A chat of a new user's own (not a demo script): two searches widened when nothing fit near the place."""
    data_dir, w = _woven(
        tmp_path_factory,
        "own",
        [
            "你好，我想下个月去北京玩三天，预算每晚500元以内的酒店",
            "我们一共4个人，两个大人两个小孩",
            "日期定在10月3日到10月5日",
            "我对花生过敏，而且我太太吃素",
            "帮我找一家颐和园附近的餐厅，要有素菜",
            "这家餐厅人均多少钱？",
            "帮我找一家故宫附近的酒店",
        ],
    )
    return data_dir, next(n.id for n in w.nodes.values() if n.kind == "user_input" and n.turn == 5)


def test_chat_deep_link_opens_the_chat_and_no_node_sits_on_another_label(own_chat, chromium):
    own_chat, _ = own_chat
    with running_studio(own_chat, own_chat.parent / "streamlit-link.log", start_timeout=60) as base:
        ctx, page = _opened(chromium, base + "/?lang=zh&space=demo", 1400, 1000)  # the server knows its pages now
        ctx.close()
        # "/chat" is the page's name everywhere else (the sidebar, docs, ?node= links): it opened a "Page not found"
        # box over the page, which left the chat input inert
        ctx, page = _opened(chromium, base + "/chat?lang=zh&space=demo", 1400, 1000)
        page.locator('.cw-graph[data-ready="1"]').first.wait_for(timeout=60_000)
        assert page.locator('[role="dialog"]').count() == 0, page.locator('[role="dialog"]').inner_text()
        assert page.get_by_text("与旅行规划智能体对话").is_visible()
        box = page.locator('[data-testid="stChatInputTextArea"]')
        box.fill("x")  # not inert: nothing covers the page
        assert "space=demo" in page.url and "lang=zh" in page.url
        v = page.evaluate(_OVERLAPS, "chat_graph_demo")
        ctx.close()
    # Chinese labels wrapped to four lines and a reply pushed under a widened search sat on the labels above them
    assert v and v["n"] > 10 and v["out"] == [], v


# the canvas's corners in drawing units, beside the drawing's own extent (labels included)
_VIEW = """(key) => {
  const net = window.__cwGraphs && window.__cwGraphs[key];
  if (!net) return null;
  const W = net.body.container.clientWidth, H = net.body.container.clientHeight;
  const a = net.DOMtoCanvas({x: 0, y: 0}), z = net.DOMtoCanvas({x: W, y: H});
  const all = {left: Infinity, right: -Infinity, top: Infinity, bottom: -Infinity};
  for (const id of Object.keys(net.getPositions())) {
    const b = net.getBoundingBox(id);
    all.left = Math.min(all.left, b.left); all.right = Math.max(all.right, b.right);
    all.top = Math.min(all.top, b.top); all.bottom = Math.max(all.bottom, b.bottom);
  }
  return {scale: net.getScale(), view: {left: a.x, right: z.x, top: a.y, bottom: z.y}, all};
}"""


def test_a_selected_node_in_the_first_column_is_framed_with_its_turn_not_beside_empty_canvas(own_chat, chromium):
    data, node = own_chat
    with running_studio(data, data.parent / "streamlit-frame.log", start_timeout=60) as base:
        ctx, page = _opened(chromium, base + "/?lang=zh&space=demo", 1400, 1000)
        ctx.close()
        ctx, page = _opened(chromium, base + f"/graph?lang=zh&space=demo&node={node}", 1400, 1000)
        page.locator('.cw-graph[data-ready="1"]').first.wait_for(timeout=60_000)
        v = page.evaluate(_VIEW, "graph_page_demo")
        ctx.close()
    assert v and 0.6 - 1e-6 <= v["scale"] <= 0.8 + 1e-6, v  # legible, and not one node blown up at 1.0
    view, drawn = v["view"], v["all"]
    # the user's message sits in the first column: centring on it left the canvas's left half empty
    assert view["left"] >= drawn["left"] - 30 and view["right"] <= drawn["right"] + 30, v


# how far any node's box (labels included) reaches past the canvas's left and right edges, in screen px
_SIDES = """(key) => {
  const net = window.__cwGraphs && window.__cwGraphs[key];
  if (!net) return null;
  const W = net.body.container.clientWidth;
  let left = 0, right = 0;
  for (const id of Object.keys(net.getPositions())) {
    const b = net.getBoundingBox(id);
    left = Math.max(left, -net.canvasToDOM({x: b.left, y: b.top}).x);
    right = Math.max(right, net.canvasToDOM({x: b.right, y: b.bottom}).x - W);
  }
  return {W, left, right, scale: net.getScale()};
}"""


@pytest.fixture(scope="module")
def long_chat(tmp_path_factory):
    """A 10-turn Chinese chat (a why-question is chatted in the browser after it): too tall to fit, so the view
    frames the newest turn, whose labels are narrower than the drawing's widest: zoomed to fit the turn alone, the
    outer columns' labels were cut at both sides."""
    messages = [
        "你好，我想五月一号到五月四号去北京玩。",
        "我们两个人，总预算八千块。",
        "住宿每晚不要超过六百。",
        "我对海鲜过敏。",
        "帮我找一家王府井附近的酒店。",
        "再帮我找一家王府井附近的酒店。",
        "推荐一家吃晚饭的餐厅",
        "住宿每晚改成不超过七百。",
        "换一家",
        "故宫门票多少钱？",
    ]
    return _woven(tmp_path_factory, "long", messages)[0]


def test_no_label_is_cut_at_the_canvas_sides(long_chat, chromium):
    data = long_chat
    with running_studio(data, data.parent / "streamlit-sides.log", start_timeout=60) as base:
        seen = {}
        for url, width, key in (
            ("/?lang=zh&space=demo", 1400, "chat_graph_demo"),
            ("/graph?lang=zh&space=demo", 1400, "graph_page_demo"),
            ("/graph?lang=zh&space=demo", 580, "graph_page_demo"),
        ):
            ctx, page = _opened(chromium, base + url, width, 1000)
            page.locator('.cw-graph[data-ready="1"]').first.wait_for(timeout=60_000)
            if key == "chat_graph_demo":  # a turn chatted here: the live graph is re-framed with the new nodes
                box = page.locator('[data-testid="stChatInputTextArea"]')
                box.fill("为什么推荐这家酒店？")
                box.press("Enter")
                page.get_by_text("为什么推荐这家酒店？").first.wait_for(timeout=60_000)
                page.wait_for_function(
                    "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=180_000
                )
                page.wait_for_timeout(2500)
            seen[(url, width)] = page.evaluate(_SIDES, key)
            ctx.close()
    # the newest turn was zoomed to fit its own labels only: the outer columns lost ~28 px a side at 1400 px
    for where, v in seen.items():
        assert v and v["scale"] >= 0.6 - 1e-6 and v["left"] <= 0.5 and v["right"] <= 0.5, (where, v)


# the nodes that a canvas edge runs through, in screen px: each node's box with its border and its label as drawn
# (vis-network's own box stops short of a label below a shape by about half a line), beside the focus's box. A node near an edge
# is drawn, so its label's box is the one on screen.
_CUT = """(key) => {
  const net = window.__cwGraphs && window.__cwGraphs[key];
  if (!net) return null;
  const W = net.body.container.clientWidth, H = net.body.container.clientHeight;
  const cut = [], focus = {left: Infinity, right: -Infinity, top: Infinity, bottom: -Infinity};
  for (const id of Object.keys(net.getPositions())) {
    const n = net.body.nodes[id], s = n.labelModule.size, m = (n.options.borderWidth || 0) / 2;
    const g = net.getBoundingBox(id), b = {left: g.left - m, right: g.right + m, top: g.top - m, bottom: g.bottom + m};
    if (s.width > 0) {
      b.left = Math.min(b.left, s.left); b.right = Math.max(b.right, s.left + s.width);
      b.top = Math.min(b.top, s.top); b.bottom = Math.max(b.bottom, s.top + s.height);
    }
    const a = net.canvasToDOM({x: b.left, y: b.top}), z = net.canvasToDOM({x: b.right, y: b.bottom});
    const shown = z.x > 0 && a.x < W && z.y > 0 && a.y < H, whole = a.x >= 0 && z.x <= W && a.y >= 0 && z.y <= H;
    if (shown && !whole) cut.push([net.body.nodes[id].options.label, Math.round(a.x), Math.round(a.y), Math.round(z.x), Math.round(z.y)]);
    if ((net.__cwFocus || []).includes(id)) {
      focus.left = Math.min(focus.left, a.x); focus.right = Math.max(focus.right, z.x);
      focus.top = Math.min(focus.top, a.y); focus.bottom = Math.max(focus.bottom, z.y);
    }
  }
  return {W, H, scale: net.getScale(), cut, focus, n: (net.__cwFocus || []).length};
}"""

_WALKS = {
    "en": [
        "Two of us, a 3-day trip from May 1 to May 4, total budget 6000 yuan.",
        "Find a hotel near the Temple of Heaven.",
        "Any good restaurants near the Bund?",
        "Make that 9000 yuan.",
        "Find another one.",
        "Why did you recommend this hotel?",
    ],
    "zh": [
        "我们两个人，五月二号到北京，玩三天，住四晚，总预算六千。",
        "帮我找一家天坛附近的酒店",
        "外滩附近有什么好吃的？",
        "预算改成九千吧",
        "换一家",
        "为什么推荐这家酒店？",
        "我对花生过敏，而且我太太吃素，请推荐一家故宫附近有素菜的餐厅",
    ],
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_node_is_cut_by_the_canvas_edges_when_the_view_frames_the_newest_turn(lang, tmp_path_factory, chromium):
    data, _ = _woven(tmp_path_factory, "walk-" + lang, _WALKS[lang])
    seen = {}
    with running_studio(data, data.parent / "streamlit-cut.log", start_timeout=60) as base:
        for url, width, key in (
            (f"/?lang={lang}&space=demo", 1400, "chat_graph_demo"),
            (f"/graph?lang={lang}&space=demo", 1400, "graph_page_demo"),
            (f"/?lang={lang}&space=demo", 900, "chat_graph_demo"),
            (f"/graph?lang={lang}&space=demo", 900, "graph_page_demo"),
        ):
            ctx, page = _opened(chromium, base + url, width, 1000)
            page.locator('.cw-graph[data-ready="1"]').first.wait_for(timeout=60_000)
            seen[(url, width)] = page.evaluate(_CUT, key)
            if width == 1400:  # the window narrowed to 900 px: the canvas's new size is framed anew
                width0 = page.evaluate("(key) => window.__cwGraphs[key].body.container.clientWidth", key)
                page.set_viewport_size({"width": 900, "height": 1000})
                page.wait_for_function(
                    "([key, w]) => window.__cwGraphs[key].body.container.clientWidth !== w", arg=[key, width0]
                )
                page.wait_for_timeout(1000)
                seen[(url, 1400, "narrowed")] = page.evaluate(_CUT, key)
                page.set_viewport_size({"width": 1400, "height": 1000})
                page.wait_for_timeout(1000)
            if width == 1400 and key == "chat_graph_demo":  # a turn chatted here: the view is framed anew
                said = {"en": "Find a restaurant near the Forbidden City.", "zh": "帮我找一家故宫附近的餐厅"}[lang]
                box = page.locator('[data-testid="stChatInputTextArea"]')
                box.fill(said)
                box.press("Enter")
                page.get_by_text(said).first.wait_for(timeout=60_000)
                page.wait_for_function(
                    "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=180_000
                )
                page.wait_for_timeout(2500)
                seen[(url, width, "chatted")] = page.evaluate(_CUT, key)
            ctx.close()
    for where, v in seen.items():
        assert v and v["n"] and v["scale"] >= 0.6 - 1e-6, (where, v)
        # a view framed at the newest turn (the graph is too tall to show whole) ran its top edge through the row
        # of the turns before, and its bottom edge through the newest turn's last label line
        assert v["cut"] == [], (where, v)
        # the newest turn is in view, whole: at 900 px the stacked live graph (440 px wide then) showed its first
        # three columns and left the reply off the canvas; and a canvas resized after its framing kept the old view
        f = v["focus"]
        assert 0 <= f["top"] and f["bottom"] <= v["H"] and 0 <= f["left"] and f["right"] <= v["W"], (where, v)


def test_the_view_puts_its_edges_between_rows_and_keeps_the_focus(chromium):
    """``place`` (ui/graph_frame.js), in the browser that runs it: rows 100 tall with gaps of 50."""
    from pathlib import Path

    page = chromium.new_page()
    page.add_script_tag(content=(Path(__file__).resolve().parents[1] / "ui" / "graph_frame.js").read_text("utf-8"))
    rows = [[i * 150, i * 150 + 100] for i in range(6)]  # 0-100, 150-250, ... 750-850
    at = page.evaluate(
        "([rows, len, want, pad, focus]) => place(rows, len, want, pad, focus)", [rows, 400, 455, 10, [750, 850]]
    )
    # wanted 455-855 (the last row at the bottom): its top edge ran through the row 450-550; moved down past it
    assert at is not None and 550 <= at <= 590 and at + 400 >= 860, at
    for top, bottom in rows:  # each row wholly outside the window or wholly inside it
        assert bottom <= at or top >= at + 400 or (at < top and bottom < at + 400), (top, bottom, at)
    # a window shorter than a row can show none of the focus whole: none (not a window beside the drawing)
    assert page.evaluate("([rows]) => place(rows, 80, 0, 10, [0, 100])", [rows]) is None
    # a drawing shorter than the window: the window as wanted, both edges outside it
    assert page.evaluate("([rows]) => place(rows, 1000, -75, 10, [750, 850])", [rows]) == -75
    page.close()
