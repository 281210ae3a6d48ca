"""Speed of the analysis board's marks (``sm358 board``) against the full double-dummy table.

Why a ratio: the machines differ threefold and other work shares them, so the board is
timed against the full table (5 strains x 3 seats, ``solver.dd_table``) of the same deals,
both in this process and run. The table runs on one thread here, as the board's marks do
(one warm table per open board).

The hands are the first hands of seeded ``twelve`` matches (heuristic and random players).
For each hand a fresh board steps through all 48 cards, asking for the marks of every
position (the mover's value after each legal card), the way the page does. Targets:

- the whole hand, marks at every card, within 1 table-time (the warm table at work);
- one step's marks within 0.05 table-times at the median;
- the first marks of a full deal (a fresh board) within 1 table-time.

    python bench/board.py [--hands N] [--first SEED]

``--misere N`` times instead the marks of the first lead of the first N hands a bundled
declarer chose to play in MT (``bench/mt_hands.py``), where a misère search of a full deal
makes the page wait: ``card_values`` alone on a fresh table of a board's size (32 MiB, and
the 256 MiB of an MT board), then a fresh board's marks job, with the moments its partial
answer gave the mover's value and the cards that keep it, and the moment every mark was in
(docs/board.md).

    python bench/board.py --misere 4 [--tt-mb 256]
"""

from __future__ import annotations

import argparse
import statistics
import time

import solver
from machine import describe
from review import hands  # the same seeded full hands as the review bench
from solver.board.boards import Board
from solver.board.jobs import JobRunner
from solver.board.line import Line


def step_through(rec, runner: JobRunner) -> list[float]:
    """Seconds for the marks of each of the 48 positions, on one fresh board."""
    board = Board(Line(rec), runner)
    times = []
    for k in range(len(rec.cards)):
        board.move("goto", k)
        t0 = time.perf_counter()
        m = board.marks(wait=600)
        times.append(time.perf_counter() - t0)
        assert m["status"] == "done", m
    board.close()
    return times


def misere_stages(count: int, tt_mb: int | None) -> int:
    """The misère marks in stages against ``card_values`` alone, on the first lead of MT
    hands; ``tt_mb`` replaces the size of an MT board's table (None: the board's own)."""
    from mt_hands import chosen_mt_hands
    from solver.board import boards
    from solver.engine import Solver

    if tt_mb is not None:
        boards.MISERE_BOARD_TT_MB = tt_mb
    misere_mb = boards.MISERE_BOARD_TT_MB
    print(f"{describe()}; an MT board's table {misere_mb} MiB")
    runner = JobRunner(1)
    for label, rec in chosen_mt_hands(count):
        pos = rec.position(1, 0)
        alone = {}
        for mb in sorted({boards.TT_MB, misere_mb}):
            t0 = time.perf_counter()
            Solver(mb).card_values(pos.engine_position(), seat=pos.mover)
            alone[mb] = time.perf_counter() - t0
        board = Board(Line(rec), runner)
        t0 = time.perf_counter()
        value_at = keeping_at = None
        while True:
            m = board.marks(wait=0.02)
            now = time.perf_counter() - t0
            partial = m.get("partial") or {}
            lo, hi = partial.get("interval", (0, 1))
            if value_at is None and (lo == hi or m["status"] == "done"):
                value_at = now
            if keeping_at is None and ("keeping" in partial or m["status"] == "done"):
                keeping_at = now
            if m["status"] != "running" and m["status"] != "queued":
                break
        assert m["status"] == "done", m
        board.close()
        references = ", ".join(f"{mb} MiB {t:.2f} s" for mb, t in alone.items())
        print(
            f"{label}, {pos.mover.name}'s first lead: card_values alone on a fresh table of {references}; "
            f"a fresh board: the value after {value_at:.2f} s, the cards that keep it {keeping_at:.2f} s, "
            f"every mark {now:.2f} s",
            flush=True,
        )
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=8, help="number of seeded hands (default 8)")
    ap.add_argument("--first", type=int, default=1, help="seed of the first match (default 1)")
    ap.add_argument("--misere", type=int, default=0, metavar="N", help="time MT hands' staged marks instead")
    ap.add_argument("--tt-mb", type=int, default=None, help="with --misere: an MT board's table in MiB")
    args = ap.parse_args()
    if args.misere:
        return misere_stages(args.misere, args.tt_mb)

    print(describe())
    recs = hands(args.hands, args.first)
    runner = JobRunner(1)
    solver.dd_table(recs[0].start, leader=recs[0].leader, threads=1)  # warm the thread's table
    table_s, hand_s, first_s, steps = [], [], [], []
    for i, rec in enumerate(recs):
        t0 = time.perf_counter()
        solver.dd_table(rec.start, leader=rec.leader, threads=1)
        table = time.perf_counter() - t0
        times = step_through(rec, runner)
        table_s.append(table)
        hand_s.append(sum(times))
        first_s.append(times[0])
        steps += [t / table for t in times]
        print(
            f"hand {i + 1:>2}: table {1000 * table:7.1f} ms  whole hand {1000 * sum(times):7.1f} ms "
            f"= {sum(times) / table:5.2f} tables  first marks {times[0] / table:5.2f}  "
            f"median step {statistics.median(times) / table:6.4f}"
        )
    median_table = statistics.median(table_s)
    print(f"median table (one thread) {1000 * median_table:.1f} ms over {len(recs)} deals")
    print(
        f"whole hand, 48 positions marked: median {statistics.median(hand_s) / median_table:.2f} "
        f"table-times, worst {max(hand_s) / median_table:.2f}  (target <= 1)"
    )
    print(
        f"one step's marks: median {statistics.median(steps):.4f} table-times of its deal  (target <= 0.05)"
    )
    print(
        f"first marks of a full deal: median {statistics.median(first_s) / median_table:.2f}, "
        f"worst {max(first_s) / median_table:.2f} table-times  (target <= 1)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
