"""Every relative link in README.md and docs/ points at a file that exists, and every #anchor at a heading there.

Anchors follow GitHub's rule for a heading: its rendered text lower-cased, punctuation dropped (letters, digits,
"-" and "_" of any script kept), spaces turned into "-", and "-1", "-2"... on repeats. A doc is only true if a
reader can follow it: a renamed heading silently breaks every link to it.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def _slug(text: str) -> str:
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).replace("`", "").replace("*", "")
    kept = []
    for ch in re.sub(r"<[^>]+>", "", text.strip().lower()):
        if ch == " ":
            kept.append("-")
        elif ch in "-_" or unicodedata.category(ch)[0] in "LN" or unicodedata.category(ch) == "Mn":
            kept.append(ch)
    return "".join(kept)


def _outside_fences(text: str):
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            yield number, line


def anchors(text: str) -> set[str]:
    """The anchors a Markdown text's headings (and explicit ``<a id=...>``) make.

    >>> sorted(anchors("# A `b` (c)\\n## A `b` (c)\\n```\\n# not a heading\\n```\\n### 预算 2,048 tok"))
    ['a-b-c', 'a-b-c-1', '预算-2048-tok']
    """
    seen: dict[str, int] = {}
    out = set()
    for _, line in _outside_fences(text):
        m = HEADING.match(line)
        if m:
            slug = _slug(m.group(2))
            out.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
            seen[slug] = seen.get(slug, 0) + 1
        out.update(re.findall(r'<a (?:name|id)="([^"]+)"', line))
    return out


def broken_links(doc: Path) -> list[str]:
    """``doc``'s relative links whose file or anchor does not exist, as ``file:line: link``."""
    bad = []
    for number, line in _outside_fences(doc.read_text("utf-8")):
        for m in LINK.finditer(line):
            url = m.group(1)
            if re.match(r"^[a-z]+:", url):
                continue  # http(s), mailto: not checked offline
            path, _, fragment = url.partition("#")
            target = (doc.parent / path).resolve() if path else doc
            if target.is_dir():
                target = target / "README.md"
            ok = target.exists() and (not fragment or fragment in anchors(target.read_text("utf-8")))
            if not ok:
                bad.append(f"{doc.relative_to(ROOT)}:{number}: {url}")
    return bad


def test_every_link_in_the_docs_resolves():
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    assert len(docs) > 10
    assert [b for doc in docs for b in broken_links(doc)] == []


def test_a_broken_file_or_anchor_is_reported(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    (tmp_path / "other.md").write_text("# Scale (`bench scale`)\n", "utf-8")
    doc = tmp_path / "doc.md"
    doc.write_text(
        "## Här\n[ok](other.md#scale-bench-scale) [self](#här) [gone](missing.md) [anchor](other.md#scale)\n"
        "```\n[in a fence](nowhere.md)\n```\n[web](https://example.com/#x)\n",
        "utf-8",
    )
    assert broken_links(doc) == ["doc.md:2: missing.md", "doc.md:2: other.md#scale"]
