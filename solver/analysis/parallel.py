"""Deprecated location of the worker pool: use :mod:`solver.engine.pool`.

The pool moved to the engine layer so that every kind of worker (threads with their
Solvers, processes, Dask) is made and stopped in one place; these names stay here for
one release.
"""

from __future__ import annotations

from ..engine.pool import ClusterError, Interrupted, iter_tasks, map_tasks, resolve_workers, task_rng

__all__ = ["ClusterError", "Interrupted", "iter_tasks", "map_tasks", "resolve_workers", "task_rng"]
