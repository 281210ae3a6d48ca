"""Simulation statistics: the intervals, and rotation cancelling the luck of the seats."""

from __future__ import annotations

import math

import numpy as np
import pytest

from solver.analysis.simulation import MAX_MATCHES, Summary, simulate
from solver.analysis.stats import (
    mean_estimate,
    ratio_estimate,
    t95,
    wilson_interval,
)
from solver.errors import RulesError
from solver.game.rules import get_ruleset


@pytest.mark.parametrize(
    "df, exact",
    [
        (1, 12.7062),
        (2, 4.3027),
        (3, 3.1824),
        (5, 2.5706),
        (10, 2.2281),
        (30, 2.0423),
        (31, 2.0395),
        (60, 2.0003),
        (1000, 1.9623),
    ],
)
def test_t_quantile_matches_the_table(df, exact):
    assert t95(df) == pytest.approx(exact, abs=2e-3)


def coverage(draw, truth, reps=600, **kw) -> float:
    hits = 0
    for _ in range(reps):
        num, den = draw()
        hits += ratio_estimate(num, den, **kw).covers(truth)
    return hits / reps


def test_ratio_interval_covers_the_true_value_at_95_percent():
    """Clustered counts (units of 1-6 trials sharing a unit-level rate): the true ratio is 0.3."""
    rng = np.random.default_rng(7)

    def draw():
        trials = rng.integers(1, 7, size=40)
        p = rng.beta(3, 7, size=40)  # mean 0.3, varies by unit: the trials of a unit are correlated
        return rng.binomial(trials, p), trials

    assert 0.92 <= coverage(draw, 0.3, rate=True) <= 0.985


def test_mean_interval_covers_the_true_mean_of_a_skewed_variable():
    rng = np.random.default_rng(11)
    hits = sum(mean_estimate(rng.exponential(2.0, size=60)).covers(2.0) for _ in range(600))
    assert 0.91 <= hits / 600 <= 0.98


def test_a_rare_event_never_seen_still_has_an_interval_above_zero():
    e = ratio_estimate(np.zeros(30), np.full(30, 3.0), rate=True)
    assert (
        e.value == 0 and e.low == 0 and e.high == pytest.approx(wilson_interval(0, 90)[1]) and e.high > 0.03
    )


def test_one_unit_gives_no_interval_and_json_stays_valid():
    e = ratio_estimate([3.0], [4.0])
    assert e.value == 0.75 and math.isinf(e.high)
    assert e.to_json()["high"] is None


TWELVE = get_ruleset("twelve")


def test_rotation_gives_identical_players_equal_scores_on_a_fixed_seed():
    summary = simulate(TWELVE, ["heuristic"] * 3, 20, seed=3, seating="rotate")
    assert summary.deal_sets == 20 and summary.matches == 60
    rates = summary.win_rate()
    fair = (1 - summary.shared / summary.matches) / 3
    for e in rates.values():
        assert e.covers(fair)
    nets = summary.mean_net_by_player()
    for e in nets.values():
        assert e.covers(0.0)


def test_rotation_and_permutation_play_each_deal_set_once_per_seating():
    seen: dict = {}

    def on_record(i, k, record):
        seen.setdefault(i, []).append((record["players"], record["hands"][0]["dealt"]["E"]))

    summary = simulate(
        TWELVE, ["heuristic", "random", "random"], 2, seed=9, seating="permute", on_record=on_record
    )
    assert summary.matches == 12
    for rows in seen.values():
        assert len({tuple(p) for p, _ in rows}) == 6  # six different orders
        assert len({d for _, d in rows}) == 1  # on the same cards


def test_a_better_player_is_found_better_with_intervals_that_exclude_the_other():
    summary = simulate(TWELVE, ["heuristic", "random", "random"], 12, seed=2)
    assert summary.seating == "rotate"
    rates = summary.win_rate()
    assert rates["heuristic"].low > rates["random-1"].high


def test_summary_frame_and_html():
    summary = simulate(TWELVE, ["heuristic", "random", "random"], 3, seed=1)
    frame = summary.to_frame()
    assert list(frame.columns) == ["statistic", "key", "value", "low", "high", "units"]
    assert set(frame["statistic"]) >= {
        "win_rate",
        "mean_net_by_player",
        "mean_net_by_seat",
        "declarer_made_target",
        "mode_share",
        "mode_made",
        "exchange_value",
        "match_length",
    }
    shares = frame[frame.statistic == "mode_share"]["value"].sum()
    assert shares == pytest.approx(1.0)
    assert "<table" in summary._repr_html_()


@pytest.mark.parametrize("matches", [0, -1, MAX_MATCHES + 1])
def test_absurd_sizes_are_a_clear_error(matches):
    with pytest.raises(RulesError, match="--matches must be"):
        simulate(TWELVE, ["heuristic"] * 3, matches, seed=1)


def test_an_empty_summary_has_no_figures():
    s = Summary(["a", "b", "c"])
    assert s.to_json()["win_rate"]["a"]["value"] is None
