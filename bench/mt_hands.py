"""Hands that a bundled declarer chose to play in MT: the misère positions players meet.

Why: on random deals the misère value lies far from any target (the seat holds high cards
it cannot shed), while a declarer names MT on a hand it expects to keep low, so the value
lies near the target, where the proofs are longest. The misère targets are measured on
both. The hands come from seeded ``hungarian`` matches between heuristic players, in
match and hand order, so every machine measures the same positions: the declarer's
position at the first lead, after the exchange and the discard.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from solver.game.handfile import HandRecord, hand_from_record
from solver.game.match import Match
from solver.game.rules import get_ruleset
from solver.players import get_player

#: Matches searched for MT hands before giving up (a match has 18 hands, about one in
#: six of them played in MT).
MAX_MATCHES = 100


def chosen_mt_hands(count: int, first_match: int = 0) -> list[tuple[str, HandRecord]]:
    """The first ``count`` MT hands, each with a label naming its match seed and number."""
    return list(islice(_mt_hands(first_match), count))


def _mt_hands(first_match: int) -> Iterator[tuple[str, HandRecord]]:
    rules = get_ruleset("hungarian")
    for seed in range(first_match, first_match + MAX_MATCHES):
        players = [get_player("heuristic", f"{seed}:{i}") for i in range(3)]
        record = Match(rules, players, seed, preset="hungarian", options={}).play()
        for number in range(1, len(record["hands"]) + 1):
            hand = hand_from_record(record, number)
            if hand.contract.minimising:
                yield f"match {seed} hand {number}", hand
