"""``sm358 simulate``: play many seeded matches between bundled players and report.

Reports the win rate per player and per starting seat, the mean net per seat, and how
the matches ended; ``--out DIR`` writes one game record per match. The progress bar
goes to stderr, so ``--json`` output on stdout stays clean.
"""
from __future__ import annotations

import argparse
import os

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from solver.game import records
from solver.errors import RulesError
from solver.inputs import option_value
from solver.game.rules import get_ruleset
from solver.analysis.simulation import parse_kinds, simulate

from ..common import console, err_console, print_json
from ..main import UsageError

#: Largest --matches: a run of this size takes hours; larger ones are better split by seed.
MAX_MATCHES = 100_000


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("simulate", help="play many seeded matches between bundled players and report statistics")
    p.add_argument("--rules", default="twelve", metavar="PRESET", help="ruleset preset (default twelve; see 'sm358 rules')")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="override a ruleset option, e.g. --option hands_limit=9 (repeatable; VALUE is JSON or text)")
    p.add_argument("--players", default="heuristic,heuristic,heuristic",
                   help="three players, clockwise: random, heuristic or dd (default heuristic,heuristic,heuristic)")
    p.add_argument("--matches", type=int, default=100,
                   help=f"number of matches (default 100, at most {MAX_MATCHES:,})")
    p.add_argument("--seed", type=int, default=1, help="seed of the run (default 1)")
    p.add_argument("--out", metavar="DIR", help="write one game record per match into DIR")
    p.add_argument("--force", action="store_true",
                   help="with --out: overwrite the match-N.json records of an earlier run")
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.set_defaults(run=run)


def parse_options(items: list[str]) -> dict:
    """``KEY=VALUE`` pairs; a VALUE that is valid JSON is read as JSON, otherwise as text."""
    out: dict = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise RulesError(f"--option {item!r}: expected KEY=VALUE")
        out[key.strip()] = option_value(value, what=f"--option {key.strip()}", error=RulesError)
    return out


def record_name(index: int, width: int) -> str:
    return f"match-{index + 1:0{width}d}.json"


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
        raise UsageError(f"--out {directory}: {len(existing)} record(s) of an earlier run would be "
                         f"overwritten ({first}, ...); use --force to overwrite them, or another directory")


def run(args: argparse.Namespace) -> int:
    kinds = parse_kinds(args.players)
    options = parse_options(args.option)
    ruleset = get_ruleset(args.rules, **records.options_for_ruleset(options))
    if not 1 <= args.matches <= MAX_MATCHES:
        raise RulesError(f"--matches must be at least 1 and at most {MAX_MATCHES:,}, got {args.matches}")
    width = len(str(args.matches))
    if args.out:
        prepare_out_dir(args.out, [record_name(i, width) for i in range(args.matches)], args.force)

    err = err_console()
    # disabled off a terminal: a transient bar still ends with a newline, a second stderr line
    with Progress(TextColumn("[bold]simulate"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("matches", total=args.matches)

        def on_record(i: int, record: dict) -> None:
            if args.out:
                records.save(record, os.path.join(args.out, record_name(i, width)))
            progress.advance(task)

        summary = simulate(ruleset, kinds, args.matches, args.seed, preset=args.rules, options=options,
                           on_record=on_record)

    stats = summary.to_json()
    if args.json:
        print_json({"rules": args.rules, "options": options, "players": summary.names, "seed": args.seed, **stats})
        return 0
    out = console()
    out.print(f"{stats['matches']} matches of [bold]{args.rules}[/bold], seed {args.seed}, "
              f"{stats['hands']} hands ({stats['mean_hands']} per match)")
    t = Table(title="win rate per player (listed clockwise)")
    t.add_column("player")
    t.add_column("wins", justify="right")
    t.add_column("win rate", justify="right")
    t.add_column("mean total", justify="right")
    for name in summary.names:
        t.add_row(name, str(stats["wins"][name]), f"{stats['win_rate'][name]:.1%}",
                  f"{stats['mean_total_by_player'][name]:+.2f}")
    out.print(t)
    if stats["shared_or_no_winner"]:
        out.print(f"shared wins (tie, no tie-break): {stats['shared_or_no_winner']}")
    t = Table(title="by seat (starting seat = seat in the first hand)")
    t.add_column("seat")
    t.add_column("win rate from this starting seat", justify="right")
    t.add_column("mean net per hand", justify="right")
    for seat, label in (("D", "D dealer"), ("E", "E eldest"), ("M", "M middle")):
        t.add_row(label, f"{stats['win_rate_by_start_seat'][seat]:.1%}", f"{stats['mean_net_by_seat'][seat]:+.3f}")
    out.print(t)
    out.print("how the matches ended: " + ", ".join(f"{reason} {n}" for reason, n in stats["endings"].items()))
    if args.out:
        out.print(f"records written to {args.out}")
    return 0
