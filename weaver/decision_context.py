"""Complete decision contexts: the constraints in force for a decision, compactly, before the narrative.

A query that asks for a decision (a hotel, a restaurant, a sight, a booking, the
plan) needs certain slots: a restaurant needs the per-person budget, the diet, the
meal, where, the party and the dates. :func:`needed` names them; :func:`build_block`
renders the current records of those slots (:mod:`weaver.constraints`) as one
compact block whose tokens are reserved before the narrative is packed, so the
budget can never cut them in favour of chit-chat. A user statement that holds an
outdated value, whose every slot is in the block and that says little else, is left
out of the narrative (the block carries its current values; the outdated one would
only mislead).

>>> from weaver.constraints import records_from_statements
>>> recs = records_from_statements([("n1", 1, "预算五千，五月一号出发，两个人"), ("n2", 2, "我对海鲜过敏"),
...                                 ("n3", 3, "住宿每晚别超过六百块"), ("n4", 5, "预算改成八千")])
>>> print(build_block(recs, "晚饭去哪家餐厅？").text)
当前有效的约束（晚餐）：不吃海鲜（过敏）；2人；总预算≤8000元；出发/入住5月1日
>>> print(build_block(recs, "Which hotel should we book?").text)
Constraints in force: hotel per night ≤600 CNY; start / check-in 05-01; 2 people; total budget ≤8000 CNY
>>> build_block(recs, "哈哈，听起来不错") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from .constraints import ConstraintRecord, known_statement_values, statement_values
from .retrieval import Boost
from .slots import asks_history, residue
from .slots_prefs import meal_of
from .text import count_tokens, detect_language

__all__ = [
    "needed",
    "build_block",
    "DecisionBlock",
    "apply_block",
    "covered_statement",
    "DOMAIN_SLOTS",
    "decision_for",
    "revision_count",
    "supersedes_edges",
    "remembered",
    "GRAPH_EDITS",
    "constraint_boost",
    "MAX_REVISIONS",
]

_DOMAINS = {  # English words whole ("eat" is not in "weather")
    "hotel": re.compile(
        r"酒店|宾馆|住宿|住哪|入住|民宿|房间|\b(?:hotels?|stay|rooms?|accommodations?|hostels?)\b", re.I
    ),
    "restaurant": re.compile(
        r"餐厅|餐馆|饭店|饭馆|吃饭|吃什么|吃哪|美食|早餐|午餐|晚餐|午饭|晚饭|夜宵|菜|"
        r"\b(?:restaurants?|eat|food|breakfast|lunch|dinner|meals?|dine|dining)\b",
        re.I,
    ),
    "attraction": re.compile(
        r"景点|景区|门票|游玩|参观|逛|博物馆|公园|\b(?:attractions?|sights?|visit|museums?|parks?|"
        r"tours?|tickets?)\b",
        re.I,
    ),
    "plan": re.compile(
        r"预订|预定|订|行程|计划|安排|预算够|花了|\b(?:book|reserve|plan|itinerary|schedule|budget)\b", re.I
    ),
}
# which slot keys a decision in each domain needs ("*" matches any scope), the trip frame included
# (the domain's own slots first: when the block must shrink, the last go first)
DOMAIN_SLOTS = {
    "hotel": (
        "budget/night",
        "date/*",
        "nights",
        "party",
        "amenity/*",
        "hotel_type",
        "quiet",
        "rating/hotel",
        "rating",
        "location/hotel",
        "location",
        "budget/total",
    ),
    "restaurant": (
        "diet/*",
        "budget/person",
        "party",
        "dish/*",
        "rating/restaurant",
        "rating",
        "location/restaurant",
        "location",
        "budget/total",
        "date/*",
        "nights",
    ),
    "attraction": (
        "budget/ticket",
        "date/*",
        "party",
        "rating/attraction",
        "rating",
        "location",
        "budget/total",
        "nights",
    ),
}
DOMAIN_SLOTS["plan"] = tuple(dict.fromkeys(k for v in DOMAIN_SLOTS.values() for k in v))
_MEAL_WORDS = {
    "zh": {"breakfast": "早餐", "lunch": "午餐", "dinner": "晚餐", "late-night": "夜宵"},
    "en": {"breakfast": "breakfast", "lunch": "lunch", "dinner": "dinner", "late-night": "late-night"},
}
_HEAD = {"zh": "当前有效的约束", "en": "Constraints in force"}


def needed(query: str) -> tuple[str | None, tuple[str, ...]]:
    """(domain, slot keys) a query's decision needs; (None, ()) for a query that decides nothing.

    >>> needed("晚饭去哪家餐厅？")[0], needed("Find me a quiet hotel")[0], needed("What did Caroline paint?")
    ('restaurant', 'hotel', (None, ()))
    """
    hits = [d for d, pat in _DOMAINS.items() if pat.search(query or "")]
    if not hits:
        return None, ()
    domain = hits[0] if len(hits) == 1 or hits[0] != "plan" else hits[1]
    if len([d for d in hits if d != "plan"]) > 1:
        domain = "plan"  # a question across domains needs them all
    return domain, DOMAIN_SLOTS[domain]


def _wanted(key: str, keys: tuple[str, ...]) -> bool:
    slot = key.split("/", 1)[0]
    return key in keys or f"{slot}/*" in keys


@dataclass
class DecisionBlock:
    text: str
    tokens: int
    domain: str
    meal: str | None
    records: list[ConstraintRecord] = field(default_factory=list)
    revisions: int = 0  # how often this user revised a constraint (shown in the trace)

    @property
    def node_ids(self) -> list[str]:
        return list(dict.fromkeys(r.node_id for r in self.records))

    def to_dict(self) -> dict:
        return {
            "text": self.text,
            "tokens": self.tokens,
            "domain": self.domain,
            "meal": self.meal,
            "revisions": self.revisions,
            "records": [r.to_dict() for r in self.records],
        }


def build_block(
    records: list[ConstraintRecord], query: str, lang: str | None = None, limit_tokens: int | None = None
) -> DecisionBlock | None:
    """The block of constraints in force that ``query``'s decision needs (None when it needs none or none is
    known). ``limit_tokens``: the most the block may take (the trip frame and the domain's own slots are
    kept first when it must shrink)."""
    domain, keys = needed(query)
    if domain is None:
        return None
    lang = lang or detect_language(query)
    lang = "zh" if lang == "zh" else "en"
    meal = meal_of(query) if domain in ("restaurant", "plan") else None
    known = {(r.speaker, r.key) for r in records if r.status == "current"}
    # an unread amount is shown (as said) only where no value of its slot was read
    recs = [
        r
        for r in records
        if _wanted(r.key, keys)
        and (r.status == "current" or (r.status == "unread" and (r.speaker, r.key) not in known))
    ]
    if not recs and not meal:
        return None
    recs.sort(key=lambda r: (keys.index(r.key) if r.key in keys else keys.index(r.key.split("/")[0] + "/*"), r.turn))
    head = _HEAD[lang] + (
        f"（{_MEAL_WORDS[lang][meal]}）" if meal and lang == "zh" else f" ({_MEAL_WORDS[lang][meal]})" if meal else ""
    )
    sep, colon = ("；", "：") if lang == "zh" else ("; ", ": ")
    lines = [r.line(lang) for r in recs]  # rendered once: a long history shrinks one line at a time
    keep = len(recs)
    while True:
        text = head + colon + sep.join(lines[:keep])
        tokens = count_tokens(text) + 1
        if limit_tokens is None or tokens <= limit_tokens or not keep:
            break
        keep -= 1  # the least needed go first (frame, then the domain's keys, in order)
    if (recs and not keep) or (limit_tokens is not None and tokens > limit_tokens):
        return None  # a bare heading says nothing, and the block never takes more than it may
    return DecisionBlock(text, tokens, domain, meal, recs[:keep])


def covered_statement(content: str, block: DecisionBlock, node_id: str = "", same_trip=None, values=None) -> bool:
    """A user statement that holds an outdated value, whose every slot is a key of the block and that says
    little else: the block says what of it still holds, and its outdated value would only mislead. (A
    statement whose values are all current stays: it is cheap, and later steps link to it.)

    ``same_trip(a, b)``: whether two nodes are of one session. A value is outdated only by a later value
    of its own session: another session may be another trip, whose budget revises nothing of this one
    (supersede on arrival stays within a session for the same reason). ``values``: the statement's slot values,
    when the caller keeps them (:func:`weaver.constraints.statement_values` of ``content`` otherwise).

    >>> from weaver.constraints import records_from_statements
    >>> recs = records_from_statements([("n1", 1, "预算五千"), ("n2", 5, "预算八千")])
    >>> block = build_block(recs, "预算内的酒店？")
    >>> covered_statement("预算五千", block, "n1"), covered_statement("预算五千", block, "n1", lambda a, b: False)
    (True, False)
    """
    vals = statement_values(content) if values is None else values
    if not vals:
        return False
    current = {r.key: r for r in block.records}
    keys = [f"{v.slot}/{v.scope}" if v.scope else v.slot for v in vals]
    if not all(k in current for k in keys):
        return False
    outdated = any(
        current[k].node_id != node_id
        and (current[k].value, current[k].bound, current[k].high) != (v.value, v.bound, v.high)
        and (same_trip is None or same_trip(current[k].node_id, node_id))
        for k, v in zip(keys, vals)
    )
    return outdated and _residue_size(content) <= 4


@lru_cache(maxsize=65536)
def _residue_size(content: str) -> int:
    """How many content words a statement says beyond its slot values (read once per text: a text never
    changes, and the slot readers this runs were most of a constraint query's remaining time)."""
    return len(residue(content))


def apply_block(g, result, block: DecisionBlock, budget: int, values_of=None):
    """Put the block before ``result``'s narrative (retrieved at the budget minus the block), leaving out
    the statements it covers. Mutates and returns ``result``; the trace says why a node was left out.
    ``values_of(statements)``: ``{node id: slot values}`` for ``(node id, turn, text)`` statements, when the
    caller keeps them (:func:`weaver.constraints.known_statement_values`; the slot readers were a fifth of a
    constraint query's time at 10k nodes, reading texts the constraint records had read already)."""
    from .narrative import render

    from .neighbourhood import episode_of

    def same_trip(a: str, b: str) -> bool:
        if a not in g or b not in g:
            return True
        na, nb = g.nodes[a], g.nodes[b]
        return episode_of(na.get("meta"), 0) == episode_of(nb.get("meta"), 0)  # no session, no date: one chat

    stated = [n for n in result.nodes if n.kind == "user_input"]
    known = values_of([(n.id, n.turn, n.content) for n in stated]) if values_of is not None and stated else {}
    covered = {n.id for n in stated if covered_statement(n.content, block, n.id, same_trip, known.get(n.id))}
    if covered:
        keep = [n for n in result.nodes if n.id not in covered]
        for n in result.nodes:
            if n.id in covered:
                n.included = False
                n.cut_reason = (
                    "covered by the constraint block (it holds an outdated value; the current ones are shown there)"
                )
        level = result.config.get("connectives", "all")
        lang = detect_language(result.query)
        result.nodes = keep
        result.edges = [e for e in result.edges if e["source"] not in covered and e["target"] not in covered]
        result.context = render(g, [n.id for n in keep], lang, level) if keep else ""
    result.context = block.text + ("\n" + result.context if result.context else "")
    result.tokens = count_tokens(result.context)
    result.budget = budget
    result.decision = block
    return result


GRAPH_EDITS = "edits"  # graph attribute: curation's edits of existing edges and node statuses so far


def remembered(g, name: str, compute):
    """``compute()``, kept on the graph ``g`` (as ``g.graph[name]``) until the graph changes.

    A query reads some facts of the whole graph up to four times (the supersedes edges, the boosted
    statements); scanning every edge or node each time grew with the whole graph, archived memories and
    reflection summaries included. They change only when a memory is added (the node count grows; its edges
    come with it) or curation edits an existing edge or node status (it counts its edits in
    ``g.graph[GRAPH_EDITS]``); a reload builds a new graph. Both are read in O(1) (networkx's
    ``number_of_edges`` is not: it sums the degrees).

    >>> import networkx as nx
    >>> g = nx.DiGraph([("a", "b", {"relation": "supersedes"}), ("b", "c", {"relation": "causal"})])
    >>> supersedes_edges(g)
    [('a', 'b', '')]
    >>> g.edges["b", "c"]["relation"] = "supersedes"; g.graph[GRAPH_EDITS] = 1  # what curation does
    >>> sorted(supersedes_edges(g))
    [('a', 'b', ''), ('b', 'c', '')]
    """
    token = (g.number_of_nodes(), g.graph.get(GRAPH_EDITS, 0))
    got = g.graph.get(name)
    if got is None or got[0] != token:
        got = (token, compute())
        g.graph[name] = got
    return got[1]


def supersedes_edges(g) -> list[tuple[str, str, str]]:
    """``(source, target, status)`` of every ``supersedes`` edge of the weaver's graph ``g`` (:func:`remembered`)."""

    def scan():  # the adjacency's own dicts, in g.edges' order (its view's generator was half the scan at 100k)
        return [
            (u, v, d.get("status") or "")
            for u, out in g.adjacency()
            for v, d in out.items()
            if d.get("relation") == "supersedes"
        ]

    return list(remembered(g, "_supersedes", scan))


def revision_count(weaver, ids=None) -> int:
    """Revisions the user made: ``supersedes`` edges between user statements (the slot reader's, a curator's);
    ``ids``: only among these nodes (the memory as it stood at a past turn)."""
    within = set(ids) if ids is not None else None
    return sum(
        1
        for u, v, status in supersedes_edges(weaver.graph)
        if status != "rejected" and (within is None or (u in within and v in within))
    )


def decision_for(weaver, query: str, cfg, budget: int, ids=None) -> DecisionBlock | None:
    """The block for ``query`` over ``weaver``'s constraint records (of the nodes ``ids`` only, when given),
    at most half the budget."""
    from .constraints import constraint_records

    if needed(query)[0] is None or asks_history(query):
        # cheap: no records are read for a query that decides nothing; a question about what was said
        # before is answered by the narrative, which labels the superseded statements
        return None
    # half the budget, at least 16 tokens, never more than the budget ("--budget 8" printed 11 tokens)
    limit = min(budget, max(16, budget // 2))
    block = build_block(constraint_records(weaver, ids=ids), query, limit_tokens=limit)
    if block is not None:
        block.revisions = revision_count(weaver, ids)
    return block


MAX_REVISIONS = 5  # the lift stops growing here: a user who revised five times is a reviser


def constraint_boost(weaver, cfg, ids=None) -> dict[str, float] | None:
    """Personalised weighting: each active user statement that holds a constraint gains
    ``w_revision * min(revisions, MAX_REVISIONS)`` relevance (None when the user never revised or it is off).
    Shown in the trace as ``config["boost"]`` with ``config["revisions"]``.

    A statement the lifecycle archived (the cold tier; not a merged duplicate) keeps its lift: the cold tier is
    ranked as it was before it was archived, and without the lift an archived statement (and, through the
    episode context, its neighbours) fell behind the active memories that kept theirs (bench lifecycle: most
    of the evidence the lifecycle lost at 512 tokens)."""
    if not cfg.w_revision:
        return None
    n = min(revision_count(weaver, ids), MAX_REVISIONS)
    if n == 0:
        return None
    lift = cfg.w_revision * n

    def statements(among) -> list[str]:
        said = [n for n in map(weaver.nodes.__getitem__, among) if n.kind == "user_input" and _ranked_as_active(n)]
        # each statement's values as the constraint records keep them (read once per node, kept across opens):
        # the slot readers over every active statement were the first query's 25-40 s at 100k nodes
        known = known_statement_values(weaver, [(n.id, n.turn, n.content) for n in said])
        return [n.id for n in said if any(v.known for v in known[n.id])]

    if ids is not None:
        return dict.fromkeys(statements(ids), lift)
    # kept until the graph changes, as one Boost per lift: it keeps its vector over the node order, so a query
    # does not loop over every constraint statement again (weaver.retrieval.Boost)
    boosted = remembered(weaver.graph, "_boosted", lambda: statements(weaver.node_ids))
    kept = remembered(weaver.graph, "_boosts", dict)
    if lift not in kept:
        kept[lift] = Boost.fromkeys(boosted, lift)
    return kept[lift]


def _ranked_as_active(node) -> bool:
    """Active, or archived into the cold tier (not merged into a twin): ranked as an active memory is."""
    return node.status == "active" or (node.status == "archived" and not node.meta.get("merged_into"))
