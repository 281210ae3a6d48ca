"""Shared by the advice tests: random legal play to a late position, and exact
enumeration of every layout consistent with what a seat saw (independent of the sampler)."""

from __future__ import annotations

import itertools
import random

from solver.cards import Card, Hand
from solver.deal import Deal, Seat
from solver.modes import Mode
from solver.tricks import legal_mask, trick_winner

SEATS = (Seat.D, Seat.E, Seat.M)


def random_play(
    hands: dict, mode: str, leader: Seat, n_cards: int, seed: int, must_ruff: bool = False
) -> list[Card]:
    """``n_cards`` random legal cards from the start of play."""
    rng = random.Random(seed)
    trump = int(Mode.parse(mode).strain)
    left = {s: hands[s].mask for s in SEATS}
    played: list[Card] = []
    trick: list[Card] = []
    for _ in range(n_cards):
        who = SEATS[(leader + len(trick)) % 3]
        led = trick[0].suit if trick else -1
        legal = legal_mask(left[who], led, trump, must_ruff)
        card = rng.choice(list(Hand(legal)))
        left[who] &= ~card.bit
        trick.append(card)
        played.append(card)
        if len(trick) == 3:
            leader = SEATS[(leader + trick_winner([c.bit.bit_length() - 1 for c in trick], trump)) % 3]
            trick = []
    return played


def consistent(start: dict, played: list[Card], mode: str, leader: Seat, must_ruff: bool) -> bool:
    """Whether every card of ``played`` was legal for its player holding ``start``."""
    trump = int(Mode.parse(mode).strain)
    left = {s: start[s].mask for s in SEATS}
    for i in range(0, len(played), 3):
        trick = played[i : i + 3]
        for k, card in enumerate(trick):
            who = SEATS[(leader + k) % 3]
            led = trick[0].suit if k else -1
            if not left[who] & card.bit or not legal_mask(left[who], led, trump, must_ruff) & card.bit:
                return False
            left[who] &= ~card.bit
        if len(trick) == 3:
            leader = SEATS[(leader + trick_winner([c.bit.bit_length() - 1 for c in trick], trump)) % 3]
    return True


def all_start_layouts(view) -> list[dict]:
    """Every assignment of the cards ``view.seat`` cannot see to the other seats' starting
    hands and the out-of-play pile that agrees with the play (brute force)."""
    rs = view.rules
    state = view.play_state()
    played = Hand(view.played)
    others = [s for s in SEATS if s != view.seat]
    unseen = list(rs.deck - view.hand - played - view.discard)
    need = {s: rs.hand_size - len(state.played_by[s]) for s in others}
    out = []
    for a in itertools.combinations(unseen, need[others[0]]):
        rest = [c for c in unseen if c not in a]
        for b in itertools.combinations(rest, need[others[1]]):
            start = {
                view.seat: view.hand,
                others[0]: Hand(a) | state.played_by[others[0]],
                others[1]: Hand(b) | state.played_by[others[1]],
            }
            if consistent(start, list(view.played), view.mode, view.first_leader, rs.must_ruff):
                out.append(start)
    return out


def position_at(start: dict, view) -> Deal:
    """The hands when the current trick began, for a starting layout."""
    state = view.play_state()
    done = Hand(view.played[: len(view.played) - len(state.trick)])
    return Deal([start[s] - done for s in SEATS])
