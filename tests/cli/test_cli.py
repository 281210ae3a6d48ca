"""``sm358 solve`` and ``sm358 table``: answers, output formats and the error contract.

Why: the command line is the first thing a user runs (the README opens with it). Its
numbers are checked against the brute-force reference, its JSON against the exact shape
the issue promises, and its failures against "one line on stderr, exit code 2, no
traceback" — in-process through ``cli.main.main`` and in a real subprocess.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import bruteforce as bf
from cli.main import main
from solver.deal import Deal

REPO = Path(__file__).resolve().parents[2]
SMALL = "D:AK.2.. Q2.3.. 3.A.4. | 4..."  # 3 cards each, with a widow


def run_json(capsys, *argv: str) -> dict:
    assert main(list(argv) + ["--json"]) == 0
    out = capsys.readouterr().out
    return json.loads(out)


# --- solve ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "strain, leader, seat", [("S", "E", "D"), ("N", "D", "M"), ("H", "M", "E"), ("C", "E", "M")]
)
def test_solve_json_matches_reference(capsys, strain, leader, seat):
    got = run_json(capsys, "solve", SMALL, "--strain", strain, "--leader", leader, "--seat", seat)
    expected = bf.solve(Deal.parse(SMALL), strain, leader=leader, seat=seat)
    assert got == {"strain": strain, "leader": leader, "seat": seat, "tricks": expected}
    assert list(got) == ["strain", "leader", "seat", "tricks"]


def test_solve_defaults_leader_e_seat_d(capsys):
    got = run_json(capsys, "solve", SMALL, "--strain", "s")
    assert (got["strain"], got["leader"], got["seat"]) == ("S", "E", "D")
    assert got["tricks"] == bf.solve(Deal.parse(SMALL), "S", leader="E", seat="D")


def test_solve_misere_must_ruff_and_played(capsys):
    deal = Deal.parse(SMALL)
    got = run_json(capsys, "solve", SMALL, "--strain", "H", "--misere", "--must-ruff", "--played", "SQ")
    expected = bf.solve(deal, "H", leader="E", seat="D", misere=True, must_ruff=True, played=["SQ"])
    assert got == {
        "strain": "H",
        "leader": "E",
        "seat": "D",
        "tricks": expected,
        "misere": True,
        "must_ruff": True,
        "played": ["SQ"],
    }


def test_solve_human_output_shows_hands_and_answer(capsys):
    assert main(["solve", SMALL, "--strain", "S", "--leader", "D"]) == 0
    out = capsys.readouterr().out
    tricks = bf.solve(Deal.parse(SMALL), "S", leader="D", seat="D")
    assert "♠" in out and "♥" in out and "AK" in out
    assert f"D can take {tricks} trick" in out
    assert "widow" in out


def test_solve_reads_a_file_with_comments(capsys, tmp_path):
    f = tmp_path / "deal.txt"
    f.write_text("# a small ending\n\n" + SMALL + "  # trailing comment\n", encoding="utf-8")
    got = run_json(capsys, "solve", str(f), "--strain", "N")
    assert got["tricks"] == bf.solve(Deal.parse(SMALL), "N", leader="E", seat="D")


# --- table ------------------------------------------------------------------------------


def test_table_json_matches_reference(capsys):
    got = run_json(capsys, "table", SMALL)
    deal = Deal.parse(SMALL)
    assert list(got) == ["leader", "table"] and got["leader"] == "E"
    assert list(got["table"]) == list("SHDCN")
    for strain in "SHDCN":
        assert got["table"][strain] == {s: bf.solve(deal, strain, leader="E", seat=s) for s in "DEM"}


def test_table_options(capsys):
    got = run_json(capsys, "table", SMALL, "--leader", "M", "--strains", "NS", "--misere", "--must-ruff")
    deal = Deal.parse(SMALL)
    assert got["leader"] == "M" and got["misere"] is True and got["must_ruff"] is True
    assert list(got["table"]) == ["N", "S"]
    for strain in "NS":
        assert got["table"][strain] == {
            s: bf.solve(deal, strain, leader="M", seat=s, misere=True, must_ruff=True) for s in "DEM"
        }


def test_table_human_output(capsys):
    assert main(["table", SMALL]) == 0
    out = capsys.readouterr().out
    for symbol in "♠♥♦♣":
        assert symbol in out
    assert "NT" in out and "E leads" in out


def _interrupted_table(deal, **kwargs):
    """dd_table stopped by Ctrl-C with D's spade value exact, E's and M's under way."""
    from solver.deal import Seat, Strain
    from solver.engine import TableInterrupted
    from solver.engine.interval import Interval

    raise TableInterrupted(
        {Strain.S: {Seat.D: Interval(3, 3), Seat.E: Interval(2, 5), Seat.M: Interval(0, 3)}}
    )


def _shown_cells(out: str) -> list[str]:
    """The values of the table's rows, left to right and top down."""
    rows = [line.split("│") for line in out.splitlines() if re.match(r"│ (. [SHDC]|NT) ", line)]
    return [cell.strip() for row in rows for cell in row[2:5]]


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_table_ctrl_c_prints_what_is_proven(capsys, monkeypatch, json_flag):
    import solver.engine

    monkeypatch.setattr(solver.engine, "dd_table", _interrupted_table)
    assert main(["table", SMALL, "--strains", "S", "--misere", *json_flag]) == 130
    out, err = capsys.readouterr()
    assert err == "sm358 table: interrupted; 1 of 3 values exact\n"
    if json_flag:  # marked partial: each cell its value once exact, else [lo, hi]
        got = json.loads(out)
        assert got["partial"] is True and got["misere"] is True
        assert got["table"] == {"S": {"D": 3, "E": [2, 5], "M": [0, 3]}}
    else:
        assert "misère" in out and "interrupted: numbers exact, ranges lo-hi proven so far" in out
        assert _shown_cells(out) == ["3", "2-5", "0-3"]


@pytest.mark.skipif(os.name != "posix", reason="needs SIGINT")
def test_ctrl_c_stops_a_misere_table_with_the_cells_proven_so_far():
    """deal-16's misère table takes minutes: three seconds in, some cells are still open."""
    code = (
        "import sys; from cli.main import entry; print('started', flush=True); "
        "sys.argv[1:] = ['table', 'examples/deal-16.txt', '--misere']; entry()"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "started"
        time.sleep(3.0)
        proc.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, err = proc.communicate(timeout=60)  # a hang guard
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert took < 2.0
    line = re.fullmatch(r"sm358 table: interrupted; (\d+) of 15 values exact\n", err)
    assert line is not None, err
    cells = _shown_cells(out)
    assert len(cells) == 15 and all(re.fullmatch(r"\d+(-\d+)?", c) for c in cells), out
    assert sum("-" not in c for c in cells) == int(line.group(1)) < 15


# --- errors, in process -----------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, words",
    [
        (["solve", "D:A... K... A...", "--strain", "S"], "duplicate card SA in D and M"),
        (["solve", SMALL, "--strain", "X"], "unknown strain 'X'"),
        (["solve", SMALL, "--strain", "S", "--seat", "Q"], "unknown seat 'Q'"),
        (["solve", SMALL, "--strain", "S", "--played", "SA"], "SA"),  # E does not hold SA
        (["solve", SMALL, "--strain", "S", "--played", "SQ H3"], "H3"),  # M holds S3: revoke
        (["solve", SMALL, "--strain", "S", "--played", "S?"], "S?"),
        (["table", "no-such-file.txt"], "no-such-file.txt"),
        (["table", SMALL, "--strains", "SSH"], "repeated"),
        (["table", "E:X... K... Q..."], "'X'"),
    ],
)
def test_errors_one_line_exit_2(capsys, argv, words):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith(f"sm358 {argv[0]}: error:")
    assert words in lines[0]


def test_error_for_file_with_two_deals(capsys, tmp_path):
    f = tmp_path / "two.txt"
    f.write_text(SMALL + "\n" + SMALL + "\n", encoding="utf-8")
    assert main(["table", str(f)]) == 2
    assert "2 lines" in capsys.readouterr().err


# --- errors, in a real process ----------------------------------------------------------


def sm358(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *argv],
        cwd=REPO,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "D:AK... Q2... 3...", "--strain", "S"],  # hand sizes 2/2/1
        ["solve", SMALL, "--strain", "Z"],
        ["table", "missing/deal-file.txt"],
    ],
)
def test_subprocess_error_contract(argv):
    proc = sm358(*argv)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert proc.stderr.startswith(f"sm358 {argv[0]}: error:")


def test_subprocess_success():
    proc = sm358("solve", SMALL, "--strain", "S", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["tricks"] == bf.solve(Deal.parse(SMALL), "S")


def test_argparse_usage_error_exits_2():
    proc = sm358("solve", SMALL)  # --strain is required
    assert proc.returncode == 2 and "--strain" in proc.stderr and "Traceback" not in proc.stderr


# --- version ----------------------------------------------------------------------------


def test_version_is_the_package_version(capsys):
    from importlib.metadata import version

    import solver

    assert solver.__version__ == version("sergeant-major")
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"sm358 {solver.__version__}"


# --- progress bar -----------------------------------------------------------------------


def test_progress_bar_is_taken_down_when_its_block_is_left_by_ctrl_c(monkeypatch):
    """On a terminal the bar is drawn; leaving the ``with`` block any way stops it, so the
    one-line Ctrl-C or error message is not printed under a live bar."""
    import io

    from rich.console import Console

    import cli.common

    screen = io.StringIO()
    monkeypatch.setattr(cli.common, "err_console", lambda: Console(file=screen, force_terminal=True))
    with pytest.raises(KeyboardInterrupt):
        with cli.common.LazyProgress("solving") as bar:
            bar(1, 4)
            live = bar._bar
            assert live is not None and live.live.is_started
            raise KeyboardInterrupt
    assert live is not None
    assert not live.live.is_started
    assert "solving" in screen.getvalue()


def test_progress_bar_draws_nothing_off_a_terminal(monkeypatch):
    import io

    from rich.console import Console

    import cli.common

    screen = io.StringIO()
    monkeypatch.setattr(cli.common, "err_console", lambda: Console(file=screen, force_terminal=False))
    with cli.common.LazyProgress("solving") as bar:
        bar(1, 4)
        assert bar._bar is None
    assert screen.getvalue() == ""


@pytest.mark.parametrize(
    "argv",
    [
        ["replay", "x\ny"],
        ["review", "x\ny"],
        ["review", "examples/hand-twelve.txt", "--html", "no-such-dir/x\ny.html"],
        ["study", "--deals", "1", "--out", "x\ny"],
        ["table", "x\ny"],
    ],
)
def test_a_file_name_with_a_newline_still_gives_one_error_line(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "x\\ny" in err, err
