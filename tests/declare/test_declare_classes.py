"""Discard equivalence classes and the CP-SAT candidate model, checked by brute force."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from declare_reference import compressed_position, small_deal
from solver.cards import Card, Hand
from solver.deal import Deal
from solver.declare.classes import all_classes, class_counts_of, count_classes, discard_runs
from solver.declare.estimate import card_weights, sure_trick_bounds, void_bonuses
from solver.declare.model import CandidateModel


def setup(deal: Deal, blind: bool):
    own = deal.hands[0]
    held = own | deal.widow
    opponents = deal.hands[1] | deal.hands[2]
    throwable = own if blind else held
    return held, throwable, opponents, discard_runs(held, throwable, opponents)


def deals():
    rng = random.Random(11)
    out = []
    for _ in range(25):
        suits = rng.choice([1, 2, 4])
        out.append(small_deal(rng, rng.randint(2, 3 if suits == 1 else 6), rng.randint(1, 3), suits))
    out += [Deal.random(seed=s) for s in range(3)]
    return out


@pytest.mark.parametrize("blind", [False, True])
@pytest.mark.parametrize("deal", deals(), ids=str)
def test_classes_are_exactly_the_compressed_positions(deal, blind):
    held, throwable, opponents, runs = setup(deal, blind)
    w = len(deal.widow)
    if blind and w > len(deal.hands[0]):
        pytest.skip("blind discard larger than the hand")
    groups: dict = {}
    for discard in combinations(list(throwable), w):
        key = compressed_position(deal, "D", frozenset(discard))
        groups.setdefault(key, []).append(frozenset(discard))
    classes = list(all_classes(runs, w))
    assert len(classes) == len(groups) == count_classes(runs, w)
    seen = set()
    for cls in classes:
        key = compressed_position(deal, "D", frozenset(cls.discard))
        assert key not in seen
        seen.add(key)
        assert cls.size == len(groups[key])
        assert class_counts_of(runs, cls.discard) == cls.counts
        assert all(class_counts_of(runs, d) == cls.counts for d in groups[key])


def estimate_of(weights, bonuses, held: Hand, discard) -> int:
    kept = held - Hand(discard)
    value = sum(weights[c] for c in kept)
    for suit, bonus in bonuses.items():
        if held.suit_mask(suit) and not kept.suit_mask(suit):
            value += bonus
    return value


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("deal", deals()[::3], ids=str)
def test_model_hands_out_every_class_once_best_estimate_first(deal, misere):
    held, throwable, opponents, runs = setup(deal, blind=False)
    w = len(deal.widow)
    strains = "SHDCN"
    weights = {t: card_weights(t, held, opponents, misere) for t in strains}
    bonuses = {t: void_bonuses(t) for t in strains}
    model = CandidateModel(runs, w, list(strains), weights, bonuses)
    expected = {cls.counts: cls for cls in all_classes(runs, w)}
    for strain in "SN":
        got = list(model.candidates(strain, first_step=5))
        counts = [c for c, _ in got]
        assert len(counts) == len(set(counts)) == len(expected)
        assert set(counts) == set(expected)
        estimates = [e for _, e in got]
        assert estimates == sorted(estimates, reverse=True)
        for c, e in got:
            assert e == estimate_of(weights[strain], bonuses[strain], held, expected[c].discard)
    assert model.best_estimate("S") is None  # everything handed out is excluded for good
    assert model.best_estimate("H") is not None


def test_blind_keeps_the_widow():
    deal = Deal.parse("D:AK.2.. Q2.3.. 3.A4.. | 4.5..")
    held, throwable, opponents, runs = setup(deal, blind=True)
    for cls in all_classes(runs, 2):
        assert not set(cls.discard) & set(deal.widow)


def test_sure_bounds_hold_by_exhaustive_play():
    from solver.engine import solve

    rng = random.Random(3)
    for _ in range(60):
        deal = small_deal(rng, rng.randint(2, 4), 0, 2)
        strain = rng.choice("SHN")
        lo, hi = sure_trick_bounds(strain, deal.hands[0], deal.hands[1], deal.hands[2])
        for leader in "DEM":
            value = solve(deal, strain, leader=leader, seat="D")
            assert lo <= value <= hi
            mis = solve(deal, strain, leader=leader, seat="D", misere=True)
            assert lo <= mis <= hi


def test_sure_bounds_count_top_trumps():
    d = Deal.parse("D:AK2... QJ3... T54...")
    assert sure_trick_bounds("S", d.hands[0], d.hands[1], d.hands[2]) == (2, 3)
    e = Deal.parse("D:32.A.. AKQ... 54.K..")
    # E's three spades are above all of the declarer's: he loses at least 3 of 3
    assert sure_trick_bounds("S", e.hands[0], e.hands[1], e.hands[2]) == (0, 0)
    assert sure_trick_bounds("N", e.hands[0], e.hands[1], e.hands[2]) == (0, 3)


def test_card_order_weights_prefer_trumps_and_high_cards():
    d = Deal.parse("D:A2.A.. KQ.K.. J3.Q.. | ..2.")
    held = d.hands[0] | d.widow
    w = card_weights("S", held, d.hands[1] | d.hands[2], misere=False)
    assert w[Card.parse("SA")] > w[Card.parse("HA")]
    assert w[Card.parse("SA")] > w[Card.parse("S2")]
    m = card_weights("S", held, d.hands[1] | d.hands[2], misere=True)
    assert m[Card.parse("S2")] > m[Card.parse("SA")]
