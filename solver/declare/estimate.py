"""Cheap judgements of a declaration: an ordering estimate and two proven bounds.

Why: the engine is the only exact oracle and it is expensive, so the optimiser asks it
about the most promising candidates first (the *estimate*, which only orders and never
decides anything), and skips a question when a *sure bound* already answers it.

The estimate is linear in the kept cards so that CP-SAT can maximise it: a trump is
worth a lot, any card is worth more the fewer opponent cards outrank it in its suit,
and a void in a side suit is worth a little (ruffing; in misère, a place to shed high
cards). In misère the card weights are turned round: low cards are what one keeps.

The sure bounds count cards whose trick is decided the moment they are played, so they
hold against every line of play (trump strains only):

* a declarer trump above every opponent trump wins the trick it is played to; the
  declarer plays one card per trick, so he takes at least that many tricks;
* an opponent trump above every declarer trump makes its trick an opponent trick; each
  opponent plays one card per trick, so the declarer loses at least as many tricks as
  either opponent holds such trumps.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import Card, Hand
from ..deal import Strain

TRUMP_WEIGHT = 60
TOP_WEIGHT = 30
STEP_DOWN = 12
VOID_BONUS = 12


def _higher_opponent_cards(card: Card, opponents: Hand) -> int:
    lane = opponents.suit_mask(card.suit)
    return (lane >> (card.rank - 1)).bit_count()


def card_weights(strain: str, held: Iterable[Card], opponents: Hand, misere: bool) -> dict[Card, int]:
    """Integer worth of keeping each card in ``strain`` (higher = better for the declarer)."""
    trump = Strain.parse(strain).trump
    out = {}
    for card in held:
        above = _higher_opponent_cards(card, opponents)
        if not misere:
            worth = max(0, TOP_WEIGHT - STEP_DOWN * above)
            if card.suit == trump:
                worth += TRUMP_WEIGHT
        else:
            worth = min(TOP_WEIGHT, STEP_DOWN * above)
            if card.suit == trump:
                worth -= TRUMP_WEIGHT // 2
        out[card] = worth
    return out


def void_bonuses(strain: str) -> dict[int, int]:
    """Bonus per side suit the declarer empties by discarding (none in no trump)."""
    trump = Strain.parse(strain).trump
    if trump is None:
        return {}
    return {suit: VOID_BONUS for suit in range(4) if suit != trump}


def sure_trick_bounds(strain: str, kept: Hand, opp_a: Hand, opp_b: Hand) -> tuple[int, int]:
    """(fewest, most) tricks the declarer holding ``kept`` can end with, proven by trumps."""
    k = len(kept)
    trump = Strain.parse(strain).trump
    if trump is None:
        return 0, k
    mine = kept.suit_mask(trump)
    theirs = opp_a.suit_mask(trump) | opp_b.suit_mask(trump)
    my_top = mine.bit_length()  # 1 + rank index of my highest trump, 0 if none
    their_top = theirs.bit_length()
    sure_mine = (mine >> their_top).bit_count() if their_top else mine.bit_count()
    lost = max((opp_a.suit_mask(trump) >> my_top).bit_count(), (opp_b.suit_mask(trump) >> my_top).bit_count())
    return sure_mine, k - lost
