"""``sm358 table``: every seat's double-dummy value in every strain."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from solver.deal import STRAIN_CHARS, Deal, Seat, Strain
from solver.game.rules import get_ruleset
from solver.modes import Mode

from ..common import (
    LazyProgress,
    add_run_options,
    add_time_limit,
    console,
    print_json,
    read_deal,
    run_options,
    stop_code,
    stopped,
)
from ..deal_view import hands_table, values_table

if TYPE_CHECKING:  # pragma: no cover
    from solver.engine.interval import Interval


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "table",
        help="double-dummy table: tricks for each seat in each strain",
        description="For each strain and each seat, the tricks that seat can guarantee when the "
        "other two play together against it (with --misere: the fewest it can hold "
        "itself to).",
    )
    p.add_argument("deal", metavar="DEAL", help="deal notation, or a file holding one")
    p.add_argument(
        "--rules",
        metavar="PRESET",
        help="take the first leader and must-ruff from a ruleset preset and show each "
        "seat's target beside its values",
    )
    p.add_argument(
        "--leader", default=None, help="seat that leads the first trick (default E, or the rules')"
    )
    p.add_argument("--strains", default=STRAIN_CHARS, help="strains to solve, e.g. SHDCN (default) or SN")
    p.add_argument("--misere", action="store_true", help="count the fewest tricks each seat can hold to")
    p.add_argument(
        "--must-ruff", action="store_true", default=None, help="a player void in the led suit must trump"
    )
    add_run_options(p, workers="solve on this many threads", scheduler=False)
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    add_time_limit(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from solver.engine import TableInterrupted, dd_table

    deal = read_deal(args.deal)
    targets = None
    leader_name, must_ruff = "E", False
    if args.rules:
        rs = get_ruleset(args.rules)
        leader_name = rs.opening_leader().name
        must_ruff = rs.must_ruff
        mode = (rs.misere_mode or Mode.miz) if args.misere else None
        targets = {s.name: rs.target_of(s, mode) for s in Seat}
    leader = Seat.parse(args.leader if args.leader is not None else leader_name)
    args.must_ruff = must_ruff if args.must_ruff is None else args.must_ruff
    try:
        with LazyProgress("solving") as bar:
            table = dd_table(
                deal,
                leader=leader,
                strains=args.strains,
                misere=args.misere,
                must_ruff=args.must_ruff,
                threads=run_options(args).workers,
                progress=bar,
            )
    except TableInterrupted as stop:
        how = stopped()
        if args.json:
            print_json(_json(args, leader, targets, _as_proven(stop.intervals)) | {"partial": True})
        else:
            cells = {st.name: {s.name: str(v) for s, v in row.items()} for st, row in stop.intervals.items()}
            show(args, deal, leader, cells, targets, f"{how}: numbers exact, ranges lo-hi proven so far")
        print(f"sm358 table: {how}; {stop.exact} of {stop.total} values exact", file=sys.stderr)
        return stop_code()
    if args.json:
        print_json(_json(args, leader, targets, table.to_dict()))
        return 0
    show(args, deal, leader, table.to_dict(), targets)
    return 0


def _as_proven(intervals: Mapping[Strain, Mapping[Seat, Interval]]) -> dict[str, dict[str, Any]]:
    """A stopped table's cells for JSON: the value once exact, else ``[lo, hi]``."""
    return {
        st.name: {s.name: v.lo if v.exact else [v.lo, v.hi] for s, v in row.items()}
        for st, row in intervals.items()
    }


def _json(
    args: argparse.Namespace, leader: Seat, targets: dict[str, int] | None, values: dict[str, Any]
) -> dict[str, Any]:
    out: dict[str, Any] = {"leader": leader.name, "table": values}
    if args.misere:
        out["misere"] = True
    if args.must_ruff:
        out["must_ruff"] = True
    if targets is not None:
        out["rules"] = args.rules
        out["targets"] = targets
    return out


def show(
    args: argparse.Namespace,
    deal: Deal,
    leader: Seat,
    cells: Mapping[str, Mapping[str, int | str]],
    targets: dict[str, int] | None,
    note: str | None = None,
) -> None:
    """The hands and the table of ``cells`` (values, or intervals after a Ctrl-C), each
    beside the seat's target under ``--rules``; ``note`` ends the title."""
    flags = [f"{leader.name} leads"]
    if args.misere:
        flags.append("misère: fewest tricks each seat can hold to")
    if args.must_ruff:
        flags.append("must-ruff")
    title = "Double-dummy tricks"
    if targets is not None:
        flags.append(args.rules)
        cells = {t: {s: f"{v} / {targets[s]}" for s, v in row.items()} for t, row in cells.items()}
        title += " / " + ("maximum" if args.misere else "target")
    if note is not None:
        flags.append(note)
    con = console()
    con.print(hands_table(deal))
    con.print(values_table(cells, title=title + " (" + ", ".join(flags) + ")"))
