"""The one worker pool: every parallel computation of the toolkit, and each thread's Solver.

Why one place: a search must stop within moments of a Ctrl-C wherever it runs (the
calling thread, a worker thread, a worker process, a Dask worker), and each kind of
worker needs its own way of being stopped. No other module creates threads,
processes or thread-local Solvers.

- :func:`thread_solver` is the calling thread's cached Solver (one per table size):
  a kept table skips the kernel's page zeroing of a fresh one on every call.
- :func:`iter_tasks` / :func:`map_tasks` compute ``fn(task)`` for every task, in
  parallel, and give the same answer wherever they ran:

  - ``fn`` is pure: its result depends only on its task. A task that needs randomness
    carries its own seed (see :func:`task_rng`), never a generator shared between tasks.
  - :func:`map_tasks` returns the results in task order, whatever order they finished in.

Where the tasks run:

- ``scheduler=None`` (default): locally, on ``workers`` workers (default every core;
  at most one per core, see :func:`resolve_workers`). ``workers=1`` runs the tasks one
  after the other in the calling thread. ``local="threads"`` (default) suits
  engine-bound tasks, since the C search releases the GIL; the threads are kept
  between calls (with their Solvers). ``local="processes"`` suits tasks that spend
  their time in Python (``fn`` and the tasks must then pickle). A call made from a
  task already running on the pool runs its tasks in that worker, one after the other.
- ``scheduler="tcp://HOST:8786"``: on the Dask cluster at that address (``dask
  scheduler`` on one machine, ``dask worker tcp://HOST:8786`` on the others, each
  with this package installed). A ``distributed.Client`` may be passed instead; it is
  used and left open.

Stopping. Ctrl-C (``KeyboardInterrupt`` in the calling thread) raises
:class:`Interrupted`, carrying the results finished so far, within moments: searches
on worker threads are stopped through the C core's stop flag (``_core.stop_all``),
worker processes are terminated, Dask tasks not yet finished are cancelled, and the
searches of the tasks already running on Dask workers are stopped there through each
worker's stop flag, which each worker lowers once its tasks have ended. Worker processes
also watch their parent and exit when it is gone (kill -9 of the parent leaves no
worker behind). A Dask cluster left with no workers for :data:`NO_WORKERS_SECONDS` is
reported as a :class:`ClusterError` instead of waited for.

``progress(done, total)`` is called after each finished task (and once at the start)
when the number of tasks is known.

>>> map_tasks(abs, [-3, 1, -2], workers=2)
[3, 1, 2]
"""

from __future__ import annotations

import hashlib
import os
import signal
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence, Sized
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, ThreadPoolExecutor, wait
from typing import Any, TypeVar

import numpy as np

from ..errors import ClusterError, SolverError
from . import _core
from .solver import MODULE_TT_MB, Solver

__all__ = [
    "NO_WORKERS_SECONDS",
    "ClusterError",
    "Interrupted",
    "check_scheduler",
    "dask_tasks_running",
    "iter_tasks",
    "map_tasks",
    "resolve_workers",
    "running_tasks",
    "stopping_searches",
    "task_rng",
    "thread_solver",
]

T = TypeVar("T")
R = TypeVar("R")

ProgressFn = Callable[[int, int], None]

CONNECT_TIMEOUT = "10s"  # how long to wait for a Dask scheduler before giving up
NO_WORKERS_SECONDS = 30.0
"""How long a Dask cluster may have no worker at all before the run is given up."""
POLL_SECONDS = 0.2  # how often waits wake up: for Ctrl-C, and to check a cluster's workers
PARENT_WATCH_SECONDS = 0.25  # how often a worker process checks that its parent lives


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`map_tasks`; ``results`` maps task index to finished result."""

    def __init__(self, results: dict[int, Any], total: int | None) -> None:
        of = "" if total is None else f" of {total}"
        super().__init__(f"interrupted after {len(results)}{of} tasks")
        self.results = results
        self.total = total


# --- each thread's Solver ------------------------------------------------------------
_local = threading.local()


def thread_solver(tt_mb: int = MODULE_TT_MB) -> Solver:
    """The calling thread's Solver with a ``tt_mb`` MiB table, made on first use.

    Entries describe positions, not deals, so a kept table stays valid between calls;
    a caller that needs a fresh table clears it.
    """
    if isinstance(tt_mb, bool) or not isinstance(tt_mb, int):
        return Solver(tt_mb)  # which refuses it with an EngineError
    solvers: dict[int, Solver] = _local.__dict__.setdefault("solvers", {})
    solver = solvers.get(tt_mb)
    if solver is None or solver.cancelled:
        solver = solvers[tt_mb] = Solver(tt_mb)
    return solver


class stopping_searches:
    """A context in which every search of the process stops at once and new ones are
    refused (``KeyboardInterrupt`` in their threads); the flag is lowered on leaving."""

    def __enter__(self) -> None:
        self._was = _core.stop_all(True)

    def __exit__(self, *exc: object) -> None:
        _core.stop_all(self._was)


# --- workers -------------------------------------------------------------------------
def resolve_workers(workers: int | None) -> int:
    """The number of local workers: ``workers``, or every core when None; never more
    than the cores (more workers than cores compute nothing sooner and each holds a
    table: 300 threads held 2.4 GB)."""
    cores = max(1, os.cpu_count() or 1)
    if workers is None:
        return cores
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise SolverError(f"workers must be a positive integer, got {workers!r}")
    return min(workers, cores)


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
    tasks: Iterable[T],
    *,
    workers: int | None = None,
    scheduler: Any = None,
    progress: ProgressFn | None = None,
    local: str = "threads",
) -> Generator[tuple[int, R], None, None]:
    """``(index, fn(task))`` pairs in the order the tasks finish.

    ``tasks`` may be an iterator: it is read only as workers free up, so a caller can
    size later tasks after earlier results (study sizes its chunks by time this way).
    An exception raised by ``fn`` stops the remaining tasks and is raised here.
    """
    if local not in ("threads", "processes"):
        raise SolverError(f"local must be 'threads' or 'processes', got {local!r}")
    total = len(tasks) if isinstance(tasks, Sized) else None
    if progress is not None and total is not None:
        progress(0, total)
    count = resolve_workers(workers) if scheduler is None else 0
    source: Iterator[tuple[int, R]]
    if scheduler is not None:
        source = _run_dask(fn, tasks, scheduler)
    elif count == 1 or total is not None and total <= 1 or getattr(_local, "in_pool", False):
        source = ((i, fn(t)) for i, t in enumerate(tasks))
    elif local == "threads":
        source = _run_threads(fn, tasks, count)
    else:
        source = _run_processes(fn, tasks, count)
    done: dict[int, Any] = {}
    try:
        for index, value in source:
            done[index] = value
            if progress is not None and total is not None:
                progress(len(done), total)
            yield index, value
    except KeyboardInterrupt as exc:
        if isinstance(exc, Interrupted):
            raise
        raise Interrupted(done, total) from None
    finally:
        close = getattr(source, "close", None)
        if close is not None:
            close()


def _wait_local(futures: Iterable[Future[Any]]) -> set[Future[Any]]:
    done, _ = wait(futures, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
    return done


def _windowed(
    submit: Callable[[T], Any],
    tasks: Iterable[T],
    window: int,
    on_stop: Callable[[set[Any], bool], None],
    wait_some: Callable[[Iterable[Any]], set[Any]] = _wait_local,
) -> Iterator[tuple[int, Any]]:
    """Keep ``window`` tasks submitted, yield results as they finish; on an early exit
    (Ctrl-C, a task's error, the consumer closing) hand the unfinished ones to ``on_stop``,
    with whether the exit is a stop (Ctrl-C, the consumer closing) rather than an error.

    ``wait_some`` returns the finished futures, or none after a short wait (so that
    Ctrl-C is seen, and a cluster's health checked, while nothing finishes).
    """
    pending = enumerate(tasks)
    futures: dict[Any, int] = {}
    finished = stopped = False
    try:
        for index, task in pending:
            futures[submit(task)] = index
            if len(futures) >= window:
                break
        while futures:
            for fut in wait_some(list(futures)):
                index = futures.pop(fut)
                value = fut.result()
                for next_index, task in pending:
                    futures[submit(task)] = next_index
                    break
                yield index, value
        finished = True
    except (KeyboardInterrupt, GeneratorExit):
        stopped = True
        raise
    finally:
        if not finished:
            for fut in futures:
                fut.cancel()
            on_stop({f for f in futures if not f.done()}, stopped)


# --- threads ---------------------------------------------------------------------------
_threads_lock = threading.Lock()
_threads: ThreadPoolExecutor | None = None
_threads_size = 0


def _thread_pool(count: int) -> ThreadPoolExecutor:
    """The kept thread pool, grown to ``count`` threads if smaller."""
    global _threads, _threads_size
    with _threads_lock:
        if _threads is None or _threads_size < count:
            old = _threads
            _threads = ThreadPoolExecutor(max_workers=count, thread_name_prefix="sm358-pool")
            _threads_size = count
            if old is not None:
                old.shutdown(wait=False)
        return _threads


class _TaskCount:
    """How many tasks of one kind run now, counted across threads (``with count:`` around
    each task)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._n = 0

    def __enter__(self) -> None:
        with self._lock:
            self._n += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._n -= 1

    @property
    def now(self) -> int:
        with self._lock:
            return self._n


_pool_tasks = _TaskCount()  # on the kept threads
_dask_tasks = _TaskCount()  # this process's Dask tasks (for a worker: the ones it computes)


def running_tasks() -> int:
    """Tasks running on the pool's kept threads now (0 once every call has returned)."""
    return _pool_tasks.now


def _on_pool_thread(fn: Callable[[T], R], task: T) -> R:
    with _pool_tasks:
        _local.in_pool = True
        try:
            return fn(task)
        finally:
            _local.in_pool = False


def _run_threads(fn: Callable[[T], R], tasks: Iterable[T], count: int) -> Iterator[tuple[int, R]]:
    pool = _thread_pool(count)

    def stop(running: set[Future[Any]], interrupted: bool) -> None:
        if not interrupted:  # a task's error: let the others end (the flag is process-wide)
            wait(running)
            return
        # the searches running on the pool's threads stop at their next poll (a few
        # milliseconds); a task between two searches fails at its next one
        with stopping_searches():
            wait(running)

    # a window of ``count`` tasks: the kept pool may have more threads than asked for
    yield from _windowed(lambda t: pool.submit(_on_pool_thread, fn, t), tasks, count, stop)


# --- processes -------------------------------------------------------------------------
def _watch_parent(parent: int) -> None:
    """In a worker process: leave Ctrl-C to the parent, and exit when the parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="sm358-parent-watch", daemon=True).start()


def _run_processes(fn: Callable[[T], R], tasks: Iterable[T], count: int) -> Iterator[tuple[int, R]]:
    pool = ProcessPoolExecutor(max_workers=count, initializer=_watch_parent, initargs=(os.getpid(),))

    def stop(running: set[Future[Any]], interrupted: bool) -> None:
        # a running task cannot be cancelled: its process is ended instead
        # (ProcessPoolExecutor has no public way to reach its processes)
        for proc in list((getattr(pool, "_processes", None) or {}).values()):
            proc.terminate()

    try:
        # two tasks per worker: one running, one waiting while the parent handles a result
        yield from _windowed(lambda t: pool.submit(fn, t), tasks, 2 * count, stop)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


# --- Dask ------------------------------------------------------------------------------
def _distributed() -> Any:
    try:
        import distributed
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise ClusterError(
            "running on a Dask cluster needs dask.distributed (pip install 'dask[distributed]')"
        ) from exc
    return distributed


def check_scheduler(scheduler: Any) -> None:
    """Refuse a malformed scheduler address at once, before any work starts or any file
    is written (reaching it is tried only when the work starts). None and a
    ``distributed.Client`` pass."""
    if scheduler is None:
        return
    distributed = _distributed()
    if isinstance(scheduler, distributed.Client):
        return
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise ClusterError(
            f"scheduler must be an address such as tcp://HOST:8786 or a Client, got {scheduler!r}"
        )
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import backends

    try:
        scheme, location = parse_address(scheduler)
        if scheme not in backends:
            raise ValueError(f"unknown scheme {scheme!r} (known: {', '.join(sorted(backends))})")
        if scheme in ("tcp", "tls", "ws", "wss"):
            _, port = parse_host_port(location)
            if not 0 < int(port) < 65536:
                raise ValueError(f"port {port} is out of range")
    except (ValueError, TypeError, LookupError) as exc:
        raise ClusterError(
            f"{scheduler!r} is not a Dask scheduler address (expected e.g. tcp://HOST:8786): {exc}"
        ) from None


def _client(scheduler: Any) -> tuple[Any, bool]:
    """A ``distributed.Client`` for ``scheduler`` and whether we opened it (and must close it)."""
    check_scheduler(scheduler)
    distributed = _distributed()
    if isinstance(scheduler, distributed.Client):
        return scheduler, False
    try:
        return distributed.Client(scheduler, timeout=CONNECT_TIMEOUT), True
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {scheduler!r}: {exc}") from None
    except (ValueError, TypeError, LookupError) as exc:  # an address its parser let through
        raise ClusterError(
            f"{scheduler!r} is not a Dask scheduler address (expected e.g. tcp://HOST:8786): {exc}"
        ) from None


def _run_dask(fn: Callable[[T], R], tasks: Iterable[T], scheduler: Any) -> Iterator[tuple[int, R]]:
    import distributed

    client, owned = _client(scheduler)
    watch = _WorkerWatch(client, scheduler)

    def wait_some(futures: Iterable[Any]) -> set[Any]:
        try:
            done, _ = distributed.wait(  # type: ignore[no-untyped-call]  # dask leaves it unannotated
                list(futures), timeout=POLL_SECONDS, return_when="FIRST_COMPLETED"
            )
        except TimeoutError:
            done = set()
        if not done:
            watch.check()
        return set(done)

    def stop(running: set[Any], interrupted: bool) -> None:
        client.cancel(list(running))
        if interrupted:  # a cancelled task that has started runs on unless its search stops
            _tell_workers_to_stop(client)

    try:
        window = max(8, 2 * sum(client.nthreads().values()))
        # pure=False: two equal tasks are still two computations (no silent deduplication
        # that would differ from a local run's call count).
        yield from _windowed(
            lambda t: client.submit(_dask_task, fn, t, pure=False), tasks, window, stop, wait_some
        )
    finally:
        if owned:
            client.close()


DASK_TELL_SECONDS = 1.0  # how long a Ctrl-C waits for the workers to hear of it
DASK_STOP_SECONDS = 30.0
"""How long a Dask worker keeps its searches stopped after a Ctrl-C, at most, waiting for
its running tasks to end (a task between searches may take a while to see the flag)."""


class TaskStopped(SolverError):
    """A Dask task whose search the stop flag ended: its client has gone (Ctrl-C)."""


def _dask_task(fn: Callable[[T], R], task: T) -> R:
    """``fn(task)`` on a Dask worker, counted while it runs; a search stopped by the
    flag ends it with :class:`TaskStopped`, since a KeyboardInterrupt raised in a Dask
    task would take the worker down with it."""
    with _dask_tasks:
        try:
            return fn(task)
        except KeyboardInterrupt:
            raise TaskStopped("the search was stopped: its client was interrupted") from None


def dask_tasks_running() -> int:
    """This process's Dask tasks running now (for a worker: the ones it is computing)."""
    return _dask_tasks.now


def _stop_dask_searches() -> None:
    """Run on each Dask worker after a Ctrl-C: stop its searches at once, and lower the
    flag again once its tasks have ended, so that the worker serves the next run."""
    stopped = threading.Event()

    def stop_until_idle() -> None:
        with stopping_searches():
            stopped.set()
            deadline = time.monotonic() + DASK_STOP_SECONDS
            while dask_tasks_running() and time.monotonic() < deadline:
                time.sleep(0.01)

    threading.Thread(target=stop_until_idle, name="sm358-dask-stop", daemon=True).start()
    stopped.wait()  # the flag is up before the client hears back


def _tell_workers_to_stop(client: Any) -> None:
    """Ask every worker to stop its searches, waiting at most DASK_TELL_SECONDS for the
    answers (an unreachable worker must not hold up the Ctrl-C)."""

    def tell() -> None:
        try:
            client.run(_stop_dask_searches, on_error="ignore")
        except Exception:  # noqa: BLE001 - a cluster going down: nothing runs there then
            pass

    teller = threading.Thread(target=tell, name="sm358-dask-stop-tell", daemon=True)
    teller.start()
    teller.join(DASK_TELL_SECONDS)


class _WorkerWatch:
    """Raises ClusterError once the cluster has had no worker for NO_WORKERS_SECONDS."""

    def __init__(self, client: Any, scheduler: Any) -> None:
        self.client = client
        self.scheduler = scheduler
        self.since: float | None = None

    def check(self) -> None:
        try:
            workers = len(self.client.nthreads())
        except (OSError, TimeoutError):
            workers = 0
        if workers:
            self.since = None
            return
        now = time.monotonic()
        if self.since is None:
            self.since = now
        elif now - self.since >= NO_WORKERS_SECONDS:
            raise ClusterError(
                f"the Dask cluster at {self.scheduler} has had no workers for {NO_WORKERS_SECONDS:.0f} s; "
                f"start some (dask worker ADDRESS) and run again"
            )
