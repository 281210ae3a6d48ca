"""Notation unit tests: what is accepted, and that every error says what is wrong and where.

Why: the notation is the user's way in (command line, files, notebooks). A message such
as "invalid deal" leaves the user hunting; these tests pin that each message names the
card, the seat or the sizes at fault.
"""

from __future__ import annotations

import json

import pytest

from solver.cards import Card, Hand, Suit, parse_cards
from solver.deal import Deal, Seat, Strain, parse_strains
from solver.errors import InvalidDealError, NotationError, SolverError

FULL = Deal.random(seed=7)


def full_deal_text_with(seat: str, hand: str) -> str:
    """FULL written from D, with one hand replaced by ``hand``."""
    hands = {s.name: str(FULL[s]) for s in Seat}
    hands[seat] = hand
    return f"D:{hands['D']} {hands['E']} {hands['M']}"


# --- the errors the issue names ---------------------------------------------------------


def test_duplicate_card_names_card_and_both_seats():
    with pytest.raises(InvalidDealError) as err:
        Deal.parse("D:A.2.. K.3.. A.4..")
    msg = str(err.value)
    assert "SA" in msg and "D" in msg and "M" in msg
    assert "duplicate" in msg


def test_duplicate_card_between_hand_and_widow():
    with pytest.raises(InvalidDealError, match=r"duplicate card HK in E and the widow"):
        Deal.parse("D:A... .K.. Q... | .K..")


def test_hand_sizes_16_16_15():
    m_hand = FULL["M"]
    short = m_hand.remove(next(iter(m_hand)))
    text = full_deal_text_with("M", str(short))
    with pytest.raises(InvalidDealError) as err:
        Deal.parse(text)
    assert "16/16/15" in str(err.value)
    assert "D/E/M" in str(err.value)


def test_hand_sizes_reported_in_seat_order_whatever_the_first_seat():
    # Written from E: E has 2 cards, M 1, D 1 -> reported as D/E/M = 1/2/1.
    with pytest.raises(InvalidDealError, match=r"1/2/1"):
        Deal.parse("E:AK... Q... J...")


def test_unknown_rank_names_rank_and_hand():
    with pytest.raises(NotationError) as err:
        Deal.parse("D:A... X... Q...")
    msg = str(err.value)
    assert "'X'" in msg and "hand E" in msg


def test_unknown_rank_in_hand_written_first_from_another_seat():
    with pytest.raises(NotationError, match=r"hand M.*'X'"):
        Deal.parse("M:.X.. A... K...")


def test_unknown_rank_in_widow():
    with pytest.raises(NotationError, match=r"widow.*'Z'"):
        Deal.parse("D:A... K... Q... | Z...")


@pytest.mark.parametrize(
    "text, letter", [("Q:A... K... Q...", "Q"), ("W:A... K... Q...", "W"), ("N:A... K... Q...", "N")]
)
def test_unknown_seat_letter(text, letter):
    with pytest.raises(NotationError) as err:
        Deal.parse(text)
    assert f"'{letter}'" in str(err.value) and "seat" in str(err.value)


@pytest.mark.parametrize(
    "text, words",
    [
        ("A... K... Q...", "seat letter"),
        ("D:A... K...", "2 hand"),
        ("D:A... K... Q... J...", "4 hand"),
        ("D:A.... K... Q...", "5 suit group"),
        ("D:A... K... Q... | J... | T...", "more than one '|'"),
        ("D:... ... ...", "0 cards"),
    ],
)
def test_other_malformed_deals(text, words):
    with pytest.raises(NotationError, match=words.replace("|", r"\|")):
        Deal.parse(text)


def test_one_exception_hierarchy():
    assert issubclass(InvalidDealError, NotationError)
    assert issubclass(NotationError, SolverError)
    assert issubclass(SolverError, ValueError)


# --- what is accepted -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("SA", "SA"),
        ("sa", "SA"),
        ("HT", "HT"),
        ("H10", "HT"),
        ("h10", "HT"),
        ("♠A", "SA"),
        ("A♠", "SA"),
        ("10♥", "HT"),
        ("♦10", "DT"),
        ("♣2", "C2"),
        (" C9 ", "C9"),
    ],
)
def test_card_forms(text, expected):
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize(
    "text", ["S", "SX", "XA", "S1", "S11", "", "♠", "S 10", "AS", "ſA"]
)  # 'ſ'.upper() == 'S': only ASCII letters name suits
def test_bad_cards(text):
    with pytest.raises(NotationError, match="cannot read card"):
        Card.parse(text)


def test_hand_accepts_ten_symbols_case_and_void_dash():
    assert Hand.parse("♠AK10.♥Q.-.♣2") == Hand.parse("AKT.Q..2")
    assert Hand.parse("akt.q..2") == Hand.parse("AKT.Q..2")
    assert str(Hand.parse("10 9.—..")) == "T9..."


def test_hand_rejects_symbol_in_the_wrong_group():
    with pytest.raises(NotationError, match="♥ in the S group"):
        Hand.parse("♥A...")


def test_deal_accepts_symbols_ten_and_lowercase():
    a = Deal.parse("d:♠A10... ♠KQ... ♠J9... | ♠8...")
    b = Deal.parse("D:AT... KQ... J9... | 8...")
    assert a == b
    assert str(a) == "D:AT... KQ... J9... | 8..."


def test_deal_written_from_each_seat():
    d = Deal.parse("D:A... K... Q...")
    assert Deal.parse("E:K... Q... A...") == d
    assert Deal.parse("M:Q... A... K...") == d
    assert d.to_string("E") == "E:K... Q... A..."
    assert d.to_string("M") == "M:Q... A... K..."


def test_random_full_deal_shape_and_reproducibility():
    d = Deal.random(seed=3)
    assert d == Deal.random(seed=3)
    assert d != Deal.random(seed=4)
    assert [len(h) for h in d.hands] == [16, 16, 16] and len(d.widow) == 4
    cards = set()
    for h in (*d.hands, d.widow):
        cards |= set(h)
    assert len(cards) == 52


@pytest.mark.parametrize("size", [1, 5, 16, 17])
def test_any_equal_hand_size_is_legal(size):
    d = Deal.random(seed=size, hand_size=size, widow_size=0)
    assert Deal.parse(str(d)) == d and d.hand_size == size


def test_seat_and_strain_parsing():
    assert Seat.parse("e") is Seat.E and Seat.parse(2) is Seat.M
    assert Strain.parse("nt") is Strain.N and Strain.parse("♥") is Strain.H
    assert parse_strains("SHDCN") == list(Strain)
    with pytest.raises(NotationError, match="unknown seat 'X'"):
        Seat.parse("X")
    with pytest.raises(NotationError, match="unknown strain 'Z'"):
        Strain.parse("Z")
    with pytest.raises(NotationError, match="unknown strain"):
        Strain.parse("ſ")
    with pytest.raises(NotationError, match="repeated"):
        parse_strains("SS")
    assert Suit.parse("♣") is Suit.C


def test_parse_cards_list_forms():
    assert parse_cards("SA HK") == parse_cards("SA,HK") == [Card(Suit.S, 14), Card(Suit.H, 13)]


# --- JSON -------------------------------------------------------------------------------


def test_json_form_and_round_trip():
    d = Deal.parse("E:AK... Q2... 3.A.. | ..AKQ.")
    data = d.to_json()
    assert data == {"hands": {"D": "3.A..", "E": "AK...", "M": "Q2..."}, "widow": "..AKQ."}
    assert Deal.from_json(data) == d
    assert Deal.from_json(json.dumps(data)) == d


def test_json_without_widow():
    assert Deal.from_json('{"hands": {"D": "A...", "E": "K...", "M": "Q..."}}') == Deal.parse(
        "D:A... K... Q..."
    )


@pytest.mark.parametrize(
    "text, words",
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", '"hands"'),
        ('{"hands": {"D": "A...", "E": "K...", "X": "Q..."}}', "unknown seat 'X'"),
        ('{"hands": {"D": "A...", "E": 5, "M": "Q..."}}', "hand E"),
        ('{"hands": {"D": "A...", "E": "K...", "M": "Q.X.."}}', "hand M.*'X'"),
        ('{"hands": {"D": "A...", "E": "K..."}}', "no hand given for seat.*M"),
        ('{"hands": {"D": "A...", "E": "K...", "M": "A..."}}', "duplicate card SA in D and M"),
        ('{"hands": {"D": "A...", "E": "K...", "M": "Q..."}, "widow": 3}', "widow"),
    ],
)
def test_json_errors(text, words):
    with pytest.raises(NotationError, match=words):
        Deal.from_json(text)


# --- one spelling of parsing -------------------------------------------------------------


@pytest.mark.parametrize(
    "kind, text",
    [(Suit, "H"), (Card, "SA"), (Hand, "AK.Q..2"), (Deal, "D:A... K... Q..."), (Seat, "E"), (Strain, "N")],
)
def test_every_type_parses_its_string_and_itself(kind, text):
    obj = kind.parse(text)
    assert isinstance(obj, kind)
    assert kind.parse(obj) is obj
    assert kind.parse(str(obj) if kind not in (Suit, Seat, Strain) else obj.name) == obj
    with pytest.raises(NotationError):
        kind.parse(3.5)
