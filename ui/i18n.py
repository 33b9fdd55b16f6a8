"""UI strings in English and Chinese (the studio's chrome; memory text is shown as written)."""

from __future__ import annotations

import streamlit as st

__all__ = ["t", "lang", "LANGS"]

LANGS = {"en": "English", "zh": "中文"}

_S = {
    "chat": ("Chat", "对话"),
    "graph": ("Graph", "依赖图"),
    "retrieval": ("Retrieval", "检索调试"),
    "review": ("Review", "审阅"),
    "benchmarks": ("Benchmarks", "基准测试"),
    "space": ("Memory space", "记忆空间"),
    "new_space": ("New space name", "新空间名称"),
    "create": ("Create", "创建"),
    "delete_space": ("Delete this space…", "删除此空间…"),
    "delete_confirm": ("Type the space name to confirm deletion", "输入空间名称以确认删除"),
    "delete_btn": ("Delete permanently", "永久删除"),
    "deleted": ("Deleted space {name}.", "已删除空间 {name}。"),
    "backends": ("Active backends", "当前后端"),
    "task": ("Task focus", "任务焦点"),
    "task_help": ("What the conversation is about; the filter scores relevance against it.",
                  "对话的目标；过滤器据此评估相关性。"),
    "set_task": ("Set focus", "设置焦点"),
    "knobs": ("Weaver knobs", "参数"),
    "edit_edges": ("Edit this node's edges", "编辑此节点的边"),
    "edge_pick": ("Edge", "边"),
    "relation": ("Relation", "关系"),
    "set_relation": ("Set relation", "修改关系"),
    "confirm_edge": ("Confirm", "确认"),
    "delete_edge": ("Delete edge", "删除边"),
    "add_edge": ("Add an edge", "添加边"),
    "other_node": ("Other node", "另一个节点"),
    "direction": ("Direction", "方向"),
    "this_to_other": ("this → other (the other depends on this)", "此节点 → 另一节点（另一节点依赖此节点）"),
    "other_to_this": ("other → this (this depends on the other)", "另一节点 → 此节点（此节点依赖另一节点）"),
    "edge_done": ("Saved as a human edit (undo on the Review page).", "已保存为人工修改（可在审阅页撤销）。"),
    "reset": ("Reset to defaults", "恢复默认"),
    "filter_knobs": ("Selective filter", "选择性过滤"),
    "builder_knobs": ("Dependency builder", "依赖构建"),
    "retrieval_knobs": ("Retrieval", "检索"),
    "ui_lang": ("Interface language", "界面语言"),
    "chat_title": ("Chat with the travel agent", "与旅行规划智能体对话"),
    "chat_empty": ("No messages yet. Type a travel request below (e.g. *I plan a 3-day trip to Beijing, budget "
                   "5000 yuan, I'm allergic to seafood*) or run a scripted demo.",
                   "还没有消息。在下方输入旅行需求（例如“我计划去北京玩三天，预算5000元，我对海鲜过敏”），或运行一个演示脚本。"),
    "chat_input": ("Message the travel agent…", "给旅行智能体发消息…"),
    "demos": ("Scripted demos", "演示脚本"),
    "run_demo": ("Run", "运行"),
    "no_demos": ("No demo scripts found in assets/demo/.", "assets/demo/ 中没有演示脚本。"),
    "live_graph": ("Live memory graph", "实时记忆图"),
    "scores": ("Filter scores (every message)", "过滤评分（全部消息）"),
    "download_csv": ("Download CSV", "下载 CSV"),
    "promote": ("Promote", "提升入图"),
    "promote_pick": ("Rejected message to promote", "选择要提升的被拒消息"),
    "promoted": ("Promoted into the graph.", "已提升入图。"),
    "no_rejected": ("No rejected messages.", "没有被拒绝的消息。"),
    "graph_empty": ("The graph is empty. Chat on the Chat page or run a demo: kept messages become nodes here.",
                    "图是空的。请在“对话”页聊天或运行演示：被保留的消息会成为这里的节点。"),
    "used_memories": ("Memories used", "使用的记忆"),
    "decision": ("Full filter decision", "完整过滤决策"),
    "kept": ("kept", "保留"),
    "rejected": ("rejected", "拒绝"),
    "filters": ("Filters", "筛选"),
    "relations": ("Relations", "关系"),
    "kinds": ("Node kinds", "节点类型"),
    "status": ("Status", "状态"),
    "scrubber": ("Replay growth up to turn", "回放到第几轮"),
    "search": ("Search and highlight", "搜索并高亮"),
    "path": ("Path between two nodes", "两节点间路径"),
    "from": ("From", "起点"),
    "to": ("To", "终点"),
    "no_path": ("These two nodes are not connected.", "这两个节点之间没有连接。"),
    "inspector": ("Node inspector", "节点检查器"),
    "inspector_empty": ("Click a node in the graph (or pick one below) to inspect it.",
                        "点击图中的节点（或在下方选择）以查看详情。"),
    "pick_node": ("Node", "节点"),
    "parents": ("Parents (what it depends on)", "父节点（依赖于）"),
    "children": ("Children (what depends on it)", "子节点（依赖它的）"),
    "provenance": ("Provenance", "来源"),
    "export": ("Export", "导出"),
    "matches": ("{n} match(es)", "{n} 个匹配"),
    "nodes_edges": ("{n} nodes · {e} edges", "{n} 个节点 · {e} 条边"),
    "coming_soon": ("Coming soon", "即将推出"),
    "thinking": ("Agent steps", "智能体步骤"),
    "new_nodes": ("new this turn", "本轮新增"),
}


def lang() -> str:
    return st.session_state.get("ui_lang", "en")


def t(key: str, **kw) -> str:
    en, zh = _S[key]
    s = zh if lang() == "zh" else en
    return s.format(**kw) if kw else s
