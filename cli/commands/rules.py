"""``sm358 rules``: list the rule presets, or explain one (optionally with options changed)."""

from __future__ import annotations

import argparse
from typing import Any

from solver.errors import RulesError
from solver.game.rules import PRESET_SUMMARIES, PRESETS, get_ruleset
from solver.inputs import option_value

from ..common import print_json


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("rules", help="list the rule presets, or explain one (sm358 rules NAME)")
    p.add_argument("name", nargs="?", help="a preset to explain (e.g. twelve, hungarian)")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="change an option of the preset, e.g. --option double_payment=true (repeatable)",
    )
    p.add_argument("--json", action="store_true", help="print the options as JSON")
    p.set_defaults(run=run)


def parse_option(item: str) -> tuple[str, Any]:
    """``KEY=VALUE`` with VALUE read as JSON when it is JSON (true, 9, null, [9,5,2]), else as text."""
    key, sep, text = item.partition("=")
    if not sep or not key.strip():
        raise RulesError(f"--option {item!r}: expected KEY=VALUE")
    return key.strip(), option_value(text, what=f"--option {key.strip()}", error=RulesError)


def run(args: argparse.Namespace) -> int:
    if args.name is None:
        if args.option:
            raise RulesError(
                "--option needs a preset name, e.g. sm358 rules twelve --option double_payment=true"
            )
        if args.json:
            print_json(
                {
                    name: {"summary": PRESET_SUMMARIES[name], "options": r.to_dict()}
                    for name, r in PRESETS.items()
                }
            )
        else:
            width = max(len(n) for n in PRESETS)
            for name in PRESETS:
                print(f"{name:<{width}}  {PRESET_SUMMARIES[name]}")
        return 0
    ruleset = get_ruleset(args.name, **dict(parse_option(o) for o in args.option))
    if args.json:
        print_json(ruleset.to_dict())
    else:
        print(ruleset.describe())
    return 0
