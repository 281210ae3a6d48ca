"""``sm358 deal``: random deals, or deals to a specification (docs/dealing.md).

Without constraints it prints ``Deal.random(seed)`` under the rules' sizes. The options
``--holds``, ``--length``, ``--points``, ``--aces-kings`` and ``--trumps`` (each
repeatable) and ``--spec`` (the same clauses in one string or file) restrict the deals;
every deal allowed is equally likely. One deal a line (the notation ``sm358 study
--deals-from`` reads), or one JSON object a line with ``--json``.
"""

from __future__ import annotations

import argparse
import sys

from solver.errors import NotationError
from solver.game.dealer import DEFAULT_TRIES, Dealer
from solver.game.dealspec import DealSpec

from ..common import LazyProgress, print_json, read_spec_arg

#: Deals one command prints at most; more is a typo or a job for ``sm358 study --deal-spec``.
MAX_COUNT = 1_000_000


def add_spec_options(p: argparse.ArgumentParser) -> None:
    """The constraint options, shared by ``sm358 deal`` (and documented together)."""
    p.add_argument(
        "--holds",
        action="append",
        default=[],
        metavar="PLACE:CARDS",
        help="cards a seat or the widow (W) holds: D:SA,HK, or a whole hand D:AKQ.JT9.8.5432 (repeatable)",
    )
    p.add_argument(
        "--length",
        action="append",
        default=[],
        metavar="PLACE:SUIT=RANGE",
        help="a suit length: E:S=5-8, M:H=0, D:C=4+ (repeatable)",
    )
    p.add_argument(
        "--points",
        action="append",
        default=[],
        metavar="PLACE:RANGE",
        help="high-card points (A=4 K=3 Q=2 J=1): D:12-20, E:10+ (repeatable)",
    )
    p.add_argument(
        "--aces-kings",
        action="append",
        default=[],
        metavar="PLACE:RANGE",
        help="aces and kings counted together: D:3+, M:0-1 (repeatable)",
    )
    p.add_argument(
        "--trumps",
        action="append",
        default=[],
        metavar="SEAT:SUIT=N",
        help="at least N trumps in suit SUIT: D:H=6 (the declarer's counted with the widow; repeatable)",
    )
    p.add_argument(
        "--spec",
        metavar="SPEC",
        help="the same clauses in one string or file: 'length E:S=5-8; points D:12+'",
    )


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "deal",
        help="random deals, or deals to a specification (cards, lengths, points, trumps)",
        description="Print seeded random deals under a ruleset's sizes; the constraint options "
        "restrict them, every allowed deal equally likely. See docs/dealing.md.",
    )
    p.add_argument("--seed", type=int, default=None, help="seed for reproducible deals")
    p.add_argument(
        "--rules", default="twelve", metavar="PRESET", help="ruleset preset: deck and sizes (default twelve)"
    )
    p.add_argument("--hand-size", type=int, default=None, help="cards per hand (1..17; default: the rules')")
    p.add_argument("--widow", type=int, default=None, help="cards in the widow (default: the rules')")
    p.add_argument("--count", type=int, default=1, help=f"how many deals (default 1, at most {MAX_COUNT:,})")
    add_spec_options(p)
    p.add_argument(
        "--tries",
        type=int,
        default=DEFAULT_TRIES,
        help=f"draws per deal for points, aces-kings and the declarer's trumps (default {DEFAULT_TRIES:,})",
    )
    p.add_argument("--json", action="store_true", help="one JSON object a line")
    p.set_defaults(run=run)


def spec_from_args(args: argparse.Namespace) -> DealSpec:
    """The spec of ``--spec`` (a string or a file) and the constraint options together."""
    clauses = [read_spec_arg(args.spec)] if args.spec else []
    for name in ("holds", "length", "points", "aces_kings", "trumps"):
        clauses += [f"{name.replace('_', '-')} {value}" for value in getattr(args, name)]
    return DealSpec.parse("\n".join(clauses))


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.count <= MAX_COUNT:
        raise NotationError(f"--count must be from 1 to {MAX_COUNT:,}, got {args.count}")
    dealer = Dealer(
        spec_from_args(args),
        rules=args.rules,
        hand_size=args.hand_size,
        widow_size=args.widow,
        tries=args.tries,
    )
    stream = dealer.deals(args.seed)
    # The deals on a terminal are their own progress; a bar goes with output to a file.
    show_bar = args.count > 1 and not sys.stdout.isatty()
    with LazyProgress("deal") as bar:
        for done in range(args.count):
            deal = next(stream)
            if args.json:
                print_json(deal.to_json())
            else:
                print(deal)
            if show_bar:
                bar(done + 1, args.count)
    return 0
