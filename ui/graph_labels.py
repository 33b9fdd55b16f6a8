"""The graph's words: display names of kinds, relations, statuses and highlights (en and zh), and canvas labels.

Kept apart from the drawing because most of the studio only needs these names (the inspector, the
chat, the review page), not vis-network data or pyvis.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["labels", "short_label", "canvas_label"]

_LABELS = {
    "en": {
        "kinds": {
            "user_input": "user input",
            "agent_thought": "agent thought",
            "tool_result": "tool result",
            "agent_response": "agent reply",
        },
        "relations": {
            "causal": "causal",
            "temporal": "temporal",
            "conditional": "conditional",
            "elaborates": "elaborates",
            "supersedes": "supersedes",
        },
        "styles": {
            "new": "new",
            "seed": "seed",
            "expanded": "reached by expansion",
            "cut": "cut (not used)",
            "match": "search hit",
            "path": "path",
            "selected": "selected",
            "dim": "other",
        },
        "node_kinds": "Node kinds",
        "relations_title": "Edge relations",
        "styles_title": "Highlights",
        "note": "Showing {shown} of {total} nodes ({why}).",
        "around": "around the focus",
        "recent": "the most recent",
        "turn": "turn",
        "confidence": "confidence",
        "guessed": "guessed",
        "statuses": {"active": "active", "superseded": "superseded", "retracted": "retracted", "archived": "archived"},
        "edge_statuses": {"proposed": "proposed", "confirmed": "confirmed", "rejected": "rejected"},
        "origins": {"rules": "rules", "llm": "model", "human": "human", "review": "review", "agent": "agent"},
    },
    "zh": {
        "kinds": {
            "user_input": "用户输入",
            "agent_thought": "智能体思考",
            "tool_result": "工具结果",
            "agent_response": "智能体回复",
        },
        "relations": {
            "causal": "因果",
            "temporal": "时序",
            "conditional": "条件",
            "elaborates": "补充说明",
            "supersedes": "更新取代",
        },
        "styles": {
            "new": "新增",
            "seed": "种子",
            "expanded": "扩展到达",
            "cut": "被裁剪（未使用）",
            "match": "搜索命中",
            "path": "路径",
            "selected": "选中",
            "dim": "其他",
        },
        "node_kinds": "节点类型",
        "relations_title": "边的关系",
        "styles_title": "高亮",
        "note": "显示 {total} 个节点中的 {shown} 个（{why}）。",
        "around": "焦点周围",
        "recent": "最新的",
        "turn": "轮次",
        "confidence": "置信度",
        "guessed": "推测",
        "statuses": {"active": "生效", "superseded": "已被取代", "retracted": "已撤回", "archived": "已归档"},
        "edge_statuses": {"proposed": "待确认", "confirmed": "已确认", "rejected": "已拒绝"},
        "origins": {"rules": "规则", "llm": "模型", "human": "人工", "review": "审阅", "agent": "智能体"},
    },
}


def labels(lang: str = "en") -> dict:
    """Display names of kinds, relations and styles in ``lang`` ("en" or "zh")."""
    return _LABELS["zh" if str(lang).lower().startswith("zh") else "en"]


def short_label(text: str, limit: int = 18) -> str:
    """A one-line canvas label: whitespace collapsed, cut with an ellipsis.

    >>> short_label("I am  allergic\\nto seafood, please remember", 12)
    'I am allerg…'
    """
    text = re.sub(r"\s+", " ", str(text or "")).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def canvas_label(text: str, columns: int = 40) -> str:
    """A node's label on the canvas: at most ``columns`` widths of a Latin letter, a CJK character counting two,
    so a Chinese label wraps to the two lines an English one does (40 CJK characters wrapped to four lines in
    the label's 150 px and ran into the node below).

    >>> canvas_label("I am allergic to seafood", 40), canvas_label("我们一共4个人，两个大人两个小孩，还有一位老人", 20)
    ('I am allergic to seafood', '我们一共4个人，两…')
    """
    text = re.sub(r"\s+", " ", str(text or "")).strip()
    used = 0
    for i, ch in enumerate(text):
        used += 2 if _wide(ch) else 1
        if used > columns:
            return _no_line_starts_with_punctuation(text[: max(i - 1, 0)] + "…")  # "…" replaces the last kept
    return _no_line_starts_with_punctuation(text)


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


# punctuation that closes a phrase: a Chinese line does not start with it
_CLOSING = set("，。、；：？！）》」』】〉”’…")
# the wide characters vis-network puts on a label's first line when the text has no space to break at: it
# breaks a word at the first prefix wider than the label's 150 px, keeping that prefix (11 at 15 px)
_FIRST_LINE = 11


def _no_line_starts_with_punctuation(text: str) -> str:
    """``text`` with a line break of its own before the character that vis-network's wrapping would leave on the
    first line when the next one would start with closing punctuation: "我的行程现在是什么样的？" was drawn with a
    lone "？" on its second line. Only for a text without spaces (vis-network breaks those anywhere) whose first
    line is wide characters (their widths, and so the break, are known).

    >>> _no_line_starts_with_punctuation("我的行程现在是什么样的？")
    '我的行程现在是什么样\\n的？'
    >>> _no_line_starts_with_punctuation("人数改成四个，我妹也去")  # one line
    '人数改成四个，我妹也去'
    """
    n = _FIRST_LINE
    if " " in text or len(text) <= n or text[n] not in _CLOSING or not all(_wide(c) for c in text[:n]):
        return text
    while n > 1 and text[n] in _CLOSING:  # "什么？！": both marks go down with the character before them
        n -= 1
    return text[:n] + "\n" + text[n:]
