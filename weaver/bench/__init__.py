"""Benchmarks of memory quality and speed (``python -m weaver bench ...``).

Every system in a run is judged the same way: it picks memories for a query,
they are rendered as the weaver renders a memory (``weaver.narrative.line_for``,
a date once per date) and packed into the same token budget, counted with
``weaver.text.count_tokens`` (cl100k_base); recall
is measured by provenance (which source turns made it into the context), never
by string matching.
"""

BUDGETS = (256, 512, 1024, 2048)

__all__ = ["BUDGETS"]
