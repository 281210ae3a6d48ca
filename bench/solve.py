"""Speed of the double-dummy engine on a fixed set of seeded full deals.

Why a script and not a test: timings depend on the machine and its load, so they are
measured and reported (median, p90, p99, max), never asserted.

For each deal ``Deal.random(seed=i)`` (three 16-card hands, the 4 widow cards out of
play) it times one solve (dealer's value, spades, eldest leads) and one full table
(3 seats x 5 strains, eldest leads). The table starts empty for every deal, so each
deal is timed cold; the table of one deal reuses its own entries across the 15 solves.

    python bench/solve.py [--deals N] [--tt-mb MB] [--first SEED]
"""
from __future__ import annotations

import argparse
import math
import statistics
import time

from solver.deal import Deal, Seat, Strain
from solver.engine import Solver

from machine import describe


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100): the smallest value with at least q% of the
    values at or below it (so p99 of 100 values is the second largest)."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(q / 100 * len(ordered) - 1e-9) - 1))
    return ordered[k]


def summary(name: str, ms: list[float], nodes: list[int]) -> str:
    return (f"{name:<6} median {statistics.median(ms):8.1f} ms  p90 {percentile(ms, 90):8.1f}  "
            f"p99 {percentile(ms, 99):8.1f}  max {max(ms):8.1f} ms   "
            f"nodes median {int(statistics.median(nodes)):>9}  max {max(nodes):>10}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=100, help="number of seeded deals (default 100)")
    ap.add_argument("--first", type=int, default=0, help="seed of the first deal (default 0)")
    ap.add_argument("--tt-mb", type=int, default=64, help="table size in MiB (default 64)")
    ap.add_argument("--verbose", action="store_true", help="print one line per deal")
    args = ap.parse_args()

    solver = Solver(args.tt_mb)
    solve_ms: list[float] = []
    solve_nodes: list[int] = []
    table_ms: list[float] = []
    table_nodes: list[int] = []
    for seed in range(args.first, args.first + args.deals):
        deal = Deal.random(seed=seed)
        solver.clear()
        t0 = time.perf_counter()
        value = solver.solve(deal, Strain.S, leader=Seat.E, seat=Seat.D)
        solve_ms.append((time.perf_counter() - t0) * 1000)
        solve_nodes.append(solver.nodes)

        solver.clear()
        nodes = 0
        t0 = time.perf_counter()
        for strain in Strain:
            for seat in Seat:
                solver.solve(deal, strain, leader=Seat.E, seat=seat)
                nodes += solver.nodes
        table_ms.append((time.perf_counter() - t0) * 1000)
        table_nodes.append(nodes)
        if args.verbose:
            print(f"seed {seed:4d}  D/S={value:2d}  solve {solve_ms[-1]:8.1f} ms {solve_nodes[-1]:>10} nodes"
                  f"  table {table_ms[-1]:8.1f} ms {nodes:>10} nodes", flush=True)

    print(f"{args.deals} deals (seeds {args.first}..{args.first + args.deals - 1}), table {args.tt_mb} MiB, "
          f"{describe()}")
    print(summary("solve", solve_ms, solve_nodes))
    print(summary("table", table_ms, table_nodes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
