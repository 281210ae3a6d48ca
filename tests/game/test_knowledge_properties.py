"""Every layout a view samples keeps the whole play legal and every stated constraint.

A property test: random deals, random legal play to a random point (must-ruff included),
constraints drawn at random among the unseen cards (true or not): either the view refuses
them with ImpossibleViewError, or no sampled layout makes any recorded card a revoke or a
failure to ruff, or breaks a constraint.
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from advice_helpers import consistent, random_play
from solver.cards import Hand
from solver.deal import Deal, Seat
from solver.game.knowledge import ImpossibleViewError, View
from solver.game.rules import get_ruleset

SEATS = (Seat.D, Seat.E, Seat.M)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    preset=st.sampled_from(["twelve", "hungarian"]),
    mode=st.sampled_from(["S", "H", "N"]),
    n_played=st.integers(0, 44),
    n_held=st.integers(0, 2),
    with_length=st.booleans(),
)
def test_no_sampled_layout_makes_a_recorded_card_illegal(seed, preset, mode, n_played, n_held, with_length):
    rs = get_ruleset(preset)
    deal = Deal.random(seed)
    discard = deal.widow
    start = {s: deal.hands[s] for s in SEATS}
    leader = Seat.E if rs.first_leader == "eldest" else rs.declarer
    played = random_play(start, mode, leader, n_played, seed, must_ruff=rs.must_ruff)
    probe = View.for_play(start[Seat.D], mode=mode, seat=Seat.D, rules=rs, played=played, discard=())
    me = probe.play_state().to_move
    rng = random.Random(seed)
    others = [s for s in SEATS if s != me]
    hidden = sorted(
        rs.deck - start[me] - Hand(played) - (discard if me == rs.declarer else Hand()), key=lambda c: c.bit
    )
    held: dict[str, list[str]] = {}
    for _ in range(n_held):
        s = rng.choice(others)
        card = str(rng.choice(hidden))
        if card and card not in held.get(s.name, []):
            held.setdefault(s.name, []).append(card)
    lengths = {}
    if with_length:
        s, suit = rng.choice(others), rng.randrange(4)
        n = rng.randrange(6)
        lengths = {s.name: {"SHDC"[suit]: (n, n + rng.randrange(3))}}
    try:
        view = View.for_play(
            start[me],
            mode=mode,
            seat=me,
            rules=rs,
            played=played,
            discard=discard if me == rs.declarer else (),
            held=held,
            lengths=lengths,
        )
    except ImpossibleViewError:
        return
    gen = np.random.default_rng(seed)
    for _ in range(5):
        lay = view.sample(gen)
        state = view.play_state()
        begun = {s: lay.hands[s] | (state.played_by[s] - Hand(state.trick)) for s in SEATS}
        assert consistent(begun, played, mode, leader, rs.must_ruff)
        for name, cards in held.items():
            assert {str(c) for c in lay.hands[Seat.parse(name)]} >= set(cards)
        for name, per_suit in lengths.items():
            s = Seat.parse(name)
            for letter, (lo, hi) in per_suit.items():
                assert lo <= len(begun[s].cards_in("SHDC".index(letter))) <= hi
        assert view.admits(lay)
