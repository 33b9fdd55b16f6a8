"""Why an edge or a review proposal exists, in the reader's language (no streamlit).

The builder, the agent and the review pass record their rationale in English ("later node holds under
the earlier constraint; same slot budget/location; shares 268, budget"): the CLI, the exports and the
tests read that exact text. A person in the Chinese studio reads it here, phrase by phrase, numbers and
quoted words kept. A rationale written by an LLM or a curator stays as it was written.

>>> rationale_in_words("similar (0.66), same slot, no path between them: later node holds under the "
...                    "earlier constraint; same slot budget/location; shares 000, 268, budget", "zh")
'相似（0.66），同一槽位，两者之间没有路径：后一条在前一条的约束下成立；同一槽位：预算/位置；共有的词：000、268、budget'
>>> rationale_in_words("result of the search_hotels call this step made", "zh")
'这一步调用 search_hotels 得到的结果'
>>> rationale_in_words("on arrival: restated with a new value: party: 3 -> 4; its other slots still hold, so it "
...                    "stays active", "zh")
'到达时以新值重述：人数：3 -> 4；它的其他槽位仍然有效，所以保持生效'
>>> rationale_in_words("book_hotel acts on 馨香雅苑公寓(北京王府井店), listed there", "zh")
'book_hotel 操作的是那里列出的 馨香雅苑公寓(北京王府井店)'
>>> rationale_in_words("set the arguments of book_hotel(name=馨香雅苑公寓(北京王府井店), nights=3)", "zh")
'决定了 book_hotel 的参数（name=馨香雅苑公寓(北京王府井店), nights=3）'
>>> rationale_in_words("kind prior user_input->agent_thought", "zh")
'按类型的默认关系：用户输入 → 智能体思考'
>>> rationale_in_words("fixed on the canvas", "en")
'fixed on the canvas'
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .filter_words import DOMAINS_ZH as _DOMAINS
from .filter_words import SLOTS_ZH as _SLOTS

__all__ = ["rationale_in_words"]

# the facts weaver.fact_frames reads, as its rationales name them
_FRAMES = {"where they live": "住处", "where they work": "工作单位", "what they work as": "职业"}

_KINDS = {
    "user_input": "用户输入",
    "agent_thought": "智能体思考",
    "tool_result": "工具结果",
    "agent_response": "智能体回复",
}
_BOUNDS = {"max": "最多", "min": "至少", "about": "约", "range": "范围"}
_STATUS = {"retracted": "已撤回", "superseded": "已被取代", "archived": "已归档", "active": "生效"}
_RELATIONS = {
    "causal": "因果",
    "temporal": "时序",
    "conditional": "条件",
    "elaborates": "补充说明",
    "supersedes": "更新取代",
    "none": "无",
}
# (pattern, Chinese): patterns with groups first, then plain phrases, longest first
_RULES: list[tuple[str, str | Callable[[re.Match[str]], str]]] = [
    (
        r"similar \(([-\d.]+)\), same slot, no path between them: ",
        lambda m: f"相似（{m[1]}），同一槽位，两者之间没有路径：",
    ),
    (r"weakly similar \(([-\d.]+)\), nothing shared", lambda m: f"相似度低（{m[1]}），没有共同之处"),
    (
        r"endpoints barely similar \(([-\d.]+)\) and share nothing",
        lambda m: f"两端几乎不相似（{m[1]}），也没有共同之处",
    ),
    (r"low confidence ([-\d.]+) \(", lambda m: f"置信度低 {m[1]}（"),
    (r"link model ([-\d.]+) \(LLM unavailable\): ", lambda m: f"连接模型 {m[1]}（LLM 不可用）："),
    (r"link model ([-\d.]+): ", lambda m: f"连接模型 {m[1]}："),
    (r"learned from (\d+) human correction\(s\)", lambda m: f"从 {m[1]} 次人工修正中学到"),
    (
        r"curators corrected a similar pair \(was (\w+), made (\w+)\)",
        lambda m: f"整理者改过一对相似的边（原为{_RELATIONS.get(m[1], m[1])}，改为{_RELATIONS.get(m[2], m[2])}）",
    ),
    (r"kind prior (\w+)->(\w+)", lambda m: f"按类型的默认关系：{_KINDS.get(m[1], m[1])} → {_KINDS.get(m[2], m[2])}"),
    (r"result of the (\S+) call this step made", lambda m: f"这一步调用 {m[1]} 得到的结果"),
    (r"the (\S+) call this message asked for", lambda m: f"这条消息要求的 {m[1]} 调用"),
    (r"(\S+) widened after nothing fit there", lambda m: f"那里没有合适的结果，{m[1]} 放宽了条件"),
    (r"(\S+) acts on (.+?), listed there", lambda m: f"{m[1]} 操作的是那里列出的 {m[2]}"),
    (r"set the arguments of (\S+?)\((.*?)\)", lambda m: f"决定了 {m[1]} 的参数（{m[2]}）"),
    (r"depends on (\w+) (\S+) via ", lambda m: f"依赖于{_STATUS.get(m[1], m[1])}的 {m[2]}，路径："),
    (r"the plan names the (\w+) stated there", lambda m: f"计划用到了那里说的{_SLOTS.get(m[1], m[1])}"),
    (r"refers to the (\w+) named there", lambda m: f"指的是那里提到的{_DOMAINS.get(m[1], m[1])}"),
    (r"takes up the (\w+) question asked there", lambda m: f"接着那里问的{_DOMAINS.get(m[1], m[1])}问题"),
    (r"names ('[^']*'|\"[^\"]*\"), brought up by another speaker", lambda m: f"提到了另一位说话人说过的 {m[1]}"),
    (
        r"revisits ('[^']*'|\"[^\"]*\") from session (\S+) \(similarity ([-\d.]+)\)",
        lambda m: f"重提第 {m[2]} 次会话中的 {m[1]}（相似度 {m[3]}）",
    ),
    (
        r"a curator made a similar pair (\w+) \(was (\w+)\)",
        lambda m: f"整理者把一对相似的边改成了{_RELATIONS.get(m[1], m[1])}（原为{_RELATIONS.get(m[2], m[2])}）",
    ),
    (
        r"says it again with another value: (.+?) -> (.+?) \(([-\d.]+)\)",
        lambda m: f"换了一个值再说一遍：{m[1]} -> {m[2]}（相似度 {m[3]}）",
    ),
    (
        r"(where they live|where they work|what they work as) said anew: (.+?) -> (.+)",
        lambda m: f"重新说了{_FRAMES[m[1]]}：{m[2]} -> {m[3]}",
    ),
    (r"a correction said anew: (.+?) -> (.+)", lambda m: f"更正：{m[1]} -> {m[2]}"),
    (
        r"says (where they live|where they work|what they work as) again with another value: (.+?) -> (.+)",
        lambda m: f"再次说了{_FRAMES[m[1]]}，换了一个值：{m[2]} -> {m[3]}",
    ),
    ("on arrival: restated with a new value: ", "到达时以新值重述："),
    ("restated with a new value: ", "以新值重述："),
    ("; its other slots still hold, so it stays active", "；它的其他槽位仍然有效，所以保持生效"),
    (
        r"(?<![\w/])(budget|diet|dates?|location|amenity|quiet|rating|people|party|nights|place)(?:/(\w+))?(?: (\w+))?: ",
        lambda m: (
            _SLOTS.get(m[1], m[1])
            + (f"/{_DOMAINS.get(m[2], m[2])}" if m[2] else "")
            + (f" {m[3]}" if m[3] else "")
            + "："
        ),
    ),
    (r"(?<![\w])(max|min|about|range) (?=\S)", lambda m: _BOUNDS[m[1]] + " "),
    (r"same slot ([\w/]+)", lambda m: "同一槽位：" + "/".join(_SLOTS.get(s, s) for s in m[1].split("/"))),
    (r"shares ([^;()]+)", lambda m: "共有的词：" + "、".join(x.strip() for x in m[1].split(","))),
    (
        "implied by a longer path between the same memories (transitively redundant)",
        "同两条记忆之间已有更长的路径（传递冗余）",
    ),
    ("later node holds under the earlier constraint", "后一条在前一条的约束下成立"),
    ("tool result of the thought that called it", "调用它的思考所得到的工具结果"),
    ("reasons from the tool result just before it in this turn", "根据本轮紧挨在前的工具结果推理"),
    ("follows the thought just before it in this turn", "接着本轮紧挨在前的思考"),
    ("the request that opened this turn", "开启本轮的请求"),
    ("refers to the place put forward or chosen there", "指的是那里提出或选定的地点"),
    ("reply reporting this step's tool result", "报告这一步工具结果的回复"),
    ("cause/effect cue in the later node", "后一条里有因果提示词"),
    ("the user's message this step answers", "这一步回答的用户消息"),
    ("adds detail to the earlier node", "为前一条补充细节"),
    ("the reply reports this result", "回复报告了这个结果"),
    ("the reply to this message", "对这条消息的回复"),
    ("the reply of this step", "这一步的回复"),
    ("declared by the caller", "由调用方声明"),
    ("relabelled in the edge table", "在边表中修改了关系"),
    ("confirmed in the edge table", "在边表中确认"),
    ("deleted in the edge table", "在边表中删除"),
    ("fixed on the canvas", "在画布上修改"),
    ("deleted on the canvas", "在画布上删除"),
    ("added by hand", "手动添加"),
    ("set on the Review page", "在审阅页设置"),
    # the link model's reasons (weaver/builder.py), longest first
    ("names that speaker's latest turn", "点名了那位说话人的最近一轮"),
    ("continues the speaker's own turn", "接着说话人自己的上一轮"),
    ("answers the question just before", "回答了紧挨着的上一个问题"),
    ("was addressed to this speaker", "是对这位说话人说的"),
    ("that speaker's latest turn", "那位说话人的最近一轮"),
    ("last to address them", "最近一次对他们说话"),
    ("the turn just before", "紧挨着的上一轮"),
    ("answers its question", "回答了它的问题"),
    ("names its speaker", "点名了它的说话人"),
    ("same speaker", "同一说话人"),
    ("similar content", "内容相似"),
    ("shares words", "有共同的词"),
    ("closest fit", "最接近"),
]
_COMPILED = [(re.compile(p if callable(r) else re.escape(p)), r) for p, r in _RULES]
_PUNCT = {"; ": "；", ";": "；", " (": "（", "(": "（", ")": "）", ", ": "，"}


_BOUND_WORD = r"(?:(?:max|min|about|range|eq|restrict|lift|delta) )?"
_SLOT_WORD = r"(?<![\w/])(?:budget|diet|dates?|location|amenity|quiet|rating|people|place|party|nights|dish|hotel_type)"
# where a rationale quotes the user's own words (values said, words shared, a tool's arguments, anything in
# quotes): those spans are set aside before the template is translated and put back as they were, so a value
# such as "max security prison" never becomes "最多 security prison" (nor its commas "，")
_USER_WORDS = [
    re.compile(p)
    for p in (
        r"said anew: (.+?) -> (.+?)(?=; |$)",
        r"again with another value: (.+?) -> (.+?)(?= \([-\d.]+\)(?:; |$)|; |$)",
        _SLOT_WORD + r"(?:/\w+)?(?: \w+)?: " + _BOUND_WORD + r"(.+?) -> " + _BOUND_WORD + r"(.+?)(?=; |$)",
        r"set the arguments of \S+?\((.+)\)(?=; |$)",  # to its last ")": a name may hold brackets of its own
        r"acts on (.+?), listed there",
        r"(?<!\w)'([^'\n]+)'(?!\w)",  # a quote, not the apostrophes of "speaker's ... user's"
        r'(?<!\w)"([^"\n]+)"(?!\w)',
    )
]
_SHARED = re.compile(r"shares ([^;()]+)")
_MARK0 = 0xE000  # private-use characters stand in for the set-aside spans (no rule reads them as words)


def _set_aside(text: str) -> tuple[str, list[str]]:
    """``text`` with the user's words replaced by one private-use character each, and the words in order.

    >>> _set_aside("names 'max range', brought up by another speaker")
    ("names '\ue000', brought up by another speaker", ['max range'])
    """
    kept: list[str] = []

    def mark(words: str) -> str:
        kept.append(words)
        return chr(_MARK0 + len(kept) - 1)

    def replace_groups(m: re.Match[str]) -> str:
        out, at = [], m.start()
        for g in range(1, (m.re.groups or 0) + 1):
            if m.start(g) < 0:
                continue
            out += [m.string[at : m.start(g)], mark(m[g])]
            at = m.end(g)
        return "".join(out) + m.string[at : m.end()]

    if any(_MARK0 <= ord(c) < _MARK0 + 6400 for c in text):  # (never in a recorded rationale) nothing set aside
        return text, kept
    for rx in _USER_WORDS:
        text = rx.sub(replace_groups, text)
    text = _SHARED.sub(lambda m: "shares " + ", ".join(mark(w.strip()) for w in m[1].split(",")), text)
    return text, kept


def rationale_in_words(text: str, lang: str = "en") -> str:
    """``text`` as it was recorded, or in Chinese for ``lang`` "zh": the template's words translated, the
    user's own words it quotes (values, shared words, tool arguments) kept exactly as said.

    >>> rationale_in_words("what they work as said anew: guard at a max security prison -> teacher", "zh")
    '重新说了职业：guard at a max security prison -> teacher'
    >>> rationale_in_words("restated with a new value: location/hotel: near the max, about -> Xidan; "
    ...                    "budget/total: max 5000 -> max 8000", "zh")
    '以新值重述：位置/酒店：near the max, about -> Xidan；预算/总：最多 5000 -> 最多 8000'
    """
    if not text or not str(lang).lower().startswith("zh"):
        return text
    out, kept = _set_aside(str(text))
    for rx, repl in _COMPILED:
        out = rx.sub(repl, out)  # a plain replacement holds no backslash: taken literally
    if re.search(r"[\u4e00-\u9fff]", out):  # something was read: the joints between phrases in Chinese too
        for en, zh in _PUNCT.items():
            out = out.replace(en, zh)
    for i, words in enumerate(kept):
        out = out.replace(chr(_MARK0 + i), words)
    return out
