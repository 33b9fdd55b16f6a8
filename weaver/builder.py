"""The dependency builder: declared dependencies first, a measured guess otherwise, abstain when unsure.

A memory gets its parents in one of two ways:

* **declared** (``ingest(..., depends_on=[(node_id, relation)])``): the caller
  knows why it did something — the travel agent's tool call depends on the
  constraints that set its arguments, its reply on the results it cites. Such
  edges carry origin ``agent`` and confidence 1.0, and nothing is guessed beside them;
* **guessed**: the fitted link model (weaver/relations/) scores the last
  :data:`~weaver.relations.features.WINDOW` memories as the one this memory
  depends on, keeps the best only when its calibrated confidence clears the
  model's threshold (an edge a curator would delete is worse than none), and
  the type model (or, for agent steps, the kind of step) names the relation.
  In LLM mode the model's best candidates go to the LLM, which judges them.

Human corrections steer the guess only for pairs like the corrected one (both
ends similar, same kinds): a correction has a bounded reach.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .backends.base import Candidate, Correction, Reasoner, RelateRequest, RelateResult
from .lexical import lexical_tokens
from .models import Edge, MemoryNode
from .relations.features import LINK_FEATURES, WINDOW, Turn, link_features, speaker_of, type_features
from .relations.model import TYPES, LinkModel, default_model
from .relations.references import LOCATIVE, reference_parent, slot_premises
from .relations.revisits import REVISIT_WHY, revisit_parent
from .relations.steps import KIND_RELATIONS, process_parent, steps_of_one_turn
from .relations.support import supported
from .relations.threads import thread_parent
from .relations.amends import amend_parents
from .relations.updates import UPDATE_CONFIDENCE, update_parents

__all__ = [
    "Guess",
    "guess_parents",
    "guess_edges",
    "revisit_edge",
    "match_correction",
    "same_episode",
    "WINDOW",
    "CORRECTION_REACH",
    "KIND_RELATIONS",
    "process_parent",
]

REFERENCE_CONFIDENCE = 0.7  # measured on CrossWOZ (bench relations): see docs/benchmarks/relations.md
PREMISE_CONFIDENCE = 0.75
THREAD_CONFIDENCE = 0.7
CORRECTION_REACH = 0.85  # a correction applies to pairs whose both ends are at least this similar to it
LLM_CANDIDATES = 3  # the link model's best candidates an LLM judges


_READABLE = {
    "d1": "the turn just before",
    "same_speaker": "same speaker",
    "child_names_parent": "names its speaker",
    "parent_names_child": "was addressed to this speaker",
    "parent_question": "answers its question",
    "cosine": "similar content",
    "shares_words": "shares words",
    "share_ratio": "shares words",
    "parent_latest_of_speaker": "that speaker's latest turn",
    "parent_latest_naming_child": "last to address them",
    "d1_x_question": "answers the question just before",
    "named_x_latest": "names that speaker's latest turn",
    "same_speaker_x_d1": "continues the speaker's own turn",
}


@dataclass
class Guess:
    """The link model's verdict on one candidate parent."""

    index: int  # into the window
    probability: float  # the pair's own link probability
    confidence: float  # calibrated P(this is the right parent), for the best candidate
    relation: str
    why: str


def _turn(node: MemoryNode, vec: np.ndarray | None) -> Turn:
    return Turn(node.content, speaker_of(node.kind, node.meta), None if vec is None else np.asarray(vec), node.kind)


def _why(model: LinkModel, row: np.ndarray) -> str:
    contrib = model.link * row
    names: list[str] = []
    for k in np.argsort(-contrib):
        if contrib[k] <= 0.1 or len(names) == 2:
            break
        label = _READABLE.get(LINK_FEATURES[int(k)])
        if label and label not in names:
            names.append(label)
    return ", ".join(names) or "closest fit"


def guess_parents(
    node: MemoryNode,
    vec: np.ndarray | None,
    window: list[MemoryNode],
    window_vecs: np.ndarray | None,
    model: LinkModel | None = None,
) -> list[Guess]:
    """Every window candidate scored, best first (the best one's ``confidence`` is calibrated).

    ``window`` holds the earlier memories in order, nearest last.
    """
    if not window:
        return []
    model = model or default_model()
    vecs = window_vecs if window_vecs is not None else [None] * len(window)
    turns = [_turn(n, v) for n, v in zip(window, vecs)]
    child = _turn(node, vec)
    X = link_features(turns, child, turns + [child], len(turns))
    p = model.link_probability(X)
    order = np.argsort(-p)
    best = int(order[0])
    conf_best = model.confidence(float(p[best]), float(p[best] / p.sum()))
    out = []
    for rank, k in enumerate(order):
        k = int(k)
        parent = window[k]
        rel = KIND_RELATIONS.get((parent.kind, node.kind))
        if rel is None:
            probs = model.type_probabilities(type_features(turns[k], child, len(window) - k))
            rel = TYPES[int(np.argmax(probs))]
        conf = conf_best if rank == 0 else float(p[k] / p.sum()) * conf_best / max(1e-9, float(p[best] / p.sum()))
        out.append(Guess(k, float(p[k]), round(min(conf, conf_best), 3), rel, _why(model, X[k])))
    return out


def same_episode(a: MemoryNode, b: MemoryNode) -> bool:
    """False only when both memories name their session (or date) and the two differ.

    >>> n = lambda meta: MemoryNode("x", "", "user_input", 1, "m", meta=meta)
    >>> same_episode(n({"session": 1}), n({"session": 2})), same_episode(n({"date": "May 1"}), n({}))
    (False, True)
    """
    for key in ("session", "date"):
        x, y = a.meta.get(key), b.meta.get(key)
        if x not in (None, "") and y not in (None, ""):
            return x == y
    return True


def match_correction(
    corrections: list[Correction],
    parent_kind: str,
    child_kind: str,
    parent_vec: np.ndarray | None,
    child_vec: np.ndarray | None,
) -> Correction | None:
    """The human correction of a pair like this one (same kinds, both ends similar), if any: the latest wins."""
    if parent_vec is None or child_vec is None:
        return None
    for c in reversed(corrections):
        if c.parent_kind != parent_kind or c.child_kind != child_kind or c.parent_vec is None or c.child_vec is None:
            continue
        if (
            float(np.dot(parent_vec, c.parent_vec)) >= CORRECTION_REACH
            and float(np.dot(child_vec, c.child_vec)) >= CORRECTION_REACH
        ):
            return c
    return None


def guess_edges(
    node: MemoryNode,
    vec: np.ndarray,
    window: list[MemoryNode],
    window_vecs: np.ndarray | None,
    reasoner: Reasoner,
    corrections: list[Correction] | None = None,
    model: LinkModel | None = None,
    earlier: list[MemoryNode] | None = None,
    vector_of: Callable[[str], np.ndarray] | None = None,
) -> tuple[list[Edge], RelateResult]:
    """The guessed parent edges of ``node`` and the backend's bill.

    At most the local parent (or a tool result's thought) plus one long-range
    reference into ``earlier`` (every earlier active memory, oldest first).
    """
    keep = [i for i, n in enumerate(window) if same_episode(n, node)]
    if len(keep) < len(window):  # attachment is within a conversation: another session or date is not "just before"
        window = [window[i] for i in keep]
        window_vecs = None if window_vecs is None or not keep else window_vecs[keep]
    edges, result = _local_edges(node, vec, window, window_vecs, reasoner, corrections, model)
    if earlier and node.kind == "user_input":  # a request building on something named earlier
        # (a reply that only acknowledges what the user stated, meta "noted", puts no place forward)
        ref = reference_parent(node, earlier, {e.source for e in edges}, lambda n: not n.meta.get("noted"))
        if ref is not None:
            i, why = ref
            relation = "conditional" if LOCATIVE.search(node.content) else "elaborates"
            edges.append(Edge(earlier[i].id, node.id, relation, REFERENCE_CONFIDENCE, "rules", why))
        thread = thread_parent(node, earlier, {e.source for e in edges})  # "找一家餐馆" after "周边有什么餐馆？"
        if thread is not None:
            edges.append(Edge(earlier[thread[0]].id, node.id, "elaborates", THREAD_CONFIDENCE, "rules", thread[1]))
        # "I moved to Berlin" after "I live in Paris"
        for i, why in update_parents(node, earlier, {e.source for e in edges}):
            edges.append(Edge(earlier[i].id, node.id, "temporal", UPDATE_CONFIDENCE, "rules", why))
        # "Actually we are on Flask 3.0, not 2.3." after "Our app is a Flask 2.3 monolith"
        for i, why in amend_parents(node, earlier, {e.source for e in edges}):
            edges.append(Edge(earlier[i].id, node.id, "temporal", UPDATE_CONFIDENCE, "rules", why))
    if earlier and node.kind == "agent_thought":  # a plan that names the constraints it must respect
        for i, slot in slot_premises(node, earlier, {e.source for e in edges}):
            edges.append(
                Edge(
                    earlier[i].id,
                    node.id,
                    "conditional",
                    PREMISE_CONFIDENCE,
                    "rules",
                    f"the plan names the {slot} stated there",
                )
            )
    if corrections and vector_of is not None:
        edges = _corrected(edges, node, vec, corrections, vector_of, {n.id: n.kind for n in earlier or window})
    return edges, result


def revisit_edge(
    node: MemoryNode,
    vec: np.ndarray,
    earlier: list[MemoryNode],
    earlier_vecs: np.ndarray,
    holders: Callable[[str], int],
    exclude: set[str],
) -> Edge | None:
    """The edge from the earlier memory ``node`` revisits in another session (weaver/relations/revisits.py), or
    None: abstains without a named speaker and a session, and when nothing earlier is similar enough and shares a
    rare word. ``holders(token)``: how many earlier memories hold a lexical token; ``exclude``: parents already
    linked. Its confidence is what the revisit adds, ``1 - similarity``: what it lends (and borrows) in retrieval.
    """
    names = set(lexical_tokens(str(node.meta.get("speaker") or "")))  # a revisit is of the same speaker

    def words(text: str) -> set[str]:  # a speaker's own name, written before each of their lines, is no topic
        return set(lexical_tokens(text)) - names

    got = revisit_parent(node, vec, earlier, earlier_vecs, words, holders)
    if got is None or earlier[got[0]].id in exclude:
        return None
    i, sim, word = got
    session = earlier[i].meta.get("session", earlier[i].meta.get("date"))
    why = f"{REVISIT_WHY}{word!r} from session {session} (similarity {sim:.2f})"
    return Edge(earlier[i].id, node.id, "elaborates", round(1.0 - sim, 3), "rules", why)


def _corrected(edges: list[Edge], node: MemoryNode, vec, corrections, vector_of, kinds: dict) -> list[Edge]:
    """Relabel or drop the guessed edges a curator settled for a similar pair."""
    out = []
    for e in edges:
        c = (
            None
            if "curator" in e.rationale or e.source not in kinds
            else match_correction(corrections, kinds[e.source], node.kind, vector_of(e.source), vec)
        )
        if c is None:
            out.append(e)
        elif c.relation:
            out.append(
                Edge(
                    e.source,
                    e.target,
                    c.relation,
                    0.9,
                    e.origin,
                    f"a curator made a similar pair {c.relation} (was {c.was or 'none'})",
                )
            )
    return out


def _local_edges(node, vec, window, window_vecs, reasoner, corrections, model) -> tuple[list[Edge], RelateResult]:
    model = model or default_model()
    corrections = corrections or []
    guesses = guess_parents(node, vec, window, window_vecs, model)
    if not guesses:
        return [], RelateResult([], reasoner.name)
    edges: list[Edge] = []
    asked_by = node.meta.get("thought_id")
    for g in guesses:  # the thought a tool result answers is its parent, whatever the model thinks
        parent = window[g.index]
        if (
            node.kind == "tool_result"
            and parent.kind == "agent_thought"
            and (parent.id == asked_by or (not asked_by and parent.turn == node.turn))
        ):
            edges.append(
                Edge(parent.id, node.id, "temporal", 0.95, "rules", "tool result of the thought that called it")
            )
            return edges, RelateResult([], reasoner.name)
    if node.kind == "agent_response":  # a reply reports its own step's latest tool result
        for parent in reversed(window):
            if parent.turn != node.turn:
                break
            if parent.kind == "tool_result":
                edges.append(
                    Edge(parent.id, node.id, "causal", 0.95, "rules", "reply reporting this step's tool result")
                )
                return edges, RelateResult([], reasoner.name)
    if getattr(reasoner, "kind", "rules") == "llm":  # an LLM reads the steps' content: its judgement stands
        return _llm_edges(node, window, guesses, reasoner, corrections)
    step = process_parent(node, window)
    # the step an agent step follows within its turn, where the link model misreads agents; when the content
    # backs the pair (an agent may turn to another task in the same turn: a dinner plan after a metro lookup)
    if step is not None and supported(window[step[0]], node, window[step[0] + 1 :]):
        i, relation, why = step
        edges.append(Edge(window[i].id, node.id, relation, 0.95, "rules", why))
        return edges, RelateResult([], reasoner.name)
    for g in guesses:
        parent = window[g.index]
        pvec = None if window_vecs is None else window_vecs[g.index]
        c = match_correction(corrections, parent.kind, node.kind, pvec, vec)
        if c is not None:  # a curator settled a pair like this one
            if c.relation:
                edges.append(
                    Edge(
                        parent.id,
                        node.id,
                        c.relation,
                        0.9,
                        "rules",
                        f"a curator made a similar pair {c.relation} (was {c.was or 'none'})",
                    )
                )
            if c.relation or g is guesses[0]:
                return edges, RelateResult([], reasoner.name)
            continue
        if not (steps_of_one_turn(parent, node) or supported(parent, node, window[g.index + 1 :])):
            continue  # the content does not back this pair (weaver/relations/support.py): the next candidate may
        if g.confidence >= model.threshold:  # the best candidate the content backs, when confident enough
            edges.append(
                Edge(parent.id, node.id, g.relation, g.confidence, "rules", f"link model {g.confidence:.2f}: {g.why}")
            )
        break
    return edges, RelateResult([], reasoner.name)


def _llm_edges(
    node: MemoryNode, window: list[MemoryNode], guesses: list[Guess], reasoner: Reasoner, corrections: list[Correction]
) -> tuple[list[Edge], RelateResult]:
    top = [window[g.index] for g in guesses[:LLM_CANDIDATES]]
    cands = [Candidate(n.id, n.content, n.kind, n.turn, g.probability, n.meta) for n, g in zip(top, guesses)]
    result = reasoner.relate(RelateRequest(node.content, node.kind, node.turn, node.meta, cands), corrections)
    edges = [
        Edge(j.parent_id, node.id, j.relation, float(j.confidence), reasoner.kind, j.rationale)
        for j in result.judgements
        if j.relation is not None and j.parent_id != node.id
    ]
    if result.fallback:  # the endpoint failed: the offline guess stands in for its answer
        edges, g = [], guesses[0]
        if g.confidence >= default_model().threshold:
            edges = [
                Edge(
                    window[g.index].id,
                    node.id,
                    g.relation,
                    g.confidence,
                    "rules",
                    f"link model {g.confidence:.2f} (LLM unavailable): {g.why}",
                )
            ]
    return edges, result
