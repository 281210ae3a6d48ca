"""The options every sampling or parallel run shares, in one value: :class:`RunOptions`.

Advice, the single-dummy review, studies and simulations all take some of: how many
samples, which seed, how many local workers, which Dask scheduler, and a progress
callback. One dataclass checks them once, the same way for all (the CLI builds one
from its shared flags, see ``cli/common.py``), and hands each run the ones it takes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine.pool import check_scheduler
from ..errors import SolverError
from ..inputs import check_progress

__all__ = ["RunOptions"]

MAX_SEED_BITS = 256
MAX_SEED_CHARS = 1000


@dataclass(frozen=True)
class RunOptions:
    """``samples`` (None: the run's default), ``seed`` (an int or a string), ``workers``
    (None: every core; at most one per core, see
    :func:`~solver.engine.pool.resolve_workers`), ``scheduler`` (a Dask address or
    Client, None: local) and ``progress(done, total)``.

    Raises SolverError naming the first bad option.
    """

    samples: int | None = None
    seed: int | str = 0
    workers: int | None = None
    scheduler: Any = None
    progress: Callable[[int, int], None] | None = None

    def __post_init__(self) -> None:
        if self.samples is not None and (
            isinstance(self.samples, bool) or not isinstance(self.samples, int) or self.samples < 1
        ):
            raise SolverError(f"samples must be a positive whole number, got {self.samples!r}")
        seed = self.seed
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise SolverError(f"seed must be an int or a string, got {seed!r}")
        if (
            isinstance(seed, int)
            and abs(seed).bit_length() > MAX_SEED_BITS
            or (isinstance(seed, str) and len(seed) > MAX_SEED_CHARS)
        ):
            raise SolverError(
                f"seed must be an int of at most {MAX_SEED_BITS} bits or a string of at most "
                f"{MAX_SEED_CHARS:,} characters"
            )
        if self.workers is not None and (
            isinstance(self.workers, bool) or not isinstance(self.workers, int) or self.workers < 1
        ):
            raise SolverError(f"workers must be a positive whole number, got {self.workers!r}")
        check_scheduler(self.scheduler)
        check_progress(self.progress, SolverError)  # callable, and of (done, total)

    def kwargs(self, *names: str) -> dict[str, Any]:
        """The named options as keyword arguments (``samples`` left out while None)."""
        return {n: getattr(self, n) for n in names if not (n == "samples" and self.samples is None)}
