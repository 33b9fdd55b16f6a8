"""Every (English, Chinese) UI string pair of the studio, for the i18n walk."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def all_pairs() -> list[tuple[str, str]]:
    """The shared table plus every literal ("en", "中文") pair in pages/ and ui/ (T(...), _T tables, KNOBS),
    and the review kinds' words, which the Review page takes from the library."""
    from ui.strings import S
    from weaver.curation.queue import PROPOSAL_WORDS

    pairs = [tuple(v) for v in S.values()] + list(PROPOSAL_WORDS.values())
    for path in list((ROOT / "pages").glob("*.py")) + list((ROOT / "ui").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            args = None
            if isinstance(node, ast.Tuple) and len(node.elts) == 2:
                args = node.elts
            elif isinstance(node, ast.Call) and len(node.args) == 2 and getattr(node.func, "id", "") == "T":
                args = node.args
            if args and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
                en, zh = args[0].value, args[1].value
                if any("\u4e00" <= c <= "\u9fff" for c in zh):
                    pairs.append((en, zh))
    return pairs
