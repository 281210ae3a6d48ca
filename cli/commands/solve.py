"""``sm358 solve``: one seat's double-dummy value in one strain."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from rich.text import Text

from solver.cards import Card, parse_cards
from solver.deal import Deal, Seat, Strain

from ..common import add_time_limit, console, print_json, read_deal, stop_code, stopped
from ..deal_view import hands_table

if TYPE_CHECKING:  # pragma: no cover
    from solver.engine.interval import Interval


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
    add_time_limit(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from solver.engine import solve

    deal = read_deal(args.deal)
    strain = Strain.parse(args.strain)
    leader = Seat.parse(args.leader)
    seat = Seat.parse(args.seat)
    played = parse_cards(args.played)
    stop = None
    if args.misere:
        found, stop = _misere_value(deal, strain, leader, seat, args.must_ruff, played)
        tricks = found.lo
    else:
        tricks = solve(deal, strain, leader=leader, seat=seat, must_ruff=args.must_ruff, played=played)
    if args.json:
        out: dict[str, Any] = {
            "strain": strain.name,
            "leader": leader.name,
            "seat": seat.name,
            "tricks": tricks if stop is None else None,
        }
        # Extra keys only when they change the meaning, so the default output stays these four.
        if stop is not None:  # stopped: the value as far as proven
            out["interval"] = [found.lo, found.hi]
            out["partial"] = True
        if args.misere:
            out["misere"] = True
        if args.must_ruff:
            out["must_ruff"] = True
        if played:
            out["played"] = [str(c) for c in played]
        print_json(out)
    else:
        show(deal, strain, leader, seat, args, played, f"{found}" if stop is not None else f"{tricks}", stop)
    if stop is not None:
        print(f"sm358 solve: {stop}; {seat.name}'s misère value is {found} tricks", file=sys.stderr)
        return stop_code()
    return 0


def show(
    deal: Deal,
    strain: Strain,
    leader: Seat,
    seat: Seat,
    args: argparse.Namespace,
    played: list[Card],
    tricks: str,
    stop: str | None,
) -> None:
    """The hands and one line with the value (``tricks``: a number, or ``3-8`` as far as
    proven when ``stop`` says how the search was stopped)."""
    con = console()
    con.print(hands_table(deal, played=played))
    trump = "no trump" if strain == Strain.N else f"{strain.symbol} trumps"
    rules = ", must-ruff" if args.must_ruff else ""
    verb = "can hold itself to" if args.misere else "can take"
    line = Text(f"{trump}, {leader.name} leads{rules}: ")
    line.append(f"{seat.name} {verb} {tricks} trick{'s' if tricks != '1' else ''}", style="bold")
    notes = (["misère"] if args.misere else []) + ([f"proven so far: {stop}"] if stop is not None else [])
    line.append(f" of {deal.hand_size}" + (f" ({'; '.join(notes)})" if notes else ""))
    con.print(line)


def _misere_value(
    deal: Deal, strain: Strain, leader: Seat, seat: Seat, must_ruff: bool, played: list[Card]
) -> tuple[Interval, str | None]:
    """The misère value, printing on stderr the interval proven so far each time it
    narrows (a misère search near the value can be long; only on a terminal, like the
    progress bars, so that a pipe sees one line per outcome). Returns the interval (exact
    when finished) and, when a Ctrl-C or the time limit stopped it first, how (stopped())."""
    from solver.engine import MISERE_TT_MB, Solver
    from solver.engine.interval import Interval, narrowing_value

    last = Interval(0, deal.hand_size)
    steps = narrowing_value(
        Solver(tt_mb=MISERE_TT_MB),
        deal,
        strain,
        leader=leader,
        seat=seat,
        misere=True,
        must_ruff=must_ruff,
        played=played,
    )
    show_steps = sys.stderr.isatty()
    try:
        for interval in steps:
            if show_steps and interval != last:
                note = "" if interval.exact else " (proven so far)"
                print(f"{seat.name}'s misère value: {interval} tricks{note}", file=sys.stderr, flush=True)
            last = interval
    except KeyboardInterrupt:
        return last, stopped()
    return last, None
