"""``sm358 study``: one row per deal (table, best declaration, features) into a file.

The deals are seeded random deals, deals to a spec (``--deal-spec``, docs/dealing.md) or
the deals of files (``--deals-from``: notation lines, hand files, a Parquet/CSV column).

Parquet (``.parquet``) or CSV (``.csv``). Resumable: an interrupted study (Ctrl-C, a
crash, a lost machine) is continued by the same command, which computes only the chunks
not yet written. ``--scheduler`` runs the chunks on a Dask cluster instead of local
processes; the rows are the same either way.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from solver.analysis.study import MAX_DEALS, WHAT, StudyError, StudySpec, parts_dir, run_study
from solver.analysis.study_sources import given_study

from ..common import (
    LazyProgress,
    add_run_options,
    add_time_limit,
    console,
    print_json,
    read_spec_arg,
    run_options,
    stop_code,
    stopped,
)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "study",
        help="a deal study: table, best declaration and hand features of N seeded deals, one row each",
        description="For N seeded deals (dealt to a spec with --deal-spec, or read with --deals-from), "
        "the double-dummy table, the optimiser's best declaration and "
        "hand features, one row per deal, written to Parquet or CSV. Run the same command "
        "again to resume an interrupted study.",
    )
    p.add_argument(
        "--deals",
        type=int,
        default=None,
        help=f"number of deals (at most {MAX_DEALS:,}); with --deals-from the first N (default all)",
    )
    p.add_argument(
        "--deal-spec",
        metavar="SPEC",
        help="deal to this spec, e.g. 'length E:S=5-8; points D:12+' (or a file holding it; docs/dealing.md)",
    )
    p.add_argument(
        "--deals-from",
        nargs="+",
        action="extend",
        metavar="FILE",
        help="study these deals: notation lines, hand files, or a .parquet/.csv column (see --deal-column)",
    )
    p.add_argument("--deal-column", default="deal", metavar="NAME", help="the column of deals (default deal)")
    p.add_argument("--rules", default="twelve", metavar="PRESET", help="ruleset preset (default twelve)")
    p.add_argument(
        "--what", default=",".join(WHAT), help="what to compute: table, declare or both (default both)"
    )
    p.add_argument("--out", required=True, metavar="FILE", help="output file, .parquet or .csv")
    add_run_options(p, seed="1", workers="local worker processes")
    p.add_argument("--json", action="store_true", help="print a JSON summary of the run")
    add_time_limit(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    what = tuple(w.strip() for w in args.what.split(",") if w.strip())
    given = None
    if args.deals_from:
        if args.deal_spec:
            raise StudyError("--deal-spec and --deals-from do not go together: deal, or read deals")
        spec, given = given_study(
            args.deals_from,
            seed=args.seed,
            rules=args.rules,
            what=what,
            deals=args.deals,
            column=args.deal_column,
        )
    else:
        if args.deals is None:
            raise StudyError("give --deals N (or --deals-from FILE)")
        deal_spec = read_spec_arg(args.deal_spec) if args.deal_spec else ""
        spec = StudySpec(args.deals, str(args.seed), args.rules, what, deal_spec=deal_spec)
    try:
        # leaving the block takes the bar off the screen before the message below
        with LazyProgress("study") as bar:
            opts = run_options(args, bar)
            result = run_study(args.out, spec, **opts.kwargs("workers", "scheduler", "progress"), deals=given)
    except KeyboardInterrupt:
        print(
            f"sm358 study: {stopped()}; finished chunks kept in {parts_dir(Path(args.out))}; "
            "run the same command to resume",
            file=sys.stderr,
        )
        return stop_code()
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
