"""A player that makes uniformly random legal decisions — the baseline every other
player must beat, and a fuzzer for the match engine (it reaches odd corners)."""

from __future__ import annotations

from ..cards import LANE, LANE_SHIFT, Card, Suit
from ..game.views import Announcement, DeclareView, ExchangeView, PlayView
from .base import BasePlayer


def bits_of(mask: int) -> list[int]:
    """The bit positions set in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def card_at(pos: int) -> Card:
    return Card.from_index((pos >> LANE_SHIFT) * 13 + (pos & (LANE - 1)))


class RandomPlayer(BasePlayer):
    """Uniformly random among the legal choices, from its own seeded RNG."""

    def declare(self, view: DeclareView) -> Announcement:
        mode = view.mode if view.stage == "discard" and view.mode is not None else self.rng.choice(view.modes)
        discard: tuple[Card, ...] = ()
        if view.stage != "mode" and view.n_discard:
            picks = self.rng.sample(bits_of(view.hand), view.n_discard)
            discard = tuple(card_at(p) for p in sorted(picks))
        return Announcement(mode, discard)

    def name_suit(self, view: ExchangeView) -> Suit:
        return self.rng.choice(view.suits)

    def give_card(self, view: ExchangeView) -> Card:
        return card_at(self.rng.choice(bits_of(view.allowed)))

    def play(self, view: PlayView) -> Card:
        return card_at(self.rng.choice(bits_of(view.legal)))
