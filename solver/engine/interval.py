"""A seat's exact value as an interval of proven bounds that narrows step by step.

Why: a misère value near the seat's target can take a long search, and a user waiting
for it should see what is already proven (and keep it on Ctrl-C) rather than wait in
silence. The steps are the core's own (docs/engine.md, "The search": from a third of
the tricks, one trick up after a success, one down after a failure), each one
null-window :meth:`Solver.can_reach` on the same Solver, so the steps share its table
and the whole costs about what one :meth:`Solver.solve` does.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from solver.cards import Card
from solver.deal import Deal, Seat, Strain

from .position import Position
from .solver import UNSET, Solver, as_position


@dataclass(frozen=True)
class Interval:
    """The seat's value lies in ``lo..hi`` (tricks from the current trick on)."""

    lo: int
    hi: int

    @property
    def exact(self) -> bool:
        return self.lo == self.hi

    def __str__(self) -> str:
        return str(self.lo) if self.exact else f"{self.lo}-{self.hi}"


def narrowing_value(
    solver: Solver,
    deal: Deal | Position,
    strain: Strain | str | None = None,
    *,
    leader: Seat | str = UNSET,
    seat: Seat | str = "D",
    misere: bool = UNSET,
    must_ruff: bool = UNSET,
    played: Sequence[Card | str] = UNSET,
) -> Iterator[Interval]:
    """Yield the interval proven so far: first the whole range, then after every
    null-window step, ending with the exact value (``lo == hi``). Takes a deal and its
    fields, or a :class:`~solver.engine.position.Position`, as the Solver's methods do.

    Bad input raises the Solver's error at the first step. In misère "the seat takes at least g" is "it cannot hold itself
    to g - 1", one ``can_reach(target=g - 1, misere=True)``."""
    position = as_position(deal, strain, leader, misere, must_ruff, played)
    lo, hi = 0, position.tricks
    yield Interval(lo, hi)
    step = (hi + 1) // 3
    while lo < hi:
        step = min(max(step, lo + 1), hi)
        if position.misere:
            at_least = not solver.can_reach(position, seat=seat, target=step - 1)
        else:
            at_least = solver.can_reach(position, seat=seat, target=step)
        if at_least:
            lo = step
            step += 1
        else:
            hi = step - 1
            step = hi
        yield Interval(lo, hi)
