"""Lint and type baselines: the tree may get better than .ci/baseline.json says, never worse.

``ruff check`` must pass outright (pyproject.toml selects the rules; real bugs such as
undefined names are never ignored). ``ruff format`` and ``mypy`` have a baseline: the
files not yet formatted, and mypy's error count per file, as they were when the tools
were adopted (formatting 126 files at once would have broken every open branch). A new
file must be formatted and type-clean; an old one may not gain errors.

    python .ci/baseline.py              # ruff and mypy, as CI runs them
    python .ci/baseline.py ruff         # the fast half (tests/test_tooling.py runs this)
    python .ci/baseline.py --update     # after cleaning files up: shrink the baseline
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = ROOT / ".ci" / "baseline.json"


def _run(*cmd: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *cmd], cwd=ROOT, capture_output=True, text=True)


def unformatted() -> set[str]:
    out = _run("ruff", "format", "--check", "--output-format", "concise", ".")
    found = {m.group(1) for m in re.finditer(r"^(.+?):\d+:\d+: unformatted", out.stdout, re.M)}
    if out.returncode not in (0, 1) or (out.returncode == 1 and not found):
        raise SystemExit(f"ruff format did not run: {(out.stderr or out.stdout).strip()[-500:]}")
    return found


def mypy_errors() -> Counter:
    out = _run("mypy")
    found = Counter(m.group(1) for m in re.finditer(r"^([^:\n]+\.py):\d+: error:", out.stdout, re.M))
    if out.returncode not in (0, 1) or (out.returncode == 1 and not found):
        raise SystemExit(f"mypy did not run: {(out.stderr or out.stdout).strip()[-500:]}")
    return found


def main(argv: list[str]) -> int:
    update = "--update" in argv
    which = [a for a in argv if not a.startswith("--")] or ["ruff", "mypy"]
    base = json.loads(BASELINE.read_text(encoding="utf-8")) if BASELINE.exists() else {}
    problems: list[str] = []
    if "ruff" in which:
        lint = _run("ruff", "check", ".")
        if lint.returncode != 0:
            problems.append("ruff check:\n" + lint.stdout.strip())
        now = unformatted()
        if update:
            base["unformatted"] = sorted(now)
        problems += [
            f"ruff format: {f} is not formatted (run `ruff format {f}`)"
            for f in sorted(now - set(base.get("unformatted", [])))
        ]
    if "mypy" in which:
        now_m = mypy_errors()
        if update:
            base["mypy"] = dict(sorted(now_m.items()))
        allowed = base.get("mypy", {})
        problems += [
            f"mypy: {f} has {n} errors (baseline {allowed.get(f, 0)}; run `mypy` to see them)"
            for f, n in sorted(now_m.items())
            if n > allowed.get(f, 0)
        ]
    if update:
        BASELINE.write_text(json.dumps(base, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {BASELINE.relative_to(ROOT)}")
    for p in problems:
        print(p)
    if not problems:
        print(f"baseline holds ({', '.join(which)})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
