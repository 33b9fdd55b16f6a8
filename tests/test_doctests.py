"""The examples in the library's docstrings run and hold (graph logic documents itself with doctests)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import weaver

MODULES = sorted(m.name for m in pkgutil.walk_packages(weaver.__path__, "weaver.") if not m.name.endswith("__main__"))


def _with_examples() -> list[str]:
    finder = doctest.DocTestFinder()
    out = []
    for name in MODULES:
        mod = importlib.import_module(name)
        if any(t.examples for t in finder.find(mod)):
            out.append(name)
    return out


@pytest.mark.parametrize("name", _with_examples())
def test_docstring_examples_hold(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
