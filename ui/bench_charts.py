"""Benchmark charts as Altair specs: a numeric budget axis, our system drawn on top, grouped (never stacked) bars.

Kept apart from pages/benchmarks.py so tests can check the specs without a browser: budgets are
numbers (256 < 512 < 1024 < 2048, not text order), R@5 and R@10 sit side by side.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

__all__ = ["recall_long", "recall_chart", "madial_long", "madial_chart", "scale_chart", "OURS"]

OURS = "weaver"  # drawn last, thicker, so the ablations never hide it


def recall_long(res: dict, group: str) -> pd.DataFrame:
    """One row per (system, budget): budget as an int, recall as a float (None dropped)."""
    rows = [
        {"system": s, "budget": int(b), "recall": res["recall"][s][str(b)].get(group)}
        for s in res["systems"]
        for b in res["budgets"]
    ]
    df = pd.DataFrame(rows, columns=["system", "budget", "recall"]).dropna()
    # draw order = z order: ours last, i.e. on top
    df["order"] = (df["system"] == OURS).astype(int)
    return df.sort_values(["order", "system", "budget"], kind="stable").reset_index(drop=True)


def recall_chart(res: dict, group: str, x_title: str, y_title: str, sys_title: str) -> alt.Chart:
    df = recall_long(res, group)
    systems = list(dict.fromkeys(df["system"]))
    base = alt.Chart(df).encode(
        x=alt.X(
            "budget:Q",
            title=x_title,
            scale=alt.Scale(type="log", base=2),
            axis=alt.Axis(values=sorted(int(b) for b in res["budgets"]), format="d"),
        ),
        y=alt.Y("recall:Q", title=y_title, scale=alt.Scale(domain=[0, 100])),
        color=alt.Color("system:N", title=sys_title, sort=[OURS] + [s for s in systems if s != OURS]),
        detail="system:N",
        tooltip=[
            alt.Tooltip("system:N", title=sys_title),
            alt.Tooltip("budget:Q", title=x_title),
            alt.Tooltip("recall:Q", title=y_title),
        ],
    )
    others = base.transform_filter(alt.datum.system != OURS).mark_line(point=True, strokeWidth=1.5, opacity=0.75)
    ours = base.transform_filter(alt.datum.system == OURS).mark_line(point=alt.OverlayMarkDef(size=70), strokeWidth=4)
    return alt.layer(others, ours).properties(height=320)


def madial_long(res: dict, ours_label: str, published_label: str) -> pd.DataFrame:
    rows = []
    for src, label in (("ours", ours_label), ("published", published_label)):
        for s, v in (res.get(src) or {}).items():
            for metric in ("R@5", "R@10"):
                if v.get(metric) is not None:
                    rows.append(
                        {
                            "system": f"{s} ({label})",
                            "source": label,
                            "metric": metric,
                            "recall": float(v[metric]),
                            "r10": float(v.get("R@10") or 0),
                        }
                    )
    return pd.DataFrame(rows, columns=["system", "source", "metric", "recall", "r10"])


def madial_chart(res: dict, ours_label: str, published_label: str, y_title: str, metric_title: str) -> alt.Chart:
    """Grouped bars: for each system R@5 and R@10 side by side (xOffset), never stacked."""
    df = madial_long(res, ours_label, published_label)
    order = list(df.sort_values("r10")["system"].drop_duplicates())
    return (
        alt.Chart(df)
        .mark_bar()
        .encode(
            x=alt.X("system:N", sort=order, title=None, axis=alt.Axis(labelAngle=-30, labelLimit=220)),
            xOffset=alt.XOffset("metric:N", sort=["R@5", "R@10"]),
            y=alt.Y("recall:Q", title=y_title, stack=None, scale=alt.Scale(domain=[0, 100])),
            color=alt.Color("metric:N", title=metric_title, sort=["R@5", "R@10"]),
            opacity=alt.condition(alt.datum.source == ours_label, alt.value(1.0), alt.value(0.55)),
            tooltip=["system:N", "metric:N", "recall:Q"],
        )
        .properties(height=340)
    )


def scale_row(row: dict) -> dict:
    """This code's measurements in a ``bench scale`` row: the row's ``weaver`` part when the run had several
    systems (this code and a baseline), the row itself in results written before that."""
    own = row.get("weaver")
    return {**row, **own} if isinstance(own, dict) else row


def scale_chart(rows: list[dict], x_title: str, y_title: str, p50: str, p95: str) -> alt.Chart:
    df = pd.DataFrame(
        [
            {"nodes": int(r["nodes"]), "series": name, "ms": float(scale_row(r)["query_ms"][k])}
            for r in rows
            for k, name in (("p50", p50), ("p95", p95))
        ]
    )
    return (
        alt.Chart(df)
        .mark_line(point=True)
        .encode(
            x=alt.X("nodes:Q", title=x_title, scale=alt.Scale(type="log")),
            y=alt.Y("ms:Q", title=y_title),
            color=alt.Color("series:N", title=None),
            tooltip=["nodes:Q", "series:N", "ms:Q"],
        )
        .properties(height=280)
    )
