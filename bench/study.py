"""Deal-study throughput: deals per second for --what table and --what declare, 1 vs 2 workers.

Usage: python bench/study.py [--table-deals N] [--declare-deals N] [--repeat R] [--seed S]

Each kind of study is run in this process on the same seeded deals with one worker (in
this thread) and with two worker processes (the pool's start-up included), each into a
fresh temporary file, alternating ``R`` times so that a change in the machine's load
hits both alike. The figure that matters is the median of the paired ratios of the two
rates, measured in the same run: the target is at least 1.8. Absolute rates
depend on the machine (the CPU line says which) and on whatever else it is running, so
the load average is printed too, with the CPU seconds per deal (equal for both runs when
the work itself scales) and the cores actually used (CPU time over wall time). Where the
kernel groups processes into autogroups for scheduling (``/proc/sys/kernel/sched_autogroup_enabled``),
a busy machine gives the whole bench one autogroup's share of the cores however many
workers it starts: then "cores used" stays flat and the ratio says nothing about scaling.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from machine import describe
from solver.analysis.study import StudySpec, run_study


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's workers)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def rate(spec: StudySpec, workers: int) -> tuple[float, float, float]:
    """Deals per wall-clock second, CPU seconds per deal, and cores used (CPU over wall time)."""
    with tempfile.TemporaryDirectory() as tmp:
        start, cpu = time.perf_counter(), cpu_seconds()
        run_study(Path(tmp) / "study.parquet", spec, workers=workers)
        wall, used = time.perf_counter() - start, cpu_seconds() - cpu
        return spec.deals / wall, used / spec.deals, used / wall


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--table-deals", type=int, default=12)
    ap.add_argument("--declare-deals", type=int, default=6)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--seed", default="bench")
    args = ap.parse_args()
    print(describe())
    print(
        "load average before: "
        + " ".join(f"{x:.2f}" for x in os.getloadavg())
        + " (above the core count, other programs share the cores and the ratio understates scaling)"
    )
    print(
        f"{'what':<10}{'deals':>7}{'1 worker':>12}{'2 workers':>12}{'ratio':>8}{'CPU s/deal 1w':>15}"
        f"{'2w':>7}{'cores used 1w':>15}{'2w':>7}   (deals per second; medians of {args.repeat} alternating runs)"
    )
    for what, deals in (("table", args.table_deals), ("declare", args.declare_deals)):
        spec = StudySpec(deals, args.seed, "twelve", (what,))
        runs = [(rate(spec, 1), rate(spec, 2)) for _ in range(args.repeat)]
        one = statistics.median(r[0][0] for r in runs)
        two = statistics.median(r[1][0] for r in runs)
        ratio = statistics.median(r[1][0] / r[0][0] for r in runs)
        cpu_one = statistics.median(r[0][1] for r in runs)
        cpu_two = statistics.median(r[1][1] for r in runs)
        used_one = statistics.median(r[0][2] for r in runs)
        used_two = statistics.median(r[1][2] for r in runs)
        print(
            f"{what:<10}{deals:>7}{one:>12.3f}{two:>12.3f}{ratio:>8.2f}{cpu_one:>15.3f}{cpu_two:>7.3f}"
            f"{used_one:>15.2f}{used_two:>7.2f}"
        )
    print("load average after:  " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
