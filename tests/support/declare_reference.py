"""Plain exhaustive declaration: every strain x every discard set, each solved on its own.

The reference the optimiser is tested against. No classes, no bounds, no CP-SAT, no
shared table: ``itertools.combinations`` and one ``solve`` per (strain, discard set).
"""

from __future__ import annotations

import random
from itertools import combinations

from solver.cards import Card, Hand
from solver.deal import Deal, Seat
from solver.engine import solve


def all_values(
    deal: Deal,
    *,
    declarer: str = "D",
    leader: str = "E",
    strains: str = "SHDC",
    blind: bool = False,
    misere: bool = False,
    must_ruff: bool = False,
) -> dict[tuple[str, frozenset[Card]], int]:
    """(strain, discard set) -> the declarer's double-dummy value after that discard."""
    seat = Seat.parse(declarer)
    own = deal.hands[seat]
    held = own | deal.widow
    w = len(deal.widow)
    throwable = list(own if blind else held)
    out = {}
    for discard in combinations(throwable, w):
        hands = list(deal.hands)
        hands[seat] = held - Hand(discard)
        pos = Deal(hands)
        for strain in strains:
            out[(strain, frozenset(discard))] = solve(
                pos, strain, leader=leader, seat=seat, misere=misere, must_ruff=must_ruff
            )
    return out


def optimum(values: dict, misere: bool) -> int:
    return min(values.values()) if misere else max(values.values())


def compressed_position(deal: Deal, declarer: str, discard: frozenset[Card]) -> tuple:
    """Who holds each in-play card, suit by suit from the top, after the discard.

    Two discards are equivalent exactly when this is the same (relative-rank compression).
    """
    seat = Seat.parse(declarer)
    hands = list(deal.hands)
    hands[seat] = (hands[seat] | deal.widow) - Hand(discard)
    key = []
    for suit in range(4):
        owners = []
        for rank in range(14, 1, -1):
            card = Card(suit, rank)
            for s, hand in enumerate(hands):
                if card in hand:
                    owners.append(s)
        key.append(tuple(owners))
    return tuple(key)


def small_deal(rng: random.Random, k: int, w: int, suits: int = 4) -> Deal:
    """A random position: three k-card hands and a w-card widow from ``suits`` suits."""
    pool = [Card(s, r) for s in range(suits) for r in range(2, 15)]
    cards = rng.sample(pool, 3 * k + w)
    return Deal([Hand(cards[i * k : (i + 1) * k]) for i in range(3)], Hand(cards[3 * k :]))
