"""Hand-checked positions for the reference minimax, so the engine tests rest on something trusted.

Every expected number here was worked out by hand from the rules (docs/rules.md; the
reasoning is in the comment next to it), not copied from a run.
"""

from __future__ import annotations

import pytest

import bruteforce as bf
from solver.cards import Card
from solver.deal import Deal, Seat
from solver.errors import IllegalPlayError


def deal(text: str) -> Deal:
    return Deal.parse(text)


def values(d: Deal, strain: str, **kw) -> dict[str, int]:
    return {s: bf.solve(d, strain, seat=s, **kw) for s in "DEM"}


def bits(*cards: str) -> list[int]:
    return [Card.parse(c).bit for c in cards]


# --- who wins a trick -------------------------------------------------------------------


@pytest.mark.parametrize(
    "trick, strain, winner",
    [
        (("SK", "SA", "SQ"), "N", 1),  # highest of the led suit
        (("S2", "HA", "S3"), "N", 2),  # a discard never wins, even an ace
        (("S2", "HA", "S3"), "S", 2),  # led suit is trump: highest spade
        (("SA", "H2", "SK"), "H", 1),  # the only trump wins
        (("SA", "H2", "H3"), "H", 2),  # the higher of two trumps
        (("SA", "H3", "H2"), "H", 1),  # ... whichever order they come in
        (("D5", "C9", "D4"), "H", 0),  # trumps absent: led suit, off-suit card loses
    ],
)
def test_trick_winner(trick, strain, winner):
    strain_i = "SHDCN".index(strain)
    assert bf.trick_winner_index(bits(*trick), strain_i) == winner


# --- legal cards ------------------------------------------------------------------------


def test_must_follow_suit():
    # E leads S2, M follows S3; D's only spade is SA, so SA is D's only legal card.
    d = deal("D:A.2.. 2.A.. 3.3..")
    assert [str(c) for c in bf.legal_cards(d, "N", leader="E", played=["S2", "S3"])] == ["SA"]
    # With two spades D may play either (there is no obligation to head the trick).
    d2 = deal("D:A4... 2.A.. 3.3..")
    assert {str(c) for c in bf.legal_cards(d2, "N", leader="E", played=["S2", "S3"])} == {"SA", "S4"}
    # The leader may lead anything.
    assert {str(c) for c in bf.legal_cards(d, "N", leader="D")} == {"SA", "H2"}


def test_void_may_discard_anything_without_must_ruff():
    d = deal("D:.2.3. A.4.. K.5..")
    legal = {str(c) for c in bf.legal_cards(d, "H", leader="E", played=["SA", "SK"])}
    assert legal == {"H2", "D3"}


def test_must_ruff_forces_a_trump():
    d = deal("D:.2.3. A.4.. K.5..")
    legal = {str(c) for c in bf.legal_cards(d, "H", leader="E", played=["SA", "SK"], must_ruff=True)}
    assert legal == {"H2"}
    # in no trump there is nothing to ruff with: any card
    legal_n = {str(c) for c in bf.legal_cards(d, "N", leader="E", played=["SA", "SK"], must_ruff=True)}
    assert legal_n == {"H2", "D3"}
    # void in the led suit and without trumps: any card
    d2 = deal("D:..2.3 A.4.. K.5..")
    legal2 = {str(c) for c in bf.legal_cards(d2, "H", leader="E", played=["SA", "SK"], must_ruff=True)}
    assert legal2 == {"D2", "C3"}


# --- values ----------------------------------------------------------------------------


def test_one_card_follow_suit():
    # Each holds one spade; the ace wins whoever leads, in every strain.
    d = deal("D:A... K... Q...")
    for strain in "SHDCN":
        for leader in "DEM":
            assert values(d, strain, leader=leader) == {"D": 1, "E": 0, "M": 0}


def test_ruff_beats_ace_only_in_trumps():
    # E leads SA; D (void in spades) ruffs with H2 when hearts are trump.
    d = deal("D:.2.. A... K...")
    assert values(d, "H") == {"D": 1, "E": 0, "M": 0}
    assert values(d, "N") == {"D": 0, "E": 1, "M": 0}
    assert values(d, "S") == {"D": 0, "E": 1, "M": 0}


def test_discarded_ace_does_not_win():
    d = deal("D:.A.. 2... 3...")
    assert values(d, "N") == {"D": 0, "E": 0, "M": 1}
    # but D leading its ace wins it
    assert values(d, "N", leader="D") == {"D": 1, "E": 0, "M": 0}


def test_paranoid_opponents_cooperate():
    # D: SA S2, E: SK H2, M: SQ H3; no trump, E leads.
    # If E leads SK, D wins with SA and then leads S2, on which E and M can only discard: D 2.
    # So the coalition leads H2: M wins with H3 (D discards S2), M leads SQ, D's SA wins: D 1.
    d = deal("D:A2... K.2.. Q.3..")
    assert bf.solve(d, "N", leader="E", seat="D") == 1
    # E's value: D and M together keep E to 0 (E's SK always falls under SA, H2 under H3).
    assert bf.solve(d, "N", leader="E", seat="E") == 0


def test_misere_fewest_tricks():
    # D holds the only spades above the others' spades; in misère the others lead spades
    # at D, who must follow and win both.  Normally D also takes both (only spades in play).
    d = deal("D:AK... 32... 54...")
    assert bf.solve(d, "N", seat="D", misere=True) == 2
    assert bf.solve(d, "N", seat="D") == 2
    # M's misère value: it never has to win, since its spades are below D's.
    assert bf.solve(d, "N", seat="M", misere=True) == 0


def test_misere_ducks_when_possible():
    # D: SA S2; E: SK S3; M: SQ S4; only spades.  SA wins whichever trick it is played to,
    # and S2 loses to every other spade, so D takes exactly 1 whatever anyone does.
    d = deal("D:A2... K3... Q4...")
    assert bf.solve(d, "N", seat="D", misere=True) == 1
    assert bf.solve(d, "N", seat="D") == 1


def test_must_ruff_changes_misere_value():
    # Hearts trump.  D: H2 C2; E: SA H3; M: SK H4; E leads.
    # Free: on SA (M follows SK) D discards C2; E then leads H3, M wins with H4, D's H2 is
    # under it -> 0 tricks.  (Leading H3 first is no better: H4 wins, then SA/SK, D discards.)
    # Must-ruff: on SA D must trump with H2 and wins; D leads C2, E and M must ruff -> 1.
    d = deal("D:.2..2 A.3.. K.4..")
    assert bf.solve(d, "H", seat="D", misere=True) == 0
    assert bf.solve(d, "H", seat="D", misere=True, must_ruff=True) == 1


def test_mid_trick_start():
    d = deal("D:A... K... Q...")
    # E has led SK, M must play SQ, D wins with SA.
    assert bf.solve(d, "N", leader="E", seat="D", played=["SK"]) == 1
    assert bf.card_values(d, "N", leader="E", seat="D", played=["SK"]) == {"SQ": 1}
    # Two cards played: D to move.
    assert bf.card_values(d, "N", leader="E", seat="E", played="SK SQ") == {"SA": 0}


def test_card_values_per_card():
    # D: SA S2, E: SK H2, M: SQ H3 (as in the paranoid test); D leads.
    # SA: E and M must follow SK, SQ; D wins, leads S2, both discard hearts -> 2.
    # S2: E's SK wins; E leads H2, M's H3 wins, D must discard SA -> 0.
    d = deal("D:A2... K.2.. Q.3..")
    assert bf.card_values(d, "N", leader="D", seat="D") == {"SA": 2, "S2": 0}


@pytest.mark.parametrize(
    "played, reason",
    [
        (["HA"], "not in"),  # E does not hold HA
        (["SK", "H3"], "may not"),  # M holds SQ and must follow spades
        (["SK", "SQ", "SA"], "at most"),
    ],
)
def test_illegal_played(played, reason):
    d = deal("D:A2... K.2.. Q.3..")
    with pytest.raises(IllegalPlayError, match=reason):
        bf.solve(d, "N", leader="E", seat="D", played=played)


def test_must_ruff_violation_in_played():
    # Hearts trump.  D leads C2; E (void in clubs, holding H3) must ruff under must-ruff.
    d = deal("D:.2..2 A.3.. K.4..")
    assert bf.solve(d, "H", leader="D", seat="D", played=["C2", "SA"]) >= 0
    with pytest.raises(IllegalPlayError, match="may not"):
        bf.solve(d, "H", leader="D", seat="D", played=["C2", "SA"], must_ruff=True)
    # E leads SA, M follows SK: D's only legal card under must-ruff is the trump, which wins;
    # D then leads C2 and E and M must both ruff it -> D takes 1.
    assert bf.card_values(d, "H", leader="E", seat="D", played=["SA", "SK"], must_ruff=True) == {"H2": 1}
    # Free: H2 wins then C2 loses to a heart ruff (1); C2 now lets E win and H2 later falls
    # under M's H4 (0).
    assert bf.card_values(d, "H", leader="E", seat="D", played=["SA", "SK"]) == {"H2": 1, "C2": 0}


def test_widow_is_out_of_play():
    with_widow = deal("D:A... K... Q... | .AKQ..")
    assert values(with_widow, "H") == values(with_widow.without_widow(), "H")


def test_play_out_legal_line():
    d = deal("D:A2... K.2.. Q.3..")
    # E leads H2, M wins with H3, D discards S2; M leads SQ, D wins with SA, E follows SK.
    won = bf.play_out(d, "N", ["H2", "H3", "S2", "SQ", "SA", "SK"], leader="E")
    assert won == {Seat.D: 1, Seat.E: 0, Seat.M: 1}


def test_play_out_rejects_illegal_and_short_lines():
    d = deal("D:A2... K.2.. Q.3..")
    with pytest.raises(IllegalPlayError):
        bf.play_out(d, "N", ["H2", "SQ"], leader="E")  # M must follow hearts with H3
    with pytest.raises(AssertionError):
        bf.play_out(d, "N", ["H2", "H3", "S2"], leader="E")
