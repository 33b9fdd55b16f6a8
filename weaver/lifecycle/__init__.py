"""Memory lifecycle: forgetting (retention, archive), merging near-duplicates, reflection summaries, tiers.

Pure functions over the graph (``retention``, ``merge``, ``reflection``, ``tiers``) and one orchestrating
pass (``passes``) whose every change goes through the curation audit log, so it can be undone.

>>> from weaver.lifecycle import run_pass, LifecycleConfig   # run_pass(weaver, dry_run=True) plans only
"""

from .config import LifecycleConfig
from .merge import sources_of
from .passes import LifecyclePlan, last_pass, passes, plan_pass, run_pass, undo_pass
from .retention import Retention, retention_scores
from .tiers import TIERS, tier_counts, tier_of

__all__ = [
    "TIERS",
    "LifecycleConfig",
    "LifecyclePlan",
    "Retention",
    "last_pass",
    "passes",
    "plan_pass",
    "retention_scores",
    "run_pass",
    "sources_of",
    "tier_counts",
    "tier_of",
    "undo_pass",
]
