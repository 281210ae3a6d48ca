"""``sm358 simulate`` and ``sm358 replay`` from the command line."""

from __future__ import annotations

import json

import pytest

from cli.main import main
from solver.game import records


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_json_reports_rates_that_add_up(capsys):
    code, out, _err = run(
        capsys,
        "simulate",
        "--rules",
        "twelve",
        "--players",
        "heuristic,random,random",
        "--matches",
        "6",
        "--seed",
        "2",
        "--json",
    )
    assert code == 0
    data = json.loads(out)  # nothing but JSON on stdout (the progress bar is on stderr)
    assert data["players"] == ["heuristic", "random-1", "random-2"]
    assert data["seating"] == "rotate"  # the players differ: each deal set is played in 3 seatings
    assert data["deal_sets"] == 6 and data["matches"] == 18
    wins = sum(data["wins"].values()) + data["shared_or_no_winner"]
    assert wins == 18
    rates = [v["value"] for v in data["win_rate_by_start_seat"].values()]
    assert abs(sum(rates) * 18 - sum(data["wins"].values())) < 0.01
    assert abs(sum(v["value"] for v in data["mean_net_by_seat"].values())) < 1e-3  # nets sum to zero
    assert abs(sum(v["value"] for v in data["mean_net_by_player"].values())) < 1e-3
    for e in data["win_rate"].values():
        assert 0 <= e["low"] <= e["value"] <= e["high"] <= 1
    assert sum(data["endings"].values()) == 18


def test_simulate_is_reproducible_and_writes_records(capsys, tmp_path):
    argv = [
        "simulate",
        "--rules",
        "card-return",
        "--players",
        "heuristic,heuristic,random",
        "--matches",
        "3",
        "--seed",
        "5",
        "--json",
        "--seating",
        "fixed",
    ]
    code, first, _ = run(capsys, *argv, "--out", str(tmp_path))
    assert code == 0
    code, second, _ = run(capsys, *argv)
    assert json.loads(first)["mean_total_by_player"] == json.loads(second)["mean_total_by_player"]
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["match-1.json", "match-2.json", "match-3.json"]
    totals: list[list[int]] = []
    for f in files:
        result = records.load(tmp_path / f)["result"]
        assert result is not None
        totals.append(result["totals"])
    mean0 = sum(t[0] for t in totals) / 3
    assert json.loads(first)["mean_total_by_player"]["heuristic-1"]["value"] == pytest.approx(mean0, abs=1e-3)


def test_simulate_text_output(capsys):
    code, out, _ = run(capsys, "simulate", "--rules", "british", "--matches", "2", "--seed", "1")
    assert code == 0
    for text in (
        "per player",
        "heuristic-1",
        "starting seat",
        "mean net per hand",
        "how the matches ended",
        "declarer reaches his target",
        "modes declared",
        "the exchange",
        "match length",
    ):
        assert text in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--players", "heuristic,random"], "--players needs three comma-separated players"),
        (["--players", "heuristic,random,wizard"], "unknown player 'wizard'"),
        (["--rules", "bridge"], "unknown ruleset 'bridge'"),
        (["--option", "hands_limit"], "expected KEY=VALUE"),
        (["--matches", "0"], "--matches must be at least 1"),
        (["--matches", "-3"], "--matches must be at least 1"),
        (["--matches", "100001"], "at most 100,000"),
    ],
)
def test_simulate_bad_arguments_give_one_line_and_exit_2(capsys, argv, message):
    code, _out, err = run(capsys, "simulate", *argv)
    assert code == 2
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_simulate_rotation_writes_one_record_per_seating(capsys, tmp_path):
    code, _, _ = run(
        capsys,
        "simulate",
        "--players",
        "heuristic,random,random",
        "--matches",
        "2",
        "--seed",
        "4",
        "--json",
        "--out",
        str(tmp_path),
    )
    assert code == 0
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == [f"match-{i}-s{k}.json" for i in (1, 2) for k in (1, 2, 3)]
    first_deals = {records.load(tmp_path / f"match-1-s{k}.json")["hands"][0]["dealt"]["D"] for k in (1, 2, 3)}
    assert len(first_deals) == 1  # the same cards in every seating


def test_simulate_ctrl_c_prints_partial_statistics_and_exits_130(capsys, monkeypatch):
    from solver.analysis import simulation

    real = simulation.play_one
    calls = []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 5:  # in the second deal set: the first is kept, the second dropped
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(simulation, "play_one", interrupted)
    code, out, err = run(
        capsys, "simulate", "--players", "heuristic,random,random", "--matches", "4", "--json"
    )
    assert code == 130
    data = json.loads(out)
    assert data["partial"] is True and data["deal_sets"] == 1 and data["matches"] == 3
    assert "interrupted" in err and "partial" in err and err.strip().count("\n") == 0


@pytest.fixture()
def record_file(capsys, tmp_path):
    run(capsys, "simulate", "--rules", "twelve", "--matches", "1", "--seed", "1", "--out", str(tmp_path))
    return tmp_path / "match-1.json"


def test_replay_shows_every_hand_with_suit_symbols(capsys, record_file):
    rec = records.load(record_file)
    code, out, _ = run(capsys, "replay", str(record_file))
    assert code == 0
    for n in range(1, len(rec["hands"]) + 1):
        assert f"Hand {n} — dealer" in out
    assert "♠" in out and "Result:" in out
    assert out.count("16. ") == len(rec["hands"])


def test_replay_one_hand(capsys, record_file):
    code, out, _ = run(capsys, "replay", str(record_file), "--hand", "1")
    assert code == 0
    assert "Hand 1 — dealer" in out and "Hand 2 —" not in out
    code, _, err = run(capsys, "replay", str(record_file), "--hand", "99")
    assert code == 2 and "--hand 99" in err


def test_replay_of_a_tampered_record_names_the_problem(capsys, record_file):
    rec = json.loads(record_file.read_text())
    rec["hands"][0]["play"][0] = rec["hands"][0]["play"][1]
    record_file.write_text(json.dumps(rec))
    code, _out, err = run(capsys, "replay", str(record_file))
    assert code == 2
    assert "hand 1, trick 1" in err and "not in the hand" in err and err.count("\n") == 1
    code, _, err = run(capsys, "replay", str(record_file.parent / "missing.json"))
    assert code == 2 and "missing.json" in err
