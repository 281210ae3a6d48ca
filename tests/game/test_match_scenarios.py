"""Scenario tests of the match loop: what the declarer sees under each widow rule, the
order of exchange and declaration per protocol, and a fixed deal that ends a match."""

from __future__ import annotations

import random

from solver.cards import ALL_CARDS, Card, Hand
from solver.game.match import Match
from solver.game.rules import get_ruleset
from solver.game.views import DeclareView, ExchangeView
from solver.players import HeuristicPlayer


class Recorder(HeuristicPlayer):
    """A heuristic player that logs every decision it is asked for, in order."""

    def __init__(self, name, log):
        super().__init__(name, random.Random(name))
        self.log = log

    def declare(self, view):
        self.log.append(("declare", view.table.hand_number, view.stage, view))
        return super().declare(view)

    def name_suit(self, view):
        self.log.append(("exchange", view.table.hand_number, view.role, view))
        return super().name_suit(view)

    def give_card(self, view):
        self.log.append(("exchange", view.table.hand_number, view.role, view))
        return super().give_card(view)


def run(preset, seed=3, **options):
    log: list[tuple[str, int, str, DeclareView | ExchangeView]] = []
    players = [Recorder(n, log) for n in ("a", "b", "c")]
    record = Match(get_ruleset(preset, **options), players, seed).play()
    return record, log


def widow_mask(record, number):
    return Hand.parse(record["hands"][number - 1]["widow"]).mask


def test_see_then_discard_declarer_chooses_from_all_twenty_cards():
    record, log = run("twelve")
    for kind, number, stage, view in log:
        if kind == "declare":
            assert stage == "both" and view.n_discard == 4
            assert bin(view.hand).count("1") == 20
            assert view.hand & widow_mask(record, number) == widow_mask(record, number)


def test_blind_discard_declarer_discards_before_taking_the_widow():
    record, log = run("card-return")
    for kind, number, stage, view in log:
        if kind == "declare" and stage in ("discard", "both"):  # "both" when no exchange comes between
            assert bin(view.hand).count("1") == 16
            assert view.hand & widow_mask(record, number) == 0
    for h in record["hands"]:
        discards = {Card.parse(c) for c in h["declaration"]["discard"]}
        assert not discards & set(Hand.parse(h["widow"]))  # widow cards are never discarded


def test_blind_trump_names_the_mode_before_seeing_the_widow():
    record, log = run("blind-widow")
    for kind, number, stage, view in log:
        if kind == "declare" and stage == "mode":
            assert view.visible & widow_mask(record, number) == 0
        if kind == "declare" and stage == "discard":
            assert bin(view.hand).count("1") == 20


def test_first_six_shows_the_game_leader_six_of_his_cards():
    record, log = run("hungarian")
    seen = 0
    for kind, _number, stage, view in log:
        if kind == "declare" and stage == "mode":
            assert bin(view.visible).count("1") == 6
            assert view.visible & ~view.hand == 0
            seen += 1
    assert seen == 18


def order_of(log, number):
    return [kind if kind == "exchange" else f"declare:{stage}" for kind, n, stage, _ in log if n == number]


def test_named_suit_exchange_comes_before_the_declaration():
    record, log = run("twelve", hands_limit=6, win_tricks=16)
    checked = 0
    for number, h in enumerate(record["hands"], 1):
        steps = order_of(log, number)
        if h["exchange"]:
            assert steps[-1] == "declare:both" and set(steps[:-1]) == {"exchange"}
            checked += 1
    assert checked


def test_card_return_trump_is_named_before_the_exchange_and_discards_after():
    record, log = run("card-return")
    checked = 0
    for number, h in enumerate(record["hands"], 1):
        steps = order_of(log, number)
        if h["exchange"]:
            assert steps[0] == "declare:mode" and steps[-1] == "declare:discard"
            assert set(steps[1:-1]) == {"exchange"}
            checked += 1
    assert checked


def test_a_fixed_deal_with_a_monster_hand_ends_a_twelve_match_at_once():
    spades = [c for c in ALL_CARDS if c.suit == 0]
    aces = [Card.parse(x) for x in ("HA", "DA", "CA")]
    rest = [c for c in ALL_CARDS if c not in spades and c not in aces]
    deals = {1: ([spades + aces, rest[:16], rest[16:32]], rest[32:36])}
    players = [HeuristicPlayer(n, random.Random(0)) for n in "abc"]
    record = Match(get_ruleset("twelve"), players, 0, first_dealer=2, deal_source=deals.__getitem__).play()
    assert len(record["hands"]) == 1
    h = record["hands"][0]
    assert h["declaration"]["mode"] == "S"
    assert h["tricks"]["D"] >= 12
    result = record["result"]
    assert result is not None
    assert result["reason"] == "twelve-tricks" and result["winner"] == 2
