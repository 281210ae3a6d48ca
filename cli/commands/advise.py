"""``sm358 advise``: single-dummy advice by simulation — the best trump, discard or card from
what one seat can see, with 95% intervals; on this machine's cores or a Dask cluster.

Declaration: ``sm358 advise --hand "<16 cards>" --widow "<4 cards>"``. Play:
``sm358 advise --hand "<hand at the start of play>" --seat E --mode S --played "..."``,
or ``sm358 advise FILE --at 5.2`` from a hand file (trick 5, before its second card).
Ctrl-C prints what was estimated so far, marked partial, and exits 130.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rich.table import Table

from solver.analysis.advice import MAX_SAMPLES, Advice, advise_declaration, advise_play
from solver.cards import SUIT_CHARS, Card, parse_cards
from solver.deal import Seat
from solver.errors import NotationError
from solver.game.handfile import load_hand
from solver.game.modes import Mode
from solver.game.view import View
from solver.inputs import atomic_write_path

from ..common import LazyProgress, console, note_reconstructed, print_json

SUITS = SUIT_CHARS


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "advise",
        help="single-dummy advice: best trump, discard or card from one seat's view (simulation)",
        description="Sample the cards a seat cannot see, judge every candidate double dummy on the "
        "same samples, and report each candidate's chance of reaching the target and "
        "its mean tricks with 95%% intervals. See docs/advice.md.",
    )
    p.add_argument("file", nargs="?", metavar="FILE", help="a hand file to cut with --at (play advice)")
    p.add_argument("--at", metavar="T.K", help="with FILE: advise the K-th card of trick T")
    p.add_argument("--hand", help="the seat's cards (declaration: as dealt; play: at the start of play)")
    p.add_argument("--widow", help="the widow, when the rules show it to the declarer")
    p.add_argument("--seat", help="the seat asking (default: the rules' declarer)")
    p.add_argument("--rules", default="twelve", metavar="PRESET", help="ruleset preset (default twelve)")
    p.add_argument("--mode", help="play advice: the declared mode (S H D C N MT miz)")
    p.add_argument("--played", default="", help="play advice: every card played so far, in order")
    p.add_argument("--discarded", default="", help="play advice: the seat's own discards (declarer)")
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
    p.add_argument("--samples", type=int, default=200, help="sampled layouts (default 200)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sampling (default 0)")
    p.add_argument("--workers", type=int, default=None, help="local worker threads (default: every core)")
    p.add_argument("--scheduler", metavar="ADDR", help="run on a Dask cluster, e.g. tcp://HOST:8786")
    p.add_argument("--top", type=int, default=10, help="candidates shown (default 10)")
    p.add_argument("--json", action="store_true", help="print the advice as JSON (schema in docs/advice.md)")
    p.add_argument("--plot", metavar="OUT.png", help="write a bar chart of the candidates")
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


def _view(args: argparse.Namespace) -> View:
    if args.file is not None:
        return _view_from_file(args)
    if args.at:
        raise NotationError("--at needs a hand FILE")
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
    record = load_hand(args.file)
    note_reconstructed("sm358 advise", record)
    view = View.from_hand_record(record, int(trick), int(card) if sep else 1)
    if args.seat and Seat.parse(args.seat) != view.seat:
        raise NotationError(f"at {args.at} {view.seat.name} is to play, not {args.seat}")
    for name in ("hand", "widow", "mode", "played", "discarded", "strain", "discard"):
        if getattr(args, name):
            raise NotationError(f"--{name} does not go with a hand FILE: the file says it")
    return view


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.samples <= MAX_SAMPLES:
        raise NotationError(f"--samples must be from 1 to {MAX_SAMPLES:,}, got {args.samples}")
    if args.workers is not None and args.workers < 1:
        raise NotationError(f"--workers must be at least 1, got {args.workers}")
    view = _view(args)
    with LazyProgress("advise") as bar:
        if view.stage == "declaration":
            choice = None
            if args.strain:
                choice = (args.strain, args.discard or "")
            elif args.discard:
                raise NotationError("--discard needs --strain")
            advice = advise_declaration(
                view,
                samples=args.samples,
                seed=args.seed,
                workers=args.workers,
                scheduler=args.scheduler,
                choice=choice,
                progress=bar,
            )
        else:
            if args.strain or args.discard:
                raise NotationError("--strain/--discard score a declaration; this view is in the play")
            advice = advise_play(
                view,
                samples=args.samples,
                seed=args.seed,
                workers=args.workers,
                scheduler=args.scheduler,
                progress=bar,
            )
    if args.plot:
        _write_plot(advice, args.plot, args.top)
    if args.json:
        print_json(advice.to_dict())
    else:
        show(advice, args.top)
    if advice.partial:
        print("sm358 advise: interrupted: the estimates are partial", file=sys.stderr)
        return 130
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


def _pretty_label(c: Any) -> tuple[str, str]:
    if c.card is not None:
        return Card.parse(c.card).pretty(), ""
    mode = {"N": "NT"}.get(c.mode, c.mode)
    trump = Mode.parse(c.mode).trump
    if trump is not None:
        mode = trump.symbol
    if c.discard is None:
        return mode, "(after the widow)" if c.samples else ""
    cards = sorted(parse_cards(" ".join(c.discard)), key=lambda x: (x.suit, -x.rank))
    return mode, " ".join(x.pretty() for x in cards)


def show(advice: Advice, top: int) -> None:
    out = console()
    pos = advice.position
    if advice.kind == "declaration":
        out.print(
            f"Declarer {advice.seat} ({advice.rules}), target {advice.target}: hand {pos.get('hand')}"
            + (f", widow {pos['widow']}" if "widow" in pos else "")
        )
    else:
        out.print(
            f"{advice.seat} to play trick {pos['trick']} in {pos['mode']} ({advice.rules}); "
            f"tricks so far {pos['tricks']}"
        )
    rec = advice.recommended
    if rec is not None:
        mode, extra = _pretty_label(rec)
        out.print(f"Recommended: {mode} {extra}".rstrip())
    title = f"{advice.samples} samples, seed {advice.seed}" + ("  PARTIAL" if advice.partial else "")
    table = Table(title=title)
    if advice.kind == "declaration":
        table.add_column("strain")
        table.add_column("discard")
    else:
        table.add_column("card")
    for name in ("samples", "P(target)", "95% CI", "mean tricks", "95% CI"):
        table.add_column(name, justify="right")
    for c in advice.candidates[:top]:
        d = c.to_dict()
        mode, extra = _pretty_label(c)
        cells = [mode, extra] if advice.kind == "declaration" else [mode]
        p = "-" if d["p_target"] is None else f"{d['p_target']:.3f}"
        ci = f"{d['p_ci'][0]:.2f}-{d['p_ci'][1]:.2f}"
        mean = "-" if d["mean_tricks"] is None else f"{d['mean_tricks']:.2f}"
        mci = "-" if d["mean_ci"][0] is None else f"{d['mean_ci'][0]:.2f}-{d['mean_ci'][1]:.2f}"
        table.add_row(*cells, str(c.samples), p, ci, mean, mci)
    out.print(table)
    if advice.kind == "declaration":
        rounds = ", ".join(f"{c} on {n}" for c, n in advice.rounds)
        out.print(f"Candidates judged per round (successive halving): {rounds}")


__all__ = ["add_parser", "run"]
