"""What each bound of the engine earns: the search's counters over seeded deals.

Why: a bound costs time at every node that asks it, so it must answer enough of them
to pay; ``Solver.stats()`` counts, per call, the nodes, the table's probes and hits,
the positions each bound answered and the move cut-offs. This sums them over one solve
per deal and strain (dealer's value, eldest leads, an empty table for each solve) and
prints each as a count and as a share of the nodes.

    python bench/bounds.py [--deals N] [--first SEED] [--hand-size K] [--misere] [--strains SHDCN]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from machine import describe
from solver.deal import Deal, Seat
from solver.engine import Solver


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=10, help="number of seeded deals (default 10)")
    ap.add_argument("--first", type=int, default=0, help="seed of the first deal (default 0)")
    ap.add_argument(
        "--hand-size",
        type=int,
        default=16,
        choices=range(1, 17),
        metavar="K",
        help="cards per hand (default 16)",
    )
    ap.add_argument("--misere", action="store_true", help="misère solves instead of normal ones")
    ap.add_argument("--strains", default="SHDCN", help="strains to solve (default SHDCN)")
    ap.add_argument("--tt-mb", type=int, default=64, help="table size in MiB (default 64)")
    args = ap.parse_args()
    if args.deals < 1:
        ap.error("--deals must be at least 1")

    solver = Solver(args.tt_mb)
    totals: Counter[str] = Counter()
    solves = 0
    t0 = time.perf_counter()
    for seed in range(args.first, args.first + args.deals):
        deal = Deal.random(seed=seed, hand_size=args.hand_size)
        for strain in args.strains:
            solver.clear()
            solver.solve(deal, strain, leader=Seat.E, seat=Seat.D, misere=args.misere)
            totals.update(solver.stats())
            solves += 1
    seconds = time.perf_counter() - t0

    mode = "misère" if args.misere else "normal"
    print(
        f"{solves} {mode} solves ({args.deals} deals from seed {args.first}, {args.hand_size} cards, "
        f"strains {args.strains}) in {seconds:.2f} s, {describe()}"
    )
    nodes = totals["nodes"] or 1
    for name, count in totals.items():
        print(f"{name:<20} {count:>14,}  {100 * count / nodes:6.2f}% of nodes")
    probes = totals["table_probes"]
    if probes:
        print(f"{'table hit rate':<20} {100 * totals['table_hits'] / probes:14.1f}%")
        print(f"{'chunks per probe':<20} {totals['table_chunks'] / probes:14.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
