"""The engine work of a review: each seat's total along the play, and each mover's best cards.

Why a chain per seat: a seat's total (tricks won + value) moves one way only at each card.
Its own card can only lower it (raise it, minimising), by the card's cost; another seat's
card can only raise it (lower it), by the seat's gain, since each value already assumes
the other two play against the seat. So after one exact value at the first card, each
card asks one null-window question of each seat (did my card keep my total? did theirs
give me a trick?), and an exact value is searched only where the total moved. Once the
totals are known, a position's best cards are one null-window question an equivalent group
of the mover's cards, at the value found. In misère a value's proof costs far more on
the seat's side than on the coalition's, and most of these questions are answered by the
coalition's side: an MT hand is reviewed several times faster than with every card's
exact value (docs/review.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import Card
from ..deal import Seat
from ..engine import Position as EnginePosition
from ..engine import Solver
from ..game.handfile import HandRecord, Position

__all__ = ["Chain", "Keeping", "chains_of", "keeping_of", "plays_of", "run"]


@dataclass
class Chain:
    """One seat's totals before each card of a hand and after its last."""

    hand: int
    seat: Seat
    points: tuple[Position | None, ...]  # before each card, then after the last (None: the hand is over)
    taken: tuple[int, int, int]  # the tricks won when the hand is over
    totals: list[int] = field(default_factory=list)

    @property
    def misere(self) -> bool:
        first = self.points[0]
        return first is not None and first.misere


@dataclass
class Keeping:
    """The mover's cards at one position that keep its value (``value``, known from its chain)."""

    hand: int
    k: int
    position: Position
    value: int
    cards: tuple[Card, ...] = ()

    @property
    def misere(self) -> bool:
        return self.position.misere


def plays_of(rec: HandRecord) -> list[tuple[Position, Card]]:
    """Each card of the hand with the position before it."""
    return [(rec.position(t, i), c) for t, trick in enumerate(rec.tricks, 1) for i, c in enumerate(trick)]


def final_position(rec: HandRecord) -> Position | None:
    """The position after the last card, or None when the hand is over."""
    if rec.complete:
        return None
    last = rec.tricks[-1] if rec.tricks else ()
    if rec.tricks and len(last) < 3:
        return rec.position(len(rec.tricks), len(last))
    return rec.position(len(rec.tricks) + 1)


def chains_of(index: int, rec: HandRecord, plays: list[tuple[Position, Card]]) -> list[Chain]:
    """The three seats' chains of one hand."""
    points = (*(p for p, _ in plays), final_position(rec))
    return [Chain(index, s, points, rec.won) for s in Seat]


def keeping_of(index: int, plays: list[tuple[Position, Card]], chains: list[Chain]) -> list[Keeping]:
    """One best-cards question per card played, at the mover's value its chain found."""
    out = []
    for k, (pos, _card) in enumerate(plays):
        m = pos.mover
        out.append(Keeping(index, k, pos, chains[m].totals[k] - pos.won[m]))
    return out


def run(solver: Solver, job: Chain | Keeping) -> None:
    """Do one job on ``solver`` (a worker thread's own), filling in its result."""
    if isinstance(job, Keeping):
        job.cards = solver.cards_keeping(
            job.position.engine_position(), seat=job.position.mover, value=job.value
        )
        return
    _run_chain(solver, job)


def _run_chain(solver: Solver, chain: Chain) -> None:
    s = chain.seat
    first = chain.points[0]
    assert first is not None
    totals = [first.won[s] + solver.solve(first.engine_position(), seat=s)]
    for here, after in zip(chain.points, chain.points[1:]):
        assert here is not None
        if after is None:  # the hand is over: the tricks taken
            totals.append(chain.taken[s])
            break
        keep = totals[-1] - after.won[s]  # the value after the card that keeps the total
        value = _value_after(solver, after.engine_position(), s, keep, own=here.mover == s)
        totals.append(after.won[s] + value)
    chain.totals = totals


def _value_after(solver: Solver, at: EnginePosition, seat: Seat, keep: int, own: bool) -> int:
    """``seat``'s value at ``at``, known to be ``keep`` or worse for it after its own card
    (``own``), ``keep`` or better after another seat's: null-window steps from ``keep``,
    each one trick further, where an exact value would start from a third of the tricks."""
    misere = at.misere
    if own:  # kept, or lost: the first target it still reaches, stepping away from keep
        step = 1 if misere else -1
        target = keep
        while not solver.can_reach(at, seat=seat, target=target):
            target += step
        return target
    step = -1 if misere else 1  # unchanged, or gained: the last target it reaches
    target = keep
    while solver.can_reach(at, seat=seat, target=target + step):
        target += step
    return target
