"""The narrowing interval of solver.engine.interval and `sm358 solve --misere`'s report of it.

Every interval must contain the brute-force value, each must lie inside the one before,
and the last must be that value exactly; in misère the question at each step is the one
null-window search "can the seat hold itself to at most t?"."""

from __future__ import annotations

import random
import sys

import pytest

import bruteforce as bf
from cli.main import main
from solver.deal import Deal, Seat
from solver.engine import Solver, solve
from solver.engine.interval import Interval, narrowing_value


@pytest.mark.parametrize("misere", [False, True])
def test_intervals_narrow_to_the_bruteforce_value(misere):
    rng = random.Random(36)
    solver = Solver(tt_mb=4)
    for i in range(24):
        deal = Deal.random(seed=rng.randrange(10**6), hand_size=rng.randint(1, 6))
        strain, leader, seat = rng.choice("SHDCN"), rng.choice(list(Seat)), rng.choice(list(Seat))
        must_ruff = i % 3 == 0
        want = bf.solve(deal, strain, leader=leader, seat=seat, misere=misere, must_ruff=must_ruff)
        steps = list(
            narrowing_value(
                solver, deal, strain, leader=leader, seat=seat, misere=misere, must_ruff=must_ruff
            )
        )
        assert steps[0] == Interval(0, deal.hand_size)
        for before, after in zip(steps, steps[1:]):
            assert before.lo <= after.lo <= after.hi <= before.hi
        assert all(s.lo <= want <= s.hi for s in steps)
        assert steps[-1] == Interval(want, want) and steps[-1].exact
        assert all(not s.exact for s in steps[:-1])


def test_misere_can_reach_is_at_most_the_target_and_costs_no_more_than_solve():
    deal = Deal.random(seed=3, hand_size=9)
    solver = Solver(tt_mb=16)
    value = solver.solve(deal, "S", misere=True)
    solve_nodes = solver.nodes
    assert solve_nodes > 0
    for target, holds in ((value, True), (value - 1, False)):
        solver.clear()
        assert solver.can_reach(deal, "S", target=target, misere=True) is holds
        assert solver.nodes <= solve_nodes


def test_cli_misere_prints_the_interval_as_it_narrows(capsys, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # shown on a terminal only
    deal = Deal.random(seed=0, hand_size=10)
    assert main(["solve", str(deal), "--strain", "S", "--misere"]) == 0
    out, err = capsys.readouterr()
    value = solve(deal, "S", misere=True)  # the narrowing itself is checked against brute force above
    lines = err.strip().splitlines()
    assert lines and all(line.startswith("D's misère value: ") for line in lines)
    assert lines[-1] == f"D's misère value: {value} tricks"
    assert "(proven so far)" in lines[0] or len(lines) == 1
    assert f"can hold itself to {value} trick" in out


def test_cli_misere_ctrl_c_prints_the_last_interval(capsys, monkeypatch):
    import solver.engine.interval as interval

    def interrupted(*args, **kwargs):
        yield Interval(0, 8)
        yield Interval(2, 8)
        yield Interval(2, 5)
        raise KeyboardInterrupt

    monkeypatch.setattr(interval, "narrowing_value", interrupted)
    deal = Deal.random(seed=0, hand_size=8)
    assert main(["solve", str(deal), "--strain", "S", "--misere"]) == 130
    out, err = capsys.readouterr()
    assert err.strip().splitlines()[-1] == "sm358 solve: interrupted; D's misère value is 2-5 tricks"
    assert out == ""


def test_cli_misere_off_a_terminal_prints_no_progress(capsys):
    deal = Deal.random(seed=0, hand_size=6)
    assert main(["solve", str(deal), "--strain", "S", "--misere"]) == 0
    assert capsys.readouterr().err == ""
