"""The bundled players: random, heuristic (the rule sources' rules of thumb) and double-dummy."""

from __future__ import annotations

import random

import pytest

from solver.analysis.simulation import simulate
from solver.cards import Card, Hand, Suit
from solver.deal import Deal, Seat
from solver.engine import card_values, solve
from solver.errors import RulesError
from solver.game.match import Match
from solver.game.rules import get_ruleset
from solver.game.views import DeclareView, PlayView, Table
from solver.modes import Mode
from solver.players import get_player
from solver.players.dd import DoubleDummyPlayer
from solver.players.heuristic import HeuristicPlayer, choose_discards, choose_mode
from solver.players.random_player import RandomPlayer

TWELVE = get_ruleset("twelve")
SUITS = (Mode.S, Mode.H, Mode.D, Mode.C)  # the four trump modes, in order


def mask(text: str) -> int:
    return Hand.parse(text).mask


def hand_masks(deal: Deal) -> tuple[int, int, int]:
    d, e, m = (h.mask for h in deal.hands)
    return d, e, m


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


def table(seat: Seat = Seat.D, ruleset=TWELVE) -> Table:
    return Table(ruleset, 1, 0, int(seat), seat, ruleset.targets, ruleset.declarer, (0, 0, 0))


def play_view(
    hand: str, trick: str = "", *, seat=Seat.D, leader=Seat.E, trump=0, mode="S", played: str = "", hands=None
) -> PlayView:
    h = mask(hand)
    t = cards(trick) if trick else ()
    led = t[0].suit if t else -1
    follow = h & (0x1FFF << (16 * led)) if t else 0
    legal = follow or h
    done = sum(c.bit for c in t) | sum(c.bit for c in (cards(played) if played else ()))
    return PlayView(table(seat), h, legal, t, leader, trump, mode, (0, 0, 0), done, 5, hands)


def test_registry_and_unknown_player():
    assert isinstance(get_player("random", 1), RandomPlayer)
    assert isinstance(get_player("heuristic", 1), HeuristicPlayer)
    with pytest.raises(RulesError, match="unknown player 'clever'; players are random, heuristic, dd"):
        get_player("clever")


def test_random_player_is_uniform_over_legal_cards_and_reproducible():
    view = play_view("AKQ.2.3.4", "SJ S2")
    counts: dict[str, int] = {}
    p = get_player("random", 3)
    for _ in range(600):
        c = str(p.play(view))
        counts[c] = counts.get(c, 0) + 1
    assert set(counts) == {"SA", "SK", "SQ"}
    assert min(counts.values()) > 120
    a = [str(get_player("random", 9).play(view)) for _ in range(1)]
    b = [str(get_player("random", 9).play(view)) for _ in range(1)]
    assert a == b


# --- heuristic: declaring ---------------------------------------------------------------
def test_heuristic_names_the_longest_strong_suit():
    assert choose_mode(mask("2.AKQJ97.K32.A54"), ("S", "H", "D", "C"), 8) == "H"
    assert choose_mode(mask("AQJT98.K2.A32.54"), ("S", "H", "D", "C"), 8) == "S"


def test_heuristic_picks_a_minimising_mode_only_with_a_hopeless_hand():
    weak = mask("5432.5432.5432.2")
    strong = mask("AKQJ.AK2.AK2.AK2")
    assert choose_mode(weak, ("S", "H", "D", "C", "N", "MT"), 8) == "MT"
    assert choose_mode(strong, ("S", "H", "D", "C", "N", "MT"), 8) != "MT"


def test_heuristic_discards_short_side_suit_losers_and_keeps_trumps_and_aces():
    hand = mask("AKQ9876.A3.K43.752")  # 16 cards, plus the widow below
    hand |= mask("5.9.2.3")
    out = [str(Card.from_bit(1 << p)) for p in choose_discards(hand, 4, 0, False)]
    assert not any(c.startswith("S") for c in out)  # trumps kept
    assert "HA" not in out  # aces kept
    assert set(out) <= {"H3", "H9", "D2", "D3", "D4", "C2", "C3", "C5", "C7", "DK"}
    assert "H3" in out and "H9" in out  # the short heart side suit goes first


def test_heuristic_declare_view_returns_mode_and_discards():
    p = get_player("heuristic", 0)
    hand = mask("AKQ9876.A3.K43.752") | mask("5.9.2.3")
    d = p.declare(DeclareView(table(), "both", hand, hand, SUITS, 4))
    assert d.mode == "S" and len(d.discard) == 4 and all(c.bit & hand for c in d.discard)
    d = p.declare(DeclareView(table(), "mode", hand, hand, SUITS, 0))
    assert d.discard == ()


# --- heuristic: playing ----------------------------------------------------------------
def test_last_hand_wins_as_cheaply_as_possible():
    p = get_player("heuristic", 0)
    assert str(p.play(play_view("3.KQ2..4", "H5 H9"))) == "HQ"


def test_a_player_who_cannot_win_ducks_low():
    p = get_player("heuristic", 0)
    assert str(p.play(play_view(".K2..4", "HA H9"))) == "H2"


def test_void_last_hand_ruffs_with_the_lowest_trump():
    p = get_player("heuristic", 0)
    assert str(p.play(play_view("K2..9.4", "HA H3"))) == "S2"


def test_second_hand_plays_low_unless_holding_the_master():
    p = get_player("heuristic", 0)
    assert str(p.play(play_view("3.KQ2..4", "H5", leader=Seat.M))) == "H2"  # the ace is still out
    assert str(p.play(play_view("3.KQ2..4", "H5", leader=Seat.M, played="HA"))) == "HK"


def test_minimum_tricks_sheds_the_highest_card_that_still_loses():
    p = get_player("heuristic", 0)
    assert str(p.play(play_view(".K82..", "H9 H5", trump=4, mode="MT"))) == "H8"


def test_leader_draws_trumps_with_the_master_trump():
    p = get_player("heuristic", 0)
    v = play_view("A5.32.K2.", leader=Seat.D)
    assert str(p.play(v)) == "SA"


def test_heuristic_beats_random_players():
    s = simulate(TWELVE, ["heuristic", "random", "random"], 20, seed=4)
    assert s.wins[0] / s.matches > 0.5


# --- double dummy -------------------------------------------------------------------------
def test_dd_player_plays_a_card_of_best_value():
    deal = Deal.parse("D:AK2... QJ3... T94...")
    hands = hand_masks(deal)
    p = DoubleDummyPlayer("dd", random.Random(0))
    view = PlayView(table(Seat.E), hands[1], hands[1], (), Seat.E, 4, Mode.N, (0, 0, 0), 0, 1, hands)
    chosen = p.play(view)
    values = card_values(deal, "N", leader="E", seat="E")
    assert values[chosen] == max(values.values()) == solve(deal, "N", leader="E", seat="E")


def test_dd_player_declares_the_mode_with_the_best_engine_value():
    deal = Deal.parse("D:AKQ.2.3.4 J3.AK.Q.2 T9.Q3.A.3")
    hands = hand_masks(deal)
    rs = TWELVE
    t = Table(rs, 1, 0, 0, Seat.D, rs.targets, Seat.D, (0, 0, 0))
    p = DoubleDummyPlayer("dd", random.Random(0))
    d = p.declare(DeclareView(t, "mode", hands[0], hands[0], SUITS, 0, None, hands, 0))
    values = {m: solve(deal, m, leader="E", seat="D") for m in "SHDC"}
    assert values[d.mode] == max(values.values())


def test_dd_player_plays_whole_matches_legally():
    players = [
        DoubleDummyPlayer("dd", random.Random(1), engine_cards=5),
        get_player("heuristic", 1),
        get_player("random", 2),
    ]
    rec = Match(get_ruleset("twelve", hands_limit=2, win_tricks=16), players, 3).play()
    assert len(rec["hands"]) == 2


def test_card_return_offers_a_low_card_where_the_partner_likely_holds_more():
    from solver.game.views import ExchangeView

    p = get_player("heuristic", 0)
    hand = mask("AKQ2.9853.A2.A3")
    view = ExchangeView(table(), "give", hand, Seat.E, allowed=hand, trump=0)
    assert str(p.give_card(view)) == "H3"  # our best heart is only the nine
    view = ExchangeView(table(), "give-back", hand, Seat.E, allowed=hand, trump=0)
    assert str(p.give_card(view)) == "D2"  # named-suit give-back: lowest of a short side suit


def test_named_suit_choice_depends_on_who_names_trump_next():
    from solver.game.views import ExchangeView

    p = get_player("heuristic", 0)
    hand = mask("AKQ98.32.K2.Q432")
    suits = tuple(Suit)
    declarer_view = ExchangeView(table(Seat.D), "name-suit", hand, Seat.E, suits=suits)
    assert p.name_suit(declarer_view) == 0  # the dealer builds up his long suit
    other_view = ExchangeView(table(Seat.E), "name-suit", hand, Seat.D, suits=suits)
    assert p.name_suit(other_view) == 1  # others go for the suit whose top cards are missing
