"""The bundled examples parse, have the advertised shape, and their comments tell the truth.

Why: ``examples/`` is the README's first command and a user's first contact; a comment
claiming "only the queen of spades works" must be checked like any other claim.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import bruteforce as bf
from cli.common import read_deal
from solver import load_hand

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


DEALS = [p for p in sorted(EXAMPLES.glob("*.txt")) if not p.name.startswith("hand-")]


@pytest.mark.parametrize("path", DEALS, ids=lambda p: p.name)
def test_every_example_parses(path):
    deal = read_deal(str(path))
    assert 1 <= deal.hand_size <= 17


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("hand-*.txt")), ids=lambda p: p.name)
def test_every_hand_file_example_is_a_complete_legal_hand(path):
    rec = load_hand(path)
    assert rec.complete and sum(rec.won) == rec.hand_size


def test_full_deal_example_shape():
    deal = read_deal(str(EXAMPLES / "deal-16.txt"))
    assert [len(h) for h in deal.hands] == [16, 16, 16] and len(deal.widow) == 4


def test_endgame_example_claim():
    deal = read_deal(str(EXAMPLES / "endgame-5.txt"))
    values = bf.card_values(deal, "S", leader="D", seat="D")
    assert values["SQ"] == 4
    assert all(v < 4 for c, v in values.items() if c != "SQ") and values["S8"] == 1


def test_misere_example_claim():
    deal = read_deal(str(EXAMPLES / "misere.txt"))
    values = bf.card_values(deal, "N", leader="D", seat="D", misere=True)
    assert values["SA"] == 1
    assert all(v == 4 for c, v in values.items() if c != "SA")
