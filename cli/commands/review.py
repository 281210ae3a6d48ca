"""``sm358 review``: every card of a played hand (or of a whole match) judged double-dummy.

The source is a hand file (``docs/handfile.md``) or a JSON match record. Human output goes
trick by trick with mistakes highlighted; ``--json`` prints the schema of ``docs/review.md``;
``--plot`` and ``--html`` write a picture and a self-contained page. A match is reviewed in
parallel across hands with a progress bar on stderr.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from typing import Any

from solver.analysis.review import Review, ReviewInterrupted, review
from solver.inputs import shown_name, write_atomic

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
from ..main import UsageError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "review",
        help="judge every card of a played hand or match (double dummy)",
        description="Judge every card of a played hand or match: each seat's value before and after "
        "each card, the cost of every mistake and the better cards, the declaration "
        "against the optimiser, and a summary per seat (per player for a match).",
    )
    p.add_argument("file", metavar="FILE", help="a hand file (docs/handfile.md) or a JSON match record")
    p.add_argument("--hand", type=int, metavar="N", help="review only hand N of a match record (1-based)")
    p.add_argument("--json", action="store_true", help="print the review as JSON (docs/review.md)")
    p.add_argument(
        "--plot",
        metavar="OUT.png",
        help="write each seat's value card by card as a PNG (a match: OUT-hN.png per hand)",
    )
    p.add_argument("--html", metavar="OUT.html", help="write a self-contained HTML report")
    p.add_argument(
        "--no-declaration",
        action="store_true",
        help="skip judging the declaration (the optimiser is the slow part of a short review)",
    )
    p.add_argument(
        "--single-dummy",
        action="store_true",
        help="judge each card from its player's view at that moment by sampling "
        "(docs/advice.md), flagging cards that lowered the chance of the target",
    )
    p.add_argument(
        "--threshold",
        type=float,
        default=0.1,
        help="with --single-dummy: flag a card whose chance is this much below the best (default 0.1)",
    )
    add_run_options(p, samples=32, seed=0, workers="worker threads", scope="with --single-dummy: ")
    add_time_limit(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not os.path.exists(args.file):
        raise UsageError(f"{shown_name(args.file)}: no such file")
    if not os.path.isfile(args.file):
        raise UsageError(
            f"{shown_name(args.file)}: not a regular file (a hand file or a JSON match record is)"
        )
    if args.hand is not None and args.hand < 1:
        raise UsageError(f"--hand {args.hand}: hands are numbered from 1")
    run_options(args)  # the shared options, checked before any work
    for out in (args.plot, args.html):
        if out and not os.path.isdir(os.path.dirname(os.path.abspath(out))):
            raise UsageError(f"{shown_name(out)}: the directory does not exist")
    if args.single_dummy:
        return run_single_dummy(args)
    try:
        with LazyProgress("review") as bar:
            result = review(
                args.file,
                hand=args.hand,
                declaration=not args.no_declaration,
                threads=args.workers,
                progress=bar,
                narrowing=lambda hand, interval: bar.note(
                    f"hand {hand}: the best declaration gives {interval} fewest tricks "
                    + ("(proven)" if interval.exact else "(proven so far)")
                ),
            )
    except ReviewInterrupted as stop:
        show_partial(args, stop)
        return stop_code()
    for h in result.hands:
        note_reconstructed("sm358 review", h.record)
    if args.plot:
        write_plots(result, args.plot)
    if args.html:
        from solver.plots.review import review_page_with_plots

        write_atomic(args.html, review_page_with_plots(result))
    if args.json:
        print_json(result.to_dict())
    else:
        show(result)
    return 0


def show_partial(args: argparse.Namespace, stop: ReviewInterrupted) -> None:
    """Ctrl-C or the time limit: what was proven by then (the hands valued, their best cards and
    declarations as far as found), on stdout as asked; no file is written, since a file
    is expected to hold the whole review."""
    for h in stop.review.hands:
        note_reconstructed("sm358 review", h.record)
    if args.json:
        print_json(stop.review.to_dict())
    elif stop.review.hands:
        show(stop.review)
    hands = stop.review.hands
    parts = [f"sm358 review: {stopped()}; {stop.judged} of {stop.total} hand(s) valued card by card"]
    if any(not c.best for h in hands for c in h.cards):
        parts.append("some best cards not found")
    open_hands = [str(h.hand) for h in hands if h.declaration is not None and h.declaration.proven]
    if open_hands:
        which = (
            f"declaration of hand {open_hands[0]}"
            if len(open_hands) == 1
            else f"declarations of hands {', '.join(open_hands)}"
        )
        parts.append(f"the {which} as far as proven")
    unwritten = [shown_name(f) for f in (args.plot, args.html) if f]
    if unwritten:
        parts.append(f"{', '.join(unwritten)} not written")
    print("; ".join(parts), file=sys.stderr)


def write_plots(result: Review, path: str) -> None:
    from solver.plots.review import review_png

    if len(result.hands) == 1:
        write_atomic(path, review_png(result.hands[0]))
        return
    stem, ext = os.path.splitext(path)
    for h in result.hands:
        write_atomic(f"{stem}-h{h.hand}{ext or '.png'}", review_png(h))


def show(result: Review) -> None:
    from solver.analysis.review_text import review_lines

    out = console()
    for line in review_lines(result, markup=out.is_terminal):
        out.print(terminal_safe(line), markup=out.is_terminal)  # player names come from the file


def show_single_dummy(result: Any) -> None:
    """One line per judged card, in 80 columns: the card, its chance of the target, and the
    best card's when that is higher (``!``: the drop is over the threshold)."""
    from solver.analysis.advice_text import percent
    from solver.analysis.review_text import contract_words, pretty_card

    out = console()
    head = (
        f"Single-dummy review ({result.rules}, {contract_words(result.contract)}): "
        f"{len(result.cards)} cards judged from their player's view on {result.samples} "
        f"sampled layouts each, {result.forced} forced. P: the chance of the seat's target "
        f"after the card; ! marks a card that lowered it by more than {percent(result.threshold)} "
        "against the best card." + (" PARTIAL: stopped early." if result.partial else "")
    )
    for line in textwrap.wrap(terminal_safe(head), 80):
        out.print(line, markup=False)
    for c in result.cards:
        mark = "!" if c.flagged else " "
        better = f"   best {pretty_card(c.best)} P {percent(c.p_best)}" if c.drop > 0 else ""
        out.print(
            f"{mark} {c.trick:2d}.{c.card_index} {c.seat} {pretty_card(c.card):<3} P {percent(c.p_played):>4}{better}",
            markup=False,
        )


def run_single_dummy(args: argparse.Namespace) -> int:
    """``--single-dummy``: a hand file judged card by card from each player's view."""
    from solver.analysis.advice import MAX_SAMPLES
    from solver.analysis.single_dummy import played_hand, single_dummy_review

    run_options(args, max_samples=MAX_SAMPLES)
    for flag in ("plot",):
        if getattr(args, flag):
            raise UsageError(f"--{flag} does not go with --single-dummy")
    record = played_hand(args.file, args.hand, how="--hand N")  # a hand file, or --hand N of a match record
    note_reconstructed("sm358 review", record)
    with LazyProgress("single-dummy review") as bar:
        opts = run_options(args, bar).kwargs("samples", "seed", "workers", "scheduler", "progress")
        result = single_dummy_review(record, threshold=args.threshold, **opts)
    if args.html:
        from solver.analysis.review_html import single_dummy_page

        write_atomic(args.html, single_dummy_page(result, record))
    if args.json:
        print_json(result.to_dict())
    else:
        show_single_dummy(result)
    if result.partial:
        print(f"sm358 review: {stopped()}: the judgements are partial", file=sys.stderr)
        return stop_code()
    return 0
