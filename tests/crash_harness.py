"""Crash harness: SIGKILL the ingesting process at random points, reopen, check nothing acknowledged was lost.

Each round starts a child process that opens the space (running the repair on
open), checks it against every acknowledgement so far, prints ``READY`` and then
ingests a deterministic bilingual corpus one message at a time, appending one
acknowledgement line per message *after* ``ingest`` returned. The parent kills
the child with SIGKILL, either after a random delay or at a random write inside
the store (the child SIGKILLs itself just before or after the n-th call of
``put_nodes`` / ``put_edges`` / ``put_records`` / ``put_decisions`` ...), so the
kill lands between the write steps as well as anywhere else.

Checks after every kill (see :func:`check_space`): every acknowledged message has
its decision (and its node, if kept, with its vector); no node without the
decision that names it (half-written); no edge to a missing node, in the graph
or in the raw Chroma collection; one node per message; the audit log agrees
with the graph; re-ingesting an acknowledged message id is a no-op returning the
same node (checked by the child on every round, which starts from message 0).

Run the full campaign (documented in docs/reliability.md)::

    nice python tests/crash_harness.py --kills 40 --commands 100

``--commands`` adds the campaign over every other writing command
(``tests/crash_commands.py``: promote, review --apply, accept / reject, edge
set / rm, undo / redo, status, task, reembed, delete-space, an agent chat turn).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPACE = "crash 崩溃 test"  # not a valid Chroma name on purpose: goes through space_slug
INJECT_METHODS = (
    "put_nodes",
    "put_edges",
    "put_records",
    "put_decisions",
    "put_meta",
    "delete_nodes",
    "delete_edges",
    "delete_records",
)  # calls on the space (buffered in a write section)

_CITIES = ["Beijing", "Shanghai", "Xi'an", "Chengdu", "Hangzhou"]
_CITIES_ZH = ["北京", "上海", "西安", "成都", "杭州"]
_THINGS = [("hotels", "酒店"), ("restaurants", "餐厅"), ("museums", "博物馆"), ("train tickets", "火车票")]
_FOODS = [("seafood", "海鲜"), ("peanuts", "花生"), ("gluten", "麸质"), ("spicy food", "辣的")]


def make_corpus(n: int, seed: int = 7) -> list[dict]:
    """``n`` deterministic messages in both languages: constraints, chit-chat, thoughts, tool results."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        c = rng.randrange(len(_CITIES))
        t_en, t_zh = _THINGS[rng.randrange(len(_THINGS))]
        f_en, f_zh = _FOODS[rng.randrange(len(_FOODS))]
        price = rng.randrange(100, 9000)
        r = rng.random()
        zh = rng.random() < 0.5
        if r < 0.15:
            kind, text = "user_input", rng.choice(["好的", "谢谢！", "嗯嗯"] if zh else ["ok", "thanks!", "great"])
        elif r < 0.4:
            kind = "user_input"
            text = (
                f"我在{_CITIES_ZH[c]}的预算是{price}元，而且我对{f_zh}过敏。"
                if zh
                else f"My budget in {_CITIES[c]} is {price} yuan, and I'm allergic to {f_en}."
            )
        elif r < 0.6:
            kind = "agent_thought"
            text = (
                f"需要查询{_CITIES_ZH[c]}价格低于{price}元的{t_zh}。"
                if zh
                else f"I need to search for {t_en} in {_CITIES[c]} under {price} yuan."
            )
        elif r < 0.9:
            kind = "tool_result"
            text = (
                f"查询到{_CITIES_ZH[c]}有{price % 9 + 1}家{t_zh}，约{price}元。"
                if zh
                else f"Found {price % 9 + 1} {t_en} in {_CITIES[c]}, about {price} yuan each."
            )
        else:
            kind = "tool_result"  # a long tool output with control characters (stripped on ingest)
            rows = [{"name": f"{t_en} {j}\x07", "city": _CITIES[c], "price": price + j} for j in range(60)]
            text = json.dumps({"results": rows}, ensure_ascii=False)
        out.append({"id": f"crash-{i:05d}", "kind": kind, "content": text})
    return out


# --------------------------------------------------------------------- checks
def read_acks(path: Path) -> dict[str, dict]:
    """Acknowledged messages; a torn last line (the kill hit the write) is ignored."""
    acks = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                a = json.loads(line)
            except ValueError:
                continue
            acks.setdefault(a["id"], a)
    return acks


def check_space(w, acks: dict[str, dict], chroma_vectors: bool = False) -> dict:
    """Every invariant the crash guarantees promise; ``problems`` is empty when all hold.

    ``chroma_vectors`` also reads Chroma's own copy of each vector (only safe in a
    process that opened the data directory after the last other writer stopped).
    """
    import numpy as np

    from weaver.models import Edge
    from weaver.record_codec import unpack
    from weaver.text import clean_text

    problems: list[str] = []
    lost = [m for m in acks if m not in w.decisions]
    problems += [f"acknowledged message {m} lost" for m in lost]
    for mid, a in acks.items():
        d = w.decisions.get(mid)
        if d is None:
            continue
        if d.kept != a["kept"]:
            problems.append(f"{mid}: acknowledged kept={a['kept']}, stored kept={d.kept}")
        if a["kept"] and (d.node_id != a["node"] or a["node"] not in w.nodes):
            problems.append(f"{mid}: acknowledged node {a['node']} missing (decision names {d.node_id})")
    # no half-written node: each node is named by its message's decision, with content and vector
    raw = w.space.nodes.get(include=["metadatas", "embeddings"] if chroma_vectors else ["metadatas"])
    raw_ids = set(raw["ids"])
    if raw_ids != set(w.nodes):
        problems.append(f"store nodes {len(raw_ids)} != graph nodes {len(w.nodes)}")
    for nid, vec in zip(raw["ids"], raw["embeddings"] if chroma_vectors else []):
        if len(vec) != w.embedder.dim or not any(vec):
            problems.append(f"node {nid}: bad vector in Chroma")
    for nid in w.nodes:
        vec = w.vector_of(nid)
        if vec.shape != (w.embedder.dim,) or not np.isfinite(vec).all() or not vec.any():
            problems.append(f"node {nid}: bad vector")
    by_message: dict[str, list[str]] = {}
    for nid, node in w.nodes.items():
        by_message.setdefault(node.message_id, []).append(nid)
        d = w.decisions.get(node.message_id)
        if d is None or d.node_id != nid or not d.kept:
            problems.append(f"half-written node {nid} (message {node.message_id})")
        elif clean_text(d.content) != node.content:
            problems.append(f"node {nid}: content differs from its message")
    problems += [f"message {m} has {len(ids)} nodes" for m, ids in by_message.items() if len(ids) > 1]
    for d in w.decisions.values():
        if d.kept and d.node_id not in w.nodes:
            problems.append(f"decision {d.message_id} names missing node {d.node_id}")
    # no dangling edge, in the mirror or in the raw collection
    raw_edges = [unpack(Edge, m) for m in w.space.edges.get(include=["metadatas"])["metadatas"]]
    dangling = [f"{e.source}->{e.target}" for e in raw_edges if e.source not in raw_ids or e.target not in raw_ids]
    dangling += [f"{u}->{v}" for u, v in w.graph.edges if u not in w.nodes or v not in w.nodes]
    problems += [f"dangling edge {x}" for x in dangling]
    if len(raw_edges) != w.graph.number_of_edges():
        problems.append(f"store edges {len(raw_edges)} != graph edges {w.graph.number_of_edges()}")
    curation = getattr(w, "curation", None)
    audit_checked = curation is not None and hasattr(curation, "verify")
    if audit_checked:
        problems += [f"audit: {p}" for p in curation.verify()]
    return {
        "acked": len(acks),
        "lost": len(lost),
        "dangling": len(dangling),
        "nodes": len(w.nodes),
        "edges": w.graph.number_of_edges(),
        "decisions": len(w.decisions),
        "repaired": list(w.repaired),
        "audit_checked": audit_checked,
        "problems": problems,
    }


# ---------------------------------------------------------------------- child
def _inject(space, method: str, nth: int, when: str) -> None:
    """SIGKILL this process just before/after the nth call of a store write."""
    original = getattr(space, method)
    calls = {"n": 0}

    def wrapped(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == nth and when == "before":
            os.kill(os.getpid(), signal.SIGKILL)
        out = original(*args, **kwargs)
        if calls["n"] == nth and when == "after":
            os.kill(os.getpid(), signal.SIGKILL)
        return out

    setattr(space, method, wrapped)


def child(args) -> int:
    from weaver import Runtime, Settings

    settings = Settings.from_env(env={}, secrets_path=None, data_dir=Path(args.data_dir), backend="rules")
    rt = Runtime.from_settings(settings)
    w = rt.open(SPACE)
    acks_path = Path(args.acks)
    acks = read_acks(acks_path)
    print("CHECK " + json.dumps(check_space(w, acks, chroma_vectors=True), ensure_ascii=False), flush=True)
    if args.check_only:
        return 0
    # load the models now, so a timed kill lands in ingest work rather than in start-up
    from weaver.text import tokenize

    w.embedder.embed(["warm up 预热"])
    tokenize("预热 warm up")
    if args.inject:
        method, nth, when = args.inject.split(":")
        _inject(w.space, method, int(nth), when)
    if args.crash_at:  # WEAVER_CRASH_AT's mechanism, armed now so the kill lands in ingest work
        n, _, when = args.crash_at.partition(":")
        rt.store.client._crash.arm(int(n), when == "after", simulate=False)
    print("READY", flush=True)
    if not w.meta.get("task"):
        w.set_task("Plan a trip in China within budget and dietary constraints / 规划预算和饮食限制内的中国旅行")
    fd = os.open(acks_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    for msg in make_corpus(args.messages, args.seed):
        res = w.ingest(msg["content"], msg["kind"], message_id=msg["id"])
        prev = acks.get(msg["id"])
        node = res.node.id if res.node else ""
        if prev is not None and (not res.duplicate or node != prev["node"]):
            print(
                f"VIOLATION re-ingest of {msg['id']} was not idempotent: duplicate={res.duplicate}, "
                f"node {node!r} vs acknowledged {prev['node']!r}",
                flush=True,
            )
            return 3
        if prev is None:
            # one write() per line on an O_APPEND descriptor: a kill leaves whole lines (or a torn last one)
            os.write(fd, (json.dumps({"id": msg["id"], "kept": res.kept, "node": node}) + "\n").encode())
    print("DONE", flush=True)
    return 0


# --------------------------------------------------------------------- parent
def _spawn(
    work: Path,
    messages: int,
    seed: int,
    inject: str | None = None,
    check_only: bool = False,
    crash_at: str | None = None,
):
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "child",
        "--data-dir",
        str(work / "data"),
        "--acks",
        str(work / "acks.jsonl"),
        "--messages",
        str(messages),
        "--seed",
        str(seed),
    ]
    if inject:
        cmd += ["--inject", inject]
    if check_only:
        cmd.append("--check-only")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "WEAVER_"))}
    if crash_at:
        cmd += ["--crash-at", crash_at]
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _read_until_ready(proc, timeout: float = 120) -> tuple[dict | None, bool]:
    check, deadline = None, time.time() + timeout
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            return check, False
        if line.startswith("CHECK "):
            check = json.loads(line[6:])
        elif line.startswith("READY"):
            return check, True
    return check, False


def run_campaign(kills: int, work: Path | None = None, seed: int = 1, max_delay: float = 1.2, log=print) -> dict:
    """``kills`` rounds of spawn -> kill -> reopen-and-check; returns the summary (``problems`` must be empty)."""
    work = Path(work or tempfile.mkdtemp(prefix="cw-crash-"))
    work.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    # enough that no round runs out of corpus: an uninterrupted round ingests ~10-30 messages a second
    messages = max(240, kills * 24)
    summary = {
        "kills": 0,
        "rounds": 0,
        "injected": 0,
        "timed": 0,
        "finished_early": 0,
        "repairs": 0,
        "lost": 0,
        "dangling": 0,
        "problems": [],
        "checks": 0,
        "audit_checked": False,
    }

    def absorb(check: dict | None, where: str) -> None:
        if check is None:
            summary["problems"].append(f"{where}: the child printed no check")
            return
        summary["checks"] += 1
        summary["lost"] += check["lost"]
        summary["dangling"] += check["dangling"]
        summary["repairs"] += len(check["repaired"])
        summary["audit_checked"] = check["audit_checked"]
        summary["problems"] += [f"{where}: {p}" for p in check["problems"]]

    t0 = time.time()
    for r in range(kills):
        inject = crash_at = None
        if rng.random() < 0.5:
            if rng.random() < 0.5:  # at the n-th raw Chroma write after READY (the store's crash point)
                crash_at = f"{rng.randint(1, 40)}{rng.choice(['', ':after'])}"
            else:
                inject = f"{rng.choice(INJECT_METHODS)}:{rng.randint(1, 4)}:{rng.choice(['before', 'after'])}"
        proc = _spawn(work, messages, seed, inject, crash_at=crash_at)
        check, ready = _read_until_ready(proc)
        absorb(check, f"round {r} open")
        if not ready:
            proc.kill()
            _, err = proc.communicate()
            summary["problems"].append(f"round {r}: the child died before READY: {err[-500:]}")
            continue
        summary["rounds"] += 1
        if inject or crash_at:
            summary["injected"] += 1
            try:
                proc.wait(timeout=rng.uniform(1.0, 3.0))  # a write it never reaches: kill it on a timer
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGKILL)
        else:
            summary["timed"] += 1
            time.sleep(rng.uniform(0.0, max_delay))
            proc.send_signal(signal.SIGKILL)
        out, err = proc.communicate()
        if proc.returncode == -signal.SIGKILL:
            summary["kills"] += 1
        elif proc.returncode == 0:
            summary["finished_early"] += 1
        else:
            summary["problems"].append(f"round {r}: child exited {proc.returncode}: {out[-300:]} {err[-800:]}")
        summary["problems"] += [f"round {r}: {x}" for x in out.splitlines() if x.startswith("VIOLATION")]
        log(
            f"round {r + 1}/{kills} {inject or (crash_at and 'write ' + crash_at) or 'timed'}: rc={proc.returncode} "
            f"acked={len(read_acks(work / 'acks.jsonl'))} repairs={len(check['repaired']) if check else '?'}"
        )
    # a last open after the last kill, then the rest of the corpus without interruption
    proc = _spawn(work, messages, seed, check_only=True)
    out, err = proc.communicate(timeout=300)
    final = next((json.loads(x[6:]) for x in out.splitlines() if x.startswith("CHECK ")), None)
    absorb(final, "final open")
    summary["acked"] = final["acked"] if final else 0
    summary["nodes"] = final["nodes"] if final else 0
    summary["edges"] = final["edges"] if final else 0
    summary["seconds"] = round(time.time() - t0, 1)
    summary["work"] = str(work)
    return summary


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd")
    c = sub.add_parser("child")
    c.add_argument("--data-dir", required=True)
    c.add_argument("--acks", required=True)
    c.add_argument("--messages", type=int, default=200)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--inject")
    c.add_argument("--crash-at")
    c.add_argument("--check-only", action="store_true")
    p.add_argument("--kills", type=int, default=60)
    p.add_argument(
        "--commands",
        type=int,
        default=0,
        help="also kill this many rounds of the other writing commands (see tests/crash_commands.py)",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--work", help="keep the space here (default: a new temporary directory)")
    args = p.parse_args(argv)
    if args.cmd == "child":
        return child(args)
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="cw-crash-"))
    summary = (
        run_campaign(args.kills, work / "ingest", args.seed)
        if args.kills
        else {"problems": [], "lost": 0, "dangling": 0}
    )
    if args.commands:
        from crash_commands import run_commands_campaign

        cmds = run_commands_campaign(args.commands, work / "commands", args.seed)
        print(json.dumps({k: v for k, v in cmds.items() if k != "problems"}, ensure_ascii=False))
        summary["problems"] = summary["problems"] + [f"commands: {p}" for p in cmds["problems"]]
        summary["lost"] += cmds["lost"]
        summary["dangling"] += cmds["dangling"]
    print(json.dumps({k: v for k, v in summary.items() if k != "problems"}, ensure_ascii=False))
    for prob in summary["problems"]:
        print("PROBLEM", prob)
    ok = not summary["problems"] and summary["lost"] == 0 and summary["dangling"] == 0
    print("crash campaign:", "OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
