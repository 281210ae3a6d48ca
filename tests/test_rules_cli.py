"""``sm358 rules``: the preset list, one preset in words, JSON, and a clean error."""
from __future__ import annotations

import json

from cli.main import main
from solver.rules import PRESETS


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
