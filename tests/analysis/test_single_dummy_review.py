"""Single-dummy review: each unforced card judged by play advice from its player's view."""

from __future__ import annotations

import json

import pytest

from cli.main import main
from solver.analysis.advice import advise_play
from solver.analysis.single_dummy import single_dummy_review
from solver.errors import SolverError
from solver.game.handfile import load_hand
from solver.game.knowledge import View

FILE = "examples/hand-twelve.txt"
RECORD = load_hand(FILE)


def test_each_judgement_is_the_play_advice_of_that_moment():
    result = single_dummy_review(RECORD, samples=6, seed=3, threshold=0.1, workers=1)
    assert result.cards and result.forced + len(result.cards) == sum(len(t) for t in RECORD.tricks)
    for c in result.cards[::7]:
        view = View.from_hand_record(RECORD, c.trick, c.card_index)
        advice = advise_play(view, samples=6, seed=f"3:{c.trick}.{c.card_index}", workers=1)
        played = next(x for x in advice.candidates if x.card == c.card)
        assert c.p_best == round(advice.candidates[0].p_target, 4)
        assert c.p_played == round(played.p_target, 4)
        assert c.seat == view.seat.name and c.card == str(RECORD.tricks[c.trick - 1][c.card_index - 1])
    for c in result.cards:
        assert c.flagged == (c.p_best - c.p_played > 0.1)
        assert c.p_best >= c.p_played


def test_threshold_zero_flags_every_loss_and_one_flags_none():
    none = single_dummy_review(RECORD, samples=4, threshold=1.0, workers=1)
    every = single_dummy_review(RECORD, samples=4, threshold=0.0, workers=1)
    assert not none.flagged
    assert [c.trick for c in every.flagged] == [c.trick for c in every.cards if c.drop > 0]


def test_bad_arguments():
    with pytest.raises(SolverError, match="threshold"):
        single_dummy_review(RECORD, threshold=2)
    with pytest.raises(SolverError, match="HandRecord"):
        single_dummy_review(FILE)  # type: ignore[arg-type]


def test_command_line(capsys):
    assert main(["review", FILE, "--single-dummy", "--samples", "4", "--threads", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "single-dummy-review" and data["samples"] == 4
    assert data == single_dummy_review(RECORD, samples=4, workers=1).to_dict()
    assert main(["review", FILE, "--single-dummy", "--plot", "x.png"]) == 2
    assert "does not go with --single-dummy" in capsys.readouterr().err


def test_a_hand_whose_exchange_cards_were_discarded_is_reviewed():
    """Hand 2 of match 1 of ``simulate --rules twelve --players heuristic x3 --seed 11``: D
    discarded a card M gave it, which ended the review with 'a bin has a negative size'."""
    from solver.analysis.simulation import simulate
    from solver.game.handfile import hand_from_record
    from solver.game.rules import get_ruleset

    records = []
    simulate(get_ruleset("twelve"), ["heuristic"] * 3, 1, 11, on_record=lambda i, k, r: records.append(r))
    rec = hand_from_record(records[0], 2)
    result = single_dummy_review(rec, samples=1, seed=0, workers=1)
    assert not result.partial and result.forced + len(result.cards) == 48


def test_html_report(tmp_path, capsys):
    page = tmp_path / "sd.html"
    args = ["review", FILE, "--single-dummy", "--samples", "2", "--threads", "1", "--html", str(page)]
    assert main(args) == 0
    capsys.readouterr()
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and "single-dummy review" in text
    result = single_dummy_review(RECORD, samples=2, workers=1)
    assert text.count("<tr") == len(result.cards) + 1 + 4 + 1  # cards, header; deal rows, header
    assert text.count('class="mistake"') == len(result.flagged)


def test_human_output_fits_80_columns_and_marks_the_flagged(capsys):
    assert (
        main(["review", FILE, "--single-dummy", "--samples", "2", "--threads", "1", "--threshold", "0"]) == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Single-dummy review (twelve, ♠ trumps)")
    assert all(len(line) <= 80 for line in lines)
    result = single_dummy_review(RECORD, samples=2, workers=1, threshold=0)
    assert sum(line.startswith("!") for line in lines) == len(result.flagged)
