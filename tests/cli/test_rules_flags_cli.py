"""``--rules`` on ``sm358 declare`` and ``table``: the ruleset picks who declares, who leads,
which strains and discards are allowed, and each seat's target is shown beside its value."""

from __future__ import annotations

import json

from cli.main import main
from solver.deal import Deal
from solver.declare import declare
from solver.engine import dd_table

DEAL = "D:AK.2.. Q2.3.. 3.A4.. | 4.5.."


def test_declare_follows_the_rules(capsys):
    assert main(["declare", DEAL, "--rules", "hungarian", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # hungarian: E declares and leads, must-ruff, trump suits and NT; target 8
    expected = declare(Deal.parse(DEAL), declarer="E", leader="E", strains="SHDCN", must_ruff=True)
    assert {k: data[k] for k in expected.to_dict()} == expected.to_dict()
    assert (data["rules"], data["target"]) == ("hungarian", 8)
    assert data["recommended"] == data["optimal"][0]


def test_declare_blind_discard_under_card_return(capsys):
    assert main(["declare", DEAL, "--rules", "card-return", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = declare(Deal.parse(DEAL), leader="D", blind=True).to_dict()
    assert {k: data[k] for k in expected} == expected


def test_explicit_flags_override_the_rules(capsys):
    assert main(["declare", DEAL, "--rules", "hungarian", "--declarer", "D", "--strains", "S", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["declarer"] == "D" and list(data["by_strain"]) == ["S"]


def test_declare_human_output_names_target_and_recommendation(capsys):
    assert main(["declare", DEAL, "--rules", "twelve"]) == 0
    out = capsys.readouterr().out
    assert "target: at least 8 tricks" in out and "Recommended:" in out


def test_misere_needs_a_fewest_tricks_mode(capsys):
    assert main(["declare", DEAL, "--rules", "twelve", "--misere"]) == 2
    assert "no fewest-tricks mode" in capsys.readouterr().err


def test_table_shows_targets(capsys):
    assert main(["table", DEAL, "--rules", "hungarian", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["targets"] == {"D": 3, "E": 8, "M": 5}
    assert data["table"] == dd_table(Deal.parse(DEAL), leader="E", must_ruff=True).to_dict()
    assert main(["table", DEAL, "--rules", "twelve"]) == 0
    assert "2 / 8" in capsys.readouterr().out
