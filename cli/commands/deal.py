"""``sm358 deal``: print a random deal in the notation."""

from __future__ import annotations

import argparse

from solver.deal import Deal

from ..common import print_json


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("deal", help="print a random deal (16-card hands and a 4-card widow)")
    p.add_argument("--seed", type=int, default=None, help="seed for a reproducible deal")
    p.add_argument("--hand-size", type=int, default=16, help="cards per hand (1..17, default 16)")
    p.add_argument("--widow", type=int, default=4, help="cards in the widow (default 4)")
    p.add_argument("--json", action="store_true", help="print the deal as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    deal = Deal.random(seed=args.seed, hand_size=args.hand_size, widow_size=args.widow)
    if args.json:
        print_json(deal.to_json())
    else:
        print(deal)
    return 0
