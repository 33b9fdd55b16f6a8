"""``python -m weaver bench {locomo,crosswoz,decisions,madial,relations,lifecycle,scale,turns,...}``: run a benchmark, write its results."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from ..cli import count_int, positive_int
from ..models import WeaverError
from . import BUDGETS

__all__ = ["register"]

_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def _embedder():
    from ..embedding import CachedEmbedder, USEEmbedder

    return CachedEmbedder(USEEmbedder())


def _budgets(text: str) -> tuple[int, ...]:
    try:
        out = tuple(int(x) for x in text.split(","))
    except ValueError as exc:
        raise WeaverError(f"--budgets takes comma-separated integers, not {text!r}") from exc
    if not out or min(out) < 64:
        raise WeaverError("budgets must be at least 64 tokens")
    return out


@contextmanager
def _peer(args):
    """The ``--peer`` process for the run (None without one), stopped when the run ends."""
    from .peer import open_peer

    peer = open_peer(args.peer, args.peer_python, args.peer_top_k)
    try:
        yield peer
    finally:
        if peer is not None:
            peer.close()


def peer_options(s) -> None:
    s.add_argument(
        "--peer",
        choices=("mem0",),
        help="also rank with another memory system, run in its own venv "
        "(docs/benchmarks/README.md says how to make it)",
    )
    s.add_argument("--peer-python", help="the peer venv's python (default: $WEAVER_MEM0_PYTHON)")
    s.add_argument(
        "--peer-top-k",
        type=positive_int,
        default=250,
        help="memories the peer returns per question (default 250: enough to fill 2,048 tokens)",
    )


def _publish(args, default: str, res: dict, md: str, plot_suffix: str, plot, summary: str | None = None) -> int:
    """Write ``<name>.json/.md`` and the plot under ``--out``, print the summary and what was written."""
    from .report import write_result

    name = args.name or default
    paths = write_result(name, res, Path(args.out), md, {f"{name}_{plot_suffix}.png": plot})
    print(summary if summary is not None else md)
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def _publish_tables(args, default: str, res: dict, md: str) -> int:
    """Write ``<name>.json/.md`` (no plot) under ``--out``, print the tables and what was written."""
    from .report import write_result

    paths = write_result(args.name or default, res, Path(args.out), md, {})
    print(md)
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def cmd_locomo(settings, args) -> int:
    from .locomo import run_locomo
    from .report import locomo_markdown, plot_recall

    with _peer(args) as peer:
        res = run_locomo(args.data, _embedder(), _budgets(args.budgets), args.conversations, args.questions, peer=peer)
    return _publish(
        args, "locomo", res, locomo_markdown(res), "recall", lambda p: plot_recall(res, p), locomo_summary(res)
    )


def locomo_summary(res: dict) -> str:
    from .report import recall_markdown

    return (
        recall_markdown(res) + f"\nfilter: {res['filter']}\nlatency@1024: {res['latency_ms_1024']}\n"
        f"wall: {res['wall_s']} s"
    )


def cmd_crosswoz(settings, args) -> int:
    from .crosswoz import run_crosswoz
    from .report import plot_recall, recall_markdown

    with _peer(args) as peer:
        res = run_crosswoz(args.data, _embedder(), _budgets(args.budgets), args.dialogues, args.per_haystack, peer=peer)
    md = (
        f"# CrossWOZ constraint recall\n\n{res['description']}\n\n"
        + recall_markdown(res, "all", "## Constraint (evidence) recall (%)")
        + f"\n\nFilter keeps {res['filter']['kept_share']}% of turns and {res['filter']['evidence_kept_share']}%"
        f" of evidence turns. Wall time {res['wall_s']} s.\n"
    )
    return _publish(
        args, "crosswoz", res, md, "recall", lambda p: plot_recall(res, p, "all", "CrossWOZ: constraint recall")
    )


def cmd_decisions(settings, args) -> int:
    from .decisions import decisions_markdown, run_decisions

    langs = tuple(x for x in args.languages.split(",") if x)
    if not langs or set(langs) - {"zh", "en"}:
        raise WeaverError(f"--languages takes zh, en or zh,en, not {args.languages!r}")
    res = run_decisions(args.data, _embedder(), _budgets(args.budgets), args.dialogues, langs)
    from .report import write_result

    md = decisions_markdown(res)
    paths = write_result(args.name or "decisions", res, Path(args.out), md, {})
    print(md)
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def cmd_madial(settings, args) -> int:
    from .madial import madial_markdown, plot_madial, run_madial

    res = run_madial(args.data, _embedder(), args.limit)
    return _publish(args, "madial", res, madial_markdown(res), "recall", lambda p: plot_madial(res, p))


def cmd_madial_channels(settings, args) -> int:
    from .madial_channels import madial_channels_markdown, run_madial_channels

    if args.distractors < 0:
        raise WeaverError(f"--distractors takes a count of 0 or more, not {args.distractors}")
    res = run_madial_channels(args.data, _embedder(), args.crosswoz, args.distractors)
    return _publish_tables(args, "madial-channels", res, madial_channels_markdown(res))


def cmd_switches(settings, args) -> int:
    from .switches import run_switches, switches_markdown

    res = run_switches(args.data, _embedder(), args.dialogues, args.task)
    return _publish_tables(args, "switches", res, switches_markdown(res))


def cmd_scale(settings, args) -> int:
    from .scale import plot_scale, run_scale, scale_markdown

    try:
        sizes = tuple(int(x) for x in args.sizes.split(","))
    except ValueError:
        raise WeaverError(f"--sizes takes comma-separated node counts, not {args.sizes!r}") from None
    res = run_scale(
        sizes,
        _embedder(),
        queries=args.queries,
        one_by_one=args.one_by_one,
        llm=not args.no_llm,
        baseline=args.baseline,
        into=args.into,
    )
    return _publish(args, "scale", res, scale_markdown(res), "latency", lambda p: plot_scale(res, p))


def cmd_relations(settings, args) -> int:
    from .relations import relations_markdown, run_relations

    res = run_relations(
        Path(args.data), _embedder(), args.molweni_dialogues, args.crosswoz_dialogues, args.crosswoz_split
    )
    if len(res) <= 2:
        raise WeaverError(f"no relation data under {args.data} (molweni/dev.json, xcopa/val.zh.jsonl, crosswoz/)")
    from .report import write_result

    md = relations_markdown(res)
    paths = write_result(args.name or "relations", res, Path(args.out), md, {})
    print(md)
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def cmd_lifecycle(settings, args) -> int:
    from .lifecycle import lifecycle_markdown, plot_lifecycle, run_lifecycle

    from ..lifecycle import LifecycleConfig

    res = run_lifecycle(
        Path(args.data),
        _embedder(),
        args.turns,
        args.every,
        _budgets(args.budgets),
        checkpoint=max(64, args.turns // 10),
        cfg=LifecycleConfig(working_turns=args.working_turns, archive_below=args.archive_below),
        parallel=not args.serial,
        keep=Path(args.keep) if args.keep else None,
        reuse=Path(args.reuse) if args.reuse else None,
    )
    return _publish(args, "lifecycle", res, lifecycle_markdown(res), "size", lambda p: plot_lifecycle(res, p))


def cmd_turns(settings, args) -> int:
    from .report import write_result
    from .turns import run_turns, turns_markdown

    scripts = [x for x in (args.scripts or "").split(",") if x] or None
    if args.pause < 0:
        raise WeaverError(f"--pause must be 0 or more seconds, not {args.pause}")
    res = run_turns(scripts, rounds=args.rounds, pause=args.pause)
    md = turns_markdown(res)
    paths = write_result(args.name or "turns", res, Path(args.out), md, {})
    print(md)
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def register(sub) -> None:
    p = sub.add_parser("bench", help="benchmarks of memory quality and speed (writes docs/benchmarks)")
    bsub = p.add_subparsers(dest="bench", required=True, metavar="BENCH")

    def common(s, name):
        s.add_argument("--out", default="docs/benchmarks", help="results directory (default: docs/benchmarks)")
        s.add_argument("--name", help=f"result file stem (default: {name})")
        s.set_defaults(needs_runtime=False)

    s = bsub.add_parser("locomo", help="LoCoMo evidence recall, all systems, budgets")
    s.add_argument("--data", default=str(_DATA / "locomo" / "locomo7.json"))
    s.add_argument("--budgets", default=",".join(map(str, BUDGETS)))
    s.add_argument("--conversations", type=positive_int, help="only the first N conversations")
    s.add_argument("--questions", type=positive_int, help="only the first N questions of each conversation")
    peer_options(s)
    common(s, "locomo")
    s.set_defaults(func=cmd_locomo)

    s = bsub.add_parser("crosswoz", help="CrossWOZ constraint recall in long Chinese haystacks")
    s.add_argument("--data", default=str(_DATA / "crosswoz" / "val.json.zip"))
    s.add_argument("--budgets", default=",".join(map(str, BUDGETS)))
    s.add_argument("--dialogues", type=positive_int, default=100, help="dialogues used (default 100)")
    s.add_argument("--per-haystack", type=positive_int, default=10, help="dialogues concatenated per haystack")
    peer_options(s)
    common(s, "crosswoz")
    s.set_defaults(func=cmd_crosswoz)

    s = bsub.add_parser(
        "decisions",
        help="decision-context completeness: constraints in force vs stale, "
        "chats generated from CrossWOZ test goals (zh + en)",
    )
    s.add_argument("--data", default=str(_DATA / "crosswoz" / "test.json.zip"))
    s.add_argument("--budgets", default="256,512,1024")
    s.add_argument(
        "--dialogues", type=positive_int, default=100, help="test dialogues whose goals make chats (default 100)"
    )
    s.add_argument("--languages", default="zh,en", help="zh, en or zh,en (default)")
    common(s, "decisions")
    s.set_defaults(func=cmd_decisions)

    s = bsub.add_parser("madial", help="MADial-Bench memory retrieval R@5/R@10 vs published rankings")
    s.add_argument("--data", default=str(_DATA / "madial"))
    s.add_argument("--limit", type=positive_int, help="only the first N dialogues")
    common(s, "madial")
    s.set_defaults(func=cmd_madial)

    s = bsub.add_parser(
        "madial-channels", help="how a dialogue-history query is heard: MADial variants, cross-validated"
    )
    s.add_argument("--data", default=str(_DATA / "madial"))
    s.add_argument("--crosswoz", default=str(_DATA / "crosswoz" / "val.json.zip"), help="distractor chat turns")
    s.add_argument(
        "--distractors", type=count_int, default=3000, help="CrossWOZ turns beside each user's memories (0: none)"
    )
    common(s, "madial-channels")
    s.set_defaults(func=cmd_madial_channels)

    s = bsub.add_parser("switches", help="topic-switch detection on CrossWOZ (held-out test split by default)")
    s.add_argument("--data", default=str(_DATA / "crosswoz" / "test.json.zip"))
    s.add_argument(
        "--dialogues", type=positive_int, default=200, help="dialogues with a judged user turn (default 200)"
    )
    s.add_argument("--task", help="a task focus set on every dialogue's space")
    common(s, "switches")
    s.set_defaults(func=cmd_switches)

    s = bsub.add_parser("relations", help="are the edges true: Molweni links, XCOPA causal pairs, CrossWOZ deps")
    s.add_argument("--data", default=str(_DATA), help="the shared data folder (default ../shared/data)")
    s.add_argument("--molweni-dialogues", type=positive_int, help="only the first N Molweni dialogues")
    s.add_argument(
        "--crosswoz-dialogues", type=positive_int, help="only the first N CrossWOZ dialogues with dependencies"
    )
    s.add_argument(
        "--crosswoz-split",
        choices=("val", "test", "both"),
        default="both",
        help="CrossWOZ split(s): val (where the reference rules were developed) and test (held out)",
    )
    common(s, "relations")
    s.set_defaults(func=cmd_relations)

    s = bsub.add_parser("lifecycle", help="memory size and recall over a long stream, with and without the lifecycle")
    s.add_argument("--data", default=str(_DATA), help="the shared data folder (locomo/, crosswoz/)")
    s.add_argument("--turns", type=positive_int, default=10000, help="stream length in turns (default 10000)")
    s.add_argument("--every", type=positive_int, default=500, help="a lifecycle pass every N user turns")
    s.add_argument("--working-turns", type=count_int, default=200, help="user turns kept as working memory")
    s.add_argument("--archive-below", type=float, default=0.4, help="retention under which old memories go")
    s.add_argument("--budgets", default="512,1024")
    s.add_argument("--serial", action="store_true", help="grow the two spaces one after the other, not at once")
    s.add_argument("--keep", help="grow the spaces in this folder and keep them (to inspect), not in a temporary one")
    s.add_argument("--reuse", help="a folder --keep left (with its lifecycle.json): measure recall and latency again")
    common(s, "lifecycle")
    s.set_defaults(func=cmd_lifecycle)

    s = bsub.add_parser("turns", help="the studio agent's warm chat turn, offline, on every Beijing demo script")
    s.add_argument("--scripts", help="comma-separated demo names (default: every script in assets/demo)")
    s.add_argument("--rounds", type=positive_int, default=2, help="replays of every script, each into fresh spaces")
    s.add_argument("--pause", type=float, default=0.0, help="seconds between turns, as a user reads (untimed)")
    common(s, "turns")
    s.set_defaults(func=cmd_turns)

    s = bsub.add_parser("scale", help="latency, throughput, RSS and disk at 1k/10k/100k nodes")
    s.add_argument("--sizes", default="1000,10000,100000")
    s.add_argument("--queries", type=positive_int, default=100)
    s.add_argument("--one-by-one", type=count_int, default=300, help="messages ingested one by one per size")
    s.add_argument("--no-llm", action="store_true", help="skip the LLM-mode run against the local stub")
    s.add_argument("--baseline", help="a source tree of earlier code (git archive) measured back to back")
    s.add_argument("--into", type=count_int, default=50, help="messages ingested one by one into each big space")
    common(s, "scale")
    s.set_defaults(func=cmd_scale)
