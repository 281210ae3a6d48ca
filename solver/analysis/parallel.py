"""Deprecated location of the worker pool: use :mod:`solver.engine.pool`.

The pool moved to the engine layer so that every kind of worker (threads with their
Solvers, processes, Dask) is made and stopped in one place; these names stay here for
one release and warn (DeprecationWarning) when used.
"""

from __future__ import annotations

import warnings
from typing import Any

from ..engine import pool as _pool

_MOVED = ("ClusterError", "Interrupted", "iter_tasks", "map_tasks", "resolve_workers", "task_rng")


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        warnings.warn(
            f"solver.analysis.parallel.{name} moved to solver.engine.pool.{name}",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(_pool, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
