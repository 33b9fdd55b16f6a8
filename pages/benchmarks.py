"""Benchmarks: the latest results under docs/benchmarks, as plots and tables (a thin view).

Charts come from ``ui.bench_charts`` (numeric budget axis, our system on top, grouped bars).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from ui.shell import require_shell

require_shell("benchmarks")  # a deep link on a fresh server must not bypass app.py

from ui import bench_charts
from ui.i18n import t
from ui.render import metric_row
from weaver.bench.report import load_results

RESULTS = Path(__file__).resolve().parents[1] / "docs" / "benchmarks"

st.title(t("benchmarks"))
st.caption(t("bench_caption"))
results = load_results(RESULTS)
if not results:
    st.info(t("bench_none"))
    st.stop()


def recall_frame(res: dict, group: str) -> pd.DataFrame:
    """The table beside the chart: systems as rows, budgets in numeric order as columns."""
    budgets = sorted(int(b) for b in res["budgets"])
    rows = {s: {f"{b} tok": res["recall"][s][str(b)].get(group) for b in budgets} for s in res["systems"]}
    return pd.DataFrame(rows).T


for name in ("locomo", "crosswoz"):
    res = results.get(name)
    if not res:
        continue
    group = "cats1-4" if name == "locomo" else "all"
    st.subheader(
        t("bench_recall_title", name=name, group=t("bench_group_cats") if group == "cats1-4" else t("bench_group_all"))
    )
    st.altair_chart(
        bench_charts.recall_chart(res, group, t("bench_budget"), t("bench_recall"), t("bench_system")), width="stretch"
    )
    st.dataframe(recall_frame(res, group), width="stretch")
    f = res.get("filter", {})
    lat = res.get("latency_ms_1024", {})
    lat = lat.get("all", lat)
    metric_row(
        [
            (t("bench_kept"), f"{f.get('kept_share')}%"),
            (t("bench_ev_kept"), f"{f.get('evidence_kept_share')}%"),
            (t("bench_p95"), f"{lat.get('p95')} ms"),
            (t("bench_wall"), f"{res.get('wall_s')} s"),
        ]
    )
    if name == "locomo":
        rk = res["dense_recall_at_k"]
        st.markdown(t("bench_dense"))
        st.dataframe(
            pd.DataFrame(
                {
                    t("bench_use_all"): rk["all"],
                    t("bench_use_cats"): rk["cats1-4"],
                    t("bench_dragon"): rk["dragon_paper"],
                }
            ).T.rename(columns=lambda k: f"R@{k}"),
            width="stretch",
        )

res = results.get("madial")
if res:
    st.subheader(t("bench_madial"))
    ours, pub = t("bench_ours"), t("bench_published")
    st.altair_chart(bench_charts.madial_chart(res, ours, pub, t("bench_recall"), t("bench_metric")), width="stretch")
    rows = {f"{s} ({ours})": v for s, v in res["ours"].items()} | {
        f"{s} ({pub})": v for s, v in res["published"].items()
    }
    st.dataframe(pd.DataFrame(rows).T.sort_values("R@10"), width="stretch")

res = results.get("scale")
if res:
    st.subheader(t("bench_scale"))
    st.altair_chart(
        bench_charts.scale_chart(res["rows"], t("bench_nodes"), t("bench_ms"), "p50", "p95"), width="stretch"
    )
    frame = pd.DataFrame(
        [
            {
                t("bench_nodes"): r["nodes"],
                "p50 ms": r["query_ms"]["p50"],
                "p95 ms": r["query_ms"]["p95"],
                t("bench_rss"): r.get("peak_rss_mb"),
                t("bench_disk"): r["disk_mb"],
                t("bench_open"): r["open_s"],
            }
            for r in map(bench_charts.scale_row, res["rows"])
        ]
    ).set_index(t("bench_nodes"))
    st.dataframe(frame, width="stretch")
    with st.expander(t("bench_details")):
        st.json({"throughput": res.get("throughput"), "llm_mode": res.get("llm_mode")}, expanded=False)
