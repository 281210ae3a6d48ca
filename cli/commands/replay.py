"""``sm358 replay``: show a game record hand by hand, with suit symbols.

The record is validated and replayed first (:func:`solver.game.records.load`), so what is
shown is a legal match; a bad record ends with one error line naming the hand, the
trick and the card.
"""
from __future__ import annotations

import argparse

from solver.game import records
from solver.cards import Card, Hand
from solver.game.views import MODE_TRUMP
from solver.tricks import trick_winner

from ..common import console, terminal_safe
from ..main import UsageError

SEATS = ("D", "E", "M")
SEAT_WORDS = {"D": "dealer", "E": "eldest", "M": "middle"}


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="show a game record hand by hand")
    p.add_argument("file", metavar="FILE", help="a game record (sm358-match JSON, e.g. from 'simulate --out')")
    p.add_argument("--hand", type=int, metavar="N", help="show only hand N (1-based)")
    p.set_defaults(run=run)


def mode_words(mode: str) -> str:
    if mode in "SHDC":
        return f"{Card.from_string(mode + 'A').pretty()[0]} trumps"
    return {"N": "no trump", "MT": "minimum tricks (MT)", "miz": "misère"}[mode]


def hand_lines(record: dict, ruleset, number: int) -> list[str]:
    h = record["hands"][number - 1]
    names = [terminal_safe(n) for n in record["players"]]
    d = h["dealer"]
    who = {s: names[(d + i) % 3] for i, s in enumerate(SEATS)}
    decl = h["declaration"]
    mode = decl.get("mode") or decl["strain"]
    lines = [f"Hand {number} — dealer {names[d]}: " + ", ".join(f"{s} {who[s]}" for s in SEATS)]
    for s in SEATS:
        target = ruleset.target_of(SEATS.index(s), mode)
        lines.append(f"  {s} {who[s]:<14} {Hand.from_string(h['dealt'][s]).pretty()}   (target {target})")
    if Hand.from_string(h["widow"]):
        lines.append(f"  widow{'':<12}{Hand.from_string(h['widow']).pretty()}")
    if h["exchange"]:
        moves = ", ".join(f"{t['from']}→{t['to']} {Card.from_string(t['card']).pretty()}" for t in h["exchange"])
        lines.append(f"  exchange: {moves}")
    text = f"  {decl['declarer']} {who[decl['declarer']]} declares {mode_words(mode)}"
    if decl.get("discard"):
        text += ", discards " + " ".join(Card.from_string(c).pretty() for c in decl["discard"])
    lines.append(text)
    trump = MODE_TRUMP.get(mode, 4)
    leader = 1 if ruleset.first_leader == "eldest" else int(ruleset.declarer)
    cards = [Card.from_string(c) for c in h["play"]]
    for t in range(len(cards) // 3):
        trick = cards[3 * t:3 * t + 3]
        win = (leader + trick_winner([c.bit.bit_length() - 1 for c in trick], trump)) % 3
        shown = "  ".join(f"{SEATS[(leader + k) % 3]} {c.pretty():<3}" for k, c in enumerate(trick))
        lines.append(f"  {t + 1:>2}. {shown}  → {SEATS[win]}")
        leader = win
    nets = h.get("nets", {})
    lines.append("  tricks: " + ", ".join(
        f"{s} {h['tricks'][s]}" + (f" ({nets[s]:+d})" if s in nets else "") for s in SEATS))
    return lines


def run(args: argparse.Namespace) -> int:
    record = records.load(args.file)
    ruleset = records.ruleset_of(record)
    n = len(record["hands"])
    if args.hand is not None and not 1 <= args.hand <= n:
        raise UsageError(f"--hand {args.hand}: the record has hands 1..{n}")
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
    winner = names[res["winner"]] if res["winner"] is not None else "shared"
    out.print("", markup=False)
    if record.get("truncated"):
        out.print(f"The record is truncated: the match was stopped after {n} hands, before its rules ended it.",
                  markup=False)
    out.print(f"Result: {winner} — {terminal_safe(res.get('detail') or res['reason'])}; totals "
              + ", ".join(f"{names[p]} {res['totals'][p]:+d}" for p in range(3)), markup=False)
    return 0
