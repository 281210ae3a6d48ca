"""A time limit for a bench's long call, raised in the main thread.

Why a signal: a misère search can run for minutes inside one engine call, and the engine
runs Python's signal handlers as it polls, so an alarm stops it in the middle of a search
where a check between calls would wait for the call to end.
"""

from __future__ import annotations

import signal
from types import FrameType
from typing import TypeVar

_Alarm = TypeVar("_Alarm", bound="raising_after")


class raising_after:
    """Raise ``error`` (an exception class) in the main thread ``seconds`` after entering
    the block (0: never); leaving the block first cancels it. Use it with ``with``."""

    def __init__(self, seconds: float, error: type[BaseException] = KeyboardInterrupt) -> None:
        self.seconds = seconds
        self.error = error

    def __enter__(self: _Alarm) -> _Alarm:
        if self.seconds <= 0:
            return self

        def expire(signum: int, frame: FrameType | None) -> None:
            raise self.error

        self._previous = signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.seconds <= 0:
            return
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self._previous)
