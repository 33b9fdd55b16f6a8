"""The studio in a real headless Chromium: chat, live graph canvas, click-to-inspect, nothing leaves 127.0.0.1.

Starts `streamlit run app.py` on a free loopback port with a temporary WEAVER_DATA_DIR. With
WEAVER_SCREENSHOTS=<dir> it also saves chat.png and graph.png there (the docs' screenshots).
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

import pytest
from studio_server import ScriptRuns, running_studio

MESSAGES = [
    "我计划五一去北京玩三天，预算5000元，我对海鲜过敏。",
    "Find me a quiet hotel near Wangfujing, close to a metro station.",
    "推荐一家故宫附近的餐厅。",
]

pytestmark = [pytest.mark.slow, pytest.mark.browser]


@pytest.fixture
def studio_server(tmp_path, chromium):
    data_dir = tmp_path / "data"
    with running_studio(data_dir, tmp_path / "streamlit.log", start_timeout=60) as base:
        yield base, data_dir


def _settled_node_count(page, runs: ScriptRuns) -> int:
    """The live graph's node count once the turn's runs have ended and the page has drawn the last one."""
    runs.settled()
    loc = page.locator('.cw-graph[data-ready="1"]').first
    loc.wait_for(timeout=60_000)
    return int(loc.get_attribute("data-nodes"))


_NODE_XY = """(key) => {
  const net = window.__cwGraphs && window.__cwGraphs[key];
  if (!net) return null;
  const ids = net.body.data.nodes.getIds();
  const r = net.body.container.getBoundingClientRect();
  const pos = net.getPositions(ids);
  // a node the view shows (a big graph's first turns can lie outside the fitted view), away from the edges
  const inView = ids.find((i) => {
    const p = net.canvasToDOM(pos[i]);
    return p.x > 30 && p.y > 30 && p.x < r.width - 30 && p.y < r.height - 30;
  });
  const id = inView === undefined ? ids[0] : inView;
  const p = net.canvasToDOM(pos[id]);
  return {id: String(id), x: r.left + p.x, y: r.top + p.y, count: ids.length};
}"""


def test_studio_chat_graph_click_inspector_offline(studio_server, chromium, embedder):
    base, data_dir = studio_server
    shots = os.environ.get("WEAVER_SCREENSHOTS")
    requests: list[str] = []
    with contextlib.closing(chromium.new_context(viewport={"width": 1500, "height": 1000})) as context:
        page = context.new_page()
        page.on("request", lambda r: requests.append(r.url))
        page.on("websocket", lambda ws: requests.append(ws.url))
        runs = ScriptRuns(page)
        with runs.rerun():
            page.goto(base)
        box = page.locator('[data-testid="stChatInputTextArea"]')
        box.wait_for(timeout=60_000)
        if shots:  # the docs' screenshots show the Beijing demo, replayed with one click
            page.get_by_test_id("stPopoverButton").filter(has_text="Scripted demos").click()
            page.locator('[data-testid="stPopoverBody"] [data-testid="stSelectbox"]').click()
            with runs.rerun():
                page.get_by_role("option", name="trip_zh", exact=False).click()
            with runs.rerun(timeout=180):
                page.get_by_role("button", name="Run").click()
            page.get_by_text("every scripted expectation held").wait_for(timeout=180_000)
            page.keyboard.press("Escape")  # close the popover
        for i, msg in enumerate(MESSAGES):
            box.fill(msg)
            with runs.rerun():  # the whole turn, and the rerun that draws it
                box.press("Enter")
                if i == 0:  # no second message can cut a running turn short (and be lost before its ingest)
                    page.wait_for_function(
                        "() => document.querySelector('[data-testid=\"stChatInputTextArea\"]').disabled",
                        timeout=10_000,
                    )
            page.get_by_text(msg[:12]).first.wait_for(timeout=60_000)
        chat_nodes = _settled_node_count(page, runs)
        assert page.locator(".cw-graph canvas").count() >= 1
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(shots) / "chat.png"))

        with runs.rerun():
            page.goto(base + "/graph")
        page.locator('.cw-graph[data-ready="1"]').first.wait_for(timeout=60_000)
        key = page.locator(".cw-graph").first.get_attribute("data-key")
        node = page.evaluate(_NODE_XY, key)
        assert node and node["count"] == chat_nodes
        # the inspector shows the clicked node: its id is in the help tooltip of the inspector's caption. On a
        # loaded machine the canvas may still be settling (fitting the view) when the first click lands: like a
        # user, look where the node is now and click again
        parents = page.get_by_text("Parents (what it depends on)")
        for attempt in range(3):
            page.mouse.click(node["x"], node["y"])
            try:
                parents.wait_for(timeout=15_000)
                break
            except Exception:
                if attempt == 2:
                    raise
                runs.settled()
                node = page.evaluate(_NODE_XY, key)
        caption = page.locator('[data-testid="stCaptionContainer"]').filter(has_text="turn ")
        caption.locator('[data-testid="stTooltipHoverTarget"]').first.hover()
        page.get_by_text(node["id"], exact=False).filter(visible=True).first.wait_for(timeout=10_000)
        page.mouse.move(5, 5)  # the tooltip must not cover the screenshot
        runs.settled()
        if shots:
            search = page.get_by_label("Search and highlight")
            search.fill("海鲜")
            with runs.rerun():
                search.press("Enter")
            page.wait_for_timeout(1500)  # the canvas's highlight, for the docs' screenshot only
            page.screenshot(path=str(Path(shots) / "graph.png"))

    # nothing but the local server was contacted (blob:/data: URLs are in-page)
    outside = [
        u
        for u in requests
        if not (
            u.startswith(base) or u.startswith(base.replace("http", "ws")) or u.startswith(("blob:", "data:", "about:"))
        )
    ]
    assert not outside, outside
    assert any(u.startswith(base) for u in requests)

    # the graph drawn is the space's real graph: same node count as the stored memory
    from weaver import Runtime, Settings

    rt = Runtime.from_settings(Settings.from_env(env={}, secrets_path=None, data_dir=data_dir), embedder=embedder)
    w = rt.open("demo", create=False)
    assert w.graph.number_of_nodes() == chat_nodes > len(MESSAGES)
    assert node["id"] in w.graph


_DRAWN = """(canvas) => {
  // what the canvas shows: inked pixels, and how many of the network's nodes sit inside the visible box
  const root = canvas.closest('.cw-graph');
  const net = root && root.__net;
  if (!net || !canvas.width || !canvas.height) return {ink: 0, nodes: 0, inView: 0};
  const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let ink = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && (d[i] < 200 || d[i + 1] < 200 || d[i + 2] < 200)) ink++;
  const ids = net.body.data.nodes.getIds();
  const pos = net.getPositions(ids);
  const inView = ids.filter((id) => {
    const p = net.canvasToDOM(pos[id]);
    return p.x >= 0 && p.y >= 0 && p.x <= root.clientWidth && p.y <= root.clientHeight;
  }).length;
  return {ink, nodes: ids.length, inView};
}"""


def test_the_live_graph_is_drawn_after_the_first_reply(studio_server, chromium, tmp_path):
    """A fresh space, one message: once the reply is in, the graph beside it shows the turn's nodes on a painted
    canvas without any further rerun (it was reported blank until a later one)."""
    base, _ = studio_server
    shots = Path(os.environ.get("WEAVER_SCREENSHOTS") or tmp_path)
    with contextlib.closing(chromium.new_context(viewport={"width": 1500, "height": 1000})) as context:
        page = context.new_page()
        page.goto(base)
        box = page.locator('[data-testid="stChatInputTextArea"]')
        box.wait_for(timeout=60_000)
        assert page.locator(".cw-graph").count() == 0  # an empty space: no graph yet
        box.fill(MESSAGES[0])
        box.press("Enter")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=\"stChatInputTextArea\"]').disabled", timeout=10_000
        )
        page.wait_for_function(
            "() => !document.querySelector('[data-testid=\"stChatInputTextArea\"]').disabled", timeout=120_000
        )
        graph = page.locator('.cw-graph[data-ready="1"]').first
        graph.wait_for(timeout=15_000)
        deadline, drawn = time.time() + 10, {}
        while time.time() < deadline:  # no click, no rerun: the first drawing has to be the real one
            canvas = page.locator(".cw-graph canvas")
            drawn = canvas.first.evaluate(_DRAWN) if canvas.count() else {"ink": 0, "nodes": 0, "inView": 0}
            if drawn["nodes"] and drawn["inView"] == drawn["nodes"] and drawn["ink"] > 2000:
                break
            page.wait_for_timeout(500)
        graph.screenshot(path=str(shots / "chat-first-reply-graph.png"))
        expected = int(graph.get_attribute("data-nodes"))
    assert expected >= 3  # the user's message, the agent's thought and its reply
    assert drawn["nodes"] == expected and drawn["inView"] == expected, drawn
    assert drawn["ink"] > 2000, drawn  # three labelled nodes paint thousands of pixels; a blank canvas none
