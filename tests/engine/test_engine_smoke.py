"""Basics of the engine API: shapes, validation, threads, Ctrl-C, table sizes.

Why: the brute-force comparison (test_engine_bruteforce.py) proves the values; this
file checks what that one does not — the Python surface, input errors, concurrent
use from two threads, and that an interrupted search leaves a working engine.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading

import pytest

import bruteforce as bf
from solver.cards import Card
from solver.deal import Deal, Seat, Strain
from solver.engine import DDTable, Solver, card_values, dd_table, principal_variation, solve
from solver.errors import EngineError, IllegalPlayError, NotationError, SolverError

SMALL = Deal.parse("D:AK... Q2... 3.A..")
# a 6-card position the reference solves quickly
SIX = Deal.random(seed=11, hand_size=6, widow_size=0)


def test_tiny_position_by_hand():
    # spades trump, D leads: the two top trumps take both tricks
    assert solve(SMALL, "S", leader="D", seat="D") == 2
    # no trump, M leads the heart ace, then must lead S3 to E's SQ
    assert solve(SMALL, "N", leader="M", seat="M") == 1
    assert solve(SMALL, "N", leader="M", seat="E") == 0


def test_dd_table_shape_and_access():
    table = dd_table(SIX, leader="E")
    assert isinstance(table, DDTable)
    assert table.leader is Seat.E and table.strains == tuple(Strain)
    data = table.to_dict()
    assert list(data) == ["S", "H", "D", "C", "N"]
    for st in Strain:
        assert set(data[st.name]) == {"D", "E", "M"}
        for seat in Seat:
            assert table[st][seat] == table[st.name][seat.name] == data[st.name][seat.name]
            assert table[st][seat] == bf.solve(SIX, st, leader="E", seat=seat)
    text = str(table)
    assert "♠" in text and "NT" in text and "D" in text
    assert "<table" in table._repr_html_()


def test_dd_table_strain_subset_and_misere():
    table = dd_table(SIX, leader="M", strains="HN", misere=True)
    assert table.strains == (Strain.H, Strain.N) and table.misere
    assert table["N"]["E"] == bf.solve(SIX, "N", leader="M", seat="E", misere=True)
    with pytest.raises(KeyError):
        table["S"]


def test_card_values_and_pv_agree_with_solve():
    for strain in "SN":
        for seat in "DEM":
            value = solve(SIX, strain, leader="E", seat=seat)
            values = card_values(SIX, strain, leader="E", seat=seat)
            # E (the mover) is seat itself or an opponent of seat
            best = max(values.values()) if seat == "E" else min(values.values())
            assert best == value
            assert all(isinstance(c, Card) for c in values)
            assert list(values) == sorted(values, key=lambda c: (c.suit, -c.rank))
            line = principal_variation(SIX, strain, leader="E", seat=seat)
            assert len(line) == 3 * SIX.hand_size
            won = bf.play_out(SIX, strain, line, leader="E")
            assert won[Seat.parse(seat)] == value


@pytest.mark.parametrize("function", [solve, card_values, principal_variation], ids=lambda f: f.__name__)
def test_module_functions_are_the_solver_methods_on_a_thread_solver(function):
    """The module-level functions take exactly the Solver method's parameters (what help()
    shows), carry their own docstring, and give the method's answers."""
    import inspect

    method = getattr(Solver, function.__name__)
    params = list(inspect.signature(method).parameters.values())
    assert params[0].name == "self"
    assert inspect.signature(function) == inspect.signature(method).replace(parameters=params[1:])
    assert function.__module__ == "solver.engine" and function.__qualname__ == method.__name__
    assert function.__doc__ and function.__doc__ != method.__doc__
    kwargs = {"leader": "M", "seat": "E", "misere": True, "must_ruff": True}
    got, want = function(SIX, "H", **kwargs), method(Solver(tt_mb=4), SIX, "H", **kwargs)
    if function is principal_variation:  # one optimal line of several: compare what each wins
        got, want = (bf.play_out(SIX, "H", line, leader="M", must_ruff=True)[Seat.E] for line in (got, want))
    assert got == want
    with pytest.raises(TypeError):
        function(SIX, "H", "M")  # the options are keyword-only, as on the method


def test_mid_trick_values():
    played = [str(next(iter(SIX["M"])))]
    value = solve(SIX, "H", leader="M", seat="D", played=played)
    assert value == bf.solve(SIX, "H", leader="M", seat="D", played=played)
    line = principal_variation(SIX, "H", leader="M", seat="D", played=played)
    assert bf.play_out(SIX, "H", line, leader="M", played=played)[Seat.D] == value


def test_can_reach_brackets_the_value():
    s = Solver(tt_mb=4)
    for misere in (False, True):
        v = s.solve(SIX, "D", leader="D", seat="M", misere=misere)
        assert s.can_reach(SIX, "D", leader="D", seat="M", target=v, misere=misere)
        other = v - 1 if misere else v + 1
        assert not s.can_reach(SIX, "D", leader="D", seat="M", target=other, misere=misere)
    assert s.can_reach(SIX, "D", target=0)
    assert not s.can_reach(SIX, "D", target=SIX.hand_size + 1)
    assert s.nodes >= 0


@pytest.mark.parametrize("bad", [-1, 7, 2.0, True, "3"])
def test_cards_keeping_refuses_a_value_that_is_not_a_number_of_tricks(bad):
    with pytest.raises(EngineError, match="value"):
        Solver(tt_mb=4).cards_keeping(SIX, "D", leader="D", seat="M", value=bad)
    with pytest.raises(EngineError, match="value"):
        Solver(tt_mb=4).card_values(SIX, "D", leader="D", seat="M", value=bad)


def test_trumpless_positions_share_entries_with_no_trump():
    """A trump contract with no trumps left is no trump, so the table answers one from
    the other (a few nodes instead of a search); misere keeps its own entries."""
    deal = Deal.parse("D:.9642.Q86.T6 .A3.K95.Q932 .Q7.AT3.AK84")  # no spades
    fresh = {
        (st, mis): Solver(tt_mb=4).solve(deal, st, leader="E", seat="D", misere=mis)
        for st in "SN"
        for mis in (False, True)
    }
    s = Solver(tt_mb=4)
    assert s.solve(deal, "S", leader="E", seat="D", must_ruff=True) == fresh["S", False]
    searched = s.nodes
    assert s.solve(deal, "N", leader="E", seat="D") == fresh["N", False] == fresh["S", False]
    assert s.nodes < searched / 10
    assert s.solve(deal, "N", leader="E", seat="D", misere=True) == fresh["N", True]
    assert s.nodes >= searched / 10


@pytest.mark.parametrize("bad", [0, -1, 1 << 17, 1.5, True, "64"])
def test_tt_mb_validation(bad):
    with pytest.raises(EngineError):
        Solver(tt_mb=bad)


def test_illegal_played_cards():
    d = Deal.parse("D:AK.2.. Q2..3. 3.A.4.")
    with pytest.raises(IllegalPlayError, match="SQ.*not in"):
        solve(d, "N", leader="D", played=["SQ"])
    with pytest.raises(IllegalPlayError, match="revoke|follow"):
        solve(d, "N", leader="D", played=["SA", "D3"])
    with pytest.raises(IllegalPlayError, match="must-ruff|trump"):
        # E is void in hearts and holds a diamond trump: must ruff
        solve(d, "D", leader="D", must_ruff=True, played=["H2", "S2"])
    with pytest.raises(IllegalPlayError, match="at most 2"):
        solve(d, "N", leader="D", played=["SA", "SQ", "S3"])
    # without must-ruff the same discard is legal
    assert solve(d, "D", leader="D", played=["H2", "S2"]) == bf.solve(d, "D", leader="D", played=["H2", "S2"])


def test_bad_strain_and_seat():
    with pytest.raises(NotationError):
        solve(SMALL, "X")
    with pytest.raises(NotationError):
        solve(SMALL, "S", seat="W")
    with pytest.raises(NotationError):
        solve(SMALL, "S", leader="Q")
    with pytest.raises(SolverError):
        solve("D:AK... Q2... 3.A..", "S")  # type: ignore[arg-type]


def test_two_threads_get_correct_answers():
    deals = [Deal.random(seed=100 + i, hand_size=7, widow_size=0) for i in range(6)]
    expected = {
        (i, st): Solver(4).solve(d, st, leader="E", seat="D") for i, d in enumerate(deals) for st in "SN"
    }
    results: dict = {}
    errors: list = []

    def work(indices):
        try:
            for _ in range(3):
                for i in indices:
                    for st in "SN":
                        results[(i, st)] = solve(deals[i], st, leader="E", seat="D")
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [
        threading.Thread(target=work, args=(range(0, 6, 2),)),
        threading.Thread(target=work, args=(range(1, 6, 2),)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert results == expected


CHILD = textwrap.dedent("""
    import sys
    from solver.deal import Deal
    from solver.engine import Solver
    s = Solver(16)
    print("started", flush=True)
    try:
        seed = 0
        while True:  # full deals, cleared each time: runs until interrupted
            s.clear()
            s.solve(Deal.random(seed=seed), "S", leader="E", seat="D")
            seed += 1
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    # the engine still works after the aborted search
    print("after", s.solve(Deal.parse("D:AK... Q2... 3.A.."), "S", leader="D", seat="D"), flush=True)
""")


def interrupt_child(code: str, after: float) -> str:
    """Run ``code`` in a fresh interpreter, send SIGINT ``after`` seconds after it prints
    "started", and return its stdout once it has exited cleanly."""
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    try:
        assert proc.stdout.readline().strip() == "started"
        threading.Event().wait(after)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)  # a hang guard, not a speed check
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    return out


@pytest.mark.skipif(os.name != "posix", reason="needs SIGINT")
def test_ctrl_c_interrupts_a_long_solve():
    out = interrupt_child(CHILD, 0.5)
    assert "interrupted" in out and "after 2" in out


TABLE_CHILD = textwrap.dedent("""
    import threading
    import solver
    from solver.deal import Deal
    print("started", flush=True)
    try:  # full-deal tables on two worker threads: runs until interrupted
        seed = 0
        while True:
            solver.dd_table(Deal.random(seed=seed), threads=2)
            seed += 1
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    from solver.engine.pool import running_tasks  # the pool keeps its threads, idle
    print("threads left", running_tasks(), flush=True)
    print("after", solver.dd_table(Deal.parse("D:AK... Q2... 3.A.."), leader="D")["S"]["D"], flush=True)
""")


@pytest.mark.skipif(os.name != "posix", reason="needs SIGINT")
def test_ctrl_c_cancels_a_threaded_table():
    """Signals reach only the main thread: the workers' searches must be stopped and
    waited for (the pool's threads stay, idle, for the next call)."""
    out = interrupt_child(TABLE_CHILD, 1.0)
    assert "interrupted" in out and "threads left 0" in out and "after 2" in out


def test_threaded_table_equals_single_threaded_and_reports_progress():
    deal = Deal.random(seed=4, hand_size=8)
    seen: list[tuple[int, int]] = []
    threaded = dd_table(deal, threads=2, progress=lambda done, total: seen.append((done, total)))
    assert threaded.to_dict() == dd_table(deal, threads=1).to_dict()
    assert seen == [(i, 15) for i in range(1, 16)]


def test_threaded_table_reuses_its_worker_tables(monkeypatch):
    """The pool's threads keep their Solvers (a fresh table costs the kernel's page
    zeroing); the kept ones serve the next call and give the same answers."""
    from solver.engine import pool

    made: list[int] = []

    class Counted(Solver):
        def __init__(self, tt_mb: int) -> None:
            made.append(tt_mb)
            super().__init__(tt_mb)

    monkeypatch.setattr(pool, "Solver", Counted)
    deal = Deal.random(seed=5, hand_size=7)
    first = dd_table(deal, threads=2).to_dict()
    assert len(made) <= (os.cpu_count() or 1) + 1
    made.clear()
    assert dd_table(deal, threads=2).to_dict() == first == dd_table(deal, threads=1).to_dict()
    assert made == []


def test_threads_must_be_positive():
    with pytest.raises(EngineError, match="threads"):
        dd_table(Deal.random(seed=4, hand_size=3), threads=0)
