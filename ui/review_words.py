"""The Review page's words: its labels (en / zh) and how it names memories, proposals and audit entries.

A memory is named by its words, never by its id alone ("«预算别超过五千» → «…»"); a review item or an audit
entry is said with its memories' words and the relation's name in the reader's language. No memory semantics
here: the proposals' own words come from ``weaver.curation.queue.PROPOSAL_WORDS``.
"""

from __future__ import annotations

from weaver.curation.queue import PROPOSAL_WORDS

from . import graph_render
from .i18n import lang

__all__ = [
    "ACTIONS",
    "ACTORS",
    "ORIGINS",
    "entry_words",
    "item_words",
    "key_words",
    "memory_label",
    "pair_of",
    "proposal_groups",
    "quoted",
    "state_words",
    "t",
]

_WORDS = {
    "title": ("Review", "审阅"),
    "intro": (
        "Fix the memory graph: proposals from the review pass and flags from retracted causes wait in the "
        "queue; every change is audited and can be undone.",
        "修正记忆图：审阅产生的建议和因上游撤回而需复查的标记在队列中等待处理；每次修改都有审计记录，可撤销。",
    ),
    "empty": (
        "The graph is empty: chat or run a demo first, then review its edges here.",
        "图是空的：请先对话或运行演示，再来这里审阅边。",
    ),
    "run": ("Run review now", "立即审阅"),
    "queue": ("Queue", "队列"),
    "edges": ("Edges", "边"),
    "nodes": ("Nodes", "节点"),
    "log": ("Audit log", "审计日志"),
    "queue_empty": (
        "The queue is empty. Run a review pass to look for problems.",
        "队列为空。运行一次审阅以查找问题。",
    ),
    "accept": ("Accept", "接受"),
    "reject": ("Reject", "拒绝"),
    "relation": ("Relation", "关系"),
    "status": ("Status", "状态"),
    "apply": ("Apply", "应用"),
    "undo": ("Undo", "撤销"),
    "redo": ("Redo", "重做"),
    "add_edge": ("Add an edge", "添加边"),
    "source": ("From (earlier)", "起点（较早）"),
    "target": ("To (later)", "终点（较晚）"),
    "why": ("Why (for the audit log)", "原因（写入审计日志）"),
    "add": ("Add edge", "添加"),
    "table_help": (
        "Change a relation or tick delete: the change is applied at once and audited.",
        "修改关系或勾选删除：立即生效并记入审计。",
    ),
    "node": ("Node", "节点"),
    "by": ("Superseded by", "被取代于"),
    "flags": ("Needs review", "需复查"),
    "flag_group": (
        "{old} changed{by}: review the {n} memory(ies) that used the old value",
        "{old} 已更改{by}：依赖旧值的 {n} 条记忆需复查",
    ),
    "flag_by": (" (now {new})", "（现为 {new}）"),
    "flag_list": ("The memories that used it", "依赖它的记忆"),
    "dismiss_all": ("Keep them all", "全部保留"),
    "accept_all": ("Mark them all outdated", "全部标为过时"),
    "ok_group": ("{n} flag(s) resolved: {what}", "已处理 {n} 个标记：{what}"),
    "builder": ("Show each message's build entry", "显示每条消息的构建记录"),
    "export": ("Export JSON", "导出 JSON"),
    # the pass's own line starts "review (rules): …" / "审阅（规则）：…": "Last review: review (rules): …" said it twice
    "last": ("Last {line}", "上次{line}"),
    "pending": ("{n} new memory(ies) not reviewed yet", "{n} 个新节点未审阅"),
    "n_pending": ("Waiting for a decision: {n} item(s).", "{n} 项等待处理。"),
    "conflict": (
        "Conflicting proposals for the same edge: pick one (accepting one withdraws nothing else "
        "automatically; reject the other).",
        "同一条边有互相冲突的建议：请选择其一（接受一项后，请拒绝另一项）。",
    ),
    **{f"k_{kind}": words for kind, words in PROPOSAL_WORDS.items()},  # the library's: its Chinese line says them too
    "from_to": ("{a} → {b}", "{a} → {b}"),
    "current": ("now", "当前"),
    "proposed": ("proposed", "建议"),
    "conf": ("confidence {c:.2f} · from {o}", "置信度 {c:.2f} · 来自 {o}"),
    "source_ev": ("From", "起点"),
    "target_ev": ("To", "终点"),
    "ev_line": ("{kind}, turn {turn}, {status}", "{kind}，第 {turn} 轮，{status}"),
    "ok_accept": ("Accepted: {what}", "已接受：{what}"),
    "ok_reject": ("Rejected: {what}", "已拒绝：{what}"),
    "ok_undo": ("Undone: {what}", "已撤销：{what}"),
    "ok_redo": ("Redone: {what}", "已重做：{what}"),
    "ok_status": ("Status set: {what}", "状态已设置：{what}"),
    "ok_add": ("Edge added: {what}", "已添加边：{what}"),
    "ok_del": ("Edge deleted: {what}", "已删除边：{what}"),
    "ok_relabel": ("Relation changed: {what}: {a} → {b}", "关系已修改：{what}：{a} → {b}"),
    "ok_confirm": ("Edge confirmed: {what}", "已确认边：{what}"),
    "what": ("What", "内容"),
    "col_at": ("Time", "时间"),
    "col_actor": ("By", "操作者"),
    "col_action": ("Action", "操作"),
    "col_before": ("Before", "之前"),
    "col_after": ("After", "之后"),
    "col_why": ("Why", "原因"),
    "col_undone": ("Undone", "已撤销"),
    "col_id": ("Entry", "条目"),
    "col_delete": ("Delete", "删除"),
    "col_from": ("From", "起点"),
    "col_to": ("To", "终点"),
    "col_origin": ("Origin", "来源"),
    "col_conf": ("Confidence", "置信度"),
    "col_src": ("Source id", "起点编号"),
    "col_tgt": ("Target id", "终点编号"),
    "lc": ("Last lifecycle pass", "上次记忆整理"),
    "lc_undo": ("Undo this pass", "撤销本次整理"),
    "lc_none": (
        "No lifecycle pass yet: the command line's forget command runs one.",
        "尚未整理过记忆：可在命令行运行记忆整理命令。",
    ),
    "lc_undone": ("{n} change(s) undone", "已撤销 {n} 项更改"),
}
ORIGINS = {
    "review-rules": ("rules review", "规则审阅"),
    "review-llm": ("model review", "模型审阅"),
    "cascade": ("a retracted cause", "上游撤回"),
}
# a review item's status, as an audit entry's before / after shows it
ITEM_STATES = {
    "pending": ("pending", "待处理"),
    "accepted": ("accepted", "已接受"),
    "rejected": ("rejected", "已拒绝"),
    "applied": ("applied", "已应用"),
    "withdrawn": ("withdrawn", "已撤回"),
}
ACTORS = {"human": ("human", "人工"), "review": ("review", "审阅"), "builder": ("builder", "构建器")}
ACTIONS = {
    "edge.add": ("edge added", "添加边"),
    "edge.update": ("edge changed", "修改边"),
    "edge.remove": ("edge removed", "删除边"),
    "node.status": ("status", "状态"),
    "build": ("built", "构建"),
    "item.reject": ("proposal rejected", "拒绝建议"),
    "undo": ("undo", "撤销"),
    "redo": ("redo", "重做"),
}


def t(key: str, **kw) -> str:
    """The page's label for ``key`` in the reader's language, ``kw`` filled in."""
    en, zh = _WORDS[key]
    if lang() == "zh":
        return zh.format(**kw) if kw else zh
    return _plural(en, kw["n"]).format(**kw) if "n" in kw else (en.format(**kw) if kw else en)


def _plural(en: str, n) -> str:
    """English words counted by ``n``: "1 memory", "3 memories", not "memory(ies)".

    >>> _plural("{n} memory(ies) and {n} flag(s)", 1), _plural("{n} memory(ies) and {n} flag(s)", 3)
    ('{n} memory and {n} flag', '{n} memories and {n} flags')
    """
    one = n == 1
    return en.replace("y(ies)", "y" if one else "ies").replace("(s)", "" if one else "s")


def pair_of(table: dict, key: str) -> str:
    """``key``'s (English, Chinese) words in ``table`` (ORIGINS, ACTORS, ACTIONS) in the reader's language."""
    en, zh = table.get(key, (key, key))
    return zh if lang() == "zh" else en


def state_words(state: dict | None, lang_code: str) -> str:
    """An audit entry's before / after state in ``lang_code``'s words (the library's own one-line summary,
    ``weaver.curation.audit``, is English: the Chinese log read "supersedes (rules, proposed)").

    >>> state_words({"relation": "supersedes", "origin": "rules", "status": "proposed"}, "zh")
    '更新取代（规则，待确认）'
    >>> state_words({"relation": "causal", "origin": "human", "status": "confirmed"}, "en")
    'causal (human, confirmed)'
    >>> state_words({"status": "retracted"}, "zh"), state_words({"review_item": "pending"}, "zh")
    ('已撤回', '待处理')
    """
    if not state:
        return ""
    zh = lang_code == "zh"
    L = graph_render.labels(lang_code)
    if "review_item" in state:
        en_zh = ITEM_STATES.get(str(state["review_item"]), (str(state["review_item"]),) * 2)
        return en_zh[1] if zh else en_zh[0]
    if "relation" in state:
        rel = L["relations"].get(state["relation"], state["relation"])
        origin = str(state.get("origin", ""))
        origin = L["origins"].get(origin) or ORIGINS.get(origin, (origin, origin))[1 if zh else 0]
        status = L["edge_statuses"].get(state.get("status", ""), state.get("status", ""))
        return f"{rel}（{origin}，{status}）" if zh else f"{rel} ({origin}, {status})"
    if "status" in state:
        return L["statuses"].get(state["status"], str(state["status"]))
    if "node" in state:
        n = len(state.get("edges", []))  # the node itself is named in the entry's "what" column, by its words
        return f"节点及其 {n} 条边" if zh else f"the node and its {n} edge{'' if n == 1 else 's'}"
    return str(state)[:80]


def _snip(text: str, n: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def memory_label(w, nid: str) -> str:
    """A memory as a picker shows it: its words, its kind and the end of its id."""
    node = w.nodes[nid]
    kind = graph_render.labels(lang())["kinds"].get(node.kind, node.kind)
    return f"{_snip(node.content, 50)} · {kind} · {nid[-6:]}"


def quoted(w, nid: str, n: int = 30) -> str:
    """A memory named by its words (its id only when it is gone)."""
    node = w.nodes.get(nid)
    return f"«{_snip(node.content, n)}»" if node is not None else nid


def quoted_pair(w, a: str, b: str, n: int = 30) -> tuple[str, str]:
    """Two memories named side by side, each from just before where their words part: a booking and its
    re-booking both read «book_hotel added to plan: 雅悦酒…» when cut at the same length.

    >>> _parted("book_hotel added to plan: X, check-in 6-3, 4 nights", "book_hotel added to plan: X, check-in 6-3, 3 nights", 20)
    ('…4 nights', '…3 nights')
    >>> _parted("已加入行程：莫泰268(北京王府井步行街店)，6-10入住4晚，每晚¥446", "已加入行程：莫泰268(北京王府井步行街店)，6-10入住3晚，每晚¥446", 20)
    ('…6-10入住4晚，每晚¥446', '…6-10入住3晚，每晚¥446')
    >>> _parted("budget 5000", "budget 8000", 30)
    ('budget 5000', 'budget 8000')
    """
    na, nb = w.nodes.get(a), w.nodes.get(b)
    if na is None or nb is None:
        return quoted(w, a, n), quoted(w, b, n)
    x, y = _parted(na.content, nb.content, n)
    return f"«{x}»", f"«{y}»"


def _parted(x: str, y: str, n: int) -> tuple[str, str]:
    x, y = " ".join(x.split()), " ".join(y.split())
    same = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
    if same < n - 8:  # they part within what a snip shows
        return _snip(x, n), _snip(y, n)
    # from the clause the difference is in (after the last comma or space before it), else 8 characters back
    cut = max(x.rfind(sep, 0, same) for sep in ("，", ",", "、", "；", " "))
    start = cut + 1 if same - 20 <= cut < same else max(0, same - 8)
    return _snip("…" + x[start:].lstrip(), n), _snip("…" + y[start:].lstrip(), n)


def key_words(w, key: str) -> str:
    """An audit key (``u->v``, a node id or a rejected review item's id) said with the memories' words."""
    item = w.curation.queue.get(key)
    if item is not None:
        return item_words(w, item)
    if "->" in key:
        a, b = key.split("->", 1)
        return f"{quoted(w, a, 24)} → {quoted(w, b, 24)}"
    return quoted(w, key, 40)


def item_words(w, item) -> str:
    """A review item (a proposal or a flag) said with its memories' words and the relations' names, with the
    reader's punctuation (a Chinese line read "复查依赖的记忆: «…»" with an English colon)."""
    zh = lang() == "zh"
    colon = "：" if zh else ": "

    def paren(x: str) -> str:
        return f"（{x}）" if zh else f" ({x})"

    rel = graph_render.labels(lang())["relations"]
    qa, qb = quoted_pair(w, item.source, item.target, 24)
    edge = t("from_to", a=qa, b=qb)
    if item.kind == "prune":
        return f"{t('k_prune')}{colon}{edge}{paren(rel.get(item.current, item.current))}"
    if item.kind == "relabel":
        change = f"{rel.get(item.current, item.current)} → {rel.get(item.relation, item.relation)}"
        return f"{t('k_relabel')}{colon}{edge}{colon}{change}"
    if item.kind == "add":
        return f"{t('k_add')}{colon}{edge}{paren(rel.get(item.relation, item.relation))}"
    if item.kind == "supersede":
        new, old = quoted_pair(w, item.source, item.target)
        return f"{t('k_supersede')}{colon}{old} ← {new}"
    return f"{t('k_needs_review')}{colon}{quoted(w, item.target)}"


def proposal_groups(items) -> dict[str, list]:
    """The queue's proposals as the page shows them: those about one edge (or one node) together, judged side by
    side; flags are left out (one group per change: ``Curation.flag_groups``)."""
    groups: dict[str, list] = {}
    for item in items:
        if item.kind == "needs_review":
            continue
        key = item.edge_key if item.kind in ("prune", "relabel", "add") else f"node:{item.target}"
        groups.setdefault(key, []).append(item)
    return groups


def entry_words(w, entry) -> str:
    """An audit entry (what undo or redo would act on) as its action and its memories' words."""
    if entry is None:
        return ""
    return f"{pair_of(ACTIONS, entry.action)} · {key_words(w, entry.key)}"
