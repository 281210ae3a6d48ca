"""``sm358 rules``: list the rule presets, or explain one in plain words."""
from __future__ import annotations

import argparse

from solver.rules import PRESET_SUMMARIES, PRESETS, get_ruleset

from ..common import print_json


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rules", help="list the rule presets, or explain one (sm358 rules NAME)")
    p.add_argument("name", nargs="?", help="a preset to explain (e.g. twelve, hungarian)")
    p.add_argument("--json", action="store_true", help="print the options as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.name is None:
        if args.json:
            print_json({name: {"summary": PRESET_SUMMARIES[name], "options": r.to_dict()}
                        for name, r in PRESETS.items()})
        else:
            width = max(len(n) for n in PRESETS)
            for name in PRESETS:
                print(f"{name:<{width}}  {PRESET_SUMMARIES[name]}")
        return 0
    ruleset = get_ruleset(args.name)
    if args.json:
        print_json(ruleset.to_dict())
    else:
        print(ruleset.describe())
    return 0
