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
