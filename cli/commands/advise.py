"""``sm358 advise``: single-dummy advice by simulation — the best trump, discard or card from
what one seat can see, with 95% intervals; on this machine's cores or a Dask cluster.

Declaration: ``sm358 advise --hand "<16 cards>" --widow "<4 cards>"``. Play:
``sm358 advise --hand "<hand at the start of play>" --seat E --mode S --played "..."``,
or ``sm358 advise FILE --at 5.2`` from a hand file (trick 5, before its second card), or
``sm358 advise MATCH.json --hand-number 2 --at 5.2`` from a match record.
Ctrl-C prints what was estimated so far, marked partial, and exits 130 (``--time-limit``: 124).
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import Any

from rich import box
from rich.markup import escape
from rich.table import Table

from solver.analysis.advice import MAX_SAMPLES, Advice, advise_declaration, advise_play
from solver.analysis.advice_text import (
    P_TARGET_MEANING,
    choice_cell,
    headline,
    percent,
    span,
    target_mark,
)
from solver.analysis.review_text import contract_words
from solver.analysis.single_dummy import played_hand
from solver.cards import SUIT_CHARS
from solver.deal import Seat
from solver.errors import NotationError, SolverError
from solver.game.knowledge import View
from solver.inputs import atomic_write_path
from solver.modes import Mode

from ..common import (
    LazyProgress,
    add_run_options,
    add_time_limit,
    console,
    note_reconstructed,
    print_json,
    run_options,
    stop_code,
    stopped,
    terminal_safe,
)

SUITS = SUIT_CHARS
WIDTH = 80  # human output fits a standard terminal


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "advise",
        help="single-dummy advice: best trump, discard or card from one seat's view (simulation)",
        description="Sample the cards a seat cannot see, judge every candidate double dummy on the "
        "same samples, and report each candidate's chance of reaching the target and "
        "its mean tricks with 95% intervals. See docs/advice.md.",
    )
    p.add_argument("file", nargs="?", metavar="FILE", help="a hand file to cut with --at (play advice)")
    p.add_argument("--at", metavar="T.K", help="with FILE: advise the K-th card of trick T")
    p.add_argument(
        "--hand-number",
        type=int,
        metavar="N",
        help="with a match record FILE (simulate --out): the hand of the match to cut with --at",
    )
    p.add_argument("--hand", help="the seat's cards (declaration: as dealt; play: at the start of play)")
    p.add_argument("--widow", help="the widow, when the rules show it to the declarer")
    p.add_argument("--seat", help="the seat asking (default: the rules' declarer)")
    p.add_argument("--rules", default="twelve", metavar="PRESET", help="ruleset preset (default twelve)")
    p.add_argument("--mode", help="play advice: the declared mode (S H D C N MT miz)")
    p.add_argument("--played", default="", help="play advice: every card played so far, in order")
    p.add_argument("--discarded", default="", help="play advice: the seat's own discards (declarer)")
    p.add_argument(
        "--modes-used",
        metavar="MODES",
        help="declaration under a hungarian-18 match: the modes this declarer has already named "
        "(e.g. S,MT); they are left out",
    )
    p.add_argument("--strain", help="declaration: also score this strain/mode (with --discard)")
    p.add_argument("--discard", help="declaration: the discard to score with --strain")
    p.add_argument(
        "--holds",
        action="append",
        default=[],
        metavar="SEAT:CARDS",
        help="a seat is known to hold these cards, e.g. E:SA,HK (repeatable)",
    )
    p.add_argument(
        "--length",
        action="append",
        default=[],
        metavar="SEAT:SUIT=LO-HI",
        help="a seat's length in a suit, e.g. M:H=0-2 (repeatable)",
    )
    add_run_options(p, samples=200, seed=0, workers="local worker threads")
    p.add_argument("--top", type=int, default=10, help="candidates shown (default 10)")
    p.add_argument("--json", action="store_true", help="print the advice as JSON (schema in docs/advice.md)")
    p.add_argument("--plot", metavar="OUT.png", help="write a bar chart of the candidates")
    add_time_limit(p)
    p.set_defaults(run=run)


def _constraints(args: argparse.Namespace) -> dict[str, Any]:
    held: dict[str, str] = {}
    for item in args.holds:
        seat, sep, cards = item.partition(":")
        if not sep or not cards.strip():
            raise NotationError(f"--holds {item!r}: expected SEAT:CARDS, e.g. E:SA,HK")
        held[seat.strip()] = " ".join(cards.replace(",", " ").split())
    lengths: dict[str, dict[str, tuple[int, int]]] = {}
    for item in args.length:
        try:
            seat, rest = item.split(":", 1)
            suit, span = rest.split("=", 1)
            lo, _, hi = span.partition("-")
            if suit.strip().upper() not in SUITS or len(suit.strip()) != 1:
                raise ValueError
            rng = (int(lo), int(hi or lo))
        except ValueError:
            raise NotationError(f"--length {item!r}: expected SEAT:SUIT=LO-HI, e.g. M:H=0-2") from None
        lengths.setdefault(seat.strip(), {})[suit.strip().upper()] = rng
    out: dict[str, Any] = {}
    if held:
        out["held"] = held
    if lengths:
        out["lengths"] = lengths
    return out


def _modes_left(view: View, used_text: str | None) -> list[str] | None:
    """The modes a hungarian-18 declarer may still name, from ``--modes-used S,MT``."""
    if used_text is None:
        return None
    rules = view.rules
    if rules.match_end != "hungarian-18":
        raise NotationError(
            f"--modes-used: under {rules.name} every mode stays allowed (only a hungarian-18 match "
            "uses each mode up)"
        )
    used = [str(Mode.parse(m)) for m in used_text.replace(",", " ").split()]
    try:
        left = [str(m) for m in rules.allowed_modes(used)]
    except SolverError as exc:
        raise NotationError(f"--modes-used {used_text!r}: {exc}") from None
    if not left:
        raise NotationError(f"--modes-used {used_text!r}: every mode is used; nothing is left to name")
    return left


def _view(args: argparse.Namespace) -> View:
    if args.file is not None:
        return _view_from_file(args)
    if args.at:
        raise NotationError("--at needs a hand FILE (or a match record with --hand-number)")
    if args.hand_number is not None:
        raise NotationError("--hand-number needs a match record FILE")
    if not args.hand:
        raise NotationError("give --hand (and --widow), or a hand FILE with --at")
    constraints = _constraints(args)
    if args.mode:
        if not args.seat:
            raise NotationError("play advice needs --seat (the seat to move)")
        return View.for_play(
            args.hand,
            mode=args.mode,
            seat=args.seat,
            rules=args.rules,
            played=args.played or (),
            discard=args.discarded or (),
            **constraints,
        )
    if args.played:
        raise NotationError("--played needs --mode (the declared mode)")
    return View.for_declaration(args.hand, widow=args.widow, seat=args.seat, rules=args.rules, **constraints)


def _view_from_file(args: argparse.Namespace) -> View:
    if not args.at:
        raise NotationError("a hand FILE needs --at T.K (trick T, card K)")
    trick, sep, card = args.at.partition(".")
    if not trick.isdigit() or (sep and not card.isdigit()):
        raise NotationError(f"--at {args.at!r}: expected T.K, e.g. 5.2 for trick 5, second card")
    record = played_hand(
        args.file, args.hand_number, how="--hand-number N"
    )  # a hand file, or hand N of a match record
    note_reconstructed("sm358 advise", record)
    view = View.from_hand_record(record, int(trick), int(card) if sep else 1, **_constraints(args))
    if args.seat and Seat.parse(args.seat) != view.seat:
        raise NotationError(f"at {args.at} {view.seat.name} is to play, not {args.seat}")
    for name in ("hand", "widow", "mode", "played", "discarded", "strain", "discard"):
        if getattr(args, name):
            raise NotationError(f"--{name} does not go with a hand FILE: the file says it")
    return view


def run(args: argparse.Namespace) -> int:
    run_options(args, max_samples=MAX_SAMPLES)  # checked before the view is built
    view = _view(args)
    with LazyProgress("advise") as bar:
        opts = run_options(args, bar).kwargs("samples", "seed", "workers", "scheduler", "progress")
        if view.stage == "declaration":
            choice = None
            if args.strain:
                choice = (args.strain, args.discard or "")
            elif args.discard:
                raise NotationError("--discard needs --strain")
            advice = advise_declaration(view, modes=_modes_left(view, args.modes_used), choice=choice, **opts)
        else:
            if args.strain or args.discard or args.modes_used:
                raise NotationError(
                    "--strain/--discard/--modes-used go with a declaration; this view is in the play"
                )
            advice = advise_play(view, **opts)
    if args.plot:
        _write_plot(advice, args.plot, args.top)
    if args.json:
        print_json(advice.to_dict())
    else:
        show(advice, args.top)
    if advice.partial:
        print(f"sm358 advise: {stopped()}: the estimates are partial", file=sys.stderr)
        return stop_code()
    return 0


def _write_plot(advice: Advice, path: str, top: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from solver.plots import plot_advice

    ax = plot_advice(advice, top=top)
    fig = ax.figure
    fig.tight_layout()
    try:
        with atomic_write_path(path) as tmp:
            fig.savefig(tmp, format="png")
    finally:
        plt.close(fig)


def show(advice: Advice, top: int) -> None:
    """The advice for a player: one sentence first, then the candidates in 80 columns."""
    out = console()
    say = _printer(out)
    say(headline(advice))
    pos = advice.position
    layouts = f"{advice.samples} layouts sampled, seed {advice.seed}" + (
        " (PARTIAL: stopped early)" if advice.partial else ""
    )
    if advice.kind == "declaration":
        widow = f", widow {pos['widow']}" if "widow" in pos else ""
        say(f"Declarer {advice.seat} ({advice.rules}): hand {pos.get('hand')}{widow}; {layouts}.")
    else:
        so_far = ", ".join(f"{s} {n}" for s, n in pos["tricks"].items())
        mode = contract_words(pos["mode"])
        say(
            f"{advice.seat} to play to trick {pos['trick']} in {mode} ({advice.rules}); "
            f"tricks so far {so_far}; {layouts}."
        )
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("card" if advice.kind == "play" else "name, discard", no_wrap=True)
    table.add_column("target", justify="right", no_wrap=True)
    table.add_column("n", justify="right", no_wrap=True)
    table.add_column("P(target)", justify="right", no_wrap=True)
    table.add_column("95% CI", justify="right", no_wrap=True)
    table.add_column("tricks", justify="right", no_wrap=True)
    table.add_column("95% CI", justify="right", no_wrap=True)
    for c in advice.candidates[:top]:
        d = c.to_dict()
        p = "-" if d["p_target"] is None else percent(d["p_target"])
        ci = "-" if not c.samples else span(*d["p_ci"])
        mean = "-" if d["mean_tricks"] is None else f"{d['mean_tricks']:.1f}"
        mci = "-" if d["mean_ci"][0] is None else f"{d['mean_ci'][0]:.1f}-{d['mean_ci'][1]:.1f}"
        mark = " *" if c.user else ""
        table.add_row(
            escape(choice_cell(c)) + mark,
            target_mark(c.target, c.minimising),
            str(c.samples),
            p,
            ci,
            mean,
            mci,
        )
    out.print(table, width=WIDTH)
    say(P_TARGET_MEANING)
    if advice.kind == "declaration":
        rounds = ", ".join(f"{c} on {n}" for c, n in advice.rounds)
        say(f"Candidates judged per round (successive halving): {rounds}; a mean needs every layout.")


def _printer(out: Any) -> Any:
    """Print plain text (no markup: names come from files) wrapped to 80 columns."""

    def say(text: str) -> None:
        for line in textwrap.wrap(terminal_safe(text), WIDTH, break_on_hyphens=False) or [""]:
            out.print(line, markup=False)

    return say


__all__ = ["add_parser", "run"]
