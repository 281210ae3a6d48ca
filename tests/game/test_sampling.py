"""solver.game.sampling: exact counts, every constraint kept, uniform over all layouts."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import Card, Hand
from solver.game.sampling import Bin, Cap, ImpossibleViewError, LayoutSampler, uniform_below

UNSEEN = Hand.parse("AKQ.J9.T8.2")  # 8 cards


def brute_layouts(unseen: Hand, bins: list[Bin]) -> list[tuple[frozenset, ...]]:
    """Every layout of ``unseen`` into ``bins`` that keeps the bins' suit ranges."""
    cards = list(unseen)
    out = []

    def ok(b: Bin, part) -> bool:
        return all(lo <= sum(1 for c in part if c.suit == s) <= hi for s, (lo, hi) in b.lengths.items())

    def rec(i: int, left: list, acc: list) -> None:
        if i == len(bins):
            out.append(tuple(acc))
            return
        for part in itertools.combinations(left, bins[i].size):
            if ok(bins[i], part):
                rest = [c for c in left if c not in part]
                rec(i + 1, rest, acc + [frozenset(part)])

    rec(0, cards, [])
    return out


def chi_square_p(stat: float, df: int) -> float:
    """Upper tail of chi-square by the Wilson-Hilferty cube-root normal approximation."""
    z = ((stat / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


BINS = [Bin("E", 3, {1: (0, 0)}), Bin("M", 3, {0: (1, 2)}), Bin("widow", 2)]


def test_count_matches_brute_force():
    assert LayoutSampler(UNSEEN, BINS).count() == len(brute_layouts(UNSEEN, BINS))


def test_samples_are_uniform_over_every_layout():
    layouts = brute_layouts(UNSEEN, BINS)
    index = {lay: i for i, lay in enumerate(layouts)}
    sampler = LayoutSampler(UNSEEN, BINS)
    rng = np.random.default_rng(20261203)
    draws = 40 * len(layouts)
    counts: Counter[int] = Counter()
    for _ in range(draws):
        parts = sampler.sample(rng)
        counts[index[tuple(frozenset(p) for p in parts)]] += 1  # KeyError = an inconsistent layout
    expected = draws / len(layouts)
    stat = sum((counts[i] - expected) ** 2 / expected for i in range(len(layouts)))
    assert len(counts) == len(layouts)  # every layout appears
    assert chi_square_p(stat, len(layouts) - 1) > 0.001, stat


def test_a_biased_sampler_fails_the_same_check():
    """The check above can fail: layouts drawn with a plausible bias (per-suit counts chosen
    uniformly, not by how many layouts they allow) are caught."""
    layouts = brute_layouts(UNSEEN, BINS)
    shape = Counter(
        tuple(tuple(sum(1 for c in p if c.suit == s) for s in range(4)) for p in lay) for lay in layouts
    )
    weights = np.array(
        [
            1 / shape[tuple(tuple(sum(1 for c in p if c.suit == s) for s in range(4)) for p in lay)]
            for lay in layouts
        ]
    )
    rng = np.random.default_rng(20261203)
    draws = 40 * len(layouts)
    picks = rng.choice(len(layouts), size=draws, p=weights / weights.sum())
    counts = Counter(picks.tolist())
    expected = draws / len(layouts)
    stat = sum((counts[i] - expected) ** 2 / expected for i in range(len(layouts)))
    assert chi_square_p(stat, len(layouts) - 1) < 0.001


@st.composite
def small_problems(draw):
    cards = draw(st.lists(st.integers(0, 51), min_size=3, max_size=8, unique=True))
    unseen = Hand([Hand(1 << ((c // 13) * 16 + c % 13)).__iter__().__next__() for c in cards])
    n = len(unseen)
    a = draw(st.integers(0, n))
    b = draw(st.integers(0, n - a))
    sizes = [a, b, n - a - b]
    bins = []
    for i, size in enumerate(sizes):
        lengths = {}
        if i < 2:
            for suit in range(4):
                if draw(st.booleans()):
                    lo = draw(st.integers(0, 3))
                    lengths[suit] = (lo, lo + draw(st.integers(0, 2)))
        bins.append(Bin(f"b{i}", size, lengths))
    return unseen, bins


@settings(max_examples=60, deadline=None)
@given(small_problems(), st.integers(0, 2**32 - 1))
def test_counts_and_constraints_on_random_problems(problem, seed):
    unseen, bins = problem
    expected = len(brute_layouts(unseen, bins))
    if expected == 0:
        with pytest.raises(ImpossibleViewError):
            LayoutSampler(unseen, bins)
        return
    sampler = LayoutSampler(unseen, bins)
    assert sampler.count() == expected
    rng = np.random.default_rng(seed)
    for _ in range(5):
        parts = sampler.sample(rng)
        assert sum((list(p) for p in parts), []).__len__() == len(unseen)
        assert Hand(c for p in parts for c in p) == unseen
        for b, p in zip(bins, parts):
            assert len(p) == b.size
            for s, (lo, hi) in b.lengths.items():
                assert lo <= len(p.cards_in(s)) <= hi


def test_impossible_constraints_fail_at_once():
    with pytest.raises(ImpossibleViewError, match="no layout"):
        LayoutSampler(UNSEEN, [Bin("E", 3, {0: (0, 0), 1: (0, 0), 2: (0, 0)}), Bin("M", 5)])
    with pytest.raises(ImpossibleViewError, match="cannot fill"):
        LayoutSampler(UNSEEN, [Bin("E", 3), Bin("M", 3)])


def test_uniform_below_covers_its_range():
    rng = np.random.default_rng(1)
    seen = Counter(uniform_below(5, rng) for _ in range(2000))
    assert set(seen) == {0, 1, 2, 3, 4}
    big = 3**80
    assert all(0 <= uniform_below(big, rng) < big for _ in range(50))


# --- cards with a few possible places, and caps -------------------------------------------------
PLACED = {Card.parse("SA"): ["E", "M"], Card.parse("SK"): ["M", "widow"], Card.parse("HJ"): ["E", "widow"]}
CAPS = [Cap(frozenset({Card.parse("SA"), Card.parse("SK")}), frozenset({"M"}), 1)]


def brute_placed(unseen: Hand, bins: list[Bin], places: dict, caps: list) -> list[tuple[frozenset, ...]]:
    out = []
    for lay in brute_layouts(unseen, bins):
        where = {c: b.name for part, b in zip(lay, bins) for c in part}
        if all(where[c] in p for c, p in places.items()) and all(
            sum(1 for c in cap.cards if where[c] in cap.bins) <= cap.most for cap in caps
        ):
            out.append(lay)
    return out


def test_places_and_caps_count_and_sample_uniformly():
    layouts = brute_placed(UNSEEN, BINS, PLACED, CAPS)
    index = {lay: i for i, lay in enumerate(layouts)}
    sampler = LayoutSampler(UNSEEN, BINS, PLACED, CAPS)
    assert sampler.count() == len(layouts) < len(brute_layouts(UNSEEN, BINS))
    rng = np.random.default_rng(20261206)
    draws = 40 * len(layouts)
    counts: Counter[int] = Counter()
    for _ in range(draws):
        parts = sampler.sample(rng)
        assert sampler.admits(parts)
        counts[index[tuple(frozenset(p) for p in parts)]] += 1
    expected = draws / len(layouts)
    stat = sum((counts[i] - expected) ** 2 / expected for i in range(len(layouts)))
    assert len(counts) == len(layouts)
    assert chi_square_p(stat, len(layouts) - 1) > 0.001, stat


@settings(max_examples=40, deadline=None)
@given(small_problems(), st.data())
def test_places_and_caps_on_random_problems(problem, data):
    unseen, bins = problem
    names = [b.name for b in bins]
    cards = sorted(unseen, key=lambda c: c.bit)
    chosen = data.draw(st.lists(st.sampled_from(cards), max_size=3, unique=True)) if cards else []
    places = {
        c: data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True)) for c in chosen
    }
    caps = []
    if chosen and data.draw(st.booleans()):
        caps = [
            Cap(
                frozenset(chosen),
                frozenset(data.draw(st.lists(st.sampled_from(names), min_size=1, unique=True))),
                data.draw(st.integers(0, 2)),
            )
        ]
    expected = len(brute_placed(unseen, bins, places, caps))
    if expected == 0:
        with pytest.raises(ImpossibleViewError):
            LayoutSampler(unseen, bins, places, caps)
        return
    sampler = LayoutSampler(unseen, bins, places, caps)
    assert sampler.count() == expected
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    for _ in range(5):
        assert sampler.admits(sampler.sample(rng))
