"""Reflection: a higher-level summary node for an old region of the graph (an episode: a session, a date, an
agent turn), offline and extractive, in the members' language.

Pure functions. The summary keeps the region's key sentences (nearest the
region's centroid, lifted by importance and by stated constraints) and the slot
values its user messages stated, in time order. It is linked ``elaborates`` from
each member and inherits every dependency a member has on a memory outside the
region, so retrieval can use it instead of many members when the budget is tight.
It is marked everywhere: its content starts with ``[summary]`` / ``[摘要]`` and its
meta says ``lifecycle: summary`` with its region and members.
"""

from __future__ import annotations

import hashlib
import re

import networkx as nx
import numpy as np

from ..models import Edge, MemoryNode
from ..neighbourhood import episode_of
from ..slots import read_slots
from .config import LifecycleConfig
from .retention import is_constraint

__all__ = ["SUMMARY_MARK", "extractive_summary", "first_sentence", "quoted_members", "regions", "summary_node"]

SUMMARY_MARK = {"en": "[summary]", "zh": "[摘要]"}
_SENTENCE = re.compile(r"(?<=[。！？!?])|(?<=[.;；])\s+")


def regions(g: nx.DiGraph, order: list[str], now_turn: int, cfg: LifecycleConfig) -> dict[str, list[str]]:
    """Old episodes without a summary yet: episode key -> its active members (time order).

    An episode qualifies when every one of its memories is out of working memory and it holds at least
    ``region_min`` active ones.
    """
    members: dict[str, list[str]] = {}
    fresh: set[str] = set()
    done: set[str] = set()
    for n in order:
        a = g.nodes[n]
        meta = a.get("meta") or {}
        if meta.get("lifecycle") == "summary":
            if a.get("status", "active") == "active":
                done.add(meta.get("region", ""))
            continue
        key = episode_of(meta, int(a.get("turn", 0)))
        if now_turn - int(a.get("turn", 0)) < cfg.working_turns:
            fresh.add(key)
        if a.get("status", "active") == "active":
            members.setdefault(key, []).append(n)
    return {k: v for k, v in members.items() if k not in fresh and k not in done and len(v) >= cfg.region_min}


def first_sentence(text: str, limit: int) -> str:
    text = " ".join(text.split())
    parts = [p.strip() for p in _SENTENCE.split(text) if p and p.strip()]
    s = parts[0] if parts else text
    return s if len(s) <= limit else s[: limit - 1] + "…"


def extractive_summary(
    g: nx.DiGraph, members: list[str], vectors: np.ndarray, region: str, cfg: LifecycleConfig
) -> tuple[str, str]:
    """``(text, language)``: the region's key sentences and stated slot values, in its language.

    >>> g = nx.DiGraph()
    >>> for i, c in enumerate(["我们订了王府井的酒店。", "预算五千元。", "好的。"]):
    ...     g.add_node(str(i), content=c, kind="user_input", turn=i, language="zh", importance=3, meta={})
    >>> text, lang = extractive_summary(g, ["0", "1", "2"], np.eye(3, dtype=np.float32), "session:1",
    ...                                 LifecycleConfig(summary_lines=2))
    >>> lang, text.startswith("[摘要] session 1（3 条）："), "预算五千元" in text
    ('zh', True, True)
    """
    attrs = [g.nodes[n] for n in members]
    langs = [a.get("language", "en") for a in attrs]
    lang = "zh" if langs.count("zh") * 2 > len(langs) else "en"
    vecs = np.asarray(vectors, dtype=np.float32)
    centroid = vecs.mean(axis=0)
    centroid /= float(np.linalg.norm(centroid)) or 1.0
    scores = []
    for i, a in enumerate(attrs):
        constraint = a.get("kind") == "user_input" and is_constraint(a.get("content", ""))
        scores.append(float(vecs[i] @ centroid) + 0.1 * (float(a.get("importance", 3)) - 3) + 0.3 * constraint)
    top = sorted(sorted(range(len(attrs)), key=lambda i: -scores[i])[: cfg.summary_lines])
    lines = []
    for i in top:
        a = attrs[i]
        speaker = (a.get("meta") or {}).get("speaker")
        line = first_sentence(a.get("content", ""), cfg.summary_line_chars)
        lines.append(f"{speaker}: {line}" if speaker and not line.startswith(f"{speaker}:") else line)
    values = []
    for a in attrs:
        if a.get("kind") == "user_input":
            for v in read_slots(a.get("content", "")):
                if v.explicit and v.text and v.text not in values:
                    values.append(v.text)
    label = region.replace(":", " ", 1)
    if lang == "zh":
        text = f"{SUMMARY_MARK['zh']} {label}（{len(members)} 条）：" + "；".join(lines)
        if values:
            text += "。要点：" + "、".join(values[:6])
    else:
        text = f"{SUMMARY_MARK['en']} {label} ({len(members)} memories): " + " / ".join(lines)
        if values:
            text += ". Key values: " + ", ".join(values[:6])
    return text, lang


def summary_node(g: nx.DiGraph, region: str, members: list[str], text: str, lang: str) -> tuple[MemoryNode, list[Edge]]:
    """The summary node and its edges: ``member -> summary`` (elaborates) and every external dependency of a
    member carried to it (``outside -> summary`` with the member's relation)."""
    attrs = [g.nodes[n] for n in members]
    last = max(attrs, key=lambda a: (int(a.get("turn", 0)), float(a.get("timestamp", 0.0))))
    meta = {"lifecycle": "summary", "region": region, "members": list(members)}
    for k in ("session", "date"):  # the summary belongs to its episode (retrieval's episode context)
        if (last.get("meta") or {}).get(k) not in (None, ""):
            meta[k] = last["meta"][k]
    digest = hashlib.sha1(("|".join(members)).encode()).hexdigest()[:12]
    node = MemoryNode(
        id=f"n_sum{digest}",
        content=text,
        kind="agent_thought",
        turn=int(last.get("turn", 0)),
        message_id=f"lc_sum_{digest}",
        timestamp=float(last.get("timestamp", 0.0)) + 1e-3,
        language=lang,
        importance=max(float(a.get("importance", 3)) for a in attrs),
        meta=meta,
        embed_text=text[:2000],
    )
    inside = set(members)
    edges = {
        m: Edge(m, node.id, "elaborates", 1.0, "rules", f"summarised by reflection ({region})", status="confirmed")
        for m in members
    }
    for m in members:
        for p in g.predecessors(m):
            d = g.edges[p, m]
            if p in inside or p in edges or d.get("status") == "rejected":
                continue
            edges[p] = Edge(
                p,
                node.id,
                d.get("relation", "causal"),
                float(d.get("confidence", 1.0)),
                "rules",
                f"carried from {m} by reflection ({region})",
            )
    return node, list(edges.values())


def quoted_members(g: nx.DiGraph, summary_id: str, cfg: LifecycleConfig | None = None) -> list[str]:
    """The members whose key sentence the summary quotes (what a reader of the summary actually learns)."""
    cfg = cfg or LifecycleConfig()
    a = g.nodes[summary_id]
    text = a.get("content", "")
    return [
        m
        for m in (a.get("meta") or {}).get("members", [])
        if m in g and first_sentence(g.nodes[m].get("content", ""), cfg.summary_line_chars) in text
    ]
