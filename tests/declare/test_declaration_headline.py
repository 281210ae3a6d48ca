"""The declaration in one sentence (``sm358 declare``'s "Recommended:" line)."""

from solver.analysis.advice_text import declaration_headline
from solver.cards import Hand, parse_cards
from solver.deal import Strain
from solver.declare.optimiser import Choice, Declaration


def _declaration(by_strain: dict[str, int], chosen: str, misere: bool) -> Declaration:
    values = {Strain.parse(t): v for t, v in by_strain.items()}
    best = values[Strain.parse(chosen)]
    return Declaration(
        declarer="D",
        tricks=best,
        by_strain=values,
        optimal=[Choice(Strain.parse(chosen), tuple(parse_cards("S2 C5")), 1)],
        candidates_searched=1,
        held=Hand(parse_cards("S2 C5 HA")),
        misere=misere,
        blind=False,
        classes=1,
    )


def test_normal_play_names_the_choice_and_the_next_best_strain():
    text = declaration_headline(_declaration({"S": 2, "H": 9, "D": 7, "C": 7}, "H", misere=False))
    assert text == (
        "Name ♥ and discard ♠2 ♣5: you make 9 tricks against any defence (double dummy); "
        "in the next best strain, ♦, 7."
    )


def test_misere_speaks_of_a_maximum_and_takes_the_lowest_runner_up():
    text = declaration_headline(_declaration({"S": 3, "N": 1, "C": 2}, "N", misere=True))
    assert text.startswith("Name NT and discard ♠2 ♣5: you take at most 1 trick against")
    assert text.endswith("in the next best strain, ♣, at most 2.")


def test_one_strain_has_no_runner_up():
    text = declaration_headline(_declaration({"N": 4}, "N", misere=False))
    assert text.endswith("(double dummy).") and "next best" not in text
