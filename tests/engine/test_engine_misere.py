"""Misère search against the plain minimax, on thousands of random small positions.

Why: the misère bounds (``misere.c``) cut the search on static arguments about which
tricks the seat can surely lose; one unsound case gives wrong values silently. Every
position here is misère, cycling through all strains, leaders, seats, must-ruff and
0/1/2 cards already played, and one ``Solver`` serves a whole batch so that a wrongly
generalised table entry shows up on later positions. Each batch also checks that the
bounds did fire on it (a comparison the bounds never reach proves nothing).
"""

from __future__ import annotations

import dataclasses

import pytest

import bruteforce as bf
from positions import positions
from solver.engine import Solver

# (seed, count, hand sizes). The default run: 1,200 positions in a few seconds.
DEFAULT_BATCHES = [(3000 + i, 150, (2, 3, 4, 4, 5, 5)) for i in range(8)]
SLOW_BATCHES = [(6000 + i, 250, (4, 5, 5, 6)) for i in range(12)]
MISERE_BOUNDS = ("misere_low_cards", "misere_two_escapes", "misere_escape", "misere_trick_lost")


def check_batch(seed: int, count: int, sizes: tuple[int, ...]) -> None:
    solver = Solver(tt_mb=16)
    failures: list[str] = []
    fired = dict.fromkeys(MISERE_BOUNDS, 0)
    for pos in positions(seed, count, sizes):
        pos = dataclasses.replace(pos, misere=True)
        expected = bf.solve(pos.deal, pos.strain, **pos.kwargs())
        got = solver.solve(pos.deal, pos.strain, **pos.kwargs())
        stats = solver.stats()
        for name in MISERE_BOUNDS:
            fired[name] += stats[name]
        if got != expected:
            failures.append(f"solve {got} != {expected}: {pos}")
            continue
        # both sides of the value through the null-window searches
        if not solver.can_reach(pos.deal, pos.strain, target=expected, **pos.kwargs()):
            failures.append(f"can_reach({expected}) is False at the value: {pos}")
        if expected > 0 and solver.can_reach(pos.deal, pos.strain, target=expected - 1, **pos.kwargs()):
            failures.append(f"can_reach({expected - 1}) is True below the value: {pos}")
    bf.clear_cache()
    assert not failures, f"{len(failures)} mismatch(es), first ones:\n" + "\n".join(failures[:10])
    assert all(fired.values()), f"a misère bound never fired in batch {seed}: {fired}"


@pytest.mark.parametrize("seed, count, sizes", DEFAULT_BATCHES)
def test_misere_matches_bruteforce(seed: int, count: int, sizes: tuple[int, ...]) -> None:
    check_batch(seed, count, sizes)


@pytest.mark.slow
@pytest.mark.parametrize("seed, count, sizes", SLOW_BATCHES)
def test_misere_matches_bruteforce_larger(seed: int, count: int, sizes: tuple[int, ...]) -> None:
    check_batch(seed, count, sizes)
