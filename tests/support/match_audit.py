"""An independent audit of a game record, written with plain Card/Hand objects.

It does not use solver.game.match, solver.tricks or solver.game.records, so the tests that use
it check the match engine against a second, simple reading of the rules: every card
is accounted for at every step, play follows suit, tricks are counted right.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.cards import Card, Hand

SEATS = ("D", "E", "M")
TRUMP = {"S": 0, "H": 1, "D": 2, "C": 3, "N": None, "MT": None, "miz": None}


class AuditError(AssertionError):
    pass


def winner_index(cards: list[Card], trump: int | None) -> int:
    led = cards[0].suit
    best = 0
    for i, c in enumerate(cards[1:], 1):
        b = cards[best]
        if trump is not None and c.suit == trump:
            if b.suit != trump or c.rank > b.rank:
                best = i
        elif c.suit == led and b.suit == led and (trump is None or b.suit != trump) and c.rank > b.rank:
            best = i
    return best


def audit_hand(h: Mapping[str, Any], ruleset, number: int) -> dict:
    """Replay one recorded hand with sets of cards; return facts the tests compare."""
    deck = set(ruleset.deck)
    hands = {s: set(Hand.parse(h["dealt"][s])) for s in SEATS}
    widow = set(Hand.parse(h["widow"])) if h["widow"] else set()
    discards: set[Card] = set()
    played: set[Card] = set()

    def account(step: str) -> None:
        places = [*hands.values(), widow, discards, played]
        total = sum(len(p) for p in places)
        union = set().union(*places)
        if union != deck or total != len(deck):
            raise AuditError(
                f"hand {number}, {step}: {total} cards placed, union {len(union)}, deck {len(deck)}"
            )

    account("deal")
    for s in SEATS:
        if len(hands[s]) != ruleset.hand_size:
            raise AuditError(f"hand {number}: {s} dealt {len(hands[s])} cards")
    for t in h["exchange"]:
        c = Card.parse(t["card"])
        if c not in hands[t["from"]]:
            raise AuditError(f"hand {number}: exchange moves {c} which {t['from']} does not hold")
        hands[t["from"]].remove(c)
        hands[t["to"]].add(c)
        account("exchange")
    decl = h["declaration"]
    d = decl["declarer"]
    hands[d] |= widow
    widow.clear()
    for c in map(Card.parse, decl["discard"]):
        if c not in hands[d]:
            raise AuditError(f"hand {number}: discard {c} not held by the declarer")
        hands[d].remove(c)
        discards.add(c)
    account("declaration")
    for s in SEATS:
        if len(hands[s]) != ruleset.hand_size:
            raise AuditError(f"hand {number}: {s} holds {len(hands[s])} cards at the first lead")
    mode = decl["mode"]
    trump = TRUMP[mode]
    leader = 1 if ruleset.first_leader == "eldest" else SEATS.index(d)
    first_leader = SEATS[leader]
    tricks = {s: 0 for s in SEATS}
    cards = [Card.parse(c) for c in h["play"]]
    if len(cards) != 3 * ruleset.hand_size:
        raise AuditError(f"hand {number}: {len(cards)} cards played")
    for t in range(ruleset.hand_size):
        trick = cards[3 * t : 3 * t + 3]
        for k, c in enumerate(trick):
            seat = SEATS[(leader + k) % 3]
            if c not in hands[seat]:
                raise AuditError(f"hand {number}, trick {t + 1}: {seat} plays {c} not in hand")
            if k and c.suit != trick[0].suit and any(x.suit == trick[0].suit for x in hands[seat]):
                raise AuditError(f"hand {number}, trick {t + 1}: {seat} revokes with {c}")
            if (
                k
                and ruleset.must_ruff
                and trump is not None
                and c.suit not in (trick[0].suit, trump)
                and not any(x.suit == trick[0].suit for x in hands[seat])
                and any(x.suit == trump for x in hands[seat])
            ):
                raise AuditError(f"hand {number}, trick {t + 1}: {seat} fails to ruff with {c}")
            hands[seat].remove(c)
            played.add(c)
            account(f"trick {t + 1}")
        leader = (leader + winner_index(trick, trump)) % 3
        tricks[SEATS[leader]] += 1
    if any(hands[s] for s in SEATS):
        raise AuditError(f"hand {number}: cards left in hand after the play")
    return {"tricks": tricks, "first_leader": first_leader, "mode": mode}
