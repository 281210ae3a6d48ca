"""``sm358 simulate``: play many seeded matches between bundled players and report.

Each figure comes with its 95% interval: win rate per player, mean net per hand per
player and per seat, how often the declarer makes his target, the modes declared and how
often each makes, the value of the exchange, match length. When the players differ they
rotate through the chairs on the same deals (``--seating``), so the luck of the cards
cancels. ``--out DIR`` writes one game record per match. The progress bar goes to stderr,
so ``--json`` output on stdout stays clean. Ctrl-C prints what was gathered so far, marked
partial, and exits 130 (``--time-limit``: 124).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Any

from rich.table import Table

from solver.analysis.simulation import (
    MAX_MATCHES,
    SEATING_PLANS,
    Summary,
    check_matches,
    default_seating,
    parse_kinds,
    seatings,
    simulate,
)
from solver.analysis.stats import Estimate
from solver.deal import Seat
from solver.errors import RulesError
from solver.game import records
from solver.game.records import MatchRecord
from solver.game.rules import get_ruleset
from solver.inputs import option_value

from ..common import (
    add_run_options,
    add_time_limit,
    console,
    err_console,
    print_json,
    progress_bar,
    stop_code,
    stopped,
)
from ..main import UsageError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "simulate", help="play many seeded matches between bundled players and report statistics"
    )
    p.add_argument(
        "--rules",
        default="twelve",
        metavar="PRESET",
        help="ruleset preset (default twelve; see 'sm358 rules')",
    )
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a ruleset option, e.g. --option hands_limit=9 (repeatable; VALUE is JSON or text)",
    )
    p.add_argument(
        "--players",
        default="heuristic,heuristic,heuristic",
        help="three players, clockwise: random, heuristic, dd, dd-full, pimc or pimc-full (default heuristic,heuristic,heuristic)",
    )
    p.add_argument(
        "--matches",
        type=int,
        default=100,
        help=f"number of deal sets (match seeds), each played once per seating (default 100, "
        f"at most {MAX_MATCHES:,})",
    )
    p.add_argument(
        "--seating",
        choices=SEATING_PLANS,
        help="fixed: one seating; rotate: every player in every chair on the same deals; permute: "
        "all six orders (default rotate when the players differ, else fixed)",
    )
    add_run_options(p, seed=1, workers=None, scheduler=False)
    p.add_argument("--out", metavar="DIR", help="write one game record per match into DIR")
    p.add_argument(
        "--force",
        action="store_true",
        help="with --out: overwrite the match-N.json records of an earlier run",
    )
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    add_time_limit(p)
    p.set_defaults(run=run)


def parse_options(items: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs; a VALUE that is valid JSON is read as JSON, otherwise as text."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise RulesError(f"--option {item!r}: expected KEY=VALUE")
        out[key.strip()] = option_value(value, what=f"--option {key.strip()}", error=RulesError)
    return out


def record_name(index: int, width: int, seating: int | None = None) -> str:
    """``match-7.json``; ``match-7-s2.json`` for deal set 7 in its second seating."""
    suffix = f"-s{seating + 1}" if seating is not None else ""
    return f"match-{index + 1:0{width}d}{suffix}.json"


def prepare_out_dir(directory: str, names: list[str], force: bool) -> None:
    """Create ``directory``, clear the temporary files of killed runs, and refuse to
    overwrite records of an earlier run unless ``force``."""
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise UsageError(f"--out {directory}: not a directory")
    os.makedirs(directory, exist_ok=True)
    records.remove_stale_temp_files(directory)
    if force:
        return
    existing = set(os.listdir(directory)).intersection(names)
    if existing:
        first = min(existing)
        raise UsageError(
            f"--out {directory}: {len(existing)} record(s) of an earlier run would be "
            f"overwritten ({first}, ...); use --force to overwrite them, or another directory"
        )


def run(args: argparse.Namespace) -> int:
    kinds = parse_kinds(args.players)
    options = parse_options(args.option)
    ruleset = get_ruleset(args.rules, **records.options_for_ruleset(options))
    check_matches(args.matches)
    plan = args.seating or default_seating(kinds)
    per_set = len(seatings(plan))
    width = len(str(args.matches))

    def name(i: int, k: int) -> str:
        return record_name(i, width, k if per_set > 1 else None)

    if args.out:
        prepare_out_dir(
            args.out, [name(i, k) for i in range(args.matches) for k in range(per_set)], args.force
        )

    err = err_console()
    # disabled off a terminal: a transient bar still ends with a newline, a second stderr line
    with progress_bar("simulate", err, disable=not err.is_terminal) as progress:
        task = progress.add_task("matches", total=args.matches * per_set)

        def on_record(i: int, k: int, record: MatchRecord) -> None:
            if args.out:
                records.save(record, os.path.join(args.out, name(i, k)), check=False)  # just played
            progress.advance(task)

        summary = simulate(
            ruleset,
            kinds,
            args.matches,
            args.seed,
            preset=args.rules,
            options=options,
            seating=plan,
            on_record=on_record,
        )

    if args.json:
        print_json(
            {
                "rules": args.rules,
                "options": options,
                "players": summary.names,
                "seed": args.seed,
                **summary.to_json(),
            }
        )
    else:
        print_summary(summary, args)
    if summary.partial:
        print(
            f"sm358 simulate: {stopped()}: partial statistics over {summary.deal_sets} of "
            f"{args.matches} deal sets",
            file=sys.stderr,
        )
        return stop_code()
    return 0


MODE_LABELS = {
    "S": "♠ spades",
    "H": "[red]♥[/red] hearts",
    "D": "[red]♦[/red] diamonds",
    "C": "♣ clubs",
    "N": "no trump",
    "MT": "minimum tricks",
    "miz": "misère",
}


def interval(e: Estimate, fmt: str = "{:.3f}") -> str:
    if e.units == 0:
        return "—"
    low = fmt.format(e.low) if math.isfinite(e.low) else "-inf"
    high = fmt.format(e.high) if math.isfinite(e.high) else "inf"
    return f"{fmt.format(e.value)} [{low}, {high}]"


def pct(e: Estimate) -> str:
    return interval(e, "{:.1%}")


def print_summary(summary: Summary, args: argparse.Namespace) -> None:
    out = console(markup=True)  # every string is the command's own (player kinds, a preset)
    stats = summary.to_json()
    partial = f" [bold red](partial: {stopped()})[/bold red]" if summary.partial else ""
    out.print(
        f"{summary.deal_sets} deal sets of [bold]{args.rules}[/bold], seed {args.seed}, {summary.seating} "
        f"seating: {summary.matches} matches, {summary.hands} hands{partial}. Figures with 95% intervals."
    )
    t = Table(title="per player (listed clockwise)")
    for col in ("player", "wins", "win rate", "mean net per hand", "mean total"):
        t.add_column(col, justify="left" if col == "player" else "right")
    rates, nets, totals = summary.win_rate(), summary.mean_net_by_player(), summary.mean_total_by_player()
    for name in summary.names:
        t.add_row(
            name,
            str(stats["wins"][name]),
            pct(rates[name]),
            interval(nets[name]),
            interval(totals[name], "{:+.2f}"),
        )
    out.print(t)
    if summary.shared:
        out.print(f"shared wins (tie, no tie-break): {summary.shared}")
    t = Table(title="by seat (starting seat = seat in the first hand)")
    t.add_column("seat")
    t.add_column("win rate from this starting seat", justify="right")
    t.add_column("mean net per hand", justify="right")
    starts, seat_nets = summary.win_rate_by_start_seat(), summary.mean_net_by_seat()
    for seat in Seat:
        t.add_row(
            f"{seat.name} {seat.word}", pct(starts[seat.name]), interval(seat_nets[seat.name], "{:+.3f}")
        )
    out.print(t)
    out.print(f"declarer reaches his target: {pct(summary.target_rate())}")
    t = Table(title="modes declared")
    for col in ("mode", "share of hands", "made"):
        t.add_column(col, justify="left" if col == "mode" else "right")
    for mode, v in summary.modes().items():
        t.add_row(MODE_LABELS.get(mode, mode), pct(v["share"]), pct(v["made"]))
    out.print(t)
    t = Table(title="the exchange: cards taken (negative: given up) and the hand's mean net")
    for col in ("cards", "player-hands", "mean net"):
        t.add_column(col, justify="right")
    counts = summary.exchange_counts()
    for k, e in summary.exchange_value().items():
        t.add_row(f"{k:+d}", str(counts[k]), interval(e, "{:+.2f}"))
    out.print(t)
    out.print(f"match length (hands): {interval(summary.match_length(), '{:.2f}')}")
    out.print(
        "how the matches ended: " + ", ".join(f"{reason} {n}" for reason, n in stats["endings"].items())
    )
    if args.out:
        out.print(f"records written to {args.out}")
