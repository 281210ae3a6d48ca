"""Trick-play rules on plain hand masks: which cards are legal, who wins a trick.

Shared by the match engine and the record replayer so both apply exactly the same
rules. Cards are handled as bit positions (``16*suit + rank - 2``) of the hand-mask
layout of :mod:`solver.cards`; no objects are built in these functions because they
run for every card of every simulated hand.

>>> from solver.cards import Card, Hand
>>> pos = lambda text: Card.parse(text).bit.bit_length() - 1
>>> trick_winner([pos("H5"), pos("HA"), pos("S2")], trump=0)    # the ruff wins
2
>>> trick_winner([pos("H5"), pos("HA"), pos("S2")], trump=NO_TRUMP)
1
>>> hand = Hand.parse("A2..K.3").mask
>>> str(Hand(legal_mask(hand, led_suit=1, trump=2, must_ruff=True)))   # void in hearts: must ruff
'..K.'
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import LANE, LANE_MASK, LANE_SHIFT, NO_TRUMP

__all__ = ["legal_mask", "suit_of", "trick_winner"]


def suit_of(bitpos: int) -> int:
    return bitpos >> LANE_SHIFT


def legal_mask(hand: int, led_suit: int, trump: int, must_ruff: bool = False) -> int:
    """The cards of ``hand`` that may be played; ``led_suit`` is -1 when leading.

    Follow suit if possible; otherwise any card, or — with ``must_ruff`` — a trump
    when holding one. Nobody is ever obliged to head the trick.
    """
    if led_suit < 0:
        return hand
    follow = hand & (LANE_MASK << (LANE * led_suit))
    if follow:
        return follow
    if must_ruff and trump != NO_TRUMP:
        trumps = hand & (LANE_MASK << (LANE * trump))
        if trumps:
            return trumps
    return hand


def trick_winner(bitpositions: Sequence[int], trump: int) -> int:
    """Index (0 = the leader) of the card that wins a complete trick.

    The highest trump wins; with no trump in the trick, the highest card of the led suit.
    Within one suit a higher bit position is a higher rank.
    """
    led = bitpositions[0] >> LANE_SHIFT
    best = 0
    best_pos = bitpositions[0]
    best_trump = led == trump
    for i in range(1, len(bitpositions)):
        pos = bitpositions[i]
        suit = pos >> LANE_SHIFT
        if suit == trump:
            if not best_trump or pos > best_pos:
                best, best_pos, best_trump = i, pos, True
        elif not best_trump and suit == led and pos > best_pos:
            best, best_pos = i, pos
    return best
