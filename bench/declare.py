"""Speed of the declaration optimiser on seeded full deals.

Why a script and not a test: timings depend on the machine and its load, so they are
measured and reported, never asserted.

For each deal ``Deal.random(seed=i)`` (three 16-card hands and a 4-card widow) the
dealer takes the widow and discards 4; eldest leads; strains S H D C (4 x 4,845 discard
sets before reduction to classes). Prints, per deal, the seconds, the optimum, the
number of classes and how many of them needed a real engine search; then the median and
max seconds and searches. The one-time import of OR-Tools is timed and printed apart.

    python bench/declare.py [--deals N] [--first SEED] [--strains SHDC] [--tt-mb MB]
    python bench/declare.py --misere-ratio examples/deal-16.txt [--budget SECONDS]
    python bench/declare.py --misere-ratio seed:3 [--budget SECONDS] [--no-ties]
    python bench/declare.py --misere-ratio examples/deal-16.txt --reach 3 --reach 8

``--misere-ratio FILE`` times instead the declaration of that file's deal (``seed:N``: of
``Deal.random(seed=N)``) in normal play
and in misère (``sm358 declare FILE`` and ``sm358 declare FILE --misere``: the trump suits
``--strains``, and no trump, the strain MT and miz are played in), one after the other in
this process, and prints misère / normal (target <= 10); a misère declaration
still running after ``--budget`` seconds (default 600) stops, and the ratio printed is
then a lower bound. ``--no-ties`` times the misère declaration that stops once the
optimum is proven (``sm358 declare FILE --misere --no-ties``). With ``--reach T`` it times
instead the misère target question (``sm358 declare FILE --misere --reach T``: a discard
that keeps the declarer to at most T tricks, or the proof that none does) against the
same normal declaration.
"""

from __future__ import annotations

import argparse
import statistics
import time

from alarm import raising_after
from machine import describe
from solver.deal import Deal
from solver.declare import Choice, declare
from solver.engine.interval import Interval


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=10, help="number of seeded deals (default 10)")
    ap.add_argument("--first", type=int, default=0, help="seed of the first deal (default 0)")
    ap.add_argument("--strains", default="SHDC", help="strains to consider (default SHDC)")
    ap.add_argument(
        "--tt-mb",
        type=int,
        default=None,
        help="engine table size in MiB (default the optimiser's: 64, 256 in misère)",
    )
    ap.add_argument(
        "--budget",
        type=float,
        default=600.0,
        help="with --misere-ratio: seconds after which the misère declaration stops (default 600)",
    )
    ap.add_argument(
        "--misere-ratio",
        metavar="FILE",
        help="time normal and misère declaration of FILE's deal; print the ratio",
    )
    ap.add_argument(
        "--reach",
        metavar="TRICKS",
        type=int,
        action="append",
        help="with --misere-ratio: instead of the exact misère declaration, time the target "
        "question 'can the declarer keep to at most TRICKS?' (sm358 declare --misere --reach; "
        "repeatable)",
    )
    ap.add_argument(
        "--no-ties",
        action="store_true",
        help="with --misere-ratio: time the misère optimum alone, not every choice that ties it",
    )
    args = ap.parse_args()
    if args.misere_ratio and args.reach:
        return reach_ratio(args.misere_ratio, args.strains, args.tt_mb, args.reach)
    if args.misere_ratio:
        return misere_ratio(args.misere_ratio, args.strains, args.tt_mb, args.budget, ties=not args.no_ties)

    print(
        f"declare bench: {args.deals} deals from seed {args.first}, strains {args.strains}, "
        f"one thread, {describe()}"
    )
    # Importing OR-Tools (it loads pandas, ~0.45 s) happens once per process, so it is
    # reported apart from the per-deal times; everything else is inside them.
    t0 = time.perf_counter()
    import solver.declare.model  # noqa: F401  (OR-Tools)

    print(f"import of OR-Tools: {time.perf_counter() - t0:.2f} s (once per process, not in the deal times)")
    seconds: list[float] = []
    searched: list[int] = []
    for seed in range(args.first, args.first + args.deals):
        deal = Deal.random(seed=seed)
        t0 = time.perf_counter()
        try:
            result = declare(deal, strains=args.strains, tt_mb=args.tt_mb)
        except KeyboardInterrupt:  # report the deals finished so far
            print(f"seed {seed:4d}: interrupted after {time.perf_counter() - t0:.1f} s")
            break
        dt = time.perf_counter() - t0
        seconds.append(dt)
        searched.append(result.candidates_searched)
        print(
            f"seed {seed:4d}: {dt:8.2f} s  tricks {result.tricks:2d}  by strain "
            f"{' '.join(f'{s}{v}' for s, v in result.by_strain.items())}  "
            f"optimal classes {len(result.optimal):3d}  "
            f"searched {result.candidates_searched:5d} of {result.classes:5d} classes",
            flush=True,
        )
    if not seconds:
        return 1
    print(f"deals    {len(seconds)}")
    print(f"seconds  median {statistics.median(seconds):8.2f}  max {max(seconds):8.2f}")
    print(
        f"searched median {statistics.median(searched):8.0f}  max {max(searched):8d} "
        f"(classes needing a real engine search)"
    )
    return 0


class _OverBudget(Exception):
    """Raised once the declaration has used its time (see _Budget)."""


class _Budget(raising_after):
    """A progress callback that keeps the count of settled candidates, and the time limit
    of :class:`alarm.raising_after`, raising _OverBudget ``seconds`` after it was made,
    also in the middle of a candidate. Use it with ``with``."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds, _OverBudget)
        self.start = time.perf_counter()
        self.done = self.total = 0

    def __call__(self, done: int, total: int) -> None:
        self.done, self.total = done, total


def timed_normal_declaration(path: str, strains: str, tt_mb: int | None) -> tuple[Deal, float]:
    """The deal of ``path`` and the seconds of its normal declaration (the reference of the
    misère ratios), printed with its optimum and the CPU line."""
    from solver.analysis.deal_files import read_deals

    if path.startswith("seed:"):
        deal = Deal.random(seed=int(path[5:]))
    else:
        (deal,) = read_deals(path)  # a deal file holds one deal
    import solver.declare.model  # noqa: F401  (OR-Tools, imported before the timed region)

    t0 = time.perf_counter()
    result = declare(deal, strains=strains, tt_mb=tt_mb)
    normal = time.perf_counter() - t0
    print(
        f"normal declaration of {path}: {normal:8.2f} s  optimum {result.tricks}  ({describe()})", flush=True
    )
    return deal, normal


def misere_ratio(path: str, strains: str, tt_mb: int | None, budget: float, ties: bool = True) -> int:
    """Normal then misère declaration of one deal, timed in this process; their ratio.

    Why a budget: a misère declaration can take far longer than anyone waits for a
    bench. Past ``budget`` seconds (checked as candidates are settled) it stops and
    prints how many candidates it settled, so the ratio is then a lower bound."""
    deal, normal = timed_normal_declaration(path, strains, tt_mb)
    shown: list[str] = []

    def narrowed(interval: Interval, _best: Choice | None) -> None:
        shown.append(f"{interval} tricks after {time.perf_counter() - watch.start:.1f} s")

    try:
        with _Budget(budget) as watch:
            result = declare(
                deal, strains="N", tt_mb=tt_mb, misere=True, progress=watch, narrowing=narrowed, ties=ties
            )
    except _OverBudget:
        misere = time.perf_counter() - watch.start
        print(
            f"misère declaration of {path}: stopped after {misere:8.2f} s with {watch.done} "
            f"{f'of {watch.total} ' if watch.total else ''}candidates settled; the optimum "
            f"proven {', '.join(shown[-3:])}",
            flush=True,
        )
        verdict = "NOT met" if misere / normal > 10 else "not known (stopped before 10 x)"
        print(
            f"misère / normal declaration > {misere / normal:8.2f}   target <= 10: {verdict}  ({describe()})"
        )
        return 0
    misere = time.perf_counter() - watch.start
    what = "misère declaration" if ties else "misère optimum (no ties)"
    print(f"{what} of {path}: {misere:8.2f} s  optimum {result.tricks}", flush=True)
    ratio = misere / normal
    print(
        f"{'misère' if ties else 'misère optimum'} / normal declaration {ratio:8.2f}   "
        f"target <= 10: {'met' if ratio <= 10 else 'NOT met'}  "
        f"({describe()})"
    )
    return 0


def reach_ratio(path: str, strains: str, tt_mb: int | None, targets: list[int]) -> int:
    """The normal declaration of one deal, then the misère target question for each target."""
    from solver.declare import declare_target

    deal, normal = timed_normal_declaration(path, strains, tt_mb)
    for target in targets:
        t0 = time.perf_counter()
        answer = declare_target(deal, target, strains="N", misere=True, tt_mb=tt_mb)
        seconds = time.perf_counter() - t0
        verdict = "reached" if answer.reached else "no discard reaches it"
        print(
            f"misère, at most {target:2d} tricks: {seconds:8.2f} s  {verdict} "
            f"({answer.candidates_asked} of {answer.classes} candidates asked)  "
            f"/ normal declaration {seconds / normal:6.2f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
