"""Matches per second for heuristic players, per preset (median of repeated runs).

Usage: python bench/simulate.py [--matches N] [--repeat R] [--presets a,b] [--full-twelve]

``--full-twelve`` also times 1,000 complete ``twelve`` matches once (the issue's
target: under a minute on the project machine).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from machine import describe  # noqa: E402
from solver.analysis.simulation import simulate  # noqa: E402
from solver.game.rules import PRESETS, get_ruleset  # noqa: E402

KINDS = ("heuristic", "heuristic", "heuristic")


def time_run(preset: str, matches: int, seed: int) -> tuple[float, int]:
    start = time.perf_counter()
    summary = simulate(get_ruleset(preset), KINDS, matches, seed, preset=preset)
    return time.perf_counter() - start, summary.hands


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--presets", default=",".join(PRESETS))
    ap.add_argument("--full-twelve", action="store_true")
    args = ap.parse_args()
    print(describe())
    print(
        f"{'preset':<16}{'matches/s':>12}{'hands/s':>10}{'hands/match':>13}   (median of {args.repeat} runs of {args.matches})"
    )
    for preset in args.presets.split(","):
        rates, hand_rates, per_match = [], [], 0.0
        for r in range(args.repeat):
            secs, hands = time_run(preset, args.matches, seed=r + 1)
            rates.append(args.matches / secs)
            hand_rates.append(hands / secs)
            per_match = hands / args.matches
        print(
            f"{preset:<16}{statistics.median(rates):>12.1f}{statistics.median(hand_rates):>10.0f}{per_match:>13.2f}"
        )
    if args.full_twelve:
        secs, hands = time_run("twelve", 1000, seed=1)
        print(f"1000 twelve matches: {secs:.1f} s ({hands} hands, {1000 / secs:.1f} matches/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
