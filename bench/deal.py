"""Constrained dealing: the cost of a deal to a spec against an unconstrained deal.

Usage: python bench/deal.py [--deals N] [--seed S]

For each spec below, the dealer is built (its set-up: the sampler's exact count) and
``N`` deals are drawn; the figure is the time per deal over the time per unconstrained
deal measured in the same run, with the set-up time and the number of deals the held
cards and lengths allow. Rejection constraints (points, aces and kings, the declarer's
trumps) cost about one draw per deal over their acceptance rate; the exact sampler's
cost grows with the number of places that carry lengths.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import describe  # noqa: E402
from solver.game.dealer import Dealer  # noqa: E402

SPECS = (
    "",
    "length E:S=5-8",
    "points D:14+",
    "trumps D:H=7",
    "holds D:SA,SK; length E:S=5-8; points D:14+",
    "length D:S=4-6; length E:H=5-8; length M:D=0-2",
)


def per_deal(spec: str, deals: int, seed: int) -> tuple[float, float, int]:
    """(set-up seconds, seconds per deal, layouts allowed by held cards and lengths)."""
    start = time.perf_counter()
    dealer = Dealer(spec)
    built = time.perf_counter()
    stream = dealer.deals(seed)
    for _ in range(deals):
        next(stream)
    return built - start, (time.perf_counter() - built) / deals, dealer.count_layouts()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(describe())
    _, base, _ = per_deal("", args.deals, args.seed)
    print(f"unconstrained: {base * 1e6:.0f} us a deal ({args.deals} deals)")
    print(f"{'spec':55} {'set-up s':>9} {'x unconstrained':>16} {'layouts':>10}")
    for spec in SPECS[1:]:
        setup, each, layouts = per_deal(spec, args.deals, args.seed)
        print(f"{spec:55} {setup:9.2f} {each / base:16.1f} {layouts:10.2e}")


if __name__ == "__main__":
    main()
