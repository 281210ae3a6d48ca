"""Speed of the post-mortem review (``solver.review``) against the full double-dummy table.

Why a ratio: the machines differ threefold and other work shares them, so the review of a
hand is timed against the full table (5 strains x 3 seats, ``solver.dd_table``) of the same
deal, both in this process and run. Target: a full 16-trick hand (all 48 cards) reviewed
within 4 table-times on two cores.

The hands are the first hands of seeded ``twelve`` matches (heuristic and random players,
so there are mistakes to find). For each: the table of the hands at the first lead, the
play review (``declaration=False``) and, with ``--declaration``, the declaration judged by
the optimiser, each timed separately. ``--mt K`` reviews instead the first K hands a
bundled declarer chose to play in MT (``mt_hands.py``), whose review is the engine's misère
search, against the normal table of the same hands (the issue's target is the same 4).

    python bench/review.py [--hands N] [--threads T] [--declaration] [--mt K]
"""

from __future__ import annotations

import argparse
import statistics
import time

import solver
from machine import describe
from mt_hands import chosen_mt_hands
from solver.analysis.review import best_declaration, review
from solver.game.handfile import hand_from_record
from solver.game.match import Match
from solver.game.rules import get_ruleset
from solver.players import get_player


def hands(count: int, first: int) -> list:
    out = []
    for seed in range(first, first + count):
        players = [get_player(k, f"{seed}:{i}") for i, k in enumerate(("heuristic", "random", "heuristic"))]
        options = {"hands_limit": 1, "win_tricks": 16}
        rec = Match(get_ruleset("twelve", **options), players, seed, preset="twelve", options=options).play()
        out.append(hand_from_record(rec, 1))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=10, help="number of seeded hands (default 10)")
    ap.add_argument("--first", type=int, default=1, help="seed of the first match (default 1)")
    ap.add_argument("--threads", type=int, default=2, help="worker threads for table and review (default 2)")
    ap.add_argument("--declaration", action="store_true", help="also time the declaration judgement")
    ap.add_argument("--mt", type=int, default=0, metavar="K", help="review K hands chosen for MT instead")
    args = ap.parse_args()

    print(describe())
    recs = [rec for _, rec in chosen_mt_hands(args.mt)] if args.mt else hands(args.hands, args.first)
    solver.dd_table(recs[0].start, leader=recs[0].leader, threads=args.threads)  # warm the pooled tables
    table_s, review_s, ratio, declare_s = [], [], [], []
    for i, rec in enumerate(recs):
        t0 = time.perf_counter()
        solver.dd_table(rec.start, leader=rec.leader, threads=args.threads)
        t1 = time.perf_counter()
        r = review(rec, declaration=False, threads=args.threads)
        t2 = time.perf_counter()
        table_s.append(t1 - t0)
        review_s.append(t2 - t1)
        ratio.append((t2 - t1) / (t1 - t0))
        line = (
            f"hand {i + 1:>3}: table {1000 * (t1 - t0):8.1f} ms  review {1000 * (t2 - t1):8.1f} ms  "
            f"= {ratio[-1]:5.2f} tables  ({len(r.hands[0].cards)} cards, "
            f"{sum(v.mistakes for v in r.hands[0].seats.values())} mistakes)"
        )
        if args.declaration:
            t3 = time.perf_counter()
            best_declaration(rec)
            declare_s.append(time.perf_counter() - t3)
            line += f"  declaration {1000 * declare_s[-1]:8.1f} ms"
        print(line)
    print(f"median table  {1000 * statistics.median(table_s):8.1f} ms")
    print(
        f"median review {1000 * statistics.median(review_s):8.1f} ms per hand "
        f"(48 cards, {args.threads} threads{', MT' if args.mt else ''})"
    )
    print(
        f"review / table: median of per-hand ratios {statistics.median(ratio):.2f}, "
        f"ratio of medians {statistics.median(review_s) / statistics.median(table_s):.2f} "
        f"(target <= 4)"
    )
    if declare_s:
        print(
            f"median declaration judgement {1000 * statistics.median(declare_s):8.1f} ms "
            f"= {statistics.median(declare_s) / statistics.median(table_s):.2f} tables"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
