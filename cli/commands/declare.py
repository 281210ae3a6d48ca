"""``sm358 declare``: the exact best trump and discard for the declarer, and every tie."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from typing import Any

from rich.table import Table

from solver.analysis.advice_text import (
    declaration_headline,
    interrupted_declaration,
    optimum_proven,
    target_headline,
)
from solver.cards import Card
from solver.deal import Deal, Seat
from solver.declare import Choice, Declaration, declare, declare_target
from solver.declare.optimiser import DeclarationInterrupted, Narrowing
from solver.engine.interval import Interval
from solver.errors import RulesError, UsageError
from solver.game.rules import get_ruleset

from ..common import LazyProgress, add_time_limit, console, print_json, read_deal, stop_code, stopped


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "declare",
        help="best strain and discard for the declarer (exact, double dummy)",
        description="Find the declarer's best strain and discard over every discard set, "
        "and list every choice that reaches it.",
    )
    p.add_argument("deal", metavar="DEAL", help="deal notation with a widow, or a file holding one")
    p.add_argument(
        "--rules",
        metavar="PRESET",
        help="take the declarer, first leader, strains (its trump suits and NT), blind "
        "discard and must-ruff from a ruleset preset, and show the declarer's target",
    )
    p.add_argument("--declarer", default=None, help="seat that takes the widow (default D, or the rules')")
    p.add_argument(
        "--leader", default=None, help="seat that leads the first trick (default E, or the rules')"
    )
    p.add_argument(
        "--strains",
        default=None,
        help="strains to consider, e.g. SHDCN (default SHDC; with --misere N, the strain MT and miz are played in)",
    )
    p.add_argument(
        "--blind",
        action="store_true",
        default=None,
        help="discard from the own hand before taking the widow (rule 002)",
    )
    p.add_argument(
        "--misere",
        action="store_true",
        help="the declarer wants the fewest tricks, in no trump as MT and miz are played (unless --strains)",
    )
    p.add_argument(
        "--must-ruff", action="store_true", default=None, help="a player void in the led suit must trump"
    )
    p.add_argument(
        "--reach",
        metavar="TRICKS",
        help="only find a strain and discard that reach TRICKS (at least; with --misere at most), "
        "or show that none does: one null-window search a candidate, far faster than the "
        "optimum; 'rules' takes the declarer's target under --rules",
    )
    p.add_argument(
        "--no-ties",
        action="store_true",
        help="with --misere: stop once the optimum is proven and list the choices proven to "
        "reach it, not every choice that ties it (settling the ties can take many times as long)",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    add_time_limit(p)
    p.set_defaults(run=run)


def settings(args: argparse.Namespace) -> dict[str, Any]:
    """The optimiser's arguments: explicit flags first, then the ruleset, then the defaults."""
    out = {
        "declarer": "D",
        "leader": "E",
        "strains": None,  # declare()'s default: the trump suits, or no trump in misère
        "blind": False,
        "must_ruff": False,
    }
    if args.rules:
        rs = get_ruleset(args.rules)
        if args.misere and rs.misere_mode is None:
            raise RulesError(f"{rs.name} has no fewest-tricks mode (MT or miz) for --misere")
        out.update(rs.optimiser_question(misere=args.misere))
    for key in ("declarer", "leader", "strains", "blind", "must_ruff"):
        value = getattr(args, key)
        if value is not None:
            out[key] = value
    return out


def run(args: argparse.Namespace) -> int:
    deal = read_deal(args.deal)
    opts = settings(args)
    if args.reach is not None:
        if args.no_ties:
            raise UsageError("--no-ties does not go with --reach (which asks for one choice already)")
        return reach(args, deal, opts)
    try:
        with LazyProgress("declare") as bar:
            narrowing = _interval_notes(bar, ties=not args.no_ties) if args.misere else None
            result = declare(
                deal, misere=args.misere, progress=bar, narrowing=narrowing, ties=not args.no_ties, **opts
            )
    except DeclarationInterrupted as stop:
        if args.json:
            print_json(_partial_json(stop))
        print(f"sm358 declare: {interrupted_declaration(stop, stopped())}", file=sys.stderr)
        return stop_code()
    target = rules_target(args, opts)
    if args.json:
        data = result.to_dict()
        data["headline"] = declaration_headline(result)
        if args.rules:
            data["rules"] = args.rules
            data["target"] = target
        print_json(data)
    else:
        show(result, target)
    return 0


def _partial_json(stop: DeclarationInterrupted) -> dict[str, Any]:
    """A stopped declaration for programs: the best choice proven so far with its tricks,
    and in misère the optimum's interval as far as proven."""
    best = None if stop.best is None else stop.best.to_dict() | {"tricks": stop.tricks}
    optimum = None if stop.interval is None else [stop.interval.lo, stop.interval.hi]
    return {
        "partial": True,
        "misere": stop.misere,
        "candidates": stop.total,
        "settled": stop.done,
        "best": best,
        "optimum": optimum,
    }


def _interval_notes(bar: LazyProgress, ties: bool) -> Narrowing:
    """A misère declaration can run for long: say what it has proven as it narrows, and
    the choice to play as soon as the optimum is proven (the ties may take far longer;
    without them the answer follows at once)."""

    def note(interval: Interval, best: Choice | None) -> None:
        if interval.exact and best is not None:
            if ties:
                bar.note(optimum_proven(best, interval.lo, misere=True))
        else:
            bar.note(f"optimum: {interval} tricks (proven so far)")

    return note


def rules_target(args: argparse.Namespace, opts: dict[str, Any]) -> int | None:
    """The declarer's target under ``--rules`` (a maximum with ``--misere``), or None."""
    if not args.rules:
        return None
    rs = get_ruleset(args.rules)
    mode = rs.misere_mode if args.misere else None
    return rs.target_of(Seat.parse(opts["declarer"]), mode)


def reach(args: argparse.Namespace, deal: Deal, opts: dict[str, Any]) -> int:
    """``--reach``: a strain and discard that reach the tricks asked for, or that none does."""
    if args.reach == "rules":
        tricks = rules_target(args, opts)
        if tricks is None:
            raise UsageError("--reach rules needs --rules PRESET (the declarer's target comes from it)")
    else:
        try:
            tricks = int(args.reach)
        except ValueError:
            raise UsageError(f"--reach: expected a number of tricks or 'rules', got {args.reach!r}") from None
    with LazyProgress("declare") as bar:
        answer = declare_target(deal, tricks, misere=args.misere, progress=bar, **opts)
    if args.json:
        print_json({**answer.to_dict(), "headline": target_headline(answer)})
        return 0
    out = console()
    out.print(target_headline(answer))
    out.print(
        f"{answer.candidates_asked:,} of {answer.classes:,} candidates asked, "
        f"{answer.candidates_searched:,} of them with a search"
    )
    return 0


def _pretty(cards: Iterable[Card]) -> str:
    """Cards with suit symbols in hand order (spades first, high to low)."""
    return " ".join(c.pretty() for c in sorted(cards, key=lambda c: (c.suit, -c.rank)))


def show(result: Declaration, target: int | None = None) -> None:
    """Human output: the held cards, the best value per strain, the optimal choices."""
    out = console()
    out.print(f"Declarer {result.declarer} holds {len(result.held)} cards: {result.held.pretty()}")
    goal = "fewest tricks (misère)" if result.misere else "most tricks"
    per = Table(title=f"Best value per strain ({goal})")
    for strain in result.by_strain:
        per.add_column(strain.symbol, justify="right")
    per.add_row(*(str(v) for v in result.by_strain.values()))
    if target is not None:
        word = "at most" if result.misere else "at least"
        made = [
            t.symbol for t, v in result.by_strain.items() if (v <= target if result.misere else v >= target)
        ]
        per.caption = f"target: {word} {target} tricks; reached in {' '.join(made) or 'no strain'}"
    out.print(per)
    choices = Table(title=f"Optimal choices: {result.tricks} tricks")
    if not result.complete:
        choices.caption = "the choices proven optimal; others may tie (--no-ties)"
    choices.add_column("strain")
    choices.add_column("discard (one of the equivalent sets)")
    choices.add_column("sets", justify="right")
    for c in result.optimal:
        choices.add_row(c.strain.symbol, _pretty(c.discard), str(c.count))
    out.print(choices)
    total_sets = sum(c.count for c in result.optimal)
    rec = result.recommended
    if rec is not None:
        out.print(f"Recommended: {declaration_headline(result)}")
        of = "optimal choice" if result.complete else "choice proven optimal"
        out.print(f"(the first {of} in strain order ♠ ♥ ♦ ♣ NT, then the lowest discard)")
    out.print(
        f"{len(result.optimal)} class(es), {total_sets} discard set(s); "
        f"{result.candidates_searched} of {result.classes} candidates needed a search"
    )
