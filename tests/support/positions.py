"""Seeded generators of random small positions for the engine-vs-reference tests.

Why a module: the default and the slow sweep must draw positions the same way, and a
failing position must be reproducible from its printed description alone.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

import bruteforce as bf
from solver.cards import ALL_CARDS, Card, Hand
from solver.deal import Deal, Seat

# Every combination of the options is visited in turn, so each batch covers them all.
OPTION_GRID = list(
    itertools.product(
        "SHDCN",  # strain
        "DEM",  # leader
        "DEM",  # seat asked about
        (False, True),  # misère
        (False, True),  # must-ruff
        (0, 1, 2),  # cards already played to the current trick
    )
)


@dataclass(frozen=True)
class Position:
    """One question to put to both solvers."""

    deal: Deal
    strain: str
    leader: str
    seat: str
    misere: bool
    must_ruff: bool
    played: tuple[Card, ...] = field(default=())

    def kwargs(self) -> dict:
        return dict(
            leader=self.leader,
            seat=self.seat,
            misere=self.misere,
            must_ruff=self.must_ruff,
            played=self.played,
        )

    def __str__(self) -> str:
        played = " ".join(str(c) for c in self.played)
        return (
            f"{self.deal} strain={self.strain} leader={self.leader} seat={self.seat} "
            f"misere={self.misere} must_ruff={self.must_ruff} played=[{played}]"
        )


def random_deal(rng: random.Random, hand_size: int) -> Deal:
    """Hands of ``hand_size`` from the full deck (rank gaps), or from a few suits (dense play).

    Full-deck draws leave most ranks out of play, which is what exercises the engine's
    relative-rank compression; few-suit draws force following, ruffing and long suits.
    A widow of 0..4 leftover cards is added now and then: it must change nothing.
    """
    if rng.random() < 0.65:
        deck = list(ALL_CARDS)
    else:
        suits = rng.sample(range(4), rng.choice((1, 2, 2, 3)))
        deck = [c for c in ALL_CARDS if c.suit in suits]
        if len(deck) < 3 * hand_size:
            deck = list(ALL_CARDS)
    rng.shuffle(deck)
    hands = [deck[i * hand_size : (i + 1) * hand_size] for i in range(3)]
    rest = deck[3 * hand_size :]
    widow = rest[: rng.choice((0, 0, 1, 4))] if rest else []
    return Deal([Hand(h) for h in hands], Hand(widow))


def random_played(
    rng: random.Random, deal: Deal, strain: str, leader: str, must_ruff: bool, count: int
) -> tuple[Card, ...]:
    """``count`` legal cards played to the current trick, chosen at random."""
    played: list[Card] = []
    for _ in range(count):
        legal = bf.legal_cards(deal, strain, leader=leader, must_ruff=must_ruff, played=played)
        played.append(rng.choice(legal))
    return tuple(played)


def positions(seed: int, count: int, sizes: tuple[int, ...]) -> list[Position]:
    """``count`` positions; hand sizes drawn from ``sizes``; options cycle through the grid."""
    rng = random.Random(seed)
    offset = rng.randrange(len(OPTION_GRID))
    out = []
    for i in range(count):
        strain, leader, seat, misere, must_ruff, n_played = OPTION_GRID[(offset + i) % len(OPTION_GRID)]
        deal = random_deal(rng, rng.choice(sizes))
        played = random_played(rng, deal, strain, leader, must_ruff, n_played)
        out.append(Position(deal, strain, leader, seat, misere, must_ruff, played))
    return out


def seat_to_move(pos: Position) -> Seat:
    return Seat((Seat.parse(pos.leader) + len(pos.played)) % 3)
