"""No private name crosses a module boundary (house rule): neither imported nor reached into.

Private (``_x``) names are free to change inside their module; a caller in another
module that imports one, or reads ``obj._x`` where ``_x`` is no name of its own
module, breaks silently when they do.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted([*(ROOT / "weaver").rglob("*.py"), *(ROOT / "pages").glob("*.py"), ROOT / "app.py"])


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def own_private_names(tree: ast.AST) -> set[str]:
    """Private names a module defines itself: functions, class fields and attributes it assigns."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
    return {n for n in names if _private(n)}


def reach_ins(source: str) -> list[str]:
    """``from m import _x`` of a project module, and ``obj._x`` reads of a ``_x`` the module does not define."""
    tree = ast.parse(source)
    own = own_private_names(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("weaver")):
            found += [f"line {node.lineno}: imports {a.name}" for a in node.names if _private(a.name)]
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Load)
            and _private(node.attr)
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
            and node.attr not in own
        ):
            found.append(f"line {node.lineno}: reaches into .{node.attr}")
    return found


def test_the_check_sees_an_imported_private_name_and_a_reach_in():
    bad = "from .queue_actions import _writes\n\ndef f(agent):\n    return agent._event('error')\n"
    assert reach_ins(bad) == ["line 1: imports _writes", "line 4: reaches into ._event"]
    # a private name of the module itself (a dataclass field, a marker set on a local function) is fine
    ok = "class P:\n    _nodes: list\n\ndef g(p):\n    p._nodes.append(1)\n\ndef h(f):\n    f._mark = True\n"
    assert reach_ins(ok) == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_private_name_crosses_a_module(path):
    assert reach_ins(path.read_text(encoding="utf-8")) == []


def test_the_library_never_imports_the_travel_agent():
    """weaver/ is a library: only its faces (the CLI's subcommand table, the benchmarks) may reach weaver.agent."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "weaver"
    faces = {root / "cli.py"} | set((root / "bench").rglob("*.py"))
    bad = []
    for path in root.rglob("*.py"):
        if root / "agent" in path.parents or path in faces:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                name = ("." * node.level) + (node.module or "")
                if name.lstrip(".").split(".")[0] == "agent" or (node.module or "").startswith("weaver.agent"):
                    bad.append(f"{path.relative_to(root.parent)}:{node.lineno} {name}")
            elif isinstance(node, ast.Import) and any(a.name.startswith("weaver.agent") for a in node.names):
                bad.append(f"{path.relative_to(root.parent)}:{node.lineno}")
    assert not bad, bad


def imported_modules(source: str) -> list[tuple[int, str]]:
    """Every module an ``import`` or absolute ``from ... import`` names, at any depth (lazy ones too)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.append((node.lineno, node.module))
    return found


STUDIO_ONLY = ("pyvis", "streamlit", "ui")


def test_the_library_never_imports_the_studio_or_pyvis():
    """The HTML graph rendering lives with the studio (ui/graph_render.py): weaver/ names neither pyvis,
    streamlit nor ui, not even lazily inside a function."""
    lazy = "import json\n\ndef f():\n    from pyvis.network import Network\n    import streamlit as st\n"
    assert imported_modules(lazy) == [(1, "json"), (4, "pyvis.network"), (5, "streamlit")]
    bad = [
        f"{path.relative_to(ROOT)}:{line} {name}"
        for path in sorted((ROOT / "weaver").rglob("*.py"))
        for line, name in imported_modules(path.read_text(encoding="utf-8"))
        if name.split(".")[0] in STUDIO_ONLY
    ]
    assert not bad, bad


def test_importing_every_library_module_loads_no_pyvis():
    """At run time too: no library module pulls pyvis (or streamlit) in through another package."""
    import subprocess
    import sys

    code = (
        "import importlib, pkgutil, sys, weaver\n"
        "for m in pkgutil.walk_packages(weaver.__path__, 'weaver.'):\n"
        "    if not m.name.endswith('__main__'):\n"
        "        importlib.import_module(m.name)\n"
        f"print(sorted(k for k in sys.modules if k.split('.')[0] in {STUDIO_ONLY!r}))\n"
        "print(len([k for k in sys.modules if k.startswith('weaver.')]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    loaded, count = out.stdout.strip().splitlines()
    assert loaded == "[]"
    assert int(count) > 50  # the walk really imported the library, not just the package
