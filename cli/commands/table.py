"""``sm358 table``: every seat's double-dummy value in every strain."""
from __future__ import annotations

import argparse

from solver.deal import STRAIN_CHARS, Seat

from ..common import LazyProgress, console, print_json, read_deal
from ..deal_view import hands_table, values_table


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "table",
        help="double-dummy table: tricks for each seat in each strain",
        description="For each strain and each seat, the tricks that seat can guarantee when the "
                    "other two play together against it (with --misere: the fewest it can hold "
                    "itself to).",
    )
    p.add_argument("deal", metavar="DEAL", help="deal notation, or a file holding one")
    p.add_argument("--leader", default="E", help="seat that leads the first trick (default E)")
    p.add_argument("--strains", default=STRAIN_CHARS, help="strains to solve, e.g. SHDCN (default) or SN")
    p.add_argument("--misere", action="store_true", help="count the fewest tricks each seat can hold to")
    p.add_argument("--must-ruff", action="store_true", help="a player void in the led suit must trump")
    p.add_argument("--threads", type=int, default=None,
                   help="solve on this many threads (default: one per core)")
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from solver.engine import dd_table  # here, so other commands run without the C core

    deal = read_deal(args.deal)
    leader = Seat.parse(args.leader)
    bar = LazyProgress("solving")
    try:
        table = dd_table(deal, leader=leader, strains=args.strains, misere=args.misere,
                         must_ruff=args.must_ruff, threads=args.threads, progress=bar)
    finally:
        bar.close()
    values = table.to_dict()
    if args.json:
        out: dict = {"leader": leader.name, "table": values}
        if args.misere:
            out["misere"] = True
        if args.must_ruff:
            out["must_ruff"] = True
        print_json(out)
        return 0
    flags = [f"{leader.name} leads"]
    if args.misere:
        flags.append("misère: fewest tricks each seat can hold to")
    if args.must_ruff:
        flags.append("must-ruff")
    con = console()
    con.print(hands_table(deal))
    con.print(values_table(values, title="Double-dummy tricks (" + ", ".join(flags) + ")"))
    return 0
