"""A curator fixes an edge in the Review page's edge table (a real `st.data_editor` in headless Chromium)
and the graph changes: in the Graph page's canvas data and in the space on disk."""

from __future__ import annotations

from pathlib import Path

import pytest
from studio_server import ScriptRuns, running_studio
from test_curation import weave

from weaver import Runtime, Settings
from weaver.curation import edge_table_rows

ROOT = Path(__file__).resolve().parents[1]
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
HEADER, ROW = 35, 35  # st.data_editor's header and row heights (px)

pytestmark = [pytest.mark.slow, pytest.mark.browser]


@pytest.fixture
def filled_studio(tmp_path, embedder):
    """A space woven here, then the studio started on it."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed at /usr/bin/chromium")
    if not (ROOT / "app.py").exists():
        pytest.skip("the studio shell (app.py) is not there yet")
    data_dir = tmp_path / "data"
    rt = Runtime.from_settings(Settings.from_env(env={}, secrets_path=None, data_dir=data_dir), embedder=embedder)
    w = rt.open("demo")
    w.config = w.config.with_(review_every=0)
    weave(w, "en")
    with running_studio(data_dir, tmp_path / "streamlit.log", start_timeout=60) as base:
        yield base, rt, w


_EDGE_LABEL = """([key, id]) => {
  const net = window.__cwGraphs && window.__cwGraphs[key];
  if (!net) return null;
  const e = net.body.data.edges.get(id);
  return e ? String(e.label) : "missing";
}"""


def _graph_label(page, runs, base, edge_id):
    with runs.rerun():
        page.goto(base + "/graph")
    page.locator('.cw-graph[data-ready="1"]').first.wait_for(timeout=90_000)
    return page.evaluate(_EDGE_LABEL, ["graph_page_demo", edge_id])


def test_fix_an_edge_in_the_review_table_changes_the_graph(filled_studio):
    from playwright.sync_api import sync_playwright

    base, rt, w = filled_studio
    row = edge_table_rows(w)[0]  # the page shows the same rows in the same order
    edge_id = f"{row['source']}->{row['target']}"
    new = "causal" if row["relation"] != "causal" else "temporal"
    requests: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1500, "height": 1000})
        page.on("request", lambda r: requests.append(r.url))
        runs = ScriptRuns(page)
        before = _graph_label(page, runs, base, edge_id)
        assert before == row["relation"]

        with runs.rerun():
            page.goto(base + "/review")
        page.get_by_text("Run review now").wait_for(timeout=90_000)
        with runs.rerun():  # the review page's tabs rerun it
            page.get_by_role("tab", name="Edges").click()
        grid = page.locator('[data-testid="stDataFrame"]').first
        grid.wait_for(timeout=30_000)
        box = grid.bounding_box()
        # the relation column comes first: open row 0's selectbox cell and pick the right relation
        page.mouse.dblclick(box["x"] + 40, box["y"] + HEADER + ROW // 2)
        with runs.rerun():  # the edit is applied in the editor's on_change
            page.locator('#portal [role="option"]', has_text=new).first.click()
        page.get_by_text(f"{row['relation']} → {new}").first.wait_for(timeout=30_000)

        after = _graph_label(page, runs, base, edge_id)
        browser.close()
    assert after == new
    fresh = rt.open("demo")  # and on disk, as a human edit in the audit log
    assert fresh.graph.edges[row["source"], row["target"]]["relation"] == new
    assert fresh.graph.edges[row["source"], row["target"]]["origin"] == "human"
    entry = [e for e in fresh.curation.log.entries if e.actor == "human"][-1]
    assert entry.action == "edge.update" and entry.key == edge_id and entry.after["relation"] == new
    assert all(u.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:", "about:")) for u in requests)
