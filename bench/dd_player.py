"""What one decision of the ``dd`` player costs, normal against misère, by hand size.

Why: the ``dd`` player asks the engine for ``best_card`` at every card it plays and
for one ``solve`` per mode when it declares (a misère mode first gets the cheaper
``can_reach``, and is solved only when it beats the normal modes). Normal-play searches of a full deal are
fast; misère ones are not yet, so the player's ``misere_engine_cards`` (the hand size
from which MT/miz decisions use the engine) is chosen from these figures: the largest
hand size whose misère ``best_card`` median (a card played, asked at every card) costs
at most ``--multiple`` times the normal 16-card median (docs/players.md). The misère
``solve`` is shown beside it: the worst case of judging a misère mode, paid only when
the mode beats every normal one.

For each hand size K and seeded deal ``Deal.random(seed=i, hand_size=K)`` it times,
each on an empty table:

* ``best_card`` of the leader's first card (eldest leads, seat E: the leader's choice),
* ``solve`` for the dealer with eldest leading (what declaring asks per mode),

in normal play (spades and no trump) and in misère (no trump, as MT and miz play).
Times are the searching thread's CPU time, so other programs on the machine move them
less. Every ratio is against the normal 16-card median of the same call in this run,
spades and no trump pooled (a normal whole-hand decision, whatever the trump). A call
over ``--limit`` seconds is cancelled and counted as ">limit" (a median is still exact
while fewer than half the calls are cut).

    python bench/dd_player.py [--deals N] [--first SEED] [--sizes 16-10] [--limit S] [--multiple M]
"""

from __future__ import annotations

import argparse
import math
import threading
import time
from collections.abc import Callable

from machine import describe
from solver.deal import Deal, Seat, Strain
from solver.engine import Solver

CUT = math.inf  # a call cancelled at the limit

#: (label, strain, misère): the rows of the report; the normal ones make the reference.
KINDS = (("normal S", Strain.S, False), ("normal N", Strain.N, False), ("misère N", Strain.N, True))


class Timer:
    """Runs engine calls on one Solver with a wall-clock limit, timing their CPU."""

    def __init__(self, tt_mb: int, limit: float) -> None:
        self.tt_mb = tt_mb
        self.limit = limit
        self.solver = Solver(tt_mb)

    def time(self, call: Callable[[Solver], object]) -> float:
        """Seconds of CPU for ``call(solver)`` on an empty table, or CUT."""
        self.solver.clear()
        solver = self.solver
        alarm = threading.Timer(self.limit, solver.cancel)
        alarm.start()
        t0 = time.thread_time()
        try:
            call(solver)
        except RuntimeError:  # cancelled: a cancelled Solver cannot be reused
            self.solver = Solver(self.tt_mb)
            return CUT
        finally:
            alarm.cancel()
        return time.thread_time() - t0


def median(values: list[float]) -> float:
    """The median, CUT when the cut calls decide it."""
    ordered = sorted(values)
    n = len(ordered)
    return ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2


def fmt_ms(seconds: float, limit: float) -> str:
    return f">{limit:g} s" if seconds == CUT else f"{1000 * seconds:.1f} ms"


def fmt_ratio(value: float) -> str:
    return "cut" if value == CUT else f"{value:.2f}"


def parse_sizes(text: str) -> list[int]:
    """'16-10' or '16,14,12' into a list of hand sizes, largest first."""
    if "-" in text:
        high, low = (int(x) for x in text.split("-", 1))
        sizes = list(range(high, low - 1, -1))
    else:
        sizes = [int(x) for x in text.split(",")]
    if not sizes or any(not 1 <= k <= 16 for k in sizes):
        raise argparse.ArgumentTypeError(f"hand sizes must be 1..16, got {text!r}")
    return sorted(set(sizes), reverse=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=15, help="seeded deals per hand size (default 15)")
    ap.add_argument("--first", type=int, default=0, help="seed of the first deal (default 0)")
    ap.add_argument(
        "--sizes", type=parse_sizes, default=parse_sizes("16-10"), help="hand sizes (default 16-10)"
    )
    ap.add_argument("--limit", type=float, default=20.0, help="seconds before a call is cut (default 20)")
    ap.add_argument("--multiple", type=float, default=5.0, help="allowed misère/normal ratio (default 5)")
    ap.add_argument("--tt-mb", type=int, default=32, help="table size in MiB (default 32, as the player's)")
    args = ap.parse_args()
    if args.deals < 1 or args.limit <= 0:
        ap.error("--deals must be at least 1 and --limit positive")
    if 16 not in args.sizes:
        ap.error("--sizes must include 16: every ratio is against the normal 16-card median")

    print(
        f"{args.deals} deals per size (seeds {args.first}..{args.first + args.deals - 1}), "
        f"limit {args.limit:g} s a call, table {args.tt_mb} MiB, {describe()}",
        flush=True,
    )
    timer = Timer(args.tt_mb, args.limit)
    calls: dict[str, Callable[[Deal, Strain, bool], Callable[[Solver], object]]] = {
        "best_card": lambda deal, strain, misere: (
            lambda s: s.best_card(deal, strain, leader=Seat.E, seat=Seat.E, misere=misere)
        ),
        "solve": lambda deal, strain, misere: (
            lambda s: s.solve(deal, strain, leader=Seat.E, seat=Seat.D, misere=misere)
        ),
    }
    medians: dict[tuple[str, str, int], float] = {}
    reference: dict[str, list[float]] = {c: [] for c in calls}  # normal 16-card times
    for size in args.sizes:
        deals = [
            Deal.random(seed=seed, hand_size=size) for seed in range(args.first, args.first + args.deals)
        ]
        for call_name, make in calls.items():
            for label, strain, misere in KINDS:
                times = [timer.time(make(deal, strain, misere)) for deal in deals]
                medians[call_name, label, size] = median(times)
                if size == 16 and not misere:
                    reference[call_name] += times
                cut = sum(t == CUT for t in times)
                print(
                    f"{size:2d} cards  {call_name:<11} {label:<9} median {fmt_ms(median(times), args.limit):>10}"
                    f"  max {fmt_ms(max(times), args.limit):>10}" + (f"  ({cut} cut)" if cut else ""),
                    flush=True,
                )

    ref = {c: median(times) for c, times in reference.items()}
    print(
        "\nmedian / normal 16-card median of the same call, S and N pooled, this run: "
        + ", ".join(f"{c} {fmt_ms(ref[c], args.limit)}" for c in calls)
        + f" (misère target <= {args.multiple:g})"
    )
    print("cards  " + "  ".join(f"{c} {label}" for c in calls for label, _, _ in KINDS))
    for size in args.sizes:
        cells = []
        for c in calls:
            for label, _, _ in KINDS:
                cells.append(f"{fmt_ratio(medians[c, label, size] / ref[c]):>{len(c) + 1 + len(label)}}")
        print(f"{size:5d}  " + "  ".join(cells))

    largest = None  # the largest size that fits with every smaller size measured
    for size in sorted(args.sizes):
        if medians["best_card", "misère N", size] > args.multiple * ref["best_card"]:
            break
        largest = size
    print(
        f"largest hand size whose misère best_card median is <= {args.multiple:g} x the normal 16-card one: "
        + (str(largest) if largest is not None else "none of those measured")
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
