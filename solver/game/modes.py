"""Deprecated: the declaration modes moved to :mod:`solver.modes` (beside ``Strain``), so
that ``declare/`` and ``game/`` share one vocabulary. This alias goes in the next release."""

from __future__ import annotations

import warnings

from ..modes import MODES, SUIT_MODES, Mode

warnings.warn(
    "solver.game.modes is deprecated; import Mode, MODES and SUIT_MODES from solver.modes",
    DeprecationWarning,
    stacklevel=2,
)

__all__ = ["MODES", "Mode", "SUIT_MODES"]
