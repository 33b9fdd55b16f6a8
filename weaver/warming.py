"""Warming a space: load now what the first message and query after an open would load on first use.

A weaver opened on a large space answers its first ingest slower than the rest: each of these is read once per
process, on first use (measured on the bench's 100k space, 2-core box, quiet):

- the store's vector index of the nodes, which the filter's nearest-memory check searches at >= 20k nodes
  (:mod:`weaver.nearest`): 0.26-0.6 s, the first message's;
- the store's indexes of the edges and decisions, which the first apply of the write-behind log writes to
  (:meth:`weaver.chroma_space.ChromaSpace.warm_indexes`): 0.3-1.2 s;
- the supersede index, slot key -> the statements holding it (:mod:`weaver.slot_index`): 0.25-0.7 s, paid by
  the first review pass or restated slot;
- the segmenter's proper-noun table (:func:`weaver.relations.places.proper_noun_tags`): ~0.1 s, the first
  Chinese message the builder links;
- the Chinese segmenter's dictionary and the token counter's encoding (:meth:`weaver.runtime.Runtime.warm`
  loads them with the model; here too for a weaver made without a runtime).

:func:`warm` loads them and says how long each took. Each part loads once and is safe beside a running ingest
or query (the supersede index is updated under a lock), so a long-running program can run it in a thread right
after opening a space (:func:`warm_in_background`): the studio does, behind the first page it draws, and so does
the MCP server after the call that opened the space. It changes no result.
"""

from __future__ import annotations

import threading
import time

__all__ = ["warm", "warm_in_background"]


def warm(w) -> dict[str, float]:
    """Load what the first ingest and query of ``w`` (a :class:`~weaver.core.ContextWeaver`) would load; returns
    seconds per part (0.0 for a part with nothing to load)."""
    from .curation.arrival import slot_index
    from .nearest import warm_index
    from .relations.places import proper_noun_tags
    from .text import warm_text_tools

    parts = {
        "text tools": warm_text_tools,
        "vector index": lambda: warm_index(w),
        "supersede index": lambda: slot_index(w),
        "store indexes": getattr(w.space, "warm_indexes", lambda: 0),
        "proper nouns": proper_noun_tags,
    }
    took: dict[str, float] = {}
    for name, load in parts.items():
        t0 = time.perf_counter()
        load()
        took[name] = round(time.perf_counter() - t0, 3)
    return took


def warm_in_background(w) -> threading.Thread:
    """Run :func:`warm` in a daemon thread and return it (started). Best effort: a part that fails to load (the
    space deleted meanwhile, the store gone) is left to load on first use, as without a warm-up."""

    def run() -> None:
        try:
            warm(w)
        except Exception:  # noqa: BLE001 - nothing to report to: the first use loads what is missing
            pass

    thread = threading.Thread(target=run, name="weaver-warm", daemon=True)
    thread.start()
    return thread
