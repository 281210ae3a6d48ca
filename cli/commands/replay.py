"""``sm358 replay``: show a game record hand by hand, with suit symbols.

The record is validated and replayed first (:func:`solver.game.records.load`), so what is
shown is a legal match; a bad record ends with one error line naming the hand, the
trick and the card.
"""

from __future__ import annotations

import argparse
import sys

from solver.cards import Card, Hand
from solver.deal import SEAT_NAMES, Seat
from solver.game import records
from solver.game.handfile import hand_from_record
from solver.game.records import MatchRecord
from solver.modes import Mode
from solver.tricks import trick_winner

from ..common import console, terminal_safe
from ..main import UsageError

SEAT_WORDS = {s.name: s.word for s in Seat}


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="show a game record hand by hand")
    p.add_argument(
        "file", metavar="FILE", help="a game record (sm358-match JSON, e.g. from 'simulate --out')"
    )
    p.add_argument("--hand", type=int, metavar="N", help="show only hand N (1-based)")
    p.add_argument(
        "--as-hand-file",
        action="store_true",
        help="print hand N as a hand file (docs/handfile.md) instead, e.g. for 'sm358 review'",
    )
    p.set_defaults(run=run)


def mode_words(mode: Mode | str) -> str:
    trump = Mode(mode).trump
    if trump is not None:
        return f"{trump.symbol} trumps"
    return {Mode.N: "no trump", Mode.MT: "minimum tricks (MT)", Mode.miz: "misère"}[Mode(mode)]


def hand_lines(record: MatchRecord, ruleset, number: int) -> list[str]:
    h = record["hands"][number - 1]
    names = [terminal_safe(n) for n in record["players"]]
    d = h["dealer"]
    who = {s: names[(d + i) % 3] for i, s in enumerate(SEAT_NAMES)}
    decl = h["declaration"]
    mode = decl.get("mode") or decl["strain"]
    lines = [f"Hand {number} — dealer {names[d]}: " + ", ".join(f"{s} {who[s]}" for s in SEAT_NAMES)]
    for s in SEAT_NAMES:
        target = ruleset.target_of(SEAT_NAMES.index(s), mode)
        lines.append(f"  {s} {who[s]:<14} {Hand.parse(h['dealt'][s]).pretty()}   (target {target})")
    if Hand.parse(h["widow"]):
        lines.append(f"  widow{'':<12}{Hand.parse(h['widow']).pretty()}")
    if h["exchange"]:
        moves = ", ".join(f"{t['from']}→{t['to']} {Card.parse(t['card']).pretty()}" for t in h["exchange"])
        lines.append(f"  exchange: {moves}")
    text = f"  {decl['declarer']} {who[decl['declarer']]} declares {mode_words(mode)}"
    if decl.get("discard"):
        text += ", discards " + " ".join(Card.parse(c).pretty() for c in decl["discard"])
    lines.append(text)
    trump = int(Mode(mode).strain)
    leader = int(ruleset.opening_leader())
    cards = [Card.parse(c) for c in h["play"]]
    for t in range(len(cards) // 3):
        trick = cards[3 * t : 3 * t + 3]
        win = (leader + trick_winner([c.bit.bit_length() - 1 for c in trick], trump)) % 3
        shown = "  ".join(f"{SEAT_NAMES[(leader + k) % 3]} {c.pretty():<3}" for k, c in enumerate(trick))
        lines.append(f"  {t + 1:>2}. {shown}  → {SEAT_NAMES[win]}")
        leader = win
    nets = h.get("nets", {})
    lines.append(
        "  tricks: "
        + ", ".join(f"{s} {h['tricks'][s]}" + (f" ({nets[s]:+d})" if s in nets else "") for s in SEAT_NAMES)
    )
    return lines


def run(args: argparse.Namespace) -> int:
    record = records.load(args.file)
    ruleset = records.ruleset_of(record)
    n = len(record["hands"])
    if args.hand is not None and not 1 <= args.hand <= n:
        raise UsageError(f"--hand {args.hand}: the record has hands 1..{n}")
    if args.as_hand_file:
        if args.hand is None:
            raise UsageError("--as-hand-file needs --hand N: a hand file holds one hand")
        sys.stdout.write(hand_from_record(record, args.hand).to_text())
        return 0
    out = console()
    names = [terminal_safe(name) for name in record["players"]]  # names come from the file
    preset = terminal_safe(record["rules"]["preset"])
    out.print(f"{preset} match: {', '.join(names)} (clockwise), {n} hands", markup=False)
    wanted = [args.hand] if args.hand is not None else range(1, n + 1)
    for number in wanted:
        out.print("", markup=False)
        for line in hand_lines(record, ruleset, number):
            out.print(line, markup=False)
    res = record["result"]
    assert res is not None  # records.load accepts finished matches only
    winner = names[res["winner"]] if res["winner"] is not None else "shared"
    out.print("", markup=False)
    if record.get("truncated"):
        out.print(
            f"The record is truncated: the match was stopped after {n} hands, before its rules ended it.",
            markup=False,
        )
    out.print(
        f"Result: {winner} — {terminal_safe(res.get('detail') or res['reason'])}; totals "
        + ", ".join(f"{names[p]} {res['totals'][p]:+d}" for p in range(3)),
        markup=False,
    )
    return 0
