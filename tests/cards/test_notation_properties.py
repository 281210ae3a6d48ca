"""Property tests of the notation: exact round-trips, and garbage only ever raises NotationError.

Why: hand-picked examples miss the odd corners (a 17-card hand, an empty widow, a deal
written from M, unicode oddities). Hypothesis explores those; any exception other than
NotationError on bad text would reach the user as a traceback.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import ALL_CARDS, RANK_CHARS, SUIT_SYMBOLS, Card, Hand, Suit, parse_cards
from solver.deal import Deal, Seat, Strain, parse_strains
from solver.errors import NotationError

cards = st.sampled_from(ALL_CARDS)
hands = st.sets(cards, max_size=20).map(Hand)


@st.composite
def deals(draw) -> Deal:
    """Any legal deal: equal hands of 1..17 cards and a widow from the rest (maybe empty)."""
    order = draw(st.permutations(ALL_CARDS))
    n = draw(st.integers(1, 17))
    w = draw(st.integers(0, 52 - 3 * n))
    return Deal([Hand(order[i * n : (i + 1) * n]) for i in range(3)], Hand(order[3 * n : 3 * n + w]))


seats = st.sampled_from(list(Seat))


@st.composite
def hand_text_variants(draw, hand: Hand) -> str:
    """``hand`` written in any of the accepted styles: case, ``10``, symbols, ``-`` for voids."""
    groups = []
    for suit in range(4):
        ranks = [RANK_CHARS[c.rank - 2] for c in hand.cards_in(suit)]
        text = "".join(
            ("10" if r == "T" and draw(st.booleans()) else r.lower() if draw(st.booleans()) else r)
            for r in ranks
        )
        if not text and draw(st.booleans()):
            text = "-"
        if draw(st.booleans()):
            text = SUIT_SYMBOLS[suit] + text
        groups.append(text)
    return ".".join(groups)


# --- round trips ------------------------------------------------------------------------


@given(cards)
def test_card_round_trip(card):
    assert Card.parse(str(card)) is card
    assert Card.parse(card.pretty()) is card
    assert Card.parse(str(card).lower()) is card
    assert Card.from_index(card.index) is card and Card.from_bit(card.bit) is card


@given(hands)
def test_hand_round_trip(hand):
    assert Hand.parse(str(hand)) == hand
    assert len(hand) == len(list(hand))
    assert Hand(list(hand)) == hand and Hand(hand.mask) == hand


@given(st.data())
def test_hand_accepted_styles(data):
    hand = data.draw(hands)
    text = data.draw(hand_text_variants(hand))
    assert Hand.parse(text) == hand


@given(deals(), seats)
def test_deal_round_trip_from_every_seat(deal, first):
    text = deal.to_string(first)
    assert text.startswith(f"{first.name}:")
    assert Deal.parse(text) == deal
    assert Deal.parse(str(deal)) == deal
    assert ("|" in str(deal)) == bool(deal.widow)
    assert hash(Deal.parse(text)) == hash(deal)


@given(deals())
def test_deal_json_round_trip(deal):
    data = deal.to_json()
    assert Deal.from_json(data) == deal
    assert Deal.from_json(json.dumps(data)) == deal
    assert Deal.from_json(json.dumps(data, ensure_ascii=True)) == deal


@given(st.integers(0, 2**32), st.integers(1, 17))
def test_random_deals_are_legal_and_reproducible(seed, size):
    widow = min(4, 52 - 3 * size)
    d = Deal.random(seed=seed, hand_size=size, widow_size=widow)
    assert d == Deal.random(seed=seed, hand_size=size, widow_size=widow)
    assert d.hand_size == size and len(d.widow) == widow
    assert Deal.parse(str(d)) == d


# --- garbage only ever raises NotationError ---------------------------------------------

NOTATION_ALPHABET = st.sampled_from(list("DEMSHCNAKQJT98765432110.:| -—♠♥♦♣xX,\t\n") + ["10"])
near_notation = st.lists(NOTATION_ALPHABET, max_size=60).map("".join)
anything = st.one_of(st.text(max_size=60), near_notation)


def only_notation_errors(func, text) -> None:
    try:
        func(text)
    except NotationError:
        pass


@settings(max_examples=300)
@given(anything)
def test_garbage_deal_text(text):
    only_notation_errors(Deal.parse, text)


@settings(max_examples=300)
@given(
    st.builds(
        lambda d, i, s: d.to_string()[:i] + s + d.to_string()[i:],
        deals(),
        st.integers(0, 80),
        st.text(max_size=3),
    )
)
def test_corrupted_real_deal_text(text):
    only_notation_errors(Deal.parse, text)


@given(anything)
def test_garbage_hand_and_card_text(text):
    only_notation_errors(Hand.parse, text)
    only_notation_errors(Card.parse, text)
    only_notation_errors(parse_cards, text)


@given(anything)
def test_garbage_seat_strain_suit_text(text):
    only_notation_errors(Seat.parse, text)
    only_notation_errors(Strain.parse, text)
    only_notation_errors(parse_strains, text)
    only_notation_errors(Suit.parse, text)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@st.composite
def json_like_deals(draw):
    """Deal JSON with random parts swapped for arbitrary JSON values."""
    data = draw(deals()).to_json()
    if draw(st.booleans()):
        data["hands"][draw(st.sampled_from(["D", "E", "M", "X", ""]))] = draw(json_values)
    if draw(st.booleans()):
        data["widow"] = draw(json_values)
    if draw(st.booleans()):
        data = {"hands": draw(json_values)}
    return data


@given(st.one_of(anything, json_values.map(json.dumps), json_like_deals().map(json.dumps)))
def test_garbage_json_text(text):
    only_notation_errors(Deal.from_json, text)


@given(st.one_of(json_values, json_like_deals()))
def test_garbage_json_objects(data):
    only_notation_errors(Deal.from_json, data)
