"""The scale benchmark's report: the Markdown tables and the latency plot of a :func:`weaver.bench.scale.run_scale`
result (kept apart from the runs that produce it; :mod:`weaver.bench.scale` re-exports both).
"""

from __future__ import annotations

from pathlib import Path

from .common import finish_line_plot
from .report import markdown_table

__all__ = ["scale_markdown", "plot_scale"]


def scale_markdown(res: dict) -> str:
    systems = res.get("systems", ["weaver"])
    md = ["# Scale", "", f"{res['cpus']} CPUs. Wall time {res['wall_s']} s. Turns: {res.get('texts', '')}.", ""]
    head = ["system", "turns/s one by one", "one ingest p50 / p95 / max ms", "turns/s batched"]

    def waits(t: dict) -> str:
        ms = t.get("one_by_one_ms")
        return f"{ms['p50']} / {ms['p95']} / {ms['max']}" if ms and "max" in ms else "-"

    md += [
        markdown_table(
            head,
            [
                [
                    s,
                    res["throughput"][s]["one_by_one_turns_per_s"],
                    waits(res["throughput"][s]),
                    res["throughput"][s]["batched_turns_per_s"],
                ]
                for s in systems
            ],
        ),
        "",
    ]
    cpu = {s: res["throughput"][s].get("cpu_ms_per_message") for s in systems}
    if all(cpu.values()):
        md += [
            "Process CPU time per message (every thread's; on a shared box it moves less than the wall time), "
            "batched / one by one: "
            + ", ".join(f"{s} {c['batched']} / {c['one_by_one']} ms" for s, c in cpu.items() if c)
            + ".",
            "",
        ]
    warm = {s: res["throughput"][s].get("warm_first_s") for s in systems}
    if any(v is not None for v in warm.values()):
        md += [
            "Each throughput process ran the weaver's warm-up (its once-a-process loads) after the open, before the "
            "timed ingest, not counted: " + ", ".join(f"{s} {v} s" for s, v in warm.items() if v is not None) + ".",
            "",
        ]
    first = {s: res["throughput"][s].get("batched_first_work_turns_per_s") for s in systems}
    if any(v is not None for v in first.values()):
        md += [
            "Batched as a fresh process's first work (no warm-up: the batch pays the loads it needs), turns/s: "
            + ", ".join(f"{s} {v}" for s, v in first.items() if v is not None)
            + ".",
            "",
        ]
    rows = []
    for r in res["rows"]:
        for s in systems:
            x = r[s]
            rows.append(
                [
                    r["nodes"],
                    s,
                    x["query_ms"]["p50"],
                    x["query_ms"]["p95"],
                    x.get("first_query_ms", ""),
                    x.get("cold_open_s", ""),
                    x["open_s"],
                    x["reopen_s"],
                    x.get("cold_open_rss_mb", ""),
                    x["open_rss_mb"],
                    x.get("warm_s", ""),
                    x["into_turns_per_s"],
                    x.get("into_with_warm_turns_per_s", ""),
                    x.get("into_then_turns_per_s", ""),
                    x.get("disk_mb_built", r["disk_mb"]),
                    x.get("disk_mb_opened", ""),
                ]
            )
    md += [
        markdown_table(
            [
                "nodes",
                "system",
                "query p50 ms",
                "query p95 ms",
                "first query ms (cold)",
                "open s, cold",
                "open s, warm",
                "reopen s (after writes)",
                "RSS MB at cold open",
                "RSS MB at warm open",
                "warm-up s",
                "ingest into it, turns/s (first messages after the warm-up)",
                "the same counting the warm-up",
                "the next messages",
                "disk MB (as built)",
                "disk MB (opened)",
            ],
            rows,
        ),
        "",
        "Cold: the first open after the bulk writer, in a fresh process (a full load from Chroma; this code then "
        "writes its snapshot). Warm: the next open in another fresh process, nothing written in between (this code "
        "reads the snapshot). Queries (p50 / p95) are the warm process's, after its open; the first query is the "
        "cold process's first. Reopen: a new weaver in the warm process after it ingested into the space (its "
        "writes made the snapshot stale: a full load). RSS is the process's peak so far, the embedder included. "
        "Ingest into it: messages one by one after the warm process's queries and its warm-up (the loads a "
        "process makes once: the store's indexes, the supersede index; a release without a warm-up pays them in "
        "its first messages), the write-behind log applied at the end; then as many messages again in the same "
        "process. Each rate includes its final apply.",
    ]
    if res.get("ratios"):
        ra = res["ratios"]
        md += [
            "",
            f"Ratios (this code vs baseline): one by one x{ra['one_by_one']}, batched x{ra['batched']}; "
            + "; ".join(
                f"{n} nodes: query p95 x{v['query_p95_speedup']} faster (p50 x{v.get('query_p50_speedup')}), "
                f"open x{v['open_speedup']} warm, x{v.get('cold_open_speedup')} cold, RSS at open "
                f"x{v.get('open_rss_ratio')}, disk x{v.get('disk_ratio')}, ingest into it x{v['into_speedup']}"
                for n, v in ra["by_size"].items()
            )
            + ".",
        ]
    llm = res.get("llm_mode")
    if llm and "skipped" not in llm:
        md += [
            "",
            f"LLM mode (openai backend against the local test server, {llm['messages']} messages): "
            f"{llm['llm_calls_per_message']} LLM calls and {llm['llm_tokens_per_message']} tokens per "
            f"message ({llm['fallbacks']} fell back to rules).",
        ]
    return "\n".join(md) + "\n"


def plot_scale(res: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ns = [r["nodes"] for r in res["rows"]]
    fig, ax = plt.subplots(figsize=(6, 3.8), dpi=110)
    for sys_name in res.get("systems", ["weaver"]):
        ax.plot(ns, [r[sys_name]["query_ms"]["p50"] for r in res["rows"]], "-o", label=f"{sys_name} p50")
        ax.plot(ns, [r[sys_name]["query_ms"]["p95"] for r in res["rows"]], "-s", label=f"{sys_name} p95")
    ax.set_xscale("log")
    finish_line_plot(
        fig, ax, path, "nodes in the space", "query latency at 1,024 tokens (ms)", "Retrieval latency vs. memory size"
    )
