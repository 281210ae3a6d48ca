"""Scoring: nets (MT/miz), chips, every match-end rule and the tie-breaks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.deal import Seat
from solver.errors import RulesError
from solver.game.rules import PRESETS, get_ruleset
from solver.game.scoring import (
    HandResult,
    break_tie,
    by_player,
    hand_chips,
    hand_nets,
    match_over,
    totals,
    used_modes,
)

D, E, M = Seat.D, Seat.E, Seat.M


def hand(r, dealer, nets=(0, 0, 0), mode="S", winners=(), tricks=None):
    """A HandResult with the given nets by seat (tricks derived from the targets)."""
    if tricks is None:
        if mode in ("MT", "miz"):
            tricks = tuple(r.target_of(s, mode) - nets[s] for s in range(3))
        else:
            tricks = tuple(r.targets[s] + nets[s] for s in range(3))
    return HandResult(dealer, mode, tricks, tuple(winners))


def rotation(r, nets_list, modes=None):
    """Consecutive hands dealt by players 0, 1, 2, 0, ..."""
    return [hand(r, k % 3, n, (modes[k] if modes else "S")) for k, n in enumerate(nets_list)]


# --- nets ---------------------------------------------------------------------------------------
def test_nets_are_tricks_minus_targets():
    assert hand_nets((10, 4, 2), get_ruleset("british")) == (2, -1, -1)
    assert hand_nets((3, 8, 5), get_ruleset("hungarian"), "S") == (0, 0, 0)
    assert hand_nets((6, 3, 8), get_ruleset("6-3-8")) == (0, 0, 0)


def test_mt_targets_become_maxima_and_swap_ends():
    r = get_ruleset("hungarian")  # D 3, E (game leader) 8, M 5
    # MT: leader at most 3, third player at most 5, dealer at most 8.
    assert hand_nets((8, 3, 5), r, "MT") == (0, 0, 0)
    assert hand_nets((8, 4, 4), r, "MT") == (0, -1, 1)  # a trick above the maximum is -1
    assert hand_nets((10, 0, 6), r, "MT") == (-2, 3, -1)
    # The same tricks in a trump mode score the other way round.
    assert hand_nets((8, 4, 4), r, "H") == (5, -4, -1)


def test_miz_is_scored_like_mt():
    r = get_ruleset("miz")
    assert hand_nets((3, 5, 8), r, "miz") == (0, 0, 0)
    assert hand_nets((1, 5, 10), r, "miz") == (2, 0, -2)


def test_nets_reject_wrong_trick_counts():
    with pytest.raises(RulesError, match="16 tricks"):
        hand_nets((8, 5, 4), get_ruleset("british"))
    with pytest.raises(RulesError, match="17 tricks"):
        hand_nets((8, 5, 3), get_ruleset("6-3-8"))


@settings(deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.data())
def test_nets_and_chips_sum_to_zero(name, data):
    r = PRESETS[name]
    n = r.tricks_per_hand
    a = data.draw(st.integers(0, n))
    b = data.draw(st.integers(0, n - a))
    mode = data.draw(st.sampled_from(r.mode_order))
    nets = hand_nets((a, b, n - a - b), r, mode)
    assert sum(nets) == 0
    assert sum(hand_chips(nets)) == 0


def test_chips_each_overtrick_earns_a_chip_from_every_down_player():
    assert hand_chips((3, -1, -2)) == (6, -3, -3)
    assert hand_chips((1, 1, -2)) == (1, 1, -2)
    assert hand_chips((2, 0, -2)) == (2, 0, -2)
    r = get_ruleset("chips")
    hs = [hand(r, 0, (3, -1, -2))]
    assert totals(hs, r) == (6, -3, -3)
    assert totals(hs, get_ruleset("casual")) == (3, -1, -2)


def test_seats_map_to_players_through_the_dealer():
    h = HandResult(2, "S", (9, 4, 3))
    assert [h.player(s) for s in Seat] == [2, 0, 1]
    assert by_player((1, -1, 0), 2) == (-1, 0, 1)
    assert h.points_by_player(get_ruleset("british")) == (-1, 0, 1)


# --- 12 tricks in one hand (001/003) ---------------------------------------------------------------
@pytest.mark.parametrize("preset", ["twelve", "nine-five-two", "double-payment", "no-trump", "miz"])
def test_first_to_twelve_tricks_wins_at_once(preset):
    r = get_ruleset(preset)
    hs = rotation(r, [(1, -1, 0), (-2, 1, 1)])
    assert not match_over(hs, r).over
    hs.append(hand(r, 2, tricks=(2, 12, 2)))  # E of a hand dealt by player 2 = player 0
    end = match_over(hs, r)
    assert (end.over, end.reason, end.winner) == (True, "twelve-tricks", 0)
    with pytest.raises(RulesError, match="already over after hand 3"):
        match_over(hs + [hand(r, 0)], r)


def test_first_to_twelve_hand_limit_then_tie_break_hand():
    r = get_ruleset("twelve")  # limit 10, tie-break hand
    hs = rotation(r, [(0, 0, 0)] * 9 + [(1, -1, 0)])  # hand 10 dealt by player 0: +1 / -1
    end = match_over(hs, r)
    assert end.over and end.reason == "hands-limit" and end.winner == 0
    tied = rotation(r, [(0, 0, 0)] * 10)
    end = match_over(tied, r)
    assert not end.over and set(end.tied) == {0, 1, 2}
    tied.append(hand(r, 1, (0, 2, -2)))  # hand 11: player 2 +2, player 0 -2
    end = match_over(tied, r)
    assert end.over and end.winner == 2


def test_tie_break_hand_only_between_the_tied_players():
    r = get_ruleset("twelve")
    # hand 1 (dealer 0): p0 +1, p2 -1; hand 10 (dealer 0): p1 +1, p2 -1 -> totals (1, 1, -2)
    hs = rotation(r, [(1, 0, -1)] + [(0, 0, 0)] * 8 + [(0, 1, -1)])
    end = match_over(hs, r)
    assert not end.over and end.tied == (0, 1)
    hs.append(hand(r, 1, (0, 0, 0)))  # still level
    assert not match_over(hs, r).over
    hs.append(hand(r, 2, (3, -2, -1)))  # dealer 2 +3, p0 -2, p1 -1
    end = match_over(hs, r)
    assert end.over and end.winner == 1  # the outsider's big hand does not count


# --- round the table (000) ----------------------------------------------------------------------
@pytest.mark.parametrize("preset", ["british", "9-5-2", "blind-widow", "no-exchange", "no-widow"])
def test_round_the_table_first_dealer_up_on_his_own_deal_after_one_round(preset):
    r = get_ruleset(preset)
    hs = rotation(r, [(2, -1, -1), (1, 0, -1), (3, -2, -1)])  # every dealer up in round one
    assert not match_over(hs, r).over
    hs.append(hand(r, 0, (0, 1, -1)))  # player 0 deals again, exactly on target
    assert not match_over(hs, r).over
    hs.append(hand(r, 1, (-1, 1, 0)))  # player 1 down on his deal
    assert not match_over(hs, r).over
    hs.append(hand(r, 2, (1, 0, -1)))  # player 2 up on his own deal
    end = match_over(hs, r)
    assert (end.over, end.reason, end.winner) == (True, "round-the-table", 2)


def test_round_the_table_lax_form_counts_the_cumulative_total():
    r = get_ruleset("british", round_strict=False)
    hs = rotation(r, [(3, -2, -1), (0, 0, 0), (0, 0, 0), (-1, 1, 0)])
    end = match_over(hs, r)  # player 0 is down on the deal, +2 overall
    assert end.over and end.winner == 0
    assert not match_over(hs, get_ruleset("british")).over


# --- race (001 cumulative variant, 6-3-8) ---------------------------------------------------------
def test_race_to_plus_ten():
    r = get_ruleset("twelve", match_end="race", hands_limit=None)
    hs = rotation(r, [(4, -2, -2), (-2, -2, 4), (-2, 4, -2)])  # player 0: +4, +4, +4
    end = match_over(hs[:2], r)
    assert not end.over
    end = match_over(hs, r)
    assert end.over and end.reason == "race" and end.winner == 0 and end.totals[0] == 12


def test_six_three_eight_ends_at_minus_ten_too():
    r = get_ruleset("6-3-8")
    hs = rotation(r, [(-5, 3, 2), (3, 2, -5)])  # player 0: -5, -5
    end = match_over(hs, r)
    assert end.over and end.totals[0] == -10 and end.winner == 1  # totals (-10, 6, 4)


# --- fixed number of hands (000 casual, 002) ------------------------------------------------------
@pytest.mark.parametrize("preset", ["casual", "chips", "card-return"])
def test_fixed_number_of_hands_highest_total_wins(preset):
    r = get_ruleset(preset)
    hs = rotation(r, [(0, 0, 0)] * 11 + [(1, -1, 0)])
    assert not match_over(hs[:11], r).over
    end = match_over(hs, r)
    assert end.over and end.winner == 2 and end.reason == "hands-limit"  # hand 12: dealer is player 2


def test_tie_with_no_tie_break_is_a_shared_win():
    r = get_ruleset("casual")
    end = match_over(rotation(r, [(0, 0, 0)] * 12), r)
    assert end.over and end.winner is None and "share" in end.detail


# --- 002's tie-break chain -----------------------------------------------------------------------
def test_chain_most_points_in_the_last_hand():
    r = get_ruleset("card-return")
    # hand 11 (dealer 1): p1 -1, p2 +2, p0 -1; hand 12 (dealer 2): p2 -2, p0 +1, p1 +1
    hs = rotation(r, [(0, 0, 0)] * 10 + [(-1, 2, -1), (-2, 1, 1)])
    winners = [D, E, D, E, M, E, D, D, E, M, D, E, M, E, D, M]  # 6/6/4, last trick to M
    hs[-1] = HandResult(2, "S", hs[-1].tricks, tuple(winners))
    end = match_over(hs, r)
    assert end.over and end.totals == (0, 0, 0)
    # p0 and p1 tie on the last hand too; the most recent trick won by either: trick 16 is
    # M (player 1).
    assert end.winner == 1


def test_chain_all_three_level_last_trick_decides():
    r = get_ruleset("card-return")
    winners = [D] * 8 + [M] * 3 + [E] * 5
    hs = [HandResult(0, "S", (8, 5, 3), tuple(winners))]
    assert break_tie([0, 1, 2], hs, r) == 1


def test_chain_two_level_most_recent_trick_of_either():
    r = get_ruleset("card-return")
    winners = [D] * 8 + [E] * 4 + [M] * 3 + [D]  # the 16th to D (player 0)
    hs = [HandResult(0, "S", (9, 4, 3), tuple(winners))]
    # nets (1, -1, 0): among players 1 and 2, player 2 scored more in the last hand
    assert break_tie([1, 2], hs, r) == 2
    winners = [D] * 7 + [E] * 5 + [M] * 3 + [D]
    hs = [HandResult(0, "S", (8, 5, 3), tuple(winners))]
    # all nets 0: players 1 (E) and 2 (M) -> M won trick 15, more recently than E
    assert break_tie([1, 2], hs, r) == 2
    assert break_tie([0, 1], hs, r) == 0


def test_chain_needs_the_trick_winners():
    with pytest.raises(RulesError, match="winner of every trick"):
        break_tie([0, 1], [HandResult(0, "S", (8, 5, 3))], get_ruleset("card-return"))


# --- hungarian 18-deal schedule (004) -------------------------------------------------------------
SIX = ["S", "H", "D", "C", "N", "MT"]


def hungarian_schedule():
    """18 hands: game leader of hand k is player (k + 1) % 3; each uses the six modes in turn."""
    modes = [SIX[k // 3] for k in range(18)]
    return modes


def test_hungarian_each_game_leader_uses_each_mode_once_then_the_match_ends():
    r = get_ruleset("hungarian")
    modes = hungarian_schedule()
    hs = rotation(r, [(0, 0, 0)] * 18, modes)
    for p in range(3):
        assert sorted(used_modes(hs, r, p)) == sorted(SIX)
    assert not match_over(hs[:17], r).over
    end = match_over(hs, r)
    assert end.over and end.reason == "schedule-complete" and end.winner is None
    hs[-1] = hand(r, hs[-1].dealer, (2, -2, 0), modes[-1])
    assert match_over(hs, r).winner == hs[-1].player(D)


def test_hungarian_allowed_modes_shrink_and_repeats_are_rejected():
    r = get_ruleset("hungarian")
    assert r.allowed_modes(["S", "MT"]) == ("H", "D", "C", "N")
    modes = hungarian_schedule()
    modes[3] = "S"  # player 1 leads hand 1 (S) and hand 4 (S)
    hs = rotation(r, [(0, 0, 0)] * 18, modes)
    with pytest.raises(RulesError, match="hand 4: player 1 names S a second time"):
        match_over(hs, r)
    with pytest.raises(RulesError, match="twice"):
        r.allowed_modes(["S", "S"])
    assert get_ruleset("twelve").allowed_modes(["S", "S"]) == ("S", "H", "D", "C")


def test_mode_outside_the_ruleset_is_rejected():
    r = get_ruleset("british")
    with pytest.raises(RulesError, match="hand 1: mode 'N'"):
        match_over([hand(r, 0, mode="N")], r)


# --- properties over random histories ----------------------------------------------------------------
@st.composite
def histories(draw):
    name = draw(st.sampled_from(["casual", "chips", "card-return", "twelve", "6-3-8", "british"]))
    r = get_ruleset(name)
    n = r.tricks_per_hand
    hs = []
    for k in range(draw(st.integers(1, 14))):
        a = draw(st.integers(0, n))
        b = draw(st.integers(0, n - a))
        winners = tuple(Seat(s) for s, c in enumerate((a, b, n - a - b)) for _ in range(c))
        hs.append(HandResult(k % 3, "S", (a, b, n - a - b), winners))
    return r, hs


@settings(deadline=None)
@given(histories())
def test_totals_sum_to_zero_and_the_verdict_is_consistent(case):
    r, hs = case
    assert sum(totals(hs, r)) == 0
    # Judge hand by hand, as the match loop does, stopping at the end.
    for k in range(1, len(hs) + 1):
        end = match_over(hs[:k], r)
        assert end.totals == totals(hs[:k], r)
        if end.over:
            assert end.winner is None or end.winner in range(3)
            if r.match_end == "hands" and r.tie_break != "tie-break-hand":
                assert k == r.hands_limit
            if k < len(hs):
                with pytest.raises(RulesError, match="already over"):
                    match_over(hs[: k + 1], r)
            break
        if r.match_end == "hands":
            assert k < r.hands_limit
