"""Card exchange: pairing and order of up/down players, and every protocol's card choices."""

from __future__ import annotations

import pytest

from solver.cards import Card, Hand, Suit
from solver.deal import Seat
from solver.errors import IllegalPlayError, RecordError, RulesError
from solver.game.exchange import (
    ExchangeRequest,
    Transfer,
    apply_exchange,
    cards_moved,
    carry_nets,
    check_exchange,
    exchange_plan,
    nets_by_seat,
)
from solver.game.rules import get_ruleset

D, E, M = Seat.D, Seat.E, Seat.M
#: Presets by exchange protocol: every scenario runs under each preset it applies to.
LOWEST_FOR_HIGHEST = ["british", "casual", "chips", "9-5-2", "blind-widow", "no-widow"]
NAMED_SUIT = ["twelve", "6-3-8", "nine-five-two", "no-trump", "miz"]


def H(text: str) -> Hand:
    return Hand.parse(text)


def C(text: str) -> Card:
    return Card.parse(text)


class Script:
    """A decider answering from fixed lists and recording every request it got."""

    def __init__(self, suits=(), cards=()):
        self.suits = [Suit.parse(s) for s in suits]
        self.cards = [C(c) for c in cards]
        self.requests: list[ExchangeRequest] = []

    def name_suit(self, req):
        self.requests.append(req)
        return self.suits.pop(0)

    def give_card(self, req):
        self.requests.append(req)
        return self.cards.pop(0)


# --- pairing and order ----------------------------------------------------------------------
@pytest.mark.parametrize("preset", ["british", "twelve", "card-return", "hungarian", "double-payment"])
def test_plus3_trades_one_card_with_minus1_and_two_with_minus2(preset):
    r = get_ruleset(preset)
    plan = exchange_plan((3, -1, -2), r)
    factor = 2 if r.double_payment else 1
    assert sorted((u, d, n) for u, d, n in plan) == [(D, E, 1 * factor), (D, M, 2 * factor)]


def test_one_up_trades_with_larger_deficit_first_except_target_ordered_protocols():
    assert exchange_plan((3, -1, -2), get_ruleset("british"))[0][1] == M
    assert exchange_plan((3, -1, -2), get_ruleset("twelve"))[0][1] == M
    # 002/004 order by target: E (5) before M (3); in hungarian E's target is 8.
    assert exchange_plan((3, -1, -2), get_ruleset("card-return"))[0][1] == E
    assert exchange_plan((-1, 3, -2), get_ruleset("hungarian"))[0][1] == M  # M 5 > D 3


@pytest.mark.parametrize(
    "preset, nets, first",
    [
        ("british", (1, 2, -3), E),  # larger surplus first
        ("british", (1, -2, 1), D),  # tie: higher target of the new hand (D 8 > M 3)
        ("twelve", (1, 2, -3), E),
        ("twelve", (1, -2, 1), M),  # 001: ties towards the dealer's left: E, M, D
        ("twelve", (1, 1, -2), E),
        ("card-return", (1, 2, -3), D),  # 002: larger target starts, whatever the surplus
        ("card-return", (-2, 1, 1), E),
        ("hungarian", (2, 1, -3), E),  # 004: who needs more tricks (E, 8) starts
        ("hungarian", (1, -3, 2), M),  # M needs 5 > D 3
    ],
)
def test_two_players_up_order(preset, nets, first):
    plan = exchange_plan(nets, get_ruleset(preset))
    assert len(plan) == 2
    assert plan[0][0] == first
    down = next(s for s in Seat if nets[s] < 0)
    assert all(d == down for _, d, _ in plan)
    assert {(u, n) for u, _, n in plan} == {(s, nets[s]) for s in Seat if nets[s] > 0}


def test_two_player_exchange_when_one_is_exactly_on_target():
    assert exchange_plan((0, 2, -2), get_ruleset("hungarian")) == [(E, M, 2)]


def test_no_exchange_when_nobody_is_up_or_protocol_none():
    assert exchange_plan((0, 0, 0), get_ruleset("british")) == []
    assert exchange_plan((3, -1, -2), get_ruleset("no-exchange")) == []


def test_plan_rejects_nets_that_do_not_balance():
    with pytest.raises(RulesError, match="sum to zero"):
        exchange_plan((3, -1, -1), get_ruleset("british"))


def test_carry_nets_moves_every_player_one_seat_back():
    # Previous hand: D +3, E -1, M -2. The old E deals next (new D), old M is new E, old D new M.
    assert carry_nets((3, -1, -2)) == (-1, -2, 3)
    # Same through player indices: players 0,1,2; dealer was 0, next dealer is 1.
    by_player = (3, -1, -2)
    assert nets_by_seat(by_player, 1) == carry_nets(nets_by_seat(by_player, 0))


# --- lowest-for-highest (000) -----------------------------------------------------------------
@pytest.mark.parametrize("preset", LOWEST_FOR_HIGHEST)
def test_lowest_for_highest_before_trump_aces_first_ties_by_suit_order(preset):
    r = get_ruleset(preset)
    hands = [H("A2.K.Q.3"), H("Q.A.4.K"), H("K.3.A.A")]
    (d, e, m), log = apply_exchange(hands, [(D, M, 2)], r)
    # D gives his two lowest (the 2, then the 3); M his two highest: aces, ♦ before ♣.
    assert [t for t in log if t.frm == D] == [Transfer(D, M, C("S2")), Transfer(D, M, C("C3"))]
    assert [t.card for t in log if t.frm == M] == [C("DA"), C("CA")]
    assert d == H("A.K.QA.A") and m == H("K2.3..3") and e == hands[1]


@pytest.mark.parametrize("preset", LOWEST_FOR_HIGHEST)
def test_lowest_for_highest_with_trump_named_first_ranks_trumps_highest(preset):
    r = get_ruleset(preset, trump_before_exchange=True)
    hands = [H("A2.K.Q.3"), H("Q.A.4.K"), H("K.3.A2.A")]
    _, log = apply_exchange(hands, [(D, M, 1)], r, trump="H")
    assert [t.card for t in log if t.frm == M] == [C("H3")]  # the ♥3 beats the aces
    assert [t.card for t in log if t.frm == D] == [C("S2")]


def test_lowest_for_highest_rejects_a_trump_the_players_do_not_know_yet():
    with pytest.raises(RulesError, match="before the trump is named"):
        apply_exchange([H("A..."), H("K..."), H("Q...")], [(D, E, 1)], get_ruleset("british"), trump="S")


# --- named-suit (001/003) ----------------------------------------------------------------------
@pytest.mark.parametrize("preset", NAMED_SUIT)
def test_named_suit_down_gives_highest_of_named_suit_and_gets_any_card_back(preset):
    r = get_ruleset(preset)
    hands = [H("AK.2.3.4"), H("Q.AJ5.K.5"), H("J..AQ.A")]
    dec = Script(suits="H", cards=["D3"])
    (d, e, m), log = apply_exchange(hands, [(D, E, 1)], r, dec)
    assert log == [Transfer(E, D, C("HA")), Transfer(D, E, C("D3"))]
    assert C("HA") in d and C("D3") in e
    assert dec.requests[0].role == "name-suit" and dec.requests[1].role == "give-back"
    assert C("HA") not in dec.requests[1].allowed  # not the card just taken
    assert dec.requests[1].seen == (Transfer(E, D, C("HA")),)


@pytest.mark.parametrize("preset", NAMED_SUIT + ["double-payment"])
def test_named_suit_void_means_naming_another_suit(preset):
    r = get_ruleset(preset)
    hands = [H("AK.2.3.4"), H("QJ.AJ5.K."), H("T..AQ.AK")]
    dec = Script(suits="CS", cards=["D3"])
    _, log = apply_exchange(hands, [(D, E, 1)], r, dec)
    assert log[0] == Transfer(E, D, C("SQ"))
    second = dec.requests[1]
    assert second.role == "name-suit" and Suit.C not in second.suits and len(second.suits) == 3


def test_named_suit_cannot_name_a_suit_known_void_again():
    hands = [H("AK.2.3.4"), H("QJ.AJ5.K."), H("T..AQ.AK")]
    with pytest.raises(IllegalPlayError, match="void"):
        apply_exchange(hands, [(D, E, 1)], get_ruleset("twelve"), Script(suits="CC", cards=["D3"]))


def test_named_suit_cannot_give_back_the_card_just_taken():
    hands = [H("AK.2.3.4"), H("Q.AJ5.K.5"), H("J..AQ.A")]
    with pytest.raises(IllegalPlayError, match="just received"):
        apply_exchange(hands, [(D, E, 1)], get_ruleset("twelve"), Script(suits="H", cards=["HA"]))


def test_double_payment_moves_two_cards_per_overtrick():
    r = get_ruleset("double-payment")
    plan = exchange_plan((1, 0, -1), r)
    assert plan == [(D, M, 2)]
    hands = [H("2.2.2.2"), H("3.3.3.3"), H("A.K.Q.J")]
    (_, _, m), log = apply_exchange(hands, plan, r, Script(suits="SH", cards=["C2", "D2"]))
    assert cards_moved(log, plan) == 2
    assert m == H("..Q2.J2")


# --- card-return (002) ---------------------------------------------------------------------------
def test_card_return_down_returns_his_higher_card_of_the_suit():
    r = get_ruleset("card-return")
    hands = [H("K5.2.3.4"), H("A43.A.K.2"), H("QJ..AQ.A")]
    dec = Script(cards=["SK", "C4"])
    (d, e, _), log = apply_exchange(hands, [(D, E, 2)], r, dec, trump="H")
    assert log == [
        Transfer(D, E, C("SK")),
        Transfer(E, D, C("SA")),  # E's A beats the K: he must return it
        Transfer(D, E, C("C4")),
        Transfer(E, D, C("C4")),  # E's only club is lower: the 4 comes back
    ]
    assert d == H("A5.2.3.4") and e == H("K43.A.K.2")


def test_card_return_a_card_received_earlier_counts_as_the_down_players_own():
    hands = [H("K5.2.3.4"), H("A43.A.K.2"), H("QJ..AQ.A")]
    _, log = apply_exchange(
        hands, [(D, E, 2)], get_ruleset("card-return"), Script(cards=["SK", "S5"]), trump="H"
    )
    assert log[2:] == [Transfer(D, E, C("S5")), Transfer(E, D, C("SK"))]


@pytest.mark.parametrize("preset", ["card-return", "hungarian"])
def test_card_return_void_down_player_returns_the_received_card(preset):
    hands = [H("K5.2.3.4"), H(".AK.K2.5"), H("QJ..AQ.A")]
    _, log = apply_exchange(hands, [(D, E, 1)], get_ruleset(preset), Script(cards=["S5"]), trump="C")
    assert log == [Transfer(D, E, C("S5")), Transfer(E, D, C("S5"))]


def test_card_return_needs_a_trump_suit():
    with pytest.raises(RulesError, match="trump-suit"):
        apply_exchange(
            [H("A..."), H("K..."), H("Q...")],
            [(D, E, 1)],
            get_ruleset("card-return"),
            Script(cards=["SA"]),
            trump=None,
        )


# --- hungarian (004) -----------------------------------------------------------------------------
def test_hungarian_no_trump_suit_cards_may_be_given():
    r = get_ruleset("hungarian")
    hands = [H("K5.2.3.4"), H("A43.A.K.5"), H("QJ..AQ.A")]
    dec = Script(cards=["H2"])
    _, log = apply_exchange(hands, [(D, E, 1)], r, dec, trump="S")
    assert C("SK") not in dec.requests[0].allowed and C("H2") in dec.requests[0].allowed
    assert log == [Transfer(D, E, C("H2")), Transfer(E, D, C("HA"))]
    with pytest.raises(IllegalPlayError, match="trump"):
        apply_exchange(hands, [(D, E, 1)], r, Script(cards=["SK"]), trump="S")


@pytest.mark.parametrize("mode", ["N", "MT"])
def test_hungarian_no_exchange_in_nt_or_mt(mode):
    r = get_ruleset("hungarian")
    assert not r.exchange_in_mode(mode)
    assert r.exchange_in_mode("S")
    with pytest.raises(RulesError, match="trump-suit contract"):
        apply_exchange([H("A..."), H("K..."), H("Q...")], [(D, E, 1)], r, Script(cards=["SA"]), trump=mode)


# --- records ---------------------------------------------------------------------------------------
def test_check_exchange_replays_a_record_and_names_the_wrong_transfer():
    r = get_ruleset("card-return")
    hands = [H("K5.2.3.4"), H("A43.A.K.5"), H("QJ..AQ.A")]
    new_hands, log = apply_exchange(hands, [(D, E, 2)], r, Script(cards=["SK", "S5"]), trump="H")
    assert check_exchange(hands, [(D, E, 2)], r, log, trump="H") == new_hands
    bad = list(log)
    bad[1] = Transfer(E, D, C("S4"))
    with pytest.raises(RecordError, match="transfer 2"):
        check_exchange(hands, [(D, E, 2)], r, bad, trump="H")
    with pytest.raises(RecordError, match="4 transfers"):
        check_exchange(hands, [(D, E, 2)], r, log + log[:1], trump="H")
    with pytest.raises(RecordError):
        check_exchange(hands, [(D, E, 2)], r, log[:3], trump="H")


def test_transfer_json_round_trip():
    t = Transfer(E, D, C("SA"))
    assert t.to_json() == {"from": "E", "to": "D", "card": "SA"}
    assert Transfer.from_json(t.to_json()) == t
    with pytest.raises(RecordError, match="card"):
        Transfer.from_json({"from": "E", "to": "D"})
