"""Streamlit's own English words on the Chinese studio (toolbar buttons, dropdown states, aria-labels), in Chinese.

Streamlit 1.67 has no locale setting: its chrome is English in every language. ``ui/css.py`` swaps the input hints
with CSS; the rest lives in attributes (``aria-label``, ``title``, ``placeholder``) and in text drawn in portals
(the "No results" of a filtered dropdown, a toolbar button's tooltip, the dataframe's column menu) that CSS cannot
reach, so a small script watches the page and swaps exact, whole strings from :data:`ZH` — nothing else:

- only an attribute whose whole value is a key, or a text node whose whole (trimmed) text is a key and that sits
  inside Streamlit's chrome (dropdowns, tooltips, menus, toolbars, the status widget): a memory, a message or a
  label of ours that happens to read "Search" is never touched, and no element is added or removed, so React's
  own updates still find the nodes they own;
- each swap is remembered, and the English comes back when the interface returns to English (the same page, no
  reload: React would not rewrite an attribute whose value it thinks unchanged).

What stays English: text drawn on a canvas (the dataframe's cells and headers are the data's own; Glide's search
box), the Vega chart's generated aria descriptions, and the browser's own tooltips for native controls.
"""

from __future__ import annotations

import json

__all__ = ["ZH", "chrome_script"]

# Streamlit's words (1.67's frontend bundle) that the studio's pages show, and their Chinese
ZH = {
    # dropdowns (selectbox / multiselect)
    "No results": "无匹配结果",
    "No options to select": "没有可选项",
    "Choose an option": "请选择",
    "Choose options": "请选择",
    "Clear all": "全部清除",
    "Clear value": "清除",
    "Selected values": "已选值",
    "Open": "展开",
    "Close": "关闭",
    # element toolbars (dataframe, chart) and their tooltips
    "Show/hide columns": "显示/隐藏列",
    "Download as CSV": "下载 CSV",
    "Download as PNG": "下载 PNG",
    "Search": "搜索",
    "Close Search": "关闭搜索",
    "Previous Result": "上一个结果",
    "Next Result": "下一个结果",
    "Fullscreen": "全屏",
    "Close fullscreen": "退出全屏",
    "Toggle fullscreen": "切换全屏",
    "Show data": "显示数据",
    "Show chart": "显示图表",
    "Copy Vega-Lite spec": "复制 Vega-Lite 定义",
    "Copy to clipboard": "复制到剪贴板",
    "Vega visualization": "图表",
    # dataframe column menu
    "Dataframe column menu": "列菜单",
    "Sort ascending": "升序排列",
    "Sort descending": "降序排列",
    "Format": "格式",
    "Autosize": "自动列宽",
    "Pin column": "固定列",
    "Unpin column": "取消固定列",
    "Hide column": "隐藏列",
    "Copy column name": "复制列名",
    "Select all": "全选",
    "Add row": "添加行",
    # page chrome
    "Sidebar": "侧边栏",
    "Collapse sidebar": "收起侧边栏",
    "Expand sidebar": "展开侧边栏",
    "App pages": "页面",
    "Main menu": "主菜单",
    "Link to heading": "链接到此标题",
    "Decrement": "减少",
    "Increment": "增加",
    "Dismiss": "关闭",
    "Send message": "发送消息",
    "Chat message from user": "用户消息",
    "Chat message from assistant": "助手消息",
    "Running...": "运行中…",
    "Stop": "停止",
    "Stop script": "停止运行",
    "Scroll tabs left": "向左滚动标签",
    "Scroll tabs right": "向右滚动标签",
    "Markdown content": "文本内容",
    "Notifications": "通知",
}

# where a text node may be Streamlit's own words: its portals (dropdown, tooltip, menu) and toolbars
_CHROME = (
    '[data-baseweb="popover"],[data-baseweb="tooltip"],[data-baseweb="menu"],[role="listbox"],[role="tooltip"],'
    '[data-testid="stTooltipContent"],[data-testid="stElementToolbar"],[data-testid="stStatusWidget"]'
)
# never inside the studio's own content, even in a portal: a popover's body, text, a chat message, the graph
_OURS = '[data-testid="stPopoverBody"],[data-testid="stMarkdownContainer"],[data-testid="stChatMessage"],.cw-graph'


_JS = """
(() => {
  const words = WORDS, chrome = CHROME, ours = OURS;
  const s = window.__cwChrome || (window.__cwChrome = { words: {}, done: [], obs: null });
  // the interface changed language: put back what the last dictionary swapped (only where it still shows ours)
  for (const [node, attr, was, now] of s.done) {
    if (attr === null) { if (node.nodeValue === now) node.nodeValue = was; }
    else if (node.getAttribute(attr) === now) node.setAttribute(attr, was);
  }
  s.done = [];
  s.words = words;
  const swapAttrs = (el) => {
    for (const a of ["aria-label", "title", "placeholder"]) {
      const v = el.getAttribute(a);
      if (v && Object.prototype.hasOwnProperty.call(s.words, v)) {
        el.setAttribute(a, s.words[v]); s.done.push([el, a, v, s.words[v]]);
      }
    }
  };
  const swapText = (t) => {
    const v = (t.nodeValue || "").trim();
    if (!v || !Object.prototype.hasOwnProperty.call(s.words, v)) return;
    const p = t.parentElement;
    if (!p || !p.closest(chrome) || p.closest(ours)) return;
    const now = t.nodeValue.replace(v, s.words[v]);
    s.done.push([t, null, t.nodeValue, now]);
    t.nodeValue = now;
  };
  const sweep = (root) => {
    if (!Object.keys(s.words).length) return;
    if (root.nodeType === 3) { swapText(root); return; }
    if (root.nodeType !== 1) return;
    swapAttrs(root);
    root.querySelectorAll("[aria-label],[title],[placeholder]").forEach(swapAttrs);
    const it = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let t = it.nextNode(); t; t = it.nextNode()) swapText(t);
  };
  if (!s.obs) {
    s.obs = new MutationObserver((changes) => {
      for (const c of changes) {
        if (c.type === "childList") c.addedNodes.forEach(sweep);
        else if (c.type === "characterData") swapText(c.target);
        else if (c.type === "attributes") swapAttrs(c.target);
      }
    });
    s.obs.observe(document.body, {
      subtree: true, childList: true, characterData: true,
      attributes: true, attributeFilter: ["aria-label", "title", "placeholder"],
    });
  }
  s.done = s.done.filter(([n]) => n.isConnected);
  sweep(document.body);
})();
"""


def _js_literal(value) -> str:
    """``value`` as a JavaScript literal safe inside a ``<script>`` (no ``</script>`` can close it)."""
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def chrome_script(lang: str) -> str:
    """The ``<script>`` for ``st.html(..., unsafe_allow_javascript=True)``: Streamlit's words in ``lang``.

    English swaps nothing (and puts back what a Chinese run swapped on this page).

    >>> "无匹配结果" in chrome_script("zh") and "无匹配结果" not in chrome_script("en")
    True

    Its element is hidden by ``ui.css.page_css`` (an empty element still took a gap at the top of every page).
    """
    words = ZH if lang == "zh" else {}
    body = _JS.replace("WORDS", _js_literal(words)).replace("CHROME", _js_literal(_CHROME))
    body = body.replace("OURS", _js_literal(_OURS))
    return '<script class="cw-chrome">' + body + "</script>"
