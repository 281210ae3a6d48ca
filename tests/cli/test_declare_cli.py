"""``sm358 declare``: JSON equals the library's answer, readable output, clean errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cli.main import main
from solver.analysis.advice_text import declaration_headline, optimum_proven
from solver.deal import Deal
from solver.declare import declare

DEAL = "D:AK.2.. Q2.3.. 3.A4.. | 4.5.."


def test_json_is_the_library_result(capsys):
    assert main(["declare", DEAL, "--json", "--leader", "D", "--strains", "SHDCN"]) == 0
    data = json.loads(capsys.readouterr().out)
    result = declare(Deal.parse(DEAL), leader="D", strains="SHDCN")
    assert data == {**result.to_dict(), "headline": declaration_headline(result)}
    assert list(data) == ["declarer", "tricks", "by_strain", "optimal", "complete", "recommended", "headline"]
    assert data["headline"].startswith("Name ")


def test_json_blind_and_misere_follow_the_flags(capsys):
    assert main(["declare", DEAL, "--json", "--blind", "--misere"]) == 0
    data = json.loads(capsys.readouterr().out)
    result = declare(Deal.parse(DEAL), blind=True, misere=True)
    assert data == {**result.to_dict(), "headline": declaration_headline(result)}
    assert "you take at most" in data["headline"]


def test_human_output_shows_cards_values_and_choices(capsys):
    assert main(["declare", DEAL, "--leader", "D"]) == 0
    out = capsys.readouterr().out
    assert "♠AK4 ♥52" in out  # the declarer's cards with the widow
    assert "♠" in out and "♥" in out and "Optimal" in out
    result = declare(Deal.parse(DEAL), leader="D")
    for choice in result.optimal:
        cards = sorted(choice.discard, key=lambda c: (c.suit, -c.rank))
        assert " ".join(c.pretty() for c in cards) in out
    assert str(result.tricks) in out


def test_deal_from_file(tmp_path, capsys):
    path = tmp_path / "deal.txt"
    path.write_text(f"# a deal\n{DEAL}\n", encoding="utf-8")
    assert main(["declare", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["declarer"] == "D"


@pytest.mark.parametrize(
    "args, words",
    [
        (["D:A... K... Q..."], "no widow"),
        ([DEAL, "--strains", "SX"], "strain"),
        ([DEAL, "--declarer", "Q"], "seat"),
        (["D:A... K... Q... | JT...", "--blind"], "blind"),
        (["D:AA... K... Q... | J..."], "duplicate"),
    ],
)
def test_errors_are_one_line_and_exit_2(args, words, capsys):
    assert main(["declare", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err and "Traceback" not in err


def test_console_script_runs_end_to_end():
    proc = subprocess.run(
        [sys.executable, "-m", "cli.main", "declare", DEAL, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["tricks"] >= 0
    assert proc.stderr == ""  # no progress bar when stderr is not a terminal


CHOICE_WORDS = "Name NT and discard ♠2 ♣5: you take at most 4 tricks against any defence (double dummy)"


@pytest.mark.parametrize(
    ("done", "interval", "said"),
    [
        # the optimum still open: the choice is only the best proven
        (
            31,
            (2, 4),
            "the optimum is 2-4 tricks (proven); the best proven: "
            f"{CHOICE_WORDS} (the optimum may give fewer: not yet proven)",
        ),
        # the interval closed on the choice's tricks: only the ties are open
        (
            0,
            (4, 4),
            "the optimum is 4 tricks (proven); an optimal choice: "
            f"{CHOICE_WORDS} (others may tie it: not all known yet)",
        ),
    ],
)
def test_ctrl_c_prints_the_best_choice_proven_so_far(monkeypatch, capsys, done, interval, said):
    from cli.commands import declare as command
    from solver.cards import parse_cards
    from solver.deal import Strain
    from solver.declare.optimiser import Choice, DeclarationInterrupted
    from solver.engine.interval import Interval

    def interrupted(*args, **kwargs):
        best = Choice(Strain.N, tuple(parse_cards("S2 C5")), 1)
        raise DeclarationInterrupted(done, 1669, best, 4, True, Interval(*interval))

    monkeypatch.setattr(command, "declare", interrupted)
    assert main(["declare", DEAL, "--misere"]) == 130
    err = capsys.readouterr().err
    assert err == f"sm358 declare: interrupted after {done} of 1,669 candidates; {said}\n"


def test_misere_prints_the_optimums_interval_as_it_narrows_on_a_terminal(monkeypatch, capsys):
    from rich.console import Console

    from cli import common

    monkeypatch.setattr(common, "err_console", lambda: Console(stderr=True, force_terminal=True))
    deal = Deal.random(seed=3, hand_size=7, widow_size=2)
    assert main(["declare", str(deal), "--misere"]) == 0
    err = capsys.readouterr().err.splitlines()
    lines = [line for line in err if line.startswith("optimum: ")]
    result = declare(deal, misere=True)
    assert all(line.endswith(" tricks (proven so far)") for line in lines)
    # once the interval closes, the choice to play is named before the ties are settled
    proven = [line for line in err if line.startswith("optimum proven: ")]
    assert len(proven) == 1 and proven[0] in {
        optimum_proven(c, result.tricks, misere=True) for c in result.optimal
    }


def test_reach_answers_the_target_question(capsys):
    assert main(["declare", DEAL, "--reach", "1", "--strains", "S", "--leader", "D"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Name ♠ and discard ") and "you make at least 1 trick against any defence" in out
    # in misère (no trump) the declarer takes at least 2 of the 3 tricks
    assert main(["declare", DEAL, "--reach", "1", "--misere", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["reached"] is False and data["headline"] == (
        "No strain and discard keeps you to at most 1 trick against the best defence (double dummy): "
        f"each of the {data['classes']} candidates takes more."
    )


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--reach", "x"], "--reach: expected a number of tricks or 'rules', got 'x'"),
        (["--reach", "rules"], "--reach rules needs --rules PRESET"),
        (["--reach", "9"], "target must be a number of tricks from 0 to 3, got 9"),
        (["--reach", "1", "--no-ties"], "--no-ties does not go with --reach"),
    ],
)
def test_reach_refuses_a_bad_number_in_one_line(argv, message, capsys):
    assert main(["declare", DEAL, *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.splitlines()) == 1


def test_no_ties_stops_at_the_optimum_and_says_others_may_tie(capsys):
    deal = "D:AKQ.T9.8. J2.A3.K7. T9.KQ.AQ. | 3.2.2."
    assert main(["declare", deal, "--misere", "--no-ties", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    full = declare(Deal.parse(deal), misere=True)
    assert data["complete"] is False and data["tricks"] == full.tricks
    assert data["optimal"] and all(c in [o.to_dict() for o in full.optimal] for c in data["optimal"])
    assert main(["declare", deal, "--misere", "--no-ties"]) == 0
    out = capsys.readouterr().out
    assert "others may tie (--no-ties)" in out and "the first choice proven optimal" in out
