"""The analysis board: a played hand in the browser, every legal card marked with its value.

``sm358 board SOURCE`` serves it from the command line; in Jupyter ``solver.board(source)``
shows it inline (the package itself is callable, so ``solver.board(...)`` and
``solver.board.board(...)`` are the same call). Endpoints and decisions: ``docs/board.md``.
The web stack (Starlette, uvicorn) is imported only when a board is served.
"""

from __future__ import annotations

import sys
import types
from typing import Any

__all__ = ["board"]


def board(source: Any = None, **options: Any) -> Any:
    """The board of ``source`` inline in Jupyter; see :func:`solver.board.server.board`."""
    from .server import board as show

    return show(source, **options)


class _CallableModule(types.ModuleType):
    """Lets ``solver.board(source)`` call :func:`board` although ``solver.board`` is a package."""

    def __call__(self, source: Any = None, **options: Any) -> Any:
        return board(source, **options)


sys.modules[__name__].__class__ = _CallableModule
