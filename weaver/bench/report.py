"""Write benchmark results: JSON (the record), Markdown tables and PNG plots under ``docs/benchmarks``."""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["write_json", "markdown_table", "locomo_markdown", "plot_recall", "write_result", "load_results"]


def write_json(result: dict, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, ensure_ascii=False, indent=1, default=str), encoding="utf-8")


def markdown_table(header: list[str], rows: list[list]) -> str:
    """
    >>> print(markdown_table(["a", "b"], [[1, None]]))
    | a | b |
    |---|---|
    | 1 | – |
    """
    fmt = lambda v: "–" if v is None else (f"{v:.1f}" if isinstance(v, float) else str(v))  # noqa: E731
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(fmt(v) for v in r) + " |" for r in rows]
    return "\n".join(lines)


def recall_markdown(result: dict, group: str = "cats1-4", title: str = "") -> str:
    budgets = result["budgets"]
    rows = [[s] + [result["recall"][s][str(b)].get(group) for b in budgets] for s in result["systems"]]
    return (f"{title}\n\n" if title else "") + markdown_table(["system"] + [f"{b} tok" for b in budgets], rows)


def locomo_markdown(result: dict) -> str:
    out = [
        "# LoCoMo evidence recall",
        "",
        f"Data: `{result['data']}`; {len(result['conversations'])} conversations, "
        f"{result['questions']['cats1-4']} questions in categories 1-4 "
        f"({result['questions'].get('cat5', 0)} adversarial). Wall time {result['wall_s']} s.",
        "",
    ]
    out.append(recall_markdown(result, "cats1-4", "## Evidence recall (%), categories 1-4"))
    cats = result["categories"]
    rows = [[s] + [result["recall"][s]["1024"].get(f"cat{c}") for c in cats] for s in result["systems"]]
    out += [
        "",
        "## Per category at 1,024 tokens (%)",
        "",
        markdown_table(["system"] + [f"{c} {n}" for c, n in cats.items()], rows),
    ]
    rk = result["dense_recall_at_k"]
    ks = list(rk["dragon_paper"])
    out += [
        "",
        "## Plain dense R@k over turns, the paper's way (%)",
        "",
        markdown_table(
            ["retriever"] + [f"R@{k}" for k in ks],
            [
                ["USE dense (ours), all categories"] + [rk["all"][k] for k in ks],
                ["USE dense (ours), categories 1-4"] + [rk["cats1-4"][k] for k in ks],
                ["DRAGON (LoCoMo paper, Table 3)"] + [rk["dragon_paper"][k] for k in ks],
            ],
        ),
    ]
    f = result["filter"]
    lat = result["latency_ms_1024"]
    out += [
        "",
        "## Filter and speed",
        "",
        f"- filter keeps {f['kept_share']}% of turns ({f['kept']}/{f['turns']}) and "
        f"{f['evidence_kept_share']}% of evidence turns ({f['evidence_kept']}/{f['evidence']})",
        f"- weaver query latency at 1,024 tokens: p50 {lat['all']['p50']} ms, p95 {lat['all']['p95']} ms "
        f"(largest conversation {lat['largest']['id']}, {lat['largest']['turns']} turns: "
        f"p95 {lat['largest']['p95']} ms)",
    ]
    return "\n".join(out) + "\n"


def plot_recall(result: dict, path: Path, group: str = "cats1-4", title: str = "") -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    budgets = result["budgets"]
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    for s in result["systems"]:
        ys = [result["recall"][s][str(b)].get(group) for b in budgets]
        style = "-o" if s.startswith("weaver") else "--s"
        ax.plot(budgets, ys, style, label=s, linewidth=2.2 if s == "weaver" else 1.3)
    ax.set_xscale("log", base=2)
    ax.set_xticks(budgets, [str(b) for b in budgets])
    ax.set_xlabel("token budget")
    ax.set_ylabel("evidence recall (%)")
    ax.set_title(title or f"{result['benchmark']}: evidence recall ({group})")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def write_result(name: str, result: dict, out_dir: Path, markdown: str, plots: dict | None = None) -> list[Path]:
    """``<name>.json``, ``<name>.md`` and the plots; returns the written paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = [out_dir / f"{name}.json", out_dir / f"{name}.md"]
    write_json(result, written[0])
    written[1].write_text(markdown, encoding="utf-8")
    for fname, fn in (plots or {}).items():
        fn(out_dir / fname)
        written.append(out_dir / fname)
    return written


def load_results(out_dir: Path) -> dict[str, dict]:
    """Every ``*.json`` result in the directory, by benchmark name (for the studio page)."""
    out = {}
    for p in sorted(Path(out_dir).glob("*.json")):
        try:
            out[p.stem] = json.loads(p.read_text(encoding="utf-8"))
        except ValueError:
            continue
    return out
