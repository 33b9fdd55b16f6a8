"""How many threads numpy's BLAS may use for the weaver's own work: one, held per call.

Measured on the shared 2-core box under load (load average 7-10): a 1,000 x 512 float32 matrix-vector product,
the filter's nearest-memory check on every message, took 2-16 ms with OpenBLAS's default two threads and 0.08 ms
with one (a matrix-vector product is memory-bound: the second thread only adds a wake-up that a busy machine
delays); at 10,000 rows 11.3 ms against 1.5 ms. USE's encode was likewise 9x faster one-threaded
(:mod:`weaver.embedding`). The limit is taken around the public entry points (ingest, query), not set for the
whole process: the host application keeps its own BLAS settings outside them.
"""

from __future__ import annotations

import contextlib
import functools
from typing import Any, Callable, TypeVar

__all__ = ["blas_threads", "one_blas_thread", "COMPUTE_THREADS"]

COMPUTE_THREADS = 1
_CONTROLLER: Any = None  # one threadpoolctl controller per process (building it inspects every loaded library)
F = TypeVar("F", bound=Callable[..., Any])


def blas_threads(threads: int):
    """A context holding numpy's BLAS pool to ``threads`` (a no-op when threadpoolctl is missing).

    >>> import numpy as np
    >>> with blas_threads(1):
    ...     float(np.ones((3, 2)) @ np.ones(2) @ np.ones(3))
    6.0
    """
    global _CONTROLLER
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # pragma: no cover - pinned in requirements.txt
        return contextlib.nullcontext()
    if _CONTROLLER is None:
        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER.limit(limits=threads, user_api="blas")


def one_blas_thread(fn: F) -> F:
    """Run ``fn`` with BLAS held to :data:`COMPUTE_THREADS` (re-entrant: a nested call keeps the limit)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with blas_threads(COMPUTE_THREADS):
            return fn(*args, **kwargs)

    return wrapper  # type: ignore[return-value]
