"""The write-section decorator shared by the curation mixins (edits, node actions, queue actions).

Every public curation write runs inside the weaver's write section: the space's
writer lock, catching up with other writers first, and one new revision when it
ends (see :meth:`weaver.curation.edits.Curation.write_section`).
"""

from __future__ import annotations

import functools

__all__ = ["in_write_section"]


def in_write_section(fn):
    """Decorate a ``Curation`` method so it runs inside ``self.write_section()``.

    Nested calls (``accept`` calling ``set_edge``) re-enter the same section: the
    lock is re-entrant, so one public write is one revision.
    """

    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        with self.write_section():
            return fn(self, *args, **kwargs)

    return wrapper
