"""``sm358 solve``: one seat's double-dummy value in one strain."""

from __future__ import annotations

import argparse

from rich.text import Text

from solver.cards import parse_cards
from solver.deal import Seat, Strain

from ..common import console, print_json, read_deal
from ..deal_view import hands_table


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "solve",
        help="tricks one seat can guarantee in one strain (double dummy)",
        description="The tricks SEAT can guarantee from the current trick to the end when the "
        "other two seats play together against it (with --misere: the fewest it "
        "can hold itself to while they try to give it tricks).",
    )
    p.add_argument("deal", metavar="DEAL", help="deal notation, or a file holding one")
    p.add_argument("--strain", required=True, help="trump suit S H D C, or N for no trump")
    p.add_argument("--leader", default="E", help="seat that leads the current trick (default E)")
    p.add_argument("--seat", default="D", help="seat whose tricks are counted (default D)")
    p.add_argument("--misere", action="store_true", help="the seat wants the fewest tricks")
    p.add_argument("--must-ruff", action="store_true", help="a player void in the led suit must trump")
    p.add_argument(
        "--played",
        default="",
        metavar="CARDS",
        help='cards already played to the current trick, from the leader, e.g. "SA HK"',
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from solver.engine import solve

    deal = read_deal(args.deal)
    strain = Strain.parse(args.strain)
    leader = Seat.parse(args.leader)
    seat = Seat.parse(args.seat)
    played = parse_cards(args.played)
    tricks = solve(
        deal, strain, leader=leader, seat=seat, misere=args.misere, must_ruff=args.must_ruff, played=played
    )
    if args.json:
        out: dict = {"strain": strain.name, "leader": leader.name, "seat": seat.name, "tricks": tricks}
        # Extra keys only when they change the meaning, so the default output stays these four.
        if args.misere:
            out["misere"] = True
        if args.must_ruff:
            out["must_ruff"] = True
        if played:
            out["played"] = [str(c) for c in played]
        print_json(out)
        return 0
    con = console()
    con.print(hands_table(deal, played=played))
    trump = "no trump" if strain == Strain.N else f"{strain.symbol} trumps"
    rules = ", must-ruff" if args.must_ruff else ""
    if args.misere:
        verb = "can hold itself to"
    else:
        verb = "can take"
    line = Text(f"{trump}, {leader.name} leads{rules}: ")
    line.append(f"{seat.name} {verb} {tricks} trick{'s' if tricks != 1 else ''}", style="bold")
    line.append(f" of {deal.hand_size}" + (" (misère)" if args.misere else ""))
    con.print(line)
    return 0
