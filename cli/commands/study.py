"""``sm358 study``: one row per seeded deal (table, best declaration, features) into a file.

Parquet (``.parquet``) or CSV (``.csv``). Resumable: an interrupted study (Ctrl-C, a
crash, a lost machine) is continued by the same command, which computes only the chunks
not yet written. ``--scheduler`` runs the chunks on a Dask cluster instead of local
processes; the rows are the same either way.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from solver.analysis.study import MAX_DEALS, WHAT, StudySpec, parts_dir, run_study

from ..common import LazyProgress, add_run_options, console, print_json, run_options


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "study",
        help="a deal study: table, best declaration and hand features of N seeded deals, one row each",
        description="For N seeded deals, the double-dummy table, the optimiser's best declaration and "
        "hand features, one row per deal, written to Parquet or CSV. Run the same command "
        "again to resume an interrupted study.",
    )
    p.add_argument("--deals", type=int, required=True, help=f"number of deals (at most {MAX_DEALS:,})")
    p.add_argument("--rules", default="twelve", metavar="PRESET", help="ruleset preset (default twelve)")
    p.add_argument(
        "--what", default=",".join(WHAT), help="what to compute: table, declare or both (default both)"
    )
    p.add_argument("--out", required=True, metavar="FILE", help="output file, .parquet or .csv")
    add_run_options(p, seed="1", workers="local worker processes")
    p.add_argument("--json", action="store_true", help="print a JSON summary of the run")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    what = tuple(w.strip() for w in args.what.split(",") if w.strip())
    spec = StudySpec(args.deals, str(args.seed), args.rules, what)
    try:
        # leaving the block takes the bar off the screen before the message below
        with LazyProgress("study") as bar:
            opts = run_options(args, bar)
            result = run_study(args.out, spec, **opts.kwargs("workers", "scheduler", "progress"))
    except KeyboardInterrupt:
        print(
            f"sm358 study: interrupted; finished chunks kept in {parts_dir(Path(args.out))}; "
            "run the same command to resume",
            file=sys.stderr,
        )
        return 130
    if args.json:
        print_json(
            {"out": str(result.out), **spec.to_json(), "computed": result.computed, "resumed": result.resumed}
        )
    else:
        console().print(
            f"{spec.deals} deals written to {result.out} ({result.computed} computed now, "
            f"{result.resumed} from an earlier run)"
        )
    return 0
