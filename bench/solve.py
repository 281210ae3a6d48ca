"""Speed of the double-dummy engine on seeded full deals, as ratios measured in one run.

Why a script and not a test: timings depend on the machine and its load, so they are
measured and reported (median, p90, p99, max), never asserted; the targets are ratios
of timings taken in this one process, deal by deal, so they hold on any machine.

For each deal ``Deal.random(seed=i)`` (three 16-card hands, the 4 widow cards out of
play) it times one solve (dealer's value, spades, eldest leads) and one full table
(3 seats x 5 strains, eldest leads), in normal play and, on the first deals, in misère.
The table starts empty for every solve and every table, so each is timed cold; the
15 solves of one table share their table. Times are the CPU time of the searching
thread (as in bench/compare.py): on a loaded shared machine wall-clock times, and the
ratios between them, swing with the other jobs' load. Printed with the CPU line:

* misère solve median / normal solve median, on the same deals (target <= 5);
* misère table median / normal table median, on the same deals (target <= 5);
* slowest misère solve / normal table median (target <= 50);
* with ``--mt-hands K``, on the first K hands a bundled declarer chose to play in MT
  (bench/mt_hands.py): the declarer's misère solve median / its normal solve median, both
  in no trump from the hand's first lead (target <= 5), and the slowest of those misère
  solves / the normal table median of the seeded deals (target <= 50).

``--against-dds`` also times DDS (``endplay``, the optional ``bench`` extra) on seeded
bridge deals, alternated deal by deal with this engine's solves (see bench/dds.py).

    python bench/solve.py [--deals N] [--misere-deals M] [--misere-tables T] [--first SEED]
                          [--mt-hands K] [--tt-mb MB] [--verbose] [--against-dds] [--dds-deals K]
                          [--markdown [FILE]]

``--markdown`` also writes the results as ``docs/speed.md`` (bench/speed_page.py).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

from machine import describe
from mt_hands import chosen_mt_hands
from solver.deal import Deal, Seat, Strain
from solver.engine import Position, Solver
from solver.game.handfile import HandRecord


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100): the smallest value with at least q% of the
    values at or below it (so p99 of 100 values is the second largest)."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(q / 100 * len(ordered) - 1e-9) - 1))
    return ordered[k]


def summary(name: str, ms: list[float], nodes: list[int]) -> str:
    return (
        f"{name:<13} median {statistics.median(ms):9.1f} ms  p90 {percentile(ms, 90):9.1f}  "
        f"p99 {percentile(ms, 99):9.1f}  max {max(ms):9.1f} ms   "
        f"nodes median {int(statistics.median(nodes)):>10}  max {max(nodes):>11}"
    )


def timed_cold_solve(solver: Solver, position: Position, seat: Seat) -> tuple[float, int, int]:
    """One solve from an empty table, in CPU time of this thread. (ms, nodes, value)"""
    solver.clear()
    t0 = time.thread_time()
    value = solver.solve(position, seat=seat)
    return (time.thread_time() - t0) * 1000, solver.nodes, value


def timed_solve(solver: Solver, deal: Deal, misere: bool) -> tuple[float, int, int]:
    """One cold solve: dealer's value in spades, eldest leads. (ms, nodes, value)"""
    return timed_cold_solve(solver, Position(deal, Strain.S, Seat.E, (), misere), Seat.D)


def timed_table(solver: Solver, deal: Deal, misere: bool) -> tuple[float, int]:
    """One cold table: 3 seats x 5 strains, eldest leads, one thread. (ms, nodes)"""
    solver.clear()
    nodes = 0
    t0 = time.thread_time()
    for strain in Strain:
        for seat in Seat:
            solver.solve(deal, strain, leader=Seat.E, seat=seat, misere=misere)
            nodes += solver.nodes
    return (time.thread_time() - t0) * 1000, nodes


def timed_mt_solve(solver: Solver, hand: HandRecord, misere: bool) -> tuple[float, int, int]:
    """One cold solve of an MT hand: the declarer's value in no trump from the first lead."""
    return timed_cold_solve(solver, Position(hand.start, Strain.N, hand.leader, (), misere), hand.declarer)


def mt_runs(solver: Solver, count: int, verbose: bool) -> dict[str, tuple[list[float], list[int]]]:
    """Normal and misère solves of the first ``count`` chosen MT hands."""
    runs: dict[str, tuple[list[float], list[int]]] = {
        "MT hands: normal solve": ([], []),
        "MT hands: misère solve": ([], []),
    }
    for label, hand in chosen_mt_hands(count):
        line = f"{label:<20} declarer {hand.declarer.name}"
        for kind, misere in (("normal", False), ("misère", True)):
            ms, nodes, value = timed_mt_solve(solver, hand, misere)
            runs[f"MT hands: {kind} solve"][0].append(ms)
            runs[f"MT hands: {kind} solve"][1].append(nodes)
            line += f"  {kind} {value:2d} tricks {ms:9.1f} ms {nodes:>11,} nodes"
        if verbose:
            print(line, flush=True)
    return runs


def mt_ratios(mt: dict, table_ms: list[float]) -> list[tuple[str, float, float]]:
    """The misère targets on chosen MT hands: the solve median against the normal solve of
    the same positions, and the slowest solve against the normal table median of the run's
    seeded deals (an MT hand's own normal solve is tiny: its declarer holds low cards)."""
    misere, normal = mt["MT hands: misère solve"][0], mt["MT hands: normal solve"][0]
    return [
        (
            "MT hands: misère solve median / normal solve median",
            statistics.median(misere) / statistics.median(normal),
            5,
        ),
        (
            "MT hands: slowest misère solve / normal table median",
            max(misere) / statistics.median(table_ms),
            50,
        ),
    ]


def ratio_line(name: str, value: float, target: float) -> str:
    verdict = "met" if value <= target else "NOT met"
    return f"{name:<48} {value:9.2f}   target <= {target:g}: {verdict}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=100, help="normal-play deals (default 100)")
    ap.add_argument(
        "--misere-deals",
        type=int,
        default=10,
        help="of those, the first M also solved in misère (default 10; 0: none)",
    )
    ap.add_argument(
        "--misere-tables",
        type=int,
        default=2,
        help="of those, the first T also tabled in misère (default 2; slow)",
    )
    ap.add_argument(
        "--mt-hands",
        type=int,
        default=0,
        metavar="K",
        help="also solve the first K hands a bundled declarer chose to play in MT (default 0; slow)",
    )
    ap.add_argument("--first", type=int, default=0, help="seed of the first deal (default 0)")
    ap.add_argument("--tt-mb", type=int, default=64, help="table size in MiB (default 64)")
    ap.add_argument("--verbose", action="store_true", help="print one line per deal")
    ap.add_argument("--against-dds", action="store_true", help="also time DDS (needs endplay)")
    ap.add_argument("--dds-deals", type=int, default=20, help="deals for --against-dds (default 20)")
    ap.add_argument(
        "--markdown",
        metavar="FILE",
        nargs="?",
        const="docs/speed.md",
        help="also write the results as the speed page (default docs/speed.md), keeping its "
        "'Other benches' section",
    )
    args = ap.parse_args()
    if args.deals < 1 or not 0 <= args.misere_tables <= args.misere_deals <= args.deals:
        ap.error("need 1 <= deals, 0 <= misere-tables <= misere-deals <= deals")
    if args.mt_hands < 0:
        ap.error("--mt-hands must be 0 or more")

    print(
        f"{args.deals} deals (seeds {args.first}..{args.first + args.deals - 1}), table {args.tt_mb} MiB, "
        f"{describe()}",
        flush=True,
    )
    solver = Solver(args.tt_mb)
    runs: dict[str, tuple[list[float], list[int]]] = {
        k: ([], []) for k in ("solve", "table", "misère solve", "misère table")
    }

    def record(kind: str, ms: float, nodes: int) -> None:
        runs[kind][0].append(ms)
        runs[kind][1].append(nodes)

    for i, seed in enumerate(range(args.first, args.first + args.deals)):
        deal = Deal.random(seed=seed)
        ms, nodes, value = timed_solve(solver, deal, False)
        record("solve", ms, nodes)
        line = f"seed {seed:4d}  D/S={value:2d} solve {ms:9.1f} ms"
        if i < args.misere_deals:
            ms, nodes, value = timed_solve(solver, deal, True)
            record("misère solve", ms, nodes)
            line += f"  misère D/S={value:2d} solve {ms:9.1f} ms"
        ms, nodes = timed_table(solver, deal, False)
        record("table", ms, nodes)
        line += f"  table {ms:8.1f} ms"
        if i < args.misere_tables:
            ms, nodes = timed_table(solver, deal, True)
            record("misère table", ms, nodes)
            line += f"  misère table {ms:9.1f} ms"
        if args.verbose:
            print(line, flush=True)

    for kind, (times, counts) in runs.items():
        if times:
            print(summary(kind, times, counts))
    if args.misere_deals:
        m = args.misere_deals
        solve_ms, table_ms = runs["solve"][0], runs["table"][0]
        print(
            f"ratios, each on the same deals of this run (misère solves: seeds "
            f"{args.first}..{args.first + m - 1}; misère tables: the first {args.misere_tables}):"
        )
        print(
            ratio_line(
                "misère solve median / normal solve median",
                statistics.median(runs["misère solve"][0]) / statistics.median(solve_ms[:m]),
                5,
            )
        )
        if args.misere_tables:
            t = args.misere_tables
            print(
                ratio_line(
                    "misère table median / normal table median",
                    statistics.median(runs["misère table"][0]) / statistics.median(table_ms[:t]),
                    5,
                )
            )
        print(
            ratio_line(
                "slowest misère solve / normal table median",
                max(runs["misère solve"][0]) / statistics.median(table_ms[:m]),
                50,
            )
        )
    mt = mt_runs(solver, args.mt_hands, args.verbose) if args.mt_hands else {}
    if mt:
        for kind, (times, counts) in mt.items():
            print(summary("MT " + kind.split()[2], times, counts))
        print(f"ratios on the first {args.mt_hands} hands a bundled declarer chose to play in MT:")
        for name, ratio, target in mt_ratios(mt, runs["table"][0]):
            print(ratio_line(name, ratio, target))
    dds_ratios: dict[str, float] = {}
    if args.against_dds:
        from dds import compare_with_dds  # needs endplay (pip install '.[bench]')

        dds_ratios = compare_with_dds(solver, args.first, args.dds_deals)
    if args.markdown:
        from speed_page import write_speed_page

        argv = " ".join(sys.argv[1:])
        write_speed_page(Path(args.markdown), argv, args, runs, dds_ratios, describe(), mt)
        print(f"wrote {args.markdown}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
