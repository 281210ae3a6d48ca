"""Cheap discard judgement from one seat's side: the optimiser's linear estimate.

Why here: both the single-dummy advice (which discards are worth simulating) and the
Monte-Carlo player (which discard to make once it sees the widow) need a quick, view-only
ranking of discard sets. The estimate (``solver.declare.estimate``) only depends on the
declarer's cards and the union of the cards it cannot see, so it is the same on every
sampled layout; the double-dummy judging happens elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import Card, Hand
from ..modes import Mode
from .classes import DiscardClass, all_classes, discard_runs
from .estimate import card_weights, void_bonuses

__all__ = ["best_discard", "estimate_of", "ranked_classes"]


def _strain(mode: str) -> str:
    return Mode.parse(mode).strain.name


def estimate_of(mode: str, held: Hand, kept: Iterable[Card], weights: dict[Card, int]) -> int:
    """The linear estimate of keeping ``kept`` out of ``held`` (higher is better)."""
    kept_hand = Hand(kept)
    score = sum(weights[c] for c in kept_hand)
    for suit, bonus in void_bonuses(_strain(mode)).items():
        if held.suit_mask(suit) and not kept_hand.suit_mask(suit):
            score += bonus
    return score


def ranked_classes(
    mode: str, held: Hand, discardable: Hand, unseen: Hand, w: int
) -> list[tuple[int, DiscardClass]]:
    """Every discard class of ``w`` cards, best estimate first (ties: lowest cards first)."""
    misere = Mode.parse(mode).minimising
    weights = card_weights(_strain(mode), held, unseen, misere)
    runs = discard_runs(held, discardable, unseen)
    scored = []
    for cls in all_classes(runs, w):
        kept = held - Hand(cls.discard)
        scored.append((estimate_of(mode, held, kept, weights), cls))
    scored.sort(key=lambda pair: (-pair[0], sorted(pair[1].discard)))
    return scored


def best_discard(mode: str, held: Hand, discardable: Hand, unseen: Hand, w: int) -> tuple[Card, ...]:
    """The estimate's best discard of ``w`` cards, found without enumerating every class.

    The estimate is a sum over kept cards plus a bonus per side suit emptied, so the best
    set throws the ``w`` lowest-weight cards, or empties one short suit and throws the
    lowest-weight cards besides; every such option is compared.
    """
    if w == 0:
        return ()
    misere = Mode.parse(mode).minimising
    weights = card_weights(_strain(mode), held, unseen, misere)
    cards = sorted(discardable, key=lambda c: (weights[c], c.suit, c.rank))
    options = [tuple(cards[:w])]
    for suit in range(4):
        suit_cards = [c for c in cards if c.suit == suit]
        if held.suit_mask(suit) and len(suit_cards) == len(held.cards_in(suit)) and len(suit_cards) <= w:
            rest = [c for c in cards if c.suit != suit][: w - len(suit_cards)]
            options.append(tuple(suit_cards + rest))
    return max(options, key=lambda d: estimate_of(mode, held, held - Hand(d), weights))
