"""Map a pure function over tasks: on this machine's cores or on a Dask cluster.

One helper, :func:`map_tasks`, for every computation in the toolkit that splits into
independent tasks (samples of a simulation, deals of a study). Why one helper: the same
call runs on a laptop or on a cluster, and gives the same answer either way.

The contract that makes the answer independent of where and how many workers ran:

- ``fn`` is pure: its result depends only on its task. A task that needs randomness
  carries its own seed (see :func:`task_rng`), never a generator shared between tasks.
- Results come back in task order, whatever order they finished in.

Where the tasks run:

- ``scheduler=None`` (default): locally. ``workers=None`` uses every core
  (``os.cpu_count()``); ``workers=1`` runs the tasks one after the other in this thread
  (no pool: the easiest to debug). ``local="threads"`` (default) suits engine-bound
  tasks, since the engine's C search releases the GIL; ``local="processes"`` suits
  tasks that spend their time in Python (``fn`` and the tasks must then pickle).
- ``scheduler="tcp://HOST:8786"``: on the Dask cluster at that address (start it with
  ``dask scheduler`` on one machine and ``dask worker tcp://HOST:8786`` on each of the
  others; each worker needs this package installed). A ``distributed.Client`` may be
  passed instead of an address; it is used and left open.

``progress(done, total)`` is called after each finished task (and once at the start).
Ctrl-C (``KeyboardInterrupt``) cancels the tasks not yet started and raises
:class:`Interrupted`, which carries the results finished so far, so a caller can report
a partial answer.

>>> map_tasks(abs, [-3, 1, -2], workers=2)
[3, 1, 2]
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import (
    FIRST_COMPLETED,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from typing import Any, TypeVar

import numpy as np

from ..errors import ClusterError, SolverError

__all__ = ["ClusterError", "Interrupted", "iter_tasks", "map_tasks", "resolve_workers", "task_rng"]

T = TypeVar("T")
R = TypeVar("R")

ProgressFn = Callable[[int, int], None]

CONNECT_TIMEOUT = "10s"  # how long to wait for a Dask scheduler before giving up


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`map_tasks`; ``results`` maps task index to finished result."""

    def __init__(self, results: dict[int, Any], total: int) -> None:
        super().__init__(f"interrupted after {len(results)} of {total} tasks")
        self.results = results
        self.total = total


def task_rng(seed: int | str, *keys: int | str) -> np.random.Generator:
    """A generator for one task, fixed by the run's ``seed`` and the task's ``keys``.

    Strings are hashed (SHA-256), so seeds such as ``"7:12"`` work; the same seed and
    keys give the same stream on every machine and in every process.
    """
    words: list[int] = []
    for part in (seed, *keys):
        if isinstance(part, (int, np.integer)) and not isinstance(part, bool) and part >= 0:
            words.append(int(part))
        else:
            digest = hashlib.sha256(str(part).encode()).digest()
            words.append(int.from_bytes(digest[:8], "little"))
    return np.random.default_rng(np.random.SeedSequence(words))


def resolve_workers(workers: int | None) -> int:
    """The number of local workers: ``workers``, or every core when None."""
    if workers is None:
        return max(1, os.cpu_count() or 1)
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise SolverError(f"workers must be a positive integer, got {workers!r}")
    return workers


def map_tasks(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    *,
    workers: int | None = None,
    scheduler: Any = None,
    progress: ProgressFn | None = None,
    local: str = "threads",
) -> list[R]:
    """``[fn(t) for t in tasks]``, computed in parallel; see the module docstring."""
    results: dict[int, R] = {}
    stream = iter_tasks(fn, tasks, workers=workers, scheduler=scheduler, progress=progress, local=local)
    try:
        for index, value in stream:
            results[index] = value
    except Interrupted:
        raise
    except KeyboardInterrupt:
        stream.close()
        raise Interrupted(dict(results), len(tasks)) from None
    return [results[i] for i in range(len(tasks))]


def iter_tasks(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    *,
    workers: int | None = None,
    scheduler: Any = None,
    progress: ProgressFn | None = None,
    local: str = "threads",
) -> Generator[tuple[int, R], None, None]:
    """``(index, fn(tasks[index]))`` pairs in the order the tasks finish.

    For callers that fold results as they arrive; :func:`map_tasks` puts them in order.
    An exception raised by ``fn`` cancels the remaining tasks and is raised here.
    """
    tasks = list(tasks)
    if local not in ("threads", "processes"):
        raise SolverError(f"local must be 'threads' or 'processes', got {local!r}")
    total = len(tasks)
    if progress is not None:
        progress(0, total)
    if scheduler is not None:
        source = _run_dask(fn, tasks, scheduler)
    elif resolve_workers(workers) == 1 or total <= 1:
        source = ((i, fn(t)) for i, t in enumerate(tasks))
    else:
        source = _run_pool(fn, tasks, resolve_workers(workers), local)
    done: dict[int, Any] = {}
    try:
        for index, value in source:
            done[index] = value
            if progress is not None:
                progress(len(done), total)
            yield index, value
    except KeyboardInterrupt as exc:
        close = getattr(source, "close", None)
        if close is not None:
            close()
        if isinstance(exc, Interrupted):
            raise
        raise Interrupted(done, total) from None


def _run_pool(fn: Callable[[T], R], tasks: list[T], workers: int, local: str) -> Iterator[tuple[int, R]]:
    pool: Executor
    if local == "threads":
        pool = ThreadPoolExecutor(max_workers=workers)
    else:
        pool = ProcessPoolExecutor(max_workers=workers)
    futures: dict[Future, int] = {}
    try:
        # Submit a bounded window so that cancelling on Ctrl-C leaves little running.
        pending = iter(enumerate(tasks))
        window = 4 * workers
        for index, task in pending:
            futures[pool.submit(fn, task)] = index
            if len(futures) >= window:
                break
        while futures:
            finished, _ = wait(futures, return_when=FIRST_COMPLETED)
            for fut in finished:
                index = futures.pop(fut)
                value = fut.result()
                for next_index, task in pending:
                    futures[pool.submit(fn, task)] = next_index
                    break
                yield index, value
    finally:
        for fut in futures:
            fut.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


def _client(scheduler: Any) -> tuple[Any, bool]:
    """A ``distributed.Client`` for ``scheduler`` and whether we opened it (and must close it)."""
    try:
        import distributed
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise ClusterError(
            "running on a Dask cluster needs dask.distributed (pip install 'dask[distributed]')"
        ) from exc
    if isinstance(scheduler, distributed.Client):
        return scheduler, False
    if not isinstance(scheduler, str) or not scheduler:
        raise ClusterError(
            f"scheduler must be an address such as tcp://HOST:8786 or a Client, got {scheduler!r}"
        )
    try:
        return distributed.Client(scheduler, timeout=CONNECT_TIMEOUT), True
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None


def _run_dask(fn: Callable[[T], R], tasks: list[T], scheduler: Any) -> Iterator[tuple[int, R]]:
    from distributed import as_completed

    client, owned = _client(scheduler)
    futures: list[Any] = []
    try:
        # pure=False: two equal tasks are still two computations (no silent deduplication
        # that would differ from a local run's call count).
        futures = client.map(fn, tasks, pure=False)
        position = {fut.key: i for i, fut in enumerate(futures)}
        for fut in as_completed(futures):
            yield position[fut.key], fut.result()
    finally:
        unfinished = [f for f in futures if not f.done()]
        if unfinished:
            client.cancel(unfinished)
        if owned:
            client.close()
