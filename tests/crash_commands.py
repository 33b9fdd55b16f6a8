"""Crash campaign over every writing CLI command: SIGKILL it at a random moment or at its N-th store write.

Each round the parent picks a command the space's state allows (``ingest``,
``promote``, ``review --apply``, ``accept`` / ``reject``, ``edge set`` / ``rm``,
``undo`` / ``redo``, ``status``, ``task``, ``reembed``, ``delete-space``, an agent
``chat`` turn), copies the data directory aside, runs ``python -m weaver ...``
and kills it: after a random delay, or with ``WEAVER_CRASH_AT=N[:after]`` just
before (after) its N-th Chroma write. A fresh checker process then

* opens every space (the repair on open runs) and checks the crash invariants of
  :func:`crash_harness.check_space` against every acknowledgement so far (a line
  the CLI printed is an acknowledgement), plus: no reference to a missing node
  from a superseded status, the audit log or the review queue;
* checks that no collection is left that no live space owns (half-built reembed
  generations, half-deleted spaces);
* runs the same command, uncut, on the copy, recording the whole store's
  fingerprint after each of its write sections, and requires the killed store to
  equal the state before the command or one of those: every write section (an
  ingest batch, a curation edit, a review pass, a reembed, a delete) landed whole
  or not at all, and nothing of an unacknowledged message is left half-done.

Two spaces live side by side: ``a-x-trip`` (the main space) and ``a`` (the one
``delete-space`` deletes; it is re-created before each delete round), so a delete
that matched collection prefixes would show up as damage to the main space.

Run: ``python tests/crash_harness.py --commands 100`` (the long campaign) or see
``tests/test_crash.py`` for the short one CI runs.
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAIN, VICTIM = "a-x-trip", "a"
SCENARIO = [  # the budget case: a later message supersedes an acknowledged constraint
    ("user_input", "My total budget for the trip is 5000 yuan."),
    ("user_input", "Actually my total budget for the trip is now 8000 yuan."),
    ("user_input", "我的预算总共是5000元。"),
    ("user_input", "其实我的预算现在改成8000元了。"),
]
CHAT_LINES = [
    "I want a quiet hotel near the metro in Beijing, budget 600 yuan a night.",
    "我对花生过敏，推荐一家餐厅。",
    "Find me a museum for tomorrow morning.",
]


# ---------------------------------------------------------------- corpus
def corpus_lines(start: int, n: int, seed: int) -> list[dict]:
    from crash_harness import make_corpus

    msgs = make_corpus(start + n, seed)[start:]
    out = []
    for i, m in enumerate(msgs, start):
        if i % 23 == 5:  # now and then one of the scenario's constraints
            kind, text = SCENARIO[(i // 23) % len(SCENARIO)]
            m = {"id": f"scn-{i:05d}", "kind": kind, "content": text}
        out.append(m)
    return out


# ----------------------------------------------------------------- checks
def _runtime(data: Path):
    from weaver import Runtime, Settings

    settings = Settings.from_env(env={}, secrets_path=None, data_dir=data, backend="rules")
    return Runtime.from_settings(settings, embedder=_EMBEDDER.get("e"))


_EMBEDDER: dict = {}


_FP_WRITES = {"n": 0}  # Chroma writes the fingerprints themselves made (opening creates missing collections)


def fingerprint(rt) -> dict:
    """The whole store as a curator sees it, with every random id replaced by what it names."""
    crash = rt.store.client._crash
    start = crash.writes
    try:
        return _fingerprint(rt)
    finally:
        _FP_WRITES["n"] += crash.writes - start


def _fingerprint(rt) -> dict:
    out = {}
    for name in rt.store.list_spaces():
        w = rt.open(name, create=False)
        lab = {nid: f"{n.kind}:{n.content[:60]}" for nid, n in w.nodes.items()}

        def L(nid: str) -> str:  # noqa: N802 - a label
            return lab.get(nid, f"MISSING {nid}") if nid else ""

        cur = w.curation

        def key(k: str) -> str:
            if k in cur.queue:  # a curator's reject names its review item
                i = cur.queue[k]
                return f"item:{i.kind}:{L(i.source)}:{L(i.target)}"
            return "->".join(L(x) for x in k.split("->", 1)) if "->" in k else L(k)

        out[name] = {
            "decisions": sorted(f"{d.kind}:{d.content[:60]}:{d.kept}" for d in w.decisions.values()),
            "nodes": sorted(f"{lab[n.id]}:{n.status}:{L(n.meta.get('superseded_by', ''))}" for n in w.nodes.values()),
            "edges": sorted(
                f"{L(u)}->{L(v)}:{d['relation']}:{d.get('origin')}:{d.get('status')}"
                for u, v, d in w.graph.edges(data=True)
            ),
            "audit": sorted(f"{e.actor}:{e.action}:{key(e.key)}" for e in cur.log.entries),
            "queue": sorted(f"{i.kind}:{L(i.source)}:{L(i.target)}:{i.status}" for i in cur.queue.values()),
            "reviews": len(cur.state.get("runs", [])),
            "task": w.meta.get("task"),
            "focus": len(w.meta.get("focus_history", [])),
            "events": len(w.space.get_records("events")),
        }
    return out


def references(w) -> list[str]:
    """References to nodes that do not exist (what an unacknowledged message's effect leaves behind)."""
    bad = []
    for n in w.nodes.values():
        by = n.meta.get("superseded_by")
        if by and by not in w.nodes:
            bad.append(f"node {n.id} superseded by missing {by}")
    for e in w.curation.log.entries:
        if e.is_item:  # names a review item, not a node
            if e.key not in w.curation.queue:
                bad.append(f"audit entry {e.id} ({e.action}) names missing review item {e.key}")
            continue
        for nid in e.key.split("->", 1) if "->" in e.key else [e.key]:
            if nid not in w.nodes:
                bad.append(f"audit entry {e.id} ({e.action}) names missing node {nid}")
    for i in w.curation.queue.values():
        for nid in (i.source, i.target):
            if nid and nid not in w.nodes:
                bad.append(f"review item {i.id} names missing node {nid}")
    return bad


def stray_collections(rt) -> list[str]:
    from weaver.registry import REGISTRY, space_collections

    owned = {REGISTRY}
    for name in rt.store.list_spaces():
        rec = rt.store.resolve(name, create=False)
        owned |= set(space_collections(rt.store.client, rt.store._ef, rec))
    names = {c if isinstance(c, str) else c.name for c in rt.store.client.list_collections()}
    return sorted(names - owned)


def targets(w) -> dict:
    """What the next rounds can act on."""
    cur = w.curation
    order = w.node_ids
    return {
        "rejected": [d.message_id for d in w.decisions.values() if not d.kept][:20],
        "edges": [[u, v] for u, v in list(w.graph.edges)[:40]],
        "nodes": order[-40:],
        "pending": [i.id for i in cur.items("pending")][:20],
        "undo": cur.log.undo_target() is not None,
        "redo": cur.log.redo_target() is not None,
    }


def _run_cli(rt, argv: list[str], stdin: str = "") -> None:
    """The command as ``weaver.cli.main`` runs it, with this process's runtime (no second model load)."""
    from weaver.cli import build_parser
    from weaver.models import WeaverError

    args = build_parser().parse_args(argv)
    old_in, old_out = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = io.StringIO(stdin), io.StringIO()
    try:
        args.func(rt, args)
    except WeaverError:
        pass  # refused: nothing written, the state before is the only one
    finally:
        sys.stdin, sys.stdout = old_in, old_out


def check(args) -> int:
    from crash_harness import check_space
    from weaver.chroma_space import ChromaSpace
    from weaver.embedding import CachedEmbedder, USEEmbedder

    _EMBEDDER["e"] = CachedEmbedder(USEEmbedder())
    acks = json.loads(Path(args.acks).read_text()) if Path(args.acks).exists() else {}
    rt = _runtime(Path(args.data))
    report: dict = {"problems": [], "lost": 0, "dangling": 0, "repaired": 0}
    for name in rt.store.list_spaces():
        w = rt.open(name, create=False)
        rep = check_space(w, acks if name == MAIN else {}, chroma_vectors=True)
        report["problems"] += [f"{name}: {p}" for p in rep["problems"] + references(w)]
        report["lost"] += rep["lost"]
        report["dangling"] += rep["dangling"]
        report["repaired"] += len(rep["repaired"]) + len(w.curation.repaired)
        if name == MAIN:
            report["targets"] = targets(w)
            report["acked"], report["nodes"], report["edges"] = rep["acked"], rep["nodes"], rep["edges"]
    if MAIN not in rt.store.list_spaces():
        report["problems"].append(f"the main space {MAIN!r} is gone")
    report["problems"] += [f"stray collection {c}" for c in stray_collections(rt)]
    killed = fingerprint(rt)
    if args.cmd:
        cmd = json.loads(args.cmd)
        ref = _runtime(Path(args.before))
        states = [fingerprint(ref)]
        _FP_WRITES["n"] = 0
        original = ChromaSpace.bump_revision

        def bump(space):  # the end of a write section: record the store as it is then
            token = original(space)
            states.append(fingerprint(ref))
            return token

        ChromaSpace.bump_revision = bump
        crash = ref.store.client._crash
        start = crash.writes
        try:
            _run_cli(ref, cmd["argv"], cmd.get("stdin", ""))
        finally:
            ChromaSpace.bump_revision = original
        report["writes"] = crash.writes - start - _FP_WRITES["n"]
        states.append(fingerprint(ref))
        report["sections"] = len(states) - 1
        if killed not in states:
            report["problems"].append(
                f"{' '.join(cmd['argv'][:3])}: the killed store matches none of the "
                f"{len(states)} states before/after its write sections: " + _diff(killed, states)
            )
    print("CHECK " + json.dumps(report, ensure_ascii=False), flush=True)
    return 0


def _diff(killed: dict, states: list[dict]) -> str:
    best = min(states, key=lambda s: sum(killed.get(k) != s.get(k) for k in set(killed) | set(s)))
    out = []
    for space in sorted(set(killed) | set(best)):
        a, b = killed.get(space) or {}, best.get(space) or {}
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                if isinstance(a.get(k), list) and isinstance(b.get(k), list):
                    out.append(
                        f"{space}.{k}: +{sorted(set(a[k]) - set(b[k]))[:3]} -{sorted(set(b[k]) - set(a[k]))[:3]}"
                    )
                else:
                    out.append(f"{space}.{k}: {str(a.get(k))[:80]} vs {str(b.get(k))[:80]}")
    return "; ".join(out)[:1500]


# ----------------------------------------------------------------- parent
def _env(extra: dict | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "WEAVER_"))}
    return env | {"PYTHONUNBUFFERED": "1", "WEAVER_BACKEND": "rules"} | (extra or {})


def _cli(work: Path, argv: list[str], crash: str | None = None, stdin: str = ""):
    cmd = [sys.executable, "-m", "weaver", "--data-dir", str(work / "data")] + argv
    return subprocess.Popen(
        cmd,
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env({"WEAVER_CRASH_AT": crash} if crash else None),
    )


def _check(work: Path, cmd: dict | None) -> dict | None:
    argv = [
        sys.executable,
        str(Path(__file__).resolve()),
        "check",
        "--data",
        str(work / "data"),
        "--before",
        str(work / "before"),
        "--acks",
        str(work / "acks.json"),
    ]
    if cmd:
        argv += ["--cmd", json.dumps(cmd, ensure_ascii=False)]
    out = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=_env(), timeout=900)
    line = next((x for x in out.stdout.splitlines() if x.startswith("CHECK ")), None)
    if line is None:
        return {"problems": [f"checker failed: {out.stderr[-1500:]}"], "lost": 0, "dangling": 0, "repaired": 0}
    return json.loads(line[6:])


def _write_file(work: Path, lines: list[dict], task: str | None = None) -> str:
    path = work / f"in-{time.time_ns()}.jsonl"
    rows = ([{"task": task}] if task else []) + lines
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    return str(path)


def _absorb_acks(acks: dict, out: str) -> None:
    for line in out.splitlines():
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if isinstance(r, dict) and "message_id" in r:
            acks[r["message_id"]] = {"id": r["message_id"], "kept": r["kept"], "node": r["node_id"] or ""}


class Campaign:
    def __init__(self, work: Path, seed: int, log=print):
        self.work, self.rng, self.log = work, random.Random(seed), log
        self.seed, self.cursor = seed, 0
        self.acks: dict = {}
        self.targets: dict = {}
        self.writes: dict[str, int] = {}
        self.summary = {
            "rounds": 0,
            "kills": 0,
            "at_write": 0,
            "timed": 0,
            "finished": 0,
            "refused": 0,
            "lost": 0,
            "dangling": 0,
            "repairs": 0,
            "problems": [],
            "by_command": {},
            "checks": 0,
        }

    def _save_acks(self) -> None:
        (self.work / "acks.json").write_text(json.dumps(self.acks))

    def _ingest_cmd(self, space: str, n: int) -> dict:
        lines = corpus_lines(self.cursor, n, self.seed)
        if space == MAIN:
            self.cursor += n
        task = "Plan a trip in China within budget / 规划预算内的中国旅行" if self.rng.random() < 0.15 else None
        return {"argv": ["--space", space, "ingest", _write_file(self.work, lines, task), "--json"]}

    def setup(self) -> None:
        for cmd in (self._ingest_cmd(MAIN, 30), {"argv": ["--space", MAIN, "review"]}):
            proc = _cli(self.work, cmd["argv"])
            out, err = proc.communicate(timeout=300)
            if proc.returncode != 0:
                raise RuntimeError(f"setup failed: {err[-800:]}")
            _absorb_acks(self.acks, out)
        self._save_acks()
        rep = _check(self.work, None)
        self.targets = rep.get("targets", {})
        self.summary["problems"] += [f"setup: {p}" for p in rep["problems"]]

    def pick(self) -> tuple[str, dict]:
        t, rng = self.targets, self.rng
        options = [
            ("ingest", 5),
            ("review --apply", 2),
            ("task", 1),
            ("reembed", 1),
            ("delete-space", 1),
            ("chat", 1),
            ("status", 2),
        ]
        options += [("promote", 2)] if t.get("rejected") else []
        options += [("accept", 2), ("reject", 1)] if t.get("pending") else []
        options += [("edge rm", 2)] if t.get("edges") else []
        options += [("edge set", 2)] if len(t.get("nodes", [])) > 2 else []
        options += [("undo", 2)] if t.get("undo") else []
        options += [("redo", 1)] if t.get("redo") else []
        name = rng.choices([o for o, _ in options], [w for _, w in options])[0]
        sp = ["--space", MAIN]
        if name == "ingest":
            return name, self._ingest_cmd(MAIN, rng.choice([1, 3, 8, 40]))
        if name == "review --apply":
            return name, {"argv": sp + ["review", "--apply"]}
        if name == "task":
            return name, {"argv": sp + ["task", rng.choice(["Plan a 3-day Beijing trip", "规划上海两日游"])]}
        if name == "reembed":
            return name, {"argv": sp + ["reembed"]}
        if name == "delete-space":
            return name, {"argv": ["--space", VICTIM, "delete-space", VICTIM, "--yes"]}
        if name == "chat":
            return name, {"argv": sp + ["chat", "--offline"], "stdin": rng.choice(CHAT_LINES) + "\n"}
        if name == "status":
            return name, {
                "argv": sp + ["status", rng.choice(t["nodes"]), rng.choice(["retracted", "superseded", "active"])]
            }
        if name == "promote":
            return name, {"argv": sp + ["promote", rng.choice(t["rejected"])]}
        if name in ("accept", "reject"):
            return name, {"argv": sp + [name, rng.choice(t["pending"])]}
        if name == "edge rm":
            return name, {"argv": sp + ["edge", "rm"] + rng.choice(t["edges"])}
        if name == "edge set":
            i, j = sorted(rng.sample(range(len(t["nodes"])), 2))
            return name, {
                "argv": sp
                + [
                    "edge",
                    "set",
                    t["nodes"][i],
                    t["nodes"][j],
                    rng.choice(["causal", "temporal", "conditional", "elaborates"]),
                ]
            }
        return name, {"argv": sp + [name]}

    def round(self, r: int) -> None:
        name, cmd = self.pick()
        if name == "delete-space":  # a fresh victim to delete
            proc = _cli(self.work, self._ingest_cmd(VICTIM, 6)["argv"])
            proc.communicate(timeout=300)
        before = self.work / "before"
        shutil.rmtree(before, ignore_errors=True)
        shutil.copytree(self.work / "data", before)
        crash = None
        if self.rng.random() < 0.6:
            n = self.rng.randint(1, max(2, self.writes.get(name, 10)))
            crash = f"{n}:after" if self.rng.random() < 0.25 else str(n)
        t0 = time.time()
        proc = _cli(self.work, cmd["argv"], crash)
        try:
            if crash:
                out, err = proc.communicate(cmd.get("stdin"), timeout=300)
            else:
                proc.stdin.write(cmd.get("stdin", ""))
                proc.stdin.close()
                proc.stdin = None  # communicate() must not flush it again
                time.sleep(self.rng.uniform(2.5, 7.0))  # start-up is ~3 s: most kills land in the command
                proc.send_signal(signal.SIGKILL)
                out, err = proc.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
        s = self.summary
        s["rounds"] += 1
        stats = s["by_command"].setdefault(name, {"rounds": 0, "kills": 0})
        stats["rounds"] += 1
        if proc.returncode == -signal.SIGKILL:
            s["kills"] += 1
            stats["kills"] += 1
            s["at_write" if crash else "timed"] += 1
        elif proc.returncode == 0:
            s["finished"] += 1
        elif proc.returncode == 2 and err.startswith("error: ") and len(err.strip().splitlines()) == 1:
            s["refused"] += 1  # a clear one-line refusal (e.g. a cycle): nothing may have been written
        else:
            s["problems"].append(f"round {r} {name}: exit {proc.returncode}: {err[-800:]}")
        if cmd["argv"][1] == MAIN and name in ("ingest", "promote"):
            _absorb_acks(self.acks, out)
        self._save_acks()
        rep = _check(self.work, cmd)
        s["checks"] += 1
        s["lost"] += rep["lost"]
        s["dangling"] += rep["dangling"]
        s["repairs"] += rep["repaired"]
        s["problems"] += [f"round {r} {name} ({crash or 'timed'}): {p}" for p in rep["problems"]]
        self.targets = rep.get("targets", self.targets)
        if rep.get("writes"):
            self.writes[name] = max(self.writes.get(name, 0), rep["writes"])
        self.log(
            f"round {r + 1} {name} {crash or 'timed'}: rc={proc.returncode} {time.time() - t0:.1f}s "
            f"acked={len(self.acks)} repairs={rep['repaired']} problems={len(rep['problems'])}"
        )


def run_commands_campaign(kills: int, work: Path | None = None, seed: int = 1, log=print) -> dict:
    """``kills`` rounds over the writing commands; returns the summary (``problems`` must be empty)."""
    work = Path(work or tempfile.mkdtemp(prefix="cw-crash-cmd-"))
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    c = Campaign(work, seed, log)
    c.setup()
    for r in range(kills):
        c.round(r)
    c.summary["acked"] = len(c.acks)
    c.summary["seconds"] = round(time.time() - t0, 1)
    c.summary["work"] = str(work)
    return c.summary


def main(argv: list[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd_name", required=True)
    c = sub.add_parser("check")
    c.add_argument("--data", required=True)
    c.add_argument("--before", required=True)
    c.add_argument("--acks", required=True)
    c.add_argument("--cmd")
    args = p.parse_args(argv)
    args.cmd = getattr(args, "cmd", None)
    return check(args)


if __name__ == "__main__":
    sys.exit(main())
