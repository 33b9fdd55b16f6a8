"""Package metadata: every subpackage ships, the data files a wheel needs are declared, extras exist."""

from __future__ import annotations

import tomllib

from conftest import ROOT

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_every_subpackage_is_listed():
    """pyproject lists packages by hand (assets/ is mapped in as weaver.assets): a new one must be added."""
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "weaver").rglob("__init__.py")}
    listed = set(PROJECT["tool"]["setuptools"]["packages"])
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"
    assert listed - found == {"weaver.assets"}


def test_the_data_a_wheel_needs_is_declared():
    data = PROJECT["tool"]["setuptools"]["package-data"]
    assert "weights.json" in data["weaver.relations"] and (ROOT / "weaver" / "relations" / "weights.json").is_file()
    assert PROJECT["tool"]["setuptools"]["package-dir"]["weaver.assets"] == "assets"
    for pattern in data["weaver.assets"]:
        assert list((ROOT / "assets").glob(pattern)), pattern
    other = {p.suffix for p in (ROOT / "weaver").rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert other <= {".py", ".json"}, f"a data file no package-data pattern covers: {other}"
    for path in (ROOT / "weaver").rglob("*.json"):  # every shipped weights file is declared by its package
        package = ".".join(path.parent.relative_to(ROOT).parts)
        assert path.name in data.get(package, []), f"declare {path.name} in package-data of {package}"


def test_extras_and_the_console_script():
    meta = PROJECT["project"]
    assert meta["name"] == "contextweaver" and meta["requires-python"] == ">=3.11"
    assert set(meta["optional-dependencies"]) == {"studio", "openai", "bench", "mcp", "langgraph", "dev"}
    assert meta["scripts"]["weaver"] == "weaver.cli:main"
    from weaver.cli import main

    assert callable(main)


def test_requirements_pin_what_the_extras_name():
    """requirements*.txt stay the reproducible install: every runtime dependency and extra is pinned there."""
    pinned = {}
    for name in ("requirements.txt", "requirements-dev.txt"):
        for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
            line = line.split("#")[0].strip()
            if "==" in line:
                pkg, version = line.split("==")
                pinned[pkg.strip().lower()] = version.strip()
    meta = PROJECT["project"]
    declared = list(meta["dependencies"])
    for extra, deps in meta["optional-dependencies"].items():
        declared += [d for d in deps if not d.startswith("contextweaver")]
    for dep in declared:
        name = dep.split(">")[0].split("<")[0].split("=")[0].split("[")[0].strip().lower()
        assert name in pinned, f"{name} is declared in pyproject.toml but not pinned in requirements*.txt"
