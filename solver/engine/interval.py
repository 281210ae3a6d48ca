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
from typing import TYPE_CHECKING

from solver.cards import Card
from solver.deal import Deal, Seat, Strain

if TYPE_CHECKING:
    from solver.engine import Solver


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
    deal: Deal,
    strain: Strain | str,
    *,
    leader: Seat | str = "E",
    seat: Seat | str = "D",
    misere: bool = False,
    must_ruff: bool = False,
    played: Sequence[Card | str] = (),
) -> Iterator[Interval]:
    """Yield the interval proven so far: first the whole range, then after every
    null-window step, ending with the exact value (``lo == hi``).

    Bad input raises the Solver's error at the first step. In misère "the seat takes at least g" is "it cannot hold itself
    to g - 1", one ``can_reach(target=g - 1, misere=True)``."""
    lo, hi = 0, deal.hand_size
    yield Interval(lo, hi)
    step = (hi + 1) // 3
    while lo < hi:
        step = min(max(step, lo + 1), hi)
        if misere:
            at_least = not solver.can_reach(
                deal,
                strain,
                leader=leader,
                seat=seat,
                target=step - 1,
                misere=True,
                must_ruff=must_ruff,
                played=played,
            )
        else:
            at_least = solver.can_reach(
                deal, strain, leader=leader, seat=seat, target=step, must_ruff=must_ruff, played=played
            )
        if at_least:
            lo = step
            step += 1
        else:
            hi = step - 1
            step = hi
        yield Interval(lo, hi)
