"""Rulesets: presets, options, the order of steps, and invalid combinations."""

from __future__ import annotations

import json

import pytest

from solver.cards import Card
from solver.deal import Seat
from solver.errors import RulesError
from solver.game.rules import (
    OPTION_NAMES,
    PRESET_SUMMARIES,
    PRESETS,
    Ruleset,
    get_ruleset,
    minimising_targets,
)
from solver.modes import Mode


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_is_valid_round_trips_and_is_described(name):
    r = get_ruleset(name)
    assert r.name == name
    data = json.loads(json.dumps(r.to_dict()))
    assert set(data) == set(OPTION_NAMES)
    assert Ruleset.from_dict(data) == r
    assert sum(r.targets) == r.tricks_per_hand
    assert len(r.deck) == r.deck_size == 3 * r.hand_size + r.widow_size
    text = r.describe()
    assert name in text and str(r.targets[0]) in text
    assert name in PRESET_SUMMARIES


def test_the_four_rule_systems():
    british, twelve, card_return, hungarian = (
        get_ruleset(n) for n in ("british", "twelve", "card-return", "hungarian")
    )
    assert british.targets == twelve.targets == card_return.targets == (8, 5, 3)
    assert (british.exchange, british.match_end) == ("lowest-for-highest", "round-the-table")
    assert (twelve.exchange, twelve.match_end, twelve.hands_limit) == ("named-suit", "first-to-12", 10)
    assert (card_return.widow, card_return.first_leader, card_return.tie_break) == (
        "blind-discard",
        "declarer",
        "chain-002",
    )
    assert hungarian.targets == (3, 8, 5) and hungarian.declarer == Seat.E
    assert hungarian.modes == frozenset({"S", "H", "D", "C", "N", "MT"}) and hungarian.must_ruff
    assert hungarian.widow == "first-six" and hungarian.match_end == "hungarian-18"


def test_named_variants():
    assert get_ruleset("9-5-2").targets == (9, 5, 2)
    r = get_ruleset("6-3-8")
    assert (r.deck_size, r.hand_size, r.widow, r.targets) == (51, 17, "none", (6, 3, 8))
    assert Card.parse("C2") not in r.deck and len(r.deck) == 51
    assert get_ruleset("no-exchange").exchange == "none"
    assert get_ruleset("double-payment").double_payment
    assert get_ruleset("blind-widow").widow == "blind-trump"


def test_sequence_of_steps_per_rule_system():
    assert get_ruleset("twelve").sequence == ("exchange", "take-widow", "name", "discard")
    # 002: the contract first, then the exchange, then the blind discard before taking the widow.
    assert get_ruleset("card-return").sequence == ("name", "exchange", "discard", "take-widow")
    # 004: mode from the first six cards, exchange, then the widow.
    assert get_ruleset("hungarian").sequence == ("name", "exchange", "take-widow", "discard")
    assert get_ruleset("blind-widow").sequence == ("exchange", "name", "take-widow", "discard")
    assert get_ruleset("british", trump_before_exchange=True).sequence == (
        "take-widow",
        "name",
        "discard",
        "exchange",
    )
    assert get_ruleset("no-exchange").sequence == ("take-widow", "name", "discard")
    assert get_ruleset("6-3-8").sequence == ("exchange", "name")


def test_mt_targets_swap_ends():
    assert minimising_targets((3, 8, 5)) == (8, 3, 5)
    assert minimising_targets((8, 5, 3)) == (3, 5, 8)
    r = get_ruleset("hungarian")
    assert [r.target_of(s, "MT") for s in Seat] == [8, 3, 5]
    assert [r.target_of(s, "N") for s in Seat] == [3, 8, 5]


def test_with_options_validates_and_names_the_variant():
    r = get_ruleset("twelve", double_payment=True)
    assert r.double_payment and r.name == "twelve+custom"
    assert r.diff(get_ruleset("twelve")) == {"double_payment": True}
    assert r.with_options(hands_limit=12).name == "twelve+custom"
    assert get_ruleset("british", modes="SHDCN").modes == frozenset("SHDCN")
    assert get_ruleset("twelve", modes="S,H,NT,miz").modes == frozenset({"S", "H", "N", "miz"})
    assert get_ruleset("twelve", modes="SHDCNmiz").modes == frozenset({"S", "H", "D", "C", "N", "miz"})
    assert get_ruleset("hungarian", modes="shdcn MT").modes == get_ruleset("hungarian").modes
    assert get_ruleset("british", targets=[9, 5, 2]).targets == (9, 5, 2)


@pytest.mark.parametrize(
    "preset, options, message",
    [
        ("british", {"widow": "none"}, "use widow 'none' exactly when"),
        ("british", {"widow": "none", "widow_size": 0}, "use 48 cards"),
        ("british", {"deck_size": 51}, "use 52 cards, but the deck has 51"),
        ("british", {"deck_size": 50}, "deck_size must be 52, or 51"),
        ("british", {"targets": (8, 5, 4)}, "add up to 17"),
        ("british", {"targets": (8, 5)}, "three numbers"),
        ("british", {"modes": frozenset("SHDC") | {"MT"}}, "use the misère declaration 'miz'"),
        ("twelve", {"modes": frozenset({"S", "MT"})}, "MT"),
        ("hungarian", {"modes": frozenset({"S", "H", "D", "C", "N", "MT", "miz"})}, "allow only one"),
        ("british", {"modes": frozenset()}, "modes is empty"),
        ("british", {"modes": frozenset({"X"})}, "unknown mode"),
        ("british", {"modes": "SHX"}, "unknown mode 'SHX'"),
        ("british", {"double_payment": True}, "double_payment is an option of the named-suit exchange"),
        ("card-return", {"double_payment": True}, "double_payment"),
        ("twelve", {"trump_before_exchange": True}, "lowest-for-highest house option"),
        (
            "hungarian",
            {"match_end": "hands", "modes": frozenset({"N", "MT"})},
            "no trump suit is among the modes",
        ),
        ("card-return", {"modes": frozenset({"N"})}, "no trump suit"),
        ("hungarian", {"modes": frozenset("SHDC")}, "six modes"),
        ("hungarian", {"hands_limit": 12}, "18 deals"),
        ("hungarian", {"tie_break": "tie-break-hand"}, "tie-break hand"),
        ("british", {"match_end": "hands", "hands_limit": None}, "needs hands_limit"),
        ("british", {"exchange": "swap"}, "exchange must be one of"),
        ("british", {"must_ruff": "yes"}, "true or false"),
        ("british", {"declarer": "X"}, "declarer must be D, E or M"),
        ("british", {"hands_limit": 0}, "hands_limit"),
        ("british", {"trumps": "S"}, "unknown ruleset option"),
    ],
)
def test_invalid_combinations_are_rejected_with_a_clear_message(preset, options, message):
    with pytest.raises(RulesError, match=message):
        get_ruleset(preset, **options)


def test_unknown_preset_names_the_presets():
    with pytest.raises(RulesError, match="unknown ruleset 'bogus'.*twelve"):
        get_ruleset("bogus")


def test_from_dict_rejects_unknown_options_and_non_objects():
    with pytest.raises(RulesError, match="unknown ruleset option"):
        Ruleset.from_dict({"colour": "red"})
    with pytest.raises(RulesError, match="JSON object"):
        Ruleset.from_dict(["british"])  # type: ignore[arg-type]  # a non-object is the point


def test_exchange_only_in_trump_contracts_for_card_return_and_hungarian():
    for name in ("card-return", "hungarian"):
        r = get_ruleset(name)
        assert r.trump_named_before_exchange
        assert r.exchange_in_mode("H") and not r.exchange_in_mode("N")
    assert get_ruleset("twelve").exchange_in_mode(None)
    assert not get_ruleset("no-exchange").exchange_in_mode("S")


# --- the rule facts a ruleset answers ------------------------------------------------------
def test_the_opening_leader_follows_first_leader():
    british, hungarian = get_ruleset("british"), get_ruleset("hungarian")
    assert british.opening_leader() is Seat.E and british.opening_leader(Seat.M) is Seat.E
    assert hungarian.opening_leader() is hungarian.declarer is Seat.E
    assert get_ruleset("card-return").opening_leader(Seat.M) is Seat.M


def test_the_misere_mode_is_mt_or_miz_or_none():
    assert get_ruleset("hungarian").misere_mode is Mode.MT
    assert get_ruleset("miz").misere_mode is Mode.miz
    assert get_ruleset("twelve").misere_mode is None


def test_the_optimisers_question():
    q = get_ruleset("card-return").optimiser_question()
    assert q == {"declarer": Seat.D, "leader": Seat.D, "strains": "SHDC", "blind": True, "must_ruff": False}
    q = get_ruleset("hungarian").optimiser_question()
    assert (q["declarer"], q["leader"], q["strains"], q["must_ruff"]) == (Seat.E, Seat.E, "SHDCN", True)
    assert get_ruleset("miz").optimiser_question(misere=True)["strains"] == "N"
    with pytest.raises(RulesError, match="fewest-tricks"):
        get_ruleset("twelve").optimiser_question(misere=True)


def test_option_choices_are_the_literal_types():
    from typing import get_args, get_type_hints

    from solver.game import rules

    hints = get_type_hints(Ruleset)
    for field, allowed in (
        ("first_leader", rules.FIRST_LEADERS),
        ("widow", rules.WIDOW_RULES),
        ("exchange", rules.EXCHANGES),
        ("match_end", rules.MATCH_ENDS),
        ("tie_break", rules.TIE_BREAKS),
    ):
        assert get_args(hints[field]) == allowed
        with pytest.raises(RulesError, match=field):
            Ruleset(**{field: "nonsense"})  # type: ignore[arg-type]  # a value outside the Literal is the point
