"""``sm358 deal``: random deals as before, deals to a spec, one clean error line on bad specs."""

from __future__ import annotations

import json

import pytest

from cli.main import main
from solver.deal import Deal
from solver.game.dealspec import aces_kings, high_card_points

EXAMPLE = __import__("pathlib").Path(__file__).resolve().parents[2] / "examples" / "deal-16.txt"


def run(capsys, *argv):
    code = main(["deal", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_plain_deal_is_the_documented_one(capsys):
    code, out, _ = run(capsys, "--seed", "358")
    expected = [ln for ln in EXAMPLE.read_text().splitlines() if ln and not ln.startswith("#")][0]
    assert code == 0 and Deal.parse(out.strip()) == Deal.parse(expected)


def test_constraints_count_and_seed(capsys):
    argv = ["--seed", "5", "--count", "4", "--length", "E:S=5-8", "--points", "D:15+", "--trumps", "D:H=6"]
    code, out, _ = run(capsys, *argv)
    deals = [Deal.parse(ln) for ln in out.splitlines()]
    assert code == 0 and len(deals) == 4 and len(set(deals)) == 4
    for d in deals:
        assert 5 <= len(d["E"].cards_in(0)) <= 8 and high_card_points(d["D"]) >= 15
        assert len((d["D"] | d.widow).cards_in(1)) >= 6
    assert run(capsys, *argv)[1] == out
    assert run(capsys, *argv[:3], "2", *argv[4:])[1].splitlines() == out.splitlines()[:2]


def test_spec_file_options_and_json_lines(capsys, tmp_path):
    spec = tmp_path / "spec.txt"
    spec.write_text("# my spec\nholds D:AKQJT98765432...\naces-kings E:2\n")
    code, out, _ = run(
        capsys, "--rules", "no-widow", "--seed", "1", "--spec", str(spec), "--count", "2", "--json"
    )
    rows = [json.loads(ln) for ln in out.splitlines()]
    assert code == 0 and len(rows) == 2
    for row in rows:
        deal = Deal.from_json(row)
        assert str(deal["D"]).startswith("AKQJT98765432.") and deal.hand_size == 17 and not deal.widow
        assert aces_kings(deal["E"]) == 2


def test_small_hands_leave_cards_out(capsys):
    code, out, _ = run(capsys, "--hand-size", "5", "--widow", "0", "--seed", "2", "--holds", "M:SA,HA")
    deal = Deal.parse(out.strip())
    assert code == 0 and deal.hand_size == 5 and {"SA", "HA"} <= {str(c) for c in deal["M"]}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--length", "E:S=9-5"], "range '9-5' is empty"),
        (["--length", "E:X=5"], "'X' is not a suit"),
        (["--holds", "D:SA", "--holds", "E:SA"], "SA is given to both D and E"),
        (["--points", "D:41+"], "points D:41+"),
        (["--trumps", "D:N=6"], "no trump has no trumps"),
        (["--spec", "colour D:red"], "unknown clause 'colour'"),
        (["--points", "D:30+", "--tries", "50"], "no deal in 50 draws has points D:30+"),
        (["--count", "0"], "--count must be from 1"),
        (["--rules", "nosuch"], "unknown ruleset"),
        (["--length", "D:S=13", "--length", "E:S=1"], "length: the least spades asked add up to 14"),
    ],
)
def test_bad_specs_exit_2_with_one_line_naming_the_constraint(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1, err
