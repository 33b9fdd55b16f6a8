"""The maintainer's tooling holds: ruff passes, no file gets less formatted than .ci/baseline.json allows.

mypy's half of the baseline runs in .ci/run (a minute or more: too slow for the quick tier).
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys

import pytest

from conftest import ROOT

pytestmark = pytest.mark.skipif(importlib.util.find_spec("ruff") is None, reason="ruff is a dev dependency")


def test_ruff_check_passes_and_formatting_does_not_regress():
    out = subprocess.run(
        [sys.executable, str(ROOT / ".ci" / "baseline.py"), "ruff"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "baseline holds" in out.stdout


def test_the_baseline_catches_an_undefined_name(tmp_path):
    """The check is live: the rule set finds the kind of bug it was adopted for (F821)."""
    bad = tmp_path / "bad.py"
    bad.write_text("def f() -> int:\n    return undefined_name\n", encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--config", str(ROOT / "pyproject.toml"), str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 1 and "F821" in out.stdout


def test_the_run_uses_a_ram_disk_only_when_it_fits_and_nobody_chose(tmp_path, monkeypatch):
    from types import SimpleNamespace

    from conftest import ram_temp_root

    monkeypatch.delenv("PYTEST_DEBUG_TEMPROOT", raising=False)
    free = lambda basetemp=None: SimpleNamespace(option=SimpleNamespace(basetemp=basetemp))  # noqa: E731
    assert ram_temp_root(free(), ram_disk=tmp_path, min_free=0) == tmp_path
    assert ram_temp_root(free(), ram_disk=tmp_path, min_free=1 << 60) is None  # too small
    assert ram_temp_root(free(), ram_disk=tmp_path / "missing", min_free=0) is None
    assert ram_temp_root(free("/somewhere"), ram_disk=tmp_path, min_free=0) is None  # --basetemp wins
    monkeypatch.setenv("PYTEST_DEBUG_TEMPROOT", "/tmp")
    assert ram_temp_root(free(), ram_disk=tmp_path, min_free=0) is None  # so does an explicit temp root


def test_nothing_edits_the_import_path():
    # the checkout is importable through pytest's pythonpath, the editable install or a script's own folder
    edit = re.compile(r"sys\.path\.(?:insert|append|extend)|sys\.path\s*(?:=|\+=)|sys\.path\[")
    files = [ROOT / "app.py"] + [
        p for d in ("weaver", "ui", "pages", "tests", "examples", ".ci") for p in (ROOT / d).rglob("*.py")
    ]
    assert [str(p.relative_to(ROOT)) for p in files if edit.search(p.read_text(encoding="utf-8"))] == []
