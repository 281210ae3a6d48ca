"""``declare_target``: a choice that reaches a target, or the proof that none does, checked
against the exact optimum of ``declare`` and against the engine's value of the choice."""

from __future__ import annotations

import pytest

from solver.cards import Hand
from solver.deal import Deal
from solver.declare import declare, declare_target
from solver.engine import solve
from solver.errors import EngineError


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("misere", [False, True])
def test_a_target_is_reached_exactly_when_the_optimum_reaches_it(seed, misere):
    deal = Deal.random(seed=seed, hand_size=6, widow_size=2)
    strains = "SHDCN"
    optimum = declare(deal, misere=misere, strains=strains).tricks
    for target in range(deal.hand_size + 1):
        answer = declare_target(deal, target, misere=misere, strains=strains)
        assert answer.reached == (optimum <= target if misere else optimum >= target), target
        if answer.choice is None:
            assert answer.candidates_asked == answer.classes  # every candidate refuted
            continue
        hands = list(deal.hands)
        hands[0] = (deal.hands[0] | deal.widow) - Hand(answer.choice.discard)
        value = solve(Deal(hands), answer.choice.strain, leader="E", seat="D", misere=misere)
        assert value <= target if misere else value >= target


def test_misere_asks_no_trump_by_default_and_the_target_is_checked():
    deal = Deal.parse("D:AK.2.. Q2.3.. 3.A4.. | 4.5..")
    answer = declare_target(deal, 2, misere=True)
    assert answer.choice is not None and answer.choice.strain.name == "N"
    for bad in (-1, 4, 1.5, True, "2"):
        with pytest.raises(EngineError, match="target must be a number of tricks from 0 to 3"):
            declare_target(deal, bad)  # type: ignore[arg-type]


def test_the_answer_as_json():
    deal = Deal.parse("D:AK.2.. Q2.3.. 3.A4.. | 4.5..")
    data = declare_target(deal, 1, strains="S", leader="D").to_dict()
    assert data["reached"] is True and data["target"] == 1 and data["choice"]["strain"] == "S"
    assert set(data) == {
        "declarer",
        "target",
        "misere",
        "reached",
        "choice",
        "candidates_asked",
        "candidates_searched",
        "classes",
    }
