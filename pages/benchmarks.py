"""Benchmarks: the latest results under docs/benchmarks, as plots and tables (a thin view)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from ui.shell import require_shell

require_shell('benchmarks')  # a deep link on a fresh server must not bypass app.py

from weaver.bench.report import load_results

RESULTS = Path(__file__).resolve().parents[1] / "docs" / "benchmarks"

st.title("Benchmarks")
st.caption("Latest results written by `python -m weaver bench ...` into docs/benchmarks (see its README).")
results = load_results(RESULTS)
if not results:
    st.info("No benchmark results yet: run `python -m weaver bench locomo` (or crosswoz / madial / scale).")
    st.stop()


def recall_frame(res: dict, group: str) -> pd.DataFrame:
    rows = {s: {f"{b} tok": res["recall"][s][str(b)].get(group) for b in res["budgets"]} for s in res["systems"]}
    return pd.DataFrame(rows).T


for name in ("locomo", "crosswoz"):
    res = results.get(name)
    if not res:
        continue
    group = "cats1-4" if name == "locomo" else "all"
    st.subheader(f"{name}: evidence recall (%) by token budget ({group})")
    frame = recall_frame(res, group)
    st.line_chart(frame.T)
    st.dataframe(frame, width="stretch")
    f = res.get("filter", {})
    lat = res.get("latency_ms_1024", {})
    lat = lat.get("all", lat)
    cols = st.columns(4)
    cols[0].metric("turns kept by the filter", f"{f.get('kept_share')}%")
    cols[1].metric("evidence turns kept", f"{f.get('evidence_kept_share')}%")
    cols[2].metric("query p95 @1024", f"{lat.get('p95')} ms")
    cols[3].metric("wall time", f"{res.get('wall_s')} s")
    if name == "locomo":
        rk = res["dense_recall_at_k"]
        st.markdown("Plain dense R@k over turns (the paper's way) next to the published DRAGON anchor")
        st.dataframe(pd.DataFrame({"USE dense (all)": rk["all"], "USE dense (cats 1-4)": rk["cats1-4"],
                                   "DRAGON (paper)": rk["dragon_paper"]}).T, width="stretch")

res = results.get("madial")
if res:
    st.subheader("MADial-Bench (zh): memory recall (%)")
    rows = {f"{s} (ours)": v for s, v in res["ours"].items()} | {f"{s} (published)": v
                                                                 for s, v in res["published"].items()}
    frame = pd.DataFrame(rows).T.sort_values("R@10")
    st.bar_chart(frame)
    st.dataframe(frame, width="stretch")

res = results.get("scale")
if res:
    st.subheader("Scale")
    frame = pd.DataFrame([{"nodes": r["nodes"], "query p50 ms": r["query_ms"]["p50"],
                           "query p95 ms": r["query_ms"]["p95"], "peak RSS MB": r["peak_rss_mb"],
                           "disk MB": r["disk_mb"], "open s": r["open_s"]} for r in res["rows"]]).set_index("nodes")
    st.line_chart(frame[["query p50 ms", "query p95 ms"]])
    st.dataframe(frame, width="stretch")
    st.json({"throughput": res.get("throughput"), "llm_mode": res.get("llm_mode")}, expanded=False)
