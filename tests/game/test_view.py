"""solver.game.knowledge.View: what a seat knows, checked, and the layouts that agree with it."""

from __future__ import annotations

import numpy as np
import pytest

from advice_helpers import all_start_layouts, random_play
from solver.cards import Hand
from solver.deal import Deal, Seat
from solver.errors import IllegalPlayError, SolverError
from solver.game.knowledge import View
from solver.game.sampling import ImpossibleViewError

DEAL = Deal.random(11)
DISCARD = Hand(sorted(DEAL.hands[Seat.D] | DEAL.widow)[:4])
START = {
    Seat.D: (DEAL.hands[Seat.D] | DEAL.widow) - DISCARD,
    Seat.E: DEAL.hands[Seat.E],
    Seat.M: DEAL.hands[Seat.M],
}


def test_declaration_layouts_hold_the_right_cards():
    v = View.for_declaration(DEAL.hands[Seat.D], widow=DEAL.widow, rules="twelve")
    rng = np.random.default_rng(3)
    for _ in range(20):
        lay = v.sample(rng)
        assert lay.hands[Seat.D] == DEAL.hands[Seat.D] and lay.widow == DEAL.widow
        assert len(lay.hands[Seat.E]) == len(lay.hands[Seat.M]) == 16
        assert lay.hands[Seat.E] | lay.hands[Seat.M] == DEAL.hands[Seat.E] | DEAL.hands[Seat.M]


def test_blind_and_first_six_views_sample_the_unseen_widow_and_own_cards():
    v = View.for_declaration(DEAL.hands[Seat.D], rules="card-return")
    lay = v.sample(np.random.default_rng(1))
    assert len(lay.widow) == 4 and not lay.widow & DEAL.hands[Seat.D]
    six = Hand(list(DEAL.hands[Seat.E])[:6])
    h = View.for_declaration(six, rules="hungarian")
    assert h.seat == Seat.E and h.unseen_own == 10
    lay = h.sample(np.random.default_rng(1))
    assert len(lay.hands[Seat.E]) == 16 and six.mask & lay.hands[Seat.E].mask == six.mask


def test_play_reveals_voids_and_must_ruff_no_trump():
    # E leads a spade; M shows out with a club in a heart contract under must-ruff:
    # M has no spade and no heart left.
    from solver.game.rules import get_ruleset

    rs = get_ruleset("twelve").with_options(must_ruff=True)
    mine = START[Seat.D]
    unseen = rs.deck - mine - DISCARD
    lead = unseen.cards_in(0)[-1]
    club = unseen.cards_in(3)[-1]
    follow = mine.cards_in(0)[-1] if mine.cards_in(0) else next(iter(mine))
    v = View(seat=Seat.D, hand=mine, rules=rs, mode="H", discard=DISCARD, played=(lead, club))
    state = v.play_state()
    assert state.voids[Seat.M] == frozenset({0, 1}) and state.voids[Seat.E] == frozenset()
    assert state.to_move == Seat.D and state.trick == (lead, club)
    rng = np.random.default_rng(2)
    for _ in range(20):
        lay = v.sample(rng)
        assert not lay.hands[Seat.M].cards_in(0) and not lay.hands[Seat.M].cards_in(1)
    done = View(seat=Seat.D, hand=mine, rules=rs, mode="H", discard=DISCARD, played=(lead, club, follow))
    assert sum(done.play_state().tricks) == 1


def test_every_sampled_play_layout_agrees_with_the_play():
    mode = "S"
    played = random_play(START, mode, Seat.E, 40, seed=5)
    state_view = View.for_play(START[Seat.E], mode=mode, seat="E", played=played)
    exact = all_start_layouts(state_view)
    rng = np.random.default_rng(0)
    starts = {tuple(sorted((s.name, str(h)) for s, h in lay.items())) for lay in exact}
    assert exact
    state = state_view.play_state()
    for _ in range(30):
        lay = state_view.sample(rng)
        done = {s: state.played_by[s] - __import__("solver").Hand(state.trick) for s in Seat}
        start = {s: lay.hands[s] | done[s] for s in Seat}
        assert tuple(sorted((s.name, str(h)) for s, h in start.items())) in starts


def test_bad_views_are_clear_errors():
    with pytest.raises(SolverError, match="holds 16 cards"):
        View.for_declaration("AKQ...", widow="2...", rules="twelve")
    with pytest.raises(SolverError, match="belongs to the declarer"):
        View.for_declaration(DEAL.hands[Seat.E], seat="E", rules="twelve")
    with pytest.raises(IllegalPlayError, match="which D holds"):
        first = next(iter(START[Seat.D]))
        View.for_play(START[Seat.D], mode="S", seat="D", played=[first])
    with pytest.raises(SolverError, match="unknown mode"):
        View.for_play(START[Seat.D], mode="X", seat="D")


def test_impossible_constraints_fail_at_once():
    with pytest.raises(ImpossibleViewError):
        View.for_declaration(
            DEAL.hands[Seat.D],
            widow=DEAL.widow,
            rules="twelve",
            lengths={"E": {"S": (0, 0), "H": (0, 0), "D": (0, 0)}},
        )
    card = next(iter(DEAL.hands[Seat.D]))
    with pytest.raises(ImpossibleViewError, match="cannot hold"):
        View.for_declaration(DEAL.hands[Seat.D], widow=DEAL.widow, rules="twelve", held={"E": [card]})


def test_held_cards_and_lengths_are_kept():
    e_card = next(iter(DEAL.hands[Seat.E]))
    v = View.for_declaration(
        DEAL.hands[Seat.D],
        widow=DEAL.widow,
        rules="twelve",
        held={"E": [e_card]},
        lengths={"M": {"H": (2, 3)}},
    )
    rng = np.random.default_rng(9)
    for _ in range(30):
        lay = v.sample(rng)
        assert e_card in lay.hands[Seat.E]
        assert 2 <= len(lay.hands[Seat.M].cards_in(1)) <= 3


def test_a_hand_file_view_knows_what_the_seat_knew():
    from advice_helpers import consistent
    from solver.game.handfile import load_hand

    rec = load_hand("examples/hand-twelve.txt")
    assert rec.discard is not None
    for trick, card in [(1, 1), (5, 2), (9, 3), (16, 1)]:
        v = View.from_hand_record(rec, trick, card)
        assert v.mode is not None
        assert v.play_state().to_move == v.seat
        assert v.hand == rec.start.hands[v.seat]
        assert (v.discard == Hand(rec.discard)) == (v.seat == rec.declarer)
        # the real hands are one of the layouts the view allows
        assert consistent(dict(zip(Seat, rec.start.hands)), list(v.played), v.mode, v.first_leader, False)
        assert v.sampler().count() >= 1


def test_the_old_module_name_warns_and_re_exports():
    import importlib
    import sys

    sys.modules.pop("solver.game.view", None)
    with pytest.warns(DeprecationWarning, match="solver.game.knowledge"):
        old = importlib.import_module("solver.game.view")
    assert old.View is View and old.ImpossibleViewError is ImpossibleViewError


def test_lengths_of_the_seats_own_hand_are_checked_or_sampled():
    hand = DEAL.hands[Seat.D]
    spades = len(hand.cards_in(0))
    with pytest.raises(ImpossibleViewError, match="own hand"):
        View.for_declaration(hand, widow=DEAL.widow, rules="twelve", lengths={"D": {"S": (spades + 1, 13)}})
    View.for_declaration(hand, widow=DEAL.widow, rules="twelve", lengths={"D": {"S": (spades, spades)}})
    six = Hand(sorted(DEAL.hands[Seat.E], key=lambda c: c.bit)[:6])
    have = len(six.cards_in(1))
    v = View.for_declaration(six, rules="hungarian", lengths={"E": {"H": (have + 2, have + 3)}})
    rng = np.random.default_rng(4)
    for _ in range(20):  # the ten unseen own cards are sampled under the stated length
        assert have + 2 <= len(v.sample(rng).hands[Seat.E].cards_in(1)) <= have + 3
