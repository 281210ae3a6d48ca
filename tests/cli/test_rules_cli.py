"""``sm358 rules``: the preset list, one preset in words, JSON, and a clean error."""

from __future__ import annotations

import json

from cli.main import main
from solver.game.rules import PRESETS


def test_rules_lists_every_preset_with_one_line(capsys):
    assert main(["rules"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert [ln.split()[0] for ln in lines] == list(PRESETS)


def test_rules_name_explains_the_preset(capsys):
    assert main(["rules", "hungarian"]) == 0
    out = capsys.readouterr().out
    assert "18 deals" in out and "first six cards" in out and "MT" in out


def test_rules_json(capsys):
    assert main(["rules", "twelve", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exchange"] == "named-suit" and data["targets"] == [8, 5, 3]
    assert main(["rules", "--json"]) == 0
    assert set(json.loads(capsys.readouterr().out)) == set(PRESETS)


def test_unknown_preset_is_one_line_and_exit_code_2(capsys):
    assert main(["rules", "bogus"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown ruleset 'bogus'" in err


def test_rules_with_options_explains_the_variant(capsys):
    assert main(["rules", "twelve", "--option", "double_payment=true", "--option", "targets=[9,5,2]"]) == 0
    out = capsys.readouterr().out
    assert "Double payment" in out and "dealer 9" in out
    assert main(["rules", "twelve", "--option", "modes=SHDCN", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["modes"] == ["S", "H", "D", "C", "N"]


def test_rules_with_a_bad_option_is_a_clean_error(capsys):
    assert main(["rules", "british", "--option", "double_payment=true"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "named-suit" in err
    assert main(["rules", "british", "--option", "nonsense"]) == 2
    assert "KEY=VALUE" in capsys.readouterr().err
