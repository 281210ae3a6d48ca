"""Shared plumbing of the bundled players.

The views they decide from and the protocol they satisfy are in
:mod:`solver.game.views`; this module adds what the bundled players have in common.
"""

from __future__ import annotations

import random

from ..cards import Card, Hand


class BasePlayer:
    """Shared plumbing for the bundled players: a name, a private RNG, no omniscience."""

    sees_all: bool = False

    def __init__(self, name: str, rng: random.Random) -> None:
        self.name = name
        self.rng = rng

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, in the canonical order (spades first, high to low within a suit)."""
    return list(Hand(mask))


def lowest_bit(mask: int) -> int:
    return mask & -mask
