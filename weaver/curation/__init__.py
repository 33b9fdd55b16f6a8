"""Curation: edge edits, the audit log with undo/redo, the review pass and queue, cascade flags.

``ContextWeaver`` opens a :class:`Curation` for its space (``weaver.curation``);
pages and the CLI call it, never the store directly.

>>> from weaver.curation import dependents   # pure graph logic, see cascade.py
"""

from .audit import AuditEntry, AuditLog, replay
from .cascade import dependents
from .edits import Curation
from .queue import FlagGroup, ReviewItem
from .review import ReviewSummary, run_review
from .table import apply_edge_table_edits, edge_table_rows

__all__ = [
    "AuditEntry",
    "AuditLog",
    "Curation",
    "FlagGroup",
    "ReviewItem",
    "ReviewSummary",
    "apply_edge_table_edits",
    "dependents",
    "edge_table_rows",
    "replay",
    "run_review",
]
