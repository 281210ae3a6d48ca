"""This engine against DDS, the bridge double-dummy solver, timed in one process.

Why: DDS (Bo Haglund's solver, through the ``endplay`` package: the optional ``bench``
extra, ``pip install '.[bench]'``) is the best-known double-dummy solver, so it is the
reference a Sergeant Major engine can be held to on the same machine and in the same run.

What is compared, exactly: this engine takes three-hand Sergeant Major deals only (three
16-card hands, 16 tricks), not four-hand bridge deals, so each side solves its own game's
deals of about the same size, alternated deal by deal:

* one solve: DDS ``SolveBoard`` (spades, West on lead, one best card with its score) on a
  seeded random bridge deal (4 x 13 cards) against this engine's value of one seat
  (spades, dealer, eldest leads) on ``Deal.random(seed=i)`` (3 x 16 cards);
* one table: DDS ``CalcDDtable`` with one thread (5 strains x 4 declarers) against this
  engine's table (5 strains x 3 seats, one thread).

Ratios below 1 mean this engine is faster. Targets: a solve <= 0.5, a table <= 1.0.
"""

from __future__ import annotations

import random
import statistics
import time

from solver.deal import Deal, Seat, Strain
from solver.engine import Solver

try:
    from endplay import _dds
    from endplay.dds import calc_dd_table
    from endplay.types import Deal as BridgeDeal
    from endplay.types import Denom, Player
except ImportError as exc:  # the optional extra is missing
    raise SystemExit(f"--against-dds needs endplay: pip install '.[bench]' ({exc})") from None

RANKS = "23456789TJQKA"


def bridge_deal(seed: int) -> BridgeDeal:
    """A seeded random bridge deal (PBN, North first)."""
    deck = [(s, r) for s in range(4) for r in range(13)]
    random.Random(seed).shuffle(deck)
    hands = []
    for h in range(4):
        cards = deck[13 * h : 13 * (h + 1)]
        hands.append(
            ".".join(
                "".join(RANKS[r] for r in sorted((r for t, r in cards if t == s), reverse=True))
                for s in range(4)
            )
        )
    return BridgeDeal.from_pbn("N:" + " ".join(hands))


def dds_solve_ms(deal: BridgeDeal) -> float:
    """SolveBoard: spades, West on lead, one best card (target -1, solutions 1)."""
    deal.trump = Denom.spades
    deal.first = Player.west
    fut = _dds.futureTricks()
    t0 = time.perf_counter()
    _dds.SolveBoard(deal._data, -1, 1, 1, fut, 0)
    return (time.perf_counter() - t0) * 1000


def dds_table_ms(deal: BridgeDeal) -> float:
    t0 = time.perf_counter()
    calc_dd_table(deal)
    return (time.perf_counter() - t0) * 1000


def own_solve_ms(solver: Solver, deal: Deal) -> float:
    solver.clear()
    t0 = time.perf_counter()
    solver.solve(deal, Strain.S, leader=Seat.E, seat=Seat.D)
    return (time.perf_counter() - t0) * 1000


def own_table_ms(solver: Solver, deal: Deal) -> float:
    solver.clear()
    t0 = time.perf_counter()
    for strain in Strain:
        for seat in Seat:
            solver.solve(deal, strain, leader=Seat.E, seat=seat)
    return (time.perf_counter() - t0) * 1000


def compare_with_dds(solver: Solver, first: int, deals: int) -> dict[str, float]:
    """Time both solvers deal by deal, print medians and ratios, and return the ratios
    ("solve", "table": this engine's median / DDS's median)."""
    _dds.SetMaxThreads(1)
    warm = bridge_deal(first - 1)  # DDS sets up its memory on its first calls: not timed
    dds_solve_ms(warm)
    dds_table_ms(warm)
    times: dict[str, list[float]] = {"dds solve": [], "own solve": [], "dds table": [], "own table": []}
    for seed in range(first, first + deals):
        bridge, own = bridge_deal(seed), Deal.random(seed=seed)
        times["dds solve"].append(dds_solve_ms(bridge))
        times["own solve"].append(own_solve_ms(solver, own))
        times["dds table"].append(dds_table_ms(bridge))
        times["own table"].append(own_table_ms(solver, own))
    print(
        f"against DDS (endplay), {deals} deals from seed {first}, alternated deal by deal, one thread "
        f"(bridge deals 4 x 13 cards for DDS, Sergeant Major deals 3 x 16 here; see bench/dds.py):"
    )
    for name, ms in times.items():
        print(f"  {name:<10} median {statistics.median(ms):8.2f} ms  max {max(ms):8.2f} ms")
    ratios = {}
    for what, target in (("solve", 0.5), ("table", 1.0)):
        r = statistics.median(times[f"own {what}"]) / statistics.median(times[f"dds {what}"])
        ratios[what] = r
        verdict = "met" if r <= target else "NOT met"
        print(f"  one {what}: this engine's median / DDS's median {r:6.2f}   target <= {target:g}: {verdict}")
    return ratios
