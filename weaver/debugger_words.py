"""The retrieval debugger's findings said in plain words, English or Chinese (no streamlit).

``weaver.debugger`` keeps the exact numbers (ranks, scores, reasons) for the CLI and tests; a
person preparing a demo needs a sentence: "left out: the budget didn't fit; 12 tokens were
left". Memories are named by their content (quoted, shortened), never by their ids.
"""

from __future__ import annotations

import re

import networkx as nx

__all__ = ["quote", "candidate_in_words", "cut_in_words", "why_in_words", "reason_label", "role_label"]

_REASONS = {
    "included": ("in the context", "在上下文中"),
    "not_reached": ("not found", "没有被找到"),
    "expand_limit": ("left out: too many neighbours", "没选入：邻居太多"),
    "budget_cut": ("left out: over the budget", "没选入：超出预算"),
    "inactive": ("no longer in force", "已失效"),
    "filtered_at_ingest": ("never stored", "从未存入"),
}
_ROLES = {
    "seed": ("found by the query", "被查询直接找到"),
    "expanded": ("reached through a link", "顺着依赖关系找到"),
    "cut": ("left out", "没选入"),
    "unrelated": ("not used", "未使用"),
    "": ("", ""),
}
_RELATIONS = {
    "causal": ("because of", "因果"),
    "temporal": ("followed", "时序"),
    "conditional": ("conditional on", "条件"),
    "elaborates": ("elaborates", "补充说明"),
    "supersedes": ("supersedes", "更新取代"),
    "adjacent": ("the neighbouring turn", "相邻轮次"),
}

# what a link means, for "link: ..." in English ("because of" reads as a sentence, not as a name)
_LINKS = {
    "causal": "cause and effect",
    "temporal": "what came next",
    "conditional": "a condition",
    "elaborates": "a detail",
    "supersedes": "an update",
}


def _zh(lang: str) -> bool:
    return str(lang).lower().startswith("zh")


def _p(pair, lang: str) -> str:
    return pair[1] if _zh(lang) else pair[0]


def reason_label(reason: str, lang: str = "en") -> str:
    return _p(_REASONS.get(reason, (reason, reason)), lang)


def role_label(role: str, lang: str = "en") -> str:
    return _p(_ROLES.get(role, (role, role)), lang)


def quote(g: nx.DiGraph, node_id, n: int = 28, text: str | None = None) -> str:
    """A memory named by its words: «I am allergic to seaf…» (the id only when the text is unknown)."""
    if text is None:
        text = g.nodes[node_id].get("content", "") if node_id in g else str(node_id or "?")
    text = " ".join(str(text).split())
    return "«" + (text if len(text) <= n else text[: n - 1] + "…") + "»"


def cut_in_words(cut_reason: str, lang: str = "en") -> str:
    """``budget: needs 27 tokens, 12 left`` -> "the budget didn't fit: it needs 27 tokens, 12 were left".

    >>> cut_in_words("budget: needs 27 tokens, 12 left (rank 16)")
    "the budget didn't fit: it needs 27 tokens and only 12 were left"
    >>> cut_in_words("budget: needs 27 tokens, 12 left", "zh")
    '预算放不下：它需要 27 个 token，只剩 12 个'
    """
    m = re.search(r"needs (\d+) tokens?, (-?\d+) left", cut_reason or "")
    if m:
        need, left = m.groups()
        return (
            f"预算放不下：它需要 {need} 个 token，只剩 {left} 个"
            if _zh(lang)
            else f"the budget didn't fit: it needs {need} tokens and only {left} were left"
        )
    if "after rendering" in (cut_reason or ""):
        return (
            "排版后超出预算，被最后去掉"
            if _zh(lang)
            else "the finished context ran over the budget, so it was dropped last"
        )
    return "预算已用完" if _zh(lang) else "the budget was used up"


def _direct_match(c, lang: str) -> str:
    """Which of the two signals found a seed: its meaning, its keywords, or both (with their scores), and
    what its neighbours lent it when that, not the words, is why a barely similar memory ranked.

    >>> from types import SimpleNamespace as C
    >>> _direct_match(C(similarity=0.446, lexical=1.0, context=0.0), "en")
    'matches the query directly: shares its keywords (keyword score 1.00) and is close in meaning (similarity 0.45)'
    >>> _direct_match(C(similarity=0.08, lexical=0.0, context=0.21), "en")
    'matches the query directly: hardly related in meaning (similarity 0.08); no shared keywords; its neighbours lent it 0.21'
    >>> _direct_match(C(similarity=0.22, lexical=0.0, context=0.0), "zh")
    '与查询直接相关：意思有些相关（相似度 0.22），没有共同的关键词'
    """
    sim, lex = float(getattr(c, "similarity", 0.0) or 0.0), float(getattr(c, "lexical", 0.0) or 0.0)
    lent = float(getattr(c, "context", 0.0) or 0.0)
    zh = _zh(lang)
    if sim >= 0.3:
        meaning = f"意思相近（相似度 {sim:.2f}）" if zh else f"close in meaning (similarity {sim:.2f})"
    elif sim >= 0.15:
        meaning = f"意思有些相关（相似度 {sim:.2f}）" if zh else f"somewhat related in meaning (similarity {sim:.2f})"
    else:
        meaning = f"意思几乎不相关（相似度 {sim:.2f}）" if zh else f"hardly related in meaning (similarity {sim:.2f})"
    if zh:
        out = (
            f"与查询直接相关：{meaning}，没有共同的关键词"
            if lex <= 0
            else f"与查询直接相关：有共同的关键词（关键词得分 {lex:.2f}），{meaning}"
        )
        return out + (f"；相邻的记忆为它加了 {lent:.2f}" if lent >= 0.05 else "")
    out = (
        f"matches the query directly: {meaning}; no shared keywords"
        if lex <= 0
        else f"matches the query directly: shares its keywords (keyword score {lex:.2f}) and is {meaning}"
    )
    return out + (f"; its neighbours lent it {lent:.2f}" if lent >= 0.05 else "")


def candidate_in_words(g: nx.DiGraph, c, lang: str = "en") -> str:
    """How one candidate got into the ranking, in a sentence: a seed names the signals that found it
    (meaning, keywords), an expanded memory the seed and the link it came through."""
    if c.hops == 0:
        return _direct_match(c, lang)
    rel = _p(_RELATIONS.get(c.relation, (c.relation, c.relation)), lang)
    if c.relation == "adjacent":
        return (
            f"与 {quote(g, c.seed)} 属于同一段对话（相邻轮次）"
            if _zh(lang)
            else f"said right next to {quote(g, c.seed)} in the same sitting"
        )
    back = c.direction == "cause"
    if _zh(lang):
        how = "是它的原因" if back else "是它的结果"
        return f"从 {quote(g, c.seed)} 出发走了 {c.hops} 步：{how}（{rel}）"
    how = "a cause of it" if back else "an effect of it"
    steps = "1 step" if c.hops == 1 else f"{c.hops} steps"
    return f"reached in {steps} from {quote(g, c.seed)}: {how} (link: {_LINKS.get(c.relation, rel)})"


def why_in_words(g: nx.DiGraph, why, lang: str = "en") -> str:
    """A :class:`weaver.debugger.Why` as one or two plain sentences."""
    d = why.details or {}
    zh = _zh(lang)
    r = why.reason
    if r == "filtered_at_ingest":
        total, keep = d.get("total", 0), d.get("keep_threshold", 0)
        return (
            f"从未存入：过滤器认为这条消息不值得记住（总分 {total:.1f}，需要 {keep:g}）。可以在对话页的“过滤评分”中把它提升入图。"
            if zh
            else f"Never stored: the filter judged this message not worth remembering (score {total:.1f}, "
            f"{keep:g} needed). You can promote it from the chat's filter scores."
        )
    if r == "included":
        role = "被查询直接找到" if d.get("role") == "seed" else "顺着依赖关系找到"
        return (
            f"在上下文中：{role}，排第 {d.get('rank')} 位。"
            if zh
            else f"In the context: {role_label(d.get('role', ''), 'en')}, ranked {d.get('rank')}."
        )
    if r == "inactive":
        by = d.get("superseded_by")
        if d.get("status") == "superseded":
            return (
                (f"已被 {quote(g, by)} 取代" if by else "已被取代") + "：只有问到历史时才会取用。"
                if zh
                else (
                    "Superseded"
                    + (f" by {quote(g, by)}" if by else "")
                    + ": it is used only for questions about what changed."
                )
            )
        return "已撤回：不会再被取用。" if zh else "Retracted: it is never used again."
    if r == "budget_cut":
        return (
            f"没选入：{cut_in_words(d.get('cut_reason', ''), lang)}（上下文已用 {d.get('used')}/{d.get('budget')}）。"
            if zh
            else f"Left out: {cut_in_words(d.get('cut_reason', ''), lang)} "
            f"(the context used {d.get('used')} of {d.get('budget')} tokens)."
        )
    if r == "expand_limit":
        return (
            f"没选入：从 {quote(g, d.get('seed'))} 走 {d.get('hop')} 步就能到，但每个种子最多带入 "
            f"{d.get('expand_limit')} 个邻居，更强的关系先被选走了。"
            if zh
            else f"Left out: it is {d.get('hop')} step(s) from {quote(g, d.get('seed'))}, but each match brings "
            f"at most {d.get('expand_limit')} neighbours and stronger links came first."
        )
    if r == "not_reached":
        near = d.get("nearest_seed_hops")
        link = (
            (
                f"离最近的命中有 {near} 步，超过了 {d.get('hops')} 步的上限"
                if near is not None
                else "和命中的记忆没有依赖关系"
            )
            if zh
            else (
                f"the nearest match is {near} steps away, more than the {d.get('hops')} allowed"
                if near is not None
                else "no dependency links it to what was found"
            )
        )
        return (
            f"没有被找到：与查询不够相似（在 {d.get('seeds_taken')} 个种子之外，排第 {d.get('relevance_rank')} 位），而且{link}。"
            if zh
            else f"Not found: not similar enough to the query (ranked {d.get('relevance_rank')}, only "
            f"{d.get('seeds_taken')} are taken), and {link}."
        )
    return why.summary
