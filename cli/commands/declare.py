"""``sm358 declare``: the exact best trump and discard for the declarer, and every tie."""
from __future__ import annotations

import argparse
from typing import Iterable

from rich.table import Table

from solver.cards import SUIT_CHARS, Card
from solver.deal import Strain
from solver.declare import Declaration, declare

from ..common import LazyProgress, console, print_json, read_deal


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "declare",
        help="best strain and discard for the declarer (exact, double dummy)",
        description="Find the declarer's best strain and discard over every discard set, "
                    "and list every choice that reaches it.",
    )
    p.add_argument("deal", metavar="DEAL", help="deal notation with a widow, or a file holding one")
    p.add_argument("--declarer", default="D", help="seat that takes the widow (default D)")
    p.add_argument("--leader", default="E", help="seat that leads the first trick (default E)")
    p.add_argument("--strains", default=SUIT_CHARS, help="strains to consider, e.g. SHDC or SHDCN")
    p.add_argument("--blind", action="store_true",
                   help="discard from the own hand before taking the widow (rule 002)")
    p.add_argument("--misere", action="store_true", help="the declarer wants the fewest tricks")
    p.add_argument("--must-ruff", action="store_true", help="a player void in the led suit must trump")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    deal = read_deal(args.deal)
    bar = LazyProgress("declare")
    try:
        result = declare(deal, declarer=args.declarer, leader=args.leader, strains=args.strains,
                         blind=args.blind, misere=args.misere, must_ruff=args.must_ruff,
                         progress=bar)
    finally:
        bar.close()
    if args.json:
        print_json(result.to_dict())
    else:
        show(result)
    return 0


def _pretty(cards: "Iterable[Card]") -> str:
    """Cards with suit symbols in hand order (spades first, high to low)."""
    return " ".join(c.pretty() for c in sorted(cards, key=lambda c: (c.suit, -c.rank)))


def show(result: Declaration) -> None:
    """Human output: the held cards, the best value per strain, the optimal choices."""
    out = console()
    out.print(f"Declarer {result.declarer} holds {len(result.held)} cards: {result.held.pretty()}")
    goal = "fewest tricks (misère)" if result.misere else "most tricks"
    per = Table(title=f"Best value per strain ({goal})")
    for strain in result.by_strain:
        per.add_column(Strain.parse(strain).symbol, justify="right")
    per.add_row(*(str(v) for v in result.by_strain.values()))
    out.print(per)
    choices = Table(title=f"Optimal choices: {result.tricks} tricks")
    choices.add_column("strain")
    choices.add_column("discard (one of the equivalent sets)")
    choices.add_column("sets", justify="right")
    for c in result.optimal:
        choices.add_row(Strain.parse(c.strain).symbol,
                        _pretty(c.discard), str(c.count))
    out.print(choices)
    total_sets = sum(c.count for c in result.optimal)
    out.print(f"{len(result.optimal)} class(es), {total_sets} discard set(s); "
              f"{result.candidates_searched} of {result.classes} candidates needed a search")
