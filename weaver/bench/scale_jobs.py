"""The scale benchmark's child processes: the scripts each measurement runs in a fresh interpreter, and their runner.

Every measurement of :func:`weaver.bench.scale.run_scale` runs in its own
process on the code of one source tree (this one or a baseline), so its open
time and peak RSS are its own and a baseline runs its own code: the open /
query / ingest job (:data:`OPEN_SCRIPT`) and the bulk build of a big space
(:data:`BUILD_SCRIPT`), run by :func:`run_job`. Kept apart from the benchmark's
plan (which jobs, on which spaces) and its report.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from ..models import WeaverError

__all__ = ["BUILD_SCRIPT", "OPEN_SCRIPT", "disk_mb", "run_job"]


def disk_mb(path: str | Path) -> float:
    """The size in MB of every file under ``path`` (a space's data directory)."""
    total = sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file())
    return round(total / 2**20, 1)


# Run in a fresh interpreter with PYTHONPATH at a source tree (this one or a baseline): only names that every
# release of the weaver has (Settings, Runtime, CachedEmbedder, USEEmbedder, Message, ingest, query).
OPEN_SCRIPT = r"""
import json, resource, sys, time
from dataclasses import replace
from pathlib import Path
from weaver.embedding import CachedEmbedder, USEEmbedder
from weaver.models import Message
from weaver.runtime import Runtime
from weaver.settings import Settings

job = json.loads(sys.argv[1])
emb = CachedEmbedder(USEEmbedder())
emb.embed(job["queries"] + job["texts"])  # warm: what is measured is the weaver, not first-time embedding
import jieba
jieba.initialize()  # its dictionary loads once a process (~0.9 s), like the model: not a cost per turn
rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
s = Settings.from_env(env={}, secrets_path=None)
rt = Runtime.from_settings(replace(s, data_dir=Path(job["data_dir"])), embedder=emb)
out = {}
t0 = time.perf_counter()
w = rt.open(job["space"])
out["open_s"] = time.perf_counter() - t0
out["open_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
out["rss_before_open_mb"] = rss0
if job.get("warm_first") and hasattr(w, "warm"):  # once-a-process loads before timed ingest, like the model's
    t0 = time.perf_counter()
    w.warm()
    out["warm_first_s"] = time.perf_counter() - t0
lat = []
for q in job["queries"]:
    t0 = time.perf_counter()
    w.query(q, budget=1024)
    lat.append((time.perf_counter() - t0) * 1e3)
out["query_ms"] = lat
if job.get("warm") and hasattr(w, "warm"):  # the once-a-process loads, timed apart (a release without it: none)
    t0 = time.perf_counter()
    w.warm()
    out["warm_s"] = time.perf_counter() - t0
texts = job["texts"]
nb = job.get("batched", 0)
if nb:
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(0, nb, 64):
        w.ingest_many([Message(t) for t in texts[i:min(nb, i + 64)]])
    getattr(w, "flush", lambda: None)()  # timed: Chroma holds every message (write-behind applied)
    out["batched_turns_per_s"] = nb / (time.perf_counter() - t0)
    # the process's CPU time (every thread's, Chroma's included): what a shared box's other load moves least
    out["batched_cpu_ms"] = (time.process_time() - c0) / nb * 1e3
t0, c0 = time.perf_counter(), time.process_time()
lat = []
for t in texts[nb:]:
    t1 = time.perf_counter()
    w.ingest(t)
    lat.append((time.perf_counter() - t1) * 1e3)
getattr(w, "flush", lambda: None)()  # timed: the write-behind log applied, so Chroma holds every message
out["one_by_one_turns_per_s"] = (len(texts) - nb) / max(time.perf_counter() - t0, 1e-9)
out["one_by_one_cpu_ms"] = (time.process_time() - c0) / max(len(texts) - nb, 1) * 1e3
out["ingest_ms"] = lat
if job.get("then"):  # more messages in the same process: ingest with every once-a-process load behind it
    t0 = time.perf_counter()
    for t in job["then"]:
        w.ingest(t)
    getattr(w, "flush", lambda: None)()
    out["then_turns_per_s"] = len(job["then"]) / max(time.perf_counter() - t0, 1e-9)
if job.get("reopen"):
    t0 = time.perf_counter()
    rt.open(job["space"])
    out["reopen_s"] = time.perf_counter() - t0
out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print("\nRESULT " + json.dumps(out))
"""


# The bulk build of a big space on the code of a tree (this one or a baseline): each system is measured on the
# storage layout its own code writes (a space of this release's layout is not writable by an older one).
BUILD_SCRIPT = r"""
import json, sys, time
from dataclasses import replace
from pathlib import Path
from weaver.settings import Settings
from weaver.store import connect

job = json.loads(sys.argv[1])
spec = json.loads(Path(job["spec"]).read_text("utf-8"))  # the texts and their restatements, from the running bench
ns = {"__name__": "scale_writer"}
exec(compile(Path(job["writer"]).read_text("utf-8"), job["writer"], "exec"), ns)  # this release's writer, any code
s = replace(Settings.from_env(env={}, secrets_path=None), data_dir=Path(job["data_dir"]))
w = type("W", (), {})()
w.space = connect(s).open_space(job["space"], create=True)
t0 = time.perf_counter()
edges = ns["write_bulk"](w, spec["texts"], job["dim"], job["n"], (spec["edges"], spec["gone"]))
getattr(w.space, "sync", lambda: None)()
print("\nRESULT " + json.dumps({"edges": edges, "bulk_s": time.perf_counter() - t0}))
"""


def run_job(tree: Path, job: dict, timeout: float = 3600, script: str = OPEN_SCRIPT) -> dict:
    """Run :data:`OPEN_SCRIPT` (or ``script``) on the code of ``tree`` (a fresh process: its RSS is the job's own)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    proc = subprocess.run(
        [sys.executable, "-c", script, json.dumps(job)],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=str(tree),
        check=False,
    )
    lines = [x for x in proc.stdout.splitlines() if x.startswith("RESULT ")]
    if proc.returncode != 0 or not lines:
        raise WeaverError(f"scale job on {tree} failed ({proc.returncode}): {proc.stderr.strip()[-400:]}")
    return json.loads(lines[-1][7:])
