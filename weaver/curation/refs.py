"""Naming what a curator edits: a node, a review item or an audit entry by its id or an unambiguous prefix of it
(a node also by the message id it came from).

The one resolver of the CLI and the library alike (:meth:`~weaver.curation.edits.Curation.resolve_node`):
``weaver edge set n_3f2 n_9a1 causal`` and ``cur.set_edge("n_3f2", "n_9a1", "causal")`` name the same edge. A
prefix that names more than one is refused in one line that lists them, never a guess.

>>> one_of("n_3", ["n_3f2a", "n_3f2b", "n_9a1"], "node")
Traceback (most recent call last):
...
weaver.models.WeaverError: 'n_3' matches 2 nodes (n_3f2a, n_3f2b): give more of the id
>>> one_of("n_9", ["n_3f2a", "n_9a1"], "node")
'n_9a1'
"""

from __future__ import annotations

from collections.abc import Iterable

from ..models import WeaverError
from ..validation import check_prefix

__all__ = ["SHOWN_CANDIDATES", "one_of", "resolve_node"]

SHOWN_CANDIDATES = 5  # an ambiguous prefix's error lists this many of its matches (and how many more)


def one_of(ref: str, ids: Iterable[str], what: str, where: str = "") -> str:
    """The one id of ``ids`` that is ``ref`` or starts with it; a :class:`WeaverError` naming the candidates
    when several do, or saying there is none (``where``: " in space 'x'", for the message)."""
    ref = check_prefix(ref, f"{what} id")  # "" prefixes every id: never a match
    hits = []
    for i in ids:
        if i == ref:
            return i
        if i.startswith(ref):
            hits.append(i)
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise WeaverError(f"no {what} {ref!r}{where}")
    many = what[:-1] + "ies" if what.endswith("y") else what + "s"
    raise WeaverError(f"{ref!r} matches {len(hits)} {many} ({_listed(hits)}): give more of the id")


def _listed(ids: list[str]) -> str:
    shown = ", ".join(sorted(ids)[:SHOWN_CANDIDATES])
    return shown + (f" and {len(ids) - SHOWN_CANDIDATES} more" if len(ids) > SHOWN_CANDIDATES else "")


def resolve_node(weaver, ref: str) -> str:
    """A node id of ``weaver`` from its id, an unambiguous prefix of it, or the message id (or an unambiguous
    prefix of one) the node came from. An exact id costs one dict lookup: the library's own callers pass those."""
    if isinstance(ref, str) and ref in weaver.nodes:
        return ref
    where = f" in space {weaver.space.name!r}"
    ref = check_prefix(ref, "node id")
    if any(n.startswith(ref) for n in weaver.nodes):
        return one_of(ref, weaver.nodes, "node", where)
    by_message = {n.message_id: n.id for n in weaver.nodes.values() if n.message_id}
    try:
        return by_message[one_of(ref, by_message, "node", where)]
    except WeaverError as exc:
        if "matches" in str(exc):  # several messages: name them as messages
            raise WeaverError(str(exc).replace(" nodes (", " messages (", 1)) from None
        raise
