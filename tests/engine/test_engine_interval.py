"""The narrowing interval of solver.engine.interval, `sm358 solve --misere`'s report of it,
and the intervals a table interrupted by Ctrl-C keeps (``TableInterrupted``).

Every interval must contain the brute-force value, each must lie inside the one before,
and the last must be that value exactly; in misère the question at each step is the one
null-window search "can the seat hold itself to at most t?"."""

from __future__ import annotations

import random
import sys

import pytest

import bruteforce as bf
from cli.main import main
from solver.deal import Deal, Seat, Strain
from solver.engine import Solver, TableInterrupted, dd_table, solve
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
    assert "D can hold itself to 2-5 tricks of 8 (misère; proven so far: interrupted)" in out


def test_cli_misere_off_a_terminal_prints_no_progress(capsys):
    deal = Deal.random(seed=0, hand_size=6)
    assert main(["solve", str(deal), "--strain", "S", "--misere"]) == 0
    assert capsys.readouterr().err == ""


# --- the misère table: each cell narrowed, and kept on Ctrl-C --------------------------------

TABLE_DEAL = Deal.random(seed=5, hand_size=12)


def _solved(deal: Deal, misere: bool) -> dict[Strain, dict[Seat, int]]:
    return {st: {s: solve(deal, st, seat=s, misere=misere) for s in Seat} for st in Strain}


def test_misere_table_cells_are_the_solved_values():
    """A misère cell is narrowed step by step (not one solve): it must end at solve's value."""
    table = dd_table(TABLE_DEAL, misere=True, threads=2)
    assert {st: {s: table[st][s] for s in Seat} for st in Strain} == _solved(TABLE_DEAL, True)


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_in_a_table_raises_every_cell_as_far_as_proven(misere, threads):
    """Both modes share the path: finished cells exact, every interval holding the value."""

    def stop_after_four(done: int, total: int) -> None:
        if done == 4:
            raise KeyboardInterrupt

    with pytest.raises(TableInterrupted) as caught:
        dd_table(TABLE_DEAL, misere=misere, threads=threads, progress=stop_after_four)
    stop = caught.value
    want = _solved(TABLE_DEAL, misere)
    assert list(stop.intervals) == list(Strain)
    assert all(list(row) == list(Seat) for row in stop.intervals.values())
    cells = [(st, s, stop.intervals[st][s]) for st in Strain for s in Seat]
    assert all(iv.lo <= want[st][s] <= iv.hi for st, s, iv in cells)
    exact = [(st, s) for st, s, iv in cells if iv.exact]
    assert stop.exact == len(exact) >= 4 and stop.total == 15
    if threads == 1:  # one cell after the other: the first four finished, none other begun
        assert exact == [(st, s) for st in Strain for s in Seat][:4]
        assert all(iv == Interval(0, TABLE_DEAL.hand_size) for _, _, iv in cells[4:])


def test_a_misere_cell_under_way_keeps_its_last_interval(monkeypatch):
    """What a long misère cell has proven is kept: here its steps are scripted."""
    import solver.engine.table as table

    real = narrowing_value

    def interrupted_at_the_third_cell(solver, deal, strain, **kwargs):
        if (strain, kwargs["seat"]) != (Strain.S, Seat.M):
            yield from real(solver, deal, strain, **kwargs)
            return
        yield Interval(0, deal.hand_size)
        yield Interval(2, 5)
        raise KeyboardInterrupt

    monkeypatch.setattr(table, "narrowing_value", interrupted_at_the_third_cell)
    with pytest.raises(TableInterrupted) as caught:
        dd_table(TABLE_DEAL, strains="SN", misere=True, threads=1)
    intervals = caught.value.intervals
    want = _solved(TABLE_DEAL, True)
    assert intervals[Strain.S] == {
        Seat.D: Interval(want[Strain.S][Seat.D], want[Strain.S][Seat.D]),
        Seat.E: Interval(want[Strain.S][Seat.E], want[Strain.S][Seat.E]),
        Seat.M: Interval(2, 5),
    }
    assert intervals[Strain.N] == {s: Interval(0, TABLE_DEAL.hand_size) for s in Seat}
    assert str(caught.value) == "interrupted with 2 of 6 values exact"
