"""Ctrl-C that arrives while a module initialises is held back until the import is done.

Why: an import interrupted half-way leaves a C extension that refuses to initialise
again (OR-Tools: ``ImportError: initialization failed``), so one early Ctrl-C would
break every later call in the process. The import runs to its end with SIGINT noted,
not acted on; the interrupt is then delivered as usual (KeyboardInterrupt).
"""

from __future__ import annotations

import importlib
import os
import signal
import threading
from types import ModuleType


def import_holding_sigint(name: str) -> ModuleType:
    """``importlib.import_module(name)``, with a Ctrl-C during it delivered afterwards."""
    if threading.current_thread() is not threading.main_thread():
        return importlib.import_module(name)  # signals only reach the main thread
    received: list[int] = []

    def note(signum: int, frame: object) -> None:
        received.append(signum)

    previous = signal.signal(signal.SIGINT, note)
    try:
        module = importlib.import_module(name)
    finally:
        signal.signal(signal.SIGINT, previous)
    if received:
        _deliver(previous)
    return module


def _deliver(handler: object) -> None:
    """Act on a held-back SIGINT as ``handler`` (the one installed before) would have."""
    if handler is signal.SIG_IGN or handler is None:
        return
    if handler is signal.SIG_DFL:
        os.kill(os.getpid(), signal.SIGINT)
        return
    if callable(handler):
        handler(signal.SIGINT, None)


class interrupt_after:
    """Deliver a Ctrl-C (SIGINT) to the main thread ``seconds`` after entering the block,
    unless the block has ended; ``expired`` says whether it was sent. Use it with ``with``.

    Why a real SIGINT rather than a flag: every long call already stops on Ctrl-C and
    keeps what it proved (an engine search polls for it, a pool cancels its workers, a
    declaration, table or review raises its partial result), so a time limit is that
    same Ctrl-C sent by a clock. It is sent to the main thread, which a signal wakes
    from a wait on the workers. A limit must be positive and finite; None means none.
    """

    def __init__(self, seconds: float | None) -> None:
        ok = (
            isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and 0 < seconds < float("inf")
        )
        if seconds is not None and not ok:
            raise ValueError(f"a time limit must be a positive number of seconds, got {seconds!r}")
        self.seconds = seconds
        self.expired = False
        self._lock = threading.Lock()
        self._active = False
        self._timer: threading.Timer | None = None

    def __enter__(self) -> interrupt_after:
        if self.seconds is None:
            return self
        main = threading.main_thread()
        if threading.current_thread() is not main:
            raise RuntimeError("a time limit works in the main thread only (signals reach only it)")
        self._active = True
        self._timer = threading.Timer(self.seconds, self._expire, args=(main.ident,))
        self._timer.daemon = True
        self._timer.start()
        return self

    def _expire(self, main_ident: int) -> None:
        with self._lock:  # never after the block has ended: a late Ctrl-C would hit the caller
            if not self._active:
                return
            self.expired = True
            signal.pthread_kill(main_ident, signal.SIGINT)

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._active = False
        if self._timer is not None:
            self._timer.cancel()
