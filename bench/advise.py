"""Speed of single-dummy declaration advice, in units of the engine's full table.

Why a ratio: the machines differ threefold and other work shares them, so the time of a
200-sample declaration advice is reported as a multiple of the median full ``dd_table``
(5 strains x 3 seats) of the same deals, timed in the same process and run.

For each deal ``Deal.random(seed=i)`` the dealer sees its 16 cards and the widow
(``twelve`` rules); ``advise_declaration`` judges the candidates on ``--samples`` layouts
of the other hands. Prints per deal the seconds, the ratio, samples per second, the
candidate judgements per sample and the successive-halving rounds; then the medians.
Target: within 40 table-times on two cores.

``--mt K`` advises instead on the first K hands a bundled declarer chose to play in MT
(``mt_hands.py``): the declarer's view before the declaration (``hungarian`` rules), the MT
mode alone, where every question is a misère search near the target. ``--limit S`` stops
each advice after S seconds as a Ctrl-C would (it then reports the rounds it finished).

    python bench/advise.py [--deals N] [--first SEED] [--samples N] [--workers N] [--mt K] [--limit S]
"""

from __future__ import annotations

import argparse
import statistics
import time

from alarm import raising_after
from machine import describe
from mt_hands import chosen_mt_hands
from solver import Deal, Seat, View, advise_declaration, dd_table


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=5, help="number of seeded deals (default 5)")
    ap.add_argument("--first", type=int, default=0, help="seed of the first deal (default 0)")
    ap.add_argument("--samples", type=int, default=200, help="samples per advice (default 200)")
    ap.add_argument("--workers", type=int, default=None, help="worker threads (default: every core)")
    ap.add_argument("--mt", type=int, default=0, metavar="K", help="advise on K hands chosen for MT instead")
    ap.add_argument(
        "--limit", type=float, default=0, metavar="S", help="stop each advice after S s (0: never)"
    )
    args = ap.parse_args()

    print(
        f"advise bench: {f'{args.mt} MT hands' if args.mt else f'{args.deals} deals from seed {args.first}'}, "
        f"{args.samples} samples, "
        f"workers {args.workers or 'all cores'}, {describe()}"
    )
    if args.mt:
        chosen = [
            (label, rec.dealt, Seat.parse(rec.declarer))
            for label, rec in chosen_mt_hands(args.mt)
            if rec.dealt is not None  # a match record always keeps the deal as dealt
        ]
    else:
        chosen = [
            (f"seed {s:4d}", Deal.random(seed=s), Seat.D) for s in range(args.first, args.first + args.deals)
        ]
    deals = [deal for _, deal, _ in chosen]
    tables = []
    for deal in deals:
        t0 = time.perf_counter()
        dd_table(deal)
        tables.append(time.perf_counter() - t0)
    table = statistics.median(tables)
    print(
        f"median full dd_table of these deals: {table:.3f} s (min {min(tables):.3f}, max {max(tables):.3f})"
    )
    ratios, rates, per_sample, stopped = [], [], [], 0
    for index, (label, deal, seat) in enumerate(chosen):
        if args.mt:
            view = View.for_declaration(deal.hands[seat], widow=deal.widow, rules="hungarian", seat=seat)
            modes = ["MT"]
        else:
            view = View.for_declaration(deal.hands[seat], widow=deal.widow, rules="twelve")
            modes = None
        t0 = time.perf_counter()
        try:
            with raising_after(args.limit):  # as a Ctrl-C: the advice returns partial
                advice = advise_declaration(
                    view, samples=args.samples, seed=args.first + index, workers=args.workers, modes=modes
                )
        except KeyboardInterrupt:
            print(f"{label}: interrupted")
            break
        secs = time.perf_counter() - t0
        judged = sum(
            c * (n - (advice.rounds[i - 1][1] if i else 0)) for i, (c, n) in enumerate(advice.rounds)
        )
        ratios.append(secs / table)
        if advice.partial:  # stopped by --limit: the ratio is a lower bound
            stopped += 1
            print(
                f"{label}: stopped after {secs:6.1f} s = over {secs / table:5.1f} tables, "
                f"judged so far (candidates, samples): {advice.rounds}"
            )
            continue
        rates.append(args.samples / secs)
        per_sample.append(judged / args.samples)
        rec = advice.recommended
        choice = rec.label() if rec is not None else "-"
        print(
            f"{label}: {secs:6.2f} s = {secs / table:5.1f} tables, {args.samples / secs:6.1f} samples/s, "
            f"{judged / args.samples:4.1f} judgements/sample, rounds {advice.rounds}, recommended {choice} "
            f"(p {rec.p_target if rec else float('nan'):.2f})"
        )
    if ratios:
        over = f", {stopped} of {len(ratios)} stopped (their ratios are lower bounds)" if stopped else ""
        print(
            f"median: {statistics.median(ratios):.1f} table-times per {args.samples}-sample advice "
            f"(target <= 40){over}"
        )
    if rates:
        print(
            f"finished advices: {statistics.median(rates):.1f} samples/s, "
            f"{statistics.median(per_sample):.1f} candidate judgements per sample"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
