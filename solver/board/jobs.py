"""Work that takes longer than a request: run on its own thread, report progress, cancellable.

Why threads: the engine's search releases the GIL, so a job computes while the server
keeps answering. A request never waits for a job longer than it asked to; the page polls.
At most ``limit`` long jobs run at once (the rest queue), so a few open boards cannot
bury the machine; a job is cancelled when the user moves on (its Solvers are stopped, and
its ``progress`` raises :class:`Cancelled` at the next step).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from ..engine import Solver

__all__ = ["Cancelled", "Job", "JobRunner"]


class Cancelled(Exception):
    """Raised inside a job whose result is no longer wanted."""


class Job:
    """One background computation: its state, progress and result (JSON-ready)."""

    def __init__(self, kind: str, key: Any) -> None:
        self.kind = kind
        self.key = key
        self.state = "queued"
        self.done = 0
        self.total = 0
        self.result: Any = None
        self.partial: Any = None  # what a running job has already found (JSON-ready), or None
        self.error: str | None = None
        self.started = time.monotonic()
        self._cancel = threading.Event()
        self._finished = threading.Event()
        self._solvers: list[Solver] = []
        self._lock = threading.Lock()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    @property
    def finished(self) -> bool:
        return self._finished.is_set()

    def progress(self, done: int, total: int) -> None:
        """Record progress; raise :class:`Cancelled` once the job has been cancelled."""
        if self._cancel.is_set():
            raise Cancelled
        self.done, self.total = int(done), int(total)

    def solver(self, solver: Solver) -> Solver:
        """Register a Solver this job searches with, so :meth:`cancel` can stop it."""
        with self._lock:
            self._solvers.append(solver)
            if self._cancel.is_set():
                solver.cancel()
        return solver

    def cancel(self) -> None:
        self._cancel.set()
        with self._lock:
            for s in self._solvers:
                s.cancel()

    def wait(self, timeout: float) -> bool:
        return self._finished.wait(max(0.0, timeout))

    def _finish(self, state: str, result: Any = None, error: str | None = None) -> None:
        self.state, self.result, self.error = state, result, error
        self._finished.set()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.state,
            "done": self.done,
            "total": self.total,
            "seconds": round(time.monotonic() - self.started, 2),
        }
        if self.state == "done":
            out["result"] = self.result
        elif self.state == "running" and self.partial is not None:
            out["partial"] = self.partial
        if self.error is not None:
            out["error"] = self.error
        return out


class JobRunner:
    """Starts jobs on threads, at most ``limit`` long ones at a time."""

    def __init__(self, limit: int) -> None:
        self.limit = max(1, int(limit))
        self._slots = threading.Semaphore(self.limit)

    def start(self, kind: str, key: Any, fn: Callable[[Job], Any], *, long: bool = True) -> Job:
        """Run ``fn(job)`` on a new thread; its return value becomes ``job.result``.

        A long job first waits for one of the ``limit`` slots (a cancelled job stops waiting).
        ``fn`` raising a library error fails the job with that message.
        """
        job = Job(kind, key)
        threading.Thread(target=self._run, args=(job, fn, long), daemon=True, name=f"board-{kind}").start()
        return job

    def _run(self, job: Job, fn: Callable[[Job], Any], long: bool) -> None:
        if long:
            while not self._slots.acquire(timeout=0.1):
                if job.cancelled:
                    job._finish("cancelled")
                    return
        try:
            if job.cancelled:
                job._finish("cancelled")
                return
            job.state = "running"
            result = fn(job)
            job._finish("cancelled" if job.cancelled else "done", result)
        except Cancelled:
            job._finish("cancelled")
        except RuntimeError as exc:  # a Solver stopped by cancel() raises RuntimeError
            job._finish("cancelled" if job.cancelled else "failed", error=str(exc))
        except Exception as exc:  # reported to the page, which shows the reason
            job._finish("failed", error=f"{type(exc).__name__}: {exc}")
        finally:
            if long:
                self._slots.release()
