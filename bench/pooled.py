"""How tight the pooled-coalition game is as a bound on misère values, by tricks left.

Why: a misère proof at the value is the seat showing it escapes enough tricks against
every lead and reply of two coalition hands. A smaller game in which the coalition keeps
its cards exactly as one pool but forgets which hand holds each (each hand keeps its suit
lengths, so following suit still binds it) makes the coalition at least as strong: every
real play is legal there and wins the same tricks, so its misère value bounds the real
one from above, and where the two are equal it would answer the proofs at the value. It
is worth building into the engine only if they are often equal where the engine's
misère nodes lie (5 to 8 tricks left); this script measures that before any C is written.

Positions: the seeded full deals of ``bench/solve.py``, played forward by random legal
cards to a trick boundary with N tricks left; the real value comes from the engine, the
pooled one from a plain memoised minimax here (no pruning).

    python bench/pooled.py [--tricks 4,5,6,7] [--positions 40] [--strain S]
"""

from __future__ import annotations

import argparse
import random
import sys
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.cards import Card, Hand  # noqa: E402
from solver.deal import Deal, Seat, Strain  # noqa: E402
from solver.engine import Solver  # noqa: E402
from tests.support.bruteforce import legal_bits, trick_winner_index  # noqa: E402

SUIT = (1 << 13) - 1


def _lengths(mask: int) -> tuple[int, ...]:
    return tuple(((mask >> (16 * s)) & SUIT).bit_count() for s in range(4))


@cache
def pooled_value(
    seat_hand: int, pool: int, left_len: tuple[int, ...], to_move: int, trick: tuple[int, ...], strain: int
) -> int:
    """The seat's misère tricks from here in the pooled game (seat = 0, its left hand 1).

    A coalition hand may play any pool card of a suit it still holds by its lengths,
    following suit when it has the led suit; its length of that suit drops by one."""
    if not trick and seat_hand == 0:
        return 0
    if len(trick) == 3:
        winner = (to_move + trick_winner_index(trick, strain)) % 3
        rest = pooled_value(seat_hand, pool, left_len, winner, (), strain)
        return rest + (winner == 0)
    pool_len = _lengths(pool)
    results = []
    if to_move == 0:
        for bit in legal_bits(seat_hand, trick, strain, False):
            results.append(pooled_value(seat_hand ^ bit, pool, left_len, 1, trick + (bit,), strain))
        return min(results)
    mine = left_len if to_move == 1 else tuple(p - q for p, q in zip(pool_len, left_len))
    suits = [s for s in range(4) if mine[s]]
    if trick:
        led = (trick[0].bit_length() - 1) // 16
        if mine[led]:
            suits = [led]
    for s in suits:
        lane = (pool >> (16 * s)) & SUIT
        while lane:
            low = lane & -lane
            lane ^= low
            bit = low << (16 * s)
            new_left = left_len
            if to_move == 1:
                new_left = tuple(n - (i == s) for i, n in enumerate(left_len))
            results.append(
                pooled_value(seat_hand, pool ^ bit, new_left, (to_move + 1) % 3, trick + (bit,), strain)
            )
    return max(results)


def random_position(seed: int, tricks_left: int, rng: random.Random) -> tuple[Deal, int]:
    """Deal ``seed`` of bench/solve.py played forward by random legal cards."""
    deal = Deal.random(seed=seed)
    hands = [h.mask for h in deal.hands]
    leader = int(Seat.E)
    while hands[0].bit_count() > tricks_left:
        trick: list[int] = []
        for i in range(3):
            who = (leader + i) % 3
            bit = rng.choice(legal_bits(hands[who], trick, int(Strain.S), False))
            hands[who] ^= bit
            trick.append(bit)
        leader = (leader + trick_winner_index(trick, int(Strain.S))) % 3
    cards = [[c for c in _cards(m)] for m in hands]
    return Deal([Hand(c) for c in cards]), leader


def _cards(mask: int) -> list[Card]:
    from solver.cards import ALL_CARDS

    return [c for c in ALL_CARDS if c.bit & mask]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tricks", default="4,5,6,7")
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--strain", default="S")
    args = ap.parse_args(argv)
    strain = Strain.parse(args.strain)
    solver = Solver(tt_mb=16)
    rng = random.Random(1)
    print(f"pooled-coalition game against the real misère value, strain {strain.name}, seat D")
    print("tricks left | positions | equal | pooled - real: mean, max")
    for n in (int(t) for t in args.tricks.split(",")):
        equal = 0
        gaps = []
        for i in range(args.positions):
            deal, leader = random_position(i % 20, n, rng)
            for seat in Seat:
                real = solver.solve(deal, strain, leader=Seat(leader), seat=seat, misere=True)
                # relabel so that the seat is 0 and its left-hand opponent 1
                masks = [deal.hands[(int(seat) + k) % 3].mask for k in range(3)]
                pooled = pooled_value(
                    masks[0],
                    masks[1] | masks[2],
                    _lengths(masks[1]),
                    (leader - int(seat)) % 3,
                    (),
                    int(strain),
                )
                if pooled < real:
                    raise AssertionError(f"pooled value {pooled} below the real {real}: not a bound")
                equal += pooled == real
                gaps.append(pooled - real)
            pooled_value.cache_clear()
        total = len(gaps)
        print(f"{n:11d} | {total:9d} | {equal / total:5.0%} | {sum(gaps) / total:.2f}, {max(gaps)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
