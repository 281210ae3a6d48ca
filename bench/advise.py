"""Speed of single-dummy declaration advice, in units of the engine's full table.

Why a ratio: the machines differ threefold and other work shares them, so the time of a
200-sample declaration advice is reported as a multiple of the median full ``dd_table``
(5 strains x 3 seats) of the same deals, timed in the same process and run.

For each deal ``Deal.random(seed=i)`` the dealer sees its 16 cards and the widow
(``twelve`` rules); ``advise_declaration`` judges the candidates on ``--samples`` layouts
of the other hands. Prints per deal the seconds, the ratio, samples per second, the
candidate judgements per sample and the successive-halving rounds; then the medians.
Target: within 40 table-times on two cores.

    python bench/advise.py [--deals N] [--first SEED] [--samples N] [--workers N]
"""

from __future__ import annotations

import argparse
import statistics
import time

from machine import describe
from solver import Deal, Seat, View, advise_declaration, dd_table


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=5, help="number of seeded deals (default 5)")
    ap.add_argument("--first", type=int, default=0, help="seed of the first deal (default 0)")
    ap.add_argument("--samples", type=int, default=200, help="samples per advice (default 200)")
    ap.add_argument("--workers", type=int, default=None, help="worker threads (default: every core)")
    args = ap.parse_args()

    print(
        f"advise bench: {args.deals} deals from seed {args.first}, {args.samples} samples, "
        f"workers {args.workers or 'all cores'}, {describe()}"
    )
    deals = [Deal.random(seed=s) for s in range(args.first, args.first + args.deals)]
    tables = []
    for deal in deals:
        t0 = time.perf_counter()
        dd_table(deal)
        tables.append(time.perf_counter() - t0)
    table = statistics.median(tables)
    print(
        f"median full dd_table of these deals: {table:.3f} s (min {min(tables):.3f}, max {max(tables):.3f})"
    )
    ratios, rates, per_sample = [], [], []
    for seed, deal in zip(range(args.first, args.first + args.deals), deals):
        view = View.for_declaration(deal.hands[Seat.D], widow=deal.widow, rules="twelve")
        t0 = time.perf_counter()
        try:
            advice = advise_declaration(view, samples=args.samples, seed=seed, workers=args.workers)
        except KeyboardInterrupt:
            print(f"seed {seed:4d}: interrupted")
            break
        secs = time.perf_counter() - t0
        judged = sum(
            c * (n - (advice.rounds[i - 1][1] if i else 0)) for i, (c, n) in enumerate(advice.rounds)
        )
        ratios.append(secs / table)
        rates.append(args.samples / secs)
        per_sample.append(judged / args.samples)
        rec = advice.recommended
        label = rec.label() if rec is not None else "-"
        print(
            f"seed {seed:4d}: {secs:6.2f} s = {secs / table:5.1f} tables, {args.samples / secs:6.1f} samples/s, "
            f"{judged / args.samples:4.1f} judgements/sample, rounds {advice.rounds}, recommended {label} "
            f"(p {rec.p_target if rec else float('nan'):.2f})"
        )
    if ratios:
        print(
            f"median: {statistics.median(ratios):.1f} table-times per {args.samples}-sample advice "
            f"(target <= 40), {statistics.median(rates):.1f} samples/s, "
            f"{statistics.median(per_sample):.1f} candidate judgements per sample"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
