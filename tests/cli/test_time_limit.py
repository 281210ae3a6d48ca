"""``--time-limit SECONDS``: a command stops as a Ctrl-C would, prints what it proved, exits 124.

Why these deals: `examples/deal-16.txt` in misère takes minutes for a solve, a table and a
declaration alike, so a limit of a second always stops them part-way; a small deal
finishes long before any limit.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from cli.common import read_deal
from cli.main import main
from solver import Deal, Solver, interrupt_after
from solver.engine import Position

REPO = Path(__file__).resolve().parents[2]
DEAL_16 = str(REPO / "examples" / "deal-16.txt")
MATCH = str(REPO / "examples" / "match-twelve.json")
SMALL = "D:AK... Q2... 3.A.. | 4..."

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs SIGINT")


# --- the clock: solver.interrupt_after ----------------------------------------------------


def test_the_clock_interrupts_the_main_thread_once_and_never_after_the_block():
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt), interrupt_after(0.2) as limit:
        while True:
            time.sleep(0.01)
    assert limit.expired and 0.2 <= time.monotonic() - started < 1.5
    with interrupt_after(0.05) as early:
        pass
    time.sleep(0.2)  # a Ctrl-C sent now would end this test with KeyboardInterrupt
    assert not early.expired


def test_the_clock_stops_an_engine_search_and_leaves_the_solver_usable():
    deal = read_deal(DEAL_16)
    engine = Solver(tt_mb=16)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt), interrupt_after(0.3):
        engine.solve(Position(deal, "N", leader="E", misere=True), seat="D")
    assert time.monotonic() - started < 2.3
    assert engine.solve(Position(Deal.parse(SMALL), "S", leader="D"), seat="D") == 2


@pytest.mark.parametrize("bad", [0, -1, math.nan, math.inf, True, "5"])
def test_a_time_limit_must_be_a_positive_finite_number(bad):
    with pytest.raises(ValueError, match="positive number of seconds"):
        interrupt_after(bad)


def test_a_time_limit_is_refused_off_the_main_thread():
    caught: list[BaseException] = []

    def worker() -> None:
        try:
            with interrupt_after(1):
                pass
        except RuntimeError as exc:
            caught.append(exc)

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert len(caught) == 1 and "main thread" in str(caught[0])


# --- the commands ---------------------------------------------------------------------------


def _stop_line(err: str, command: str, seconds: str) -> str:
    """The one stderr line of a command stopped by its limit, without the prefix."""
    lines = err.strip().splitlines()
    prefix = f"sm358 {command}: stopped at the {seconds} s time limit"
    assert lines and lines[-1].startswith(prefix), err
    return lines[-1][len(prefix) :]


def test_a_misere_solve_prints_its_interval_as_json(capsys):
    assert main(["solve", DEAL_16, "--strain", "N", "--misere", "--time-limit", "1", "--json"]) == 124
    out, err = capsys.readouterr()
    got = json.loads(out)
    lo, hi = got["interval"]
    assert got["partial"] is True and got["tricks"] is None and 0 <= lo < hi <= 16
    assert _stop_line(err, "solve", "1") == f"; D's misère value is {lo}-{hi} tricks"


def test_a_misere_solve_prints_its_interval_as_text(capsys):
    assert main(["solve", DEAL_16, "--strain", "N", "--misere", "--time-limit", "0.5"]) == 124
    out, err = capsys.readouterr()
    shown = re.search(r"D can hold itself to (\d+)-(\d+) tricks of 16 \(misère; proven so far: (.*)\)", out)
    assert shown is not None, out
    assert shown.group(3) == "stopped at the 0.5 s time limit"
    assert (
        _stop_line(err, "solve", "0.5") == f"; D's misère value is {shown.group(1)}-{shown.group(2)} tricks"
    )


def test_a_misere_table_prints_its_cells_as_far_as_proven(capsys):
    assert main(["table", DEAL_16, "--misere", "--strains", "SN", "--time-limit", "1", "--json"]) == 124
    out, err = capsys.readouterr()
    got = json.loads(out)
    assert got["partial"] is True and list(got["table"]) == ["S", "N"]
    cells = [v for row in got["table"].values() for v in row.values()]
    exact = [v for v in cells if isinstance(v, int)]
    assert all(isinstance(v, int) or (len(v) == 2 and 0 <= v[0] <= v[1] <= 16) for v in cells)
    assert _stop_line(err, "table", "1") == f"; {len(exact)} of 6 values exact" and len(exact) < 6


def test_a_misere_declaration_prints_the_best_proven(capsys):
    assert main(["declare", DEAL_16, "--misere", "--time-limit", "1.5", "--json"]) == 124
    out, err = capsys.readouterr()
    got = json.loads(out)
    assert got["partial"] is True and got["misere"] is True and got["candidates"] == 1669
    lo, hi = got["optimum"]
    if got["best"] is not None:  # proven to reach its tricks: the optimum is no worse
        assert got["best"]["strain"] == "N" and len(got["best"]["discard"]) == 4
        assert lo <= got["best"]["tricks"] == hi
    assert _stop_line(err, "declare", "1.5").startswith(f" after {got['settled']} of 1,669 candidates")


def test_a_review_stopped_by_its_limit_says_so(capsys):
    assert main(["review", MATCH, "--time-limit", "0.3", "--json"]) == 124
    out, err = capsys.readouterr()
    assert json.loads(out)["partial"] is True
    assert re.fullmatch(r"; \d+ of 6 hand\(s\) valued card by card.*", _stop_line(err, "review", "0.3"))


def test_work_done_within_the_limit_is_the_whole_answer(capsys):
    assert main(["solve", SMALL, "--strain", "S", "--leader", "D", "--json"]) == 0
    without = capsys.readouterr()
    assert main(["solve", SMALL, "--strain", "S", "--leader", "D", "--json", "--time-limit", "60"]) == 0
    assert capsys.readouterr() == without


@pytest.mark.parametrize("bad", ["0", "-2", "soon", "nan", "inf"])
def test_a_bad_time_limit_is_one_line_and_exit_2(capsys, bad):
    assert main(["table", SMALL, f"--time-limit={bad}"]) == 2
    out, err = capsys.readouterr()
    assert (
        out == ""
        and err == f"sm358 table: error: --time-limit must be a positive number of seconds, got {bad!r}\n"
    )


def test_the_program_exits_124_soon_after_its_limit():
    """The installed program's way out (os._exit, worker threads still searching)."""
    code = "import sys; from cli.main import entry; sys.argv[1:] = sys.argv[2:]; entry()"
    argv = ["table", DEAL_16, "--misere", "--time-limit", "1"]
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-c", code, "-", *argv], capture_output=True, text=True, cwd=REPO, timeout=60
    )
    took = time.monotonic() - started
    assert proc.returncode == 124, proc.stderr
    assert re.fullmatch(r"sm358 table: stopped at the 1 s time limit; \d+ of 15 values exact\n", proc.stderr)
    assert "proven so far" in proc.stdout and took < 1 + 2 + 3  # the limit, the 2 s promise, start-up
