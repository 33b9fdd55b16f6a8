"""When the automatic passes run over a space: the review pass and the lifecycle pass, after ingest.

Mixed into :class:`~weaver.curation.edits.Curation`. The ingest path calls :meth:`ReviewTriggers.after_kept`
after each batch it committed; a pass that fails there is recorded in the review state, never raised: the
messages are committed and their ingest must not fail for it.
"""

from __future__ import annotations

from typing import Any, Callable

from ..models import WeaverError
from .writing import in_write_section

__all__ = ["ReviewTriggers"]


class ReviewTriggers:
    """Mixed into ``Curation`` (which provides the weaver, the review state and the pass listeners)."""

    # what Curation provides, declared for the type checker (bare annotations: nothing is set here)
    w: Any
    state: dict[str, Any]
    listeners: list[Callable]

    def pending_review(self) -> int:
        """Kept nodes since the last review pass."""
        return self.w.node_count - int(self.state.get("reviewed_upto", 0))

    def after_kept(self) -> Any:
        """The periodic trigger: a review pass every ``config.review_every`` newly kept nodes."""
        every = int(getattr(self.w.config, "review_every", 0) or 0)
        summary = None
        if every > 0 and self.pending_review() >= every:
            try:
                summary = self.review()
            except Exception as exc:  # the message is committed: a failed review must not fail its ingest
                from ..backends.openai_llm import describe_error

                self.state["last_error"] = describe_error(exc, None, 300)  # key-like tokens redacted
        self._lifecycle_due()
        return summary

    def _lifecycle_due(self) -> None:
        """The periodic lifecycle pass (``config.lifecycle_every`` user turns; 0: only on demand)."""
        every = int(getattr(self.w.config, "lifecycle_every", 0) or 0)
        if every > 0 and self.w.turn - int(self.state.get("lifecycle_turn", 0)) >= every:
            from ..lifecycle import run_pass

            try:
                run_pass(self.w)
            except WeaverError as exc:  # a committed message must not fail because a pass could not run
                self.state["last_error"] = f"lifecycle: {exc}"

    @in_write_section
    def review(self, apply: bool | None = None, mode: str | None = None):
        """Run the review pass now (see :mod:`weaver.curation.review`)."""
        from .review import run_review

        summary = run_review(self, apply=apply, mode=mode)
        for listener in list(self.listeners):
            listener(summary)
        return summary
