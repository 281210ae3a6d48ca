"""Deprecated: :class:`View` lives in :mod:`solver.game.knowledge` (what a seat knows).

This alias module re-exports it for one release and warns on import; the module name was
too close to :mod:`solver.game.views` (the decisions a player is asked).
"""

from __future__ import annotations

import warnings

from .knowledge import ImpossibleViewError, Layout, PlayState, View

warnings.warn(
    "solver.game.view is deprecated: import View from solver.game.knowledge (or solver)",
    DeprecationWarning,
    stacklevel=2,
)

__all__ = ["ImpossibleViewError", "Layout", "PlayState", "View"]
