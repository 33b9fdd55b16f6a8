"""What ``bench lifecycle`` reports: the Markdown page of a run's result and its plot of memory size.

The result is :func:`weaver.bench.lifecycle.run_lifecycle`'s dict; nothing here measures anything.
"""

from __future__ import annotations

from pathlib import Path

from .common import finish_line_plot
from .report import markdown_table

__all__ = ["lifecycle_markdown", "plot_lifecycle"]


def lifecycle_markdown(res: dict) -> str:
    s = res["systems"]
    rows = []
    for a, b in zip(s["without"]["sizes"], s["with"]["sizes"]):
        rows.append(
            [
                a["turn"],
                a["active_nodes"],
                b["active_nodes"],
                b["nodes"],
                a["edges"],
                b["edges"],
                a["disk_mb"],
                b["disk_mb"],
            ]
        )
    rec = []
    for key in s["without"]["recall"]:
        if key.endswith("/strict"):
            name = key[: -len("/strict")]
            rec.append(
                [
                    name,
                    s["without"]["recall"][key],
                    s["with"]["recall"][key],
                    s["with"]["recall"][name + "/summaries"],
                    s["with"]["recall"].get(name + "/no-cold"),
                ]
            )
    q = res["questions"]
    return "\n".join(
        [
            "# Memory lifecycle on a long stream",
            "",
            (
                f"{res['turns']} turns (LoCoMo sessions in time order with CrossWOZ dialogues between them); a lifecycle "
                f"pass every {res['every']} user turns ({s['with']['passes']} passes, p50 {s['with']['pass_s']['p50']} s). "
                f"{q['locomo']} LoCoMo and {q['crosswoz']} CrossWOZ questions. "
                + (
                    f"Wall time {res['wall_s']} s to measure the kept spaces again (the run that grew them: "
                    f"{res['grown_by'].get('wall_s')} s)."
                    if res.get("grown_by")
                    else f"Wall time {res['wall_s']} s."
                )
            ),
            "",
            f"**Active memories kept with the lifecycle: {res['kept_share']}% of those without it.**",
            "",
            markdown_table(
                [
                    "turn",
                    "active without",
                    "active with",
                    "all nodes with (incl. archived)",
                    "edges without",
                    "edges with",
                    "disk MB without",
                    "disk MB with",
                ],
                rows,
            ),
            "",
            markdown_table(
                ["recall (%)", "without", "with (strict)", "with (summaries count)", "with, cold tier off (strict)"],
                rec,
            ),
            "",
            (
                f"Query latency at 1,024 tokens (questions asked of both spaces in turn): without p50 "
                f"{s['without']['query_ms_1024']['p50']} ms / p95 {s['without']['query_ms_1024']['p95']} ms, with p50 "
                f"{s['with']['query_ms_1024']['p50']} ms / p95 {s['with']['query_ms_1024']['p95']} ms "
                f"(with / without at p50: {res.get('latency_ratio_p50')})."
            ),
            "",
            _timing_line(res),
            "",
        ]
    )


def _timing_line(res: dict) -> str:
    s = res["systems"]
    grew = res.get("grown_by") or res
    line = (
        f"Growing: ingest {s['without'].get('ingest_s')} s without, {s['with'].get('ingest_s')} s with, plus "
        f"{s['with'].get('pass_total_s')} s of passes ({'both at once' if res.get('parallel', True) else 'in turn'}; "
        f"{grew.get('grow_s')} s of wall time). Opening the grown spaces: {s['without'].get('open_s')} s without, "
        f"{s['with'].get('open_s')} s with."
    )
    if res.get("grown_by"):
        line += (
            f" The spaces were grown by an earlier run (wall time {res['grown_by'].get('wall_s')} s) and kept; recall "
            "and latency here were measured again on them with this code."
        )
    return line


def plot_lifecycle(res: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.8), dpi=110)
    for name, style in (("without", "-o"), ("with", "-s")):
        sz = res["systems"][name]["sizes"]
        ax.plot([r["turn"] for r in sz], [r["active_nodes"] for r in sz], style, label=f"{name} lifecycle")
    finish_line_plot(fig, ax, path, "stream turns", "active memories", "Memory size over a long stream")
