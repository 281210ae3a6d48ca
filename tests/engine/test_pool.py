"""The engine's one pool: Position, each thread's Solver, the stop flag, worker caps,
a cluster with no workers, and the shared run options."""

from __future__ import annotations

import os
import threading
import time

import pytest

from cli.main import main
from solver.analysis import study as study_mod
from solver.analysis.options import RunOptions
from solver.analysis.study import StudyError, StudySpec, lock_path, parts_dir, run_study
from solver.deal import Deal, Seat, Strain
from solver.engine import Position, Solver, _core, dd_table, pool, solve, thread_solver
from solver.errors import EngineError, IllegalPlayError, SolverError

SMALL = Deal.parse("D:AK... Q2... 3.A..")
EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")


# --- Position --------------------------------------------------------------------------------
def test_a_position_is_validated_once_and_answers_like_the_keywords():
    pos = Position(SMALL, "S", leader="D")
    assert pos.strain is Strain.S and pos.leader is Seat.D and pos.played == () and pos.mover is Seat.D
    assert solve(pos, seat="D") == solve(SMALL, "S", leader="D", seat="D") == 2
    s = Solver(1)
    assert s.card_values(pos, seat="E") == s.card_values(SMALL, "S", leader="D", seat="E")
    assert s.can_reach(pos, seat="D", target=2) and not s.can_reach(pos, seat="D", target=3)
    assert Position(SMALL, Strain.S, Seat.D) == pos and hash(Position(SMALL, "S", "D")) == hash(pos)
    with pytest.raises(AttributeError):
        pos.strain = Strain.H  # type: ignore[misc]


def test_a_position_refuses_bad_fields_with_the_engine_errors():
    with pytest.raises(IllegalPlayError, match="not in"):
        Position(SMALL, "S", leader="D", played="SQ")
    with pytest.raises(EngineError, match="misere"):
        Position(SMALL, "S", misere="yes")  # type: ignore[arg-type]
    with pytest.raises(EngineError, match="carries its own"):
        solve(Position(SMALL, "S"), "H")
    with pytest.raises(EngineError, match="strain"):
        solve(SMALL)


# --- each thread's Solver and the stop flag ---------------------------------------------------
def test_thread_solver_is_one_per_thread_and_size():
    mine = thread_solver()
    assert thread_solver() is mine and thread_solver(2) is not mine and thread_solver(2).tt_mb == 2
    other: list[Solver] = []
    t = threading.Thread(target=lambda: other.append(thread_solver()))
    t.start()
    t.join()
    assert other[0] is not mine
    mine.cancel()
    assert thread_solver() is not mine  # a cancelled Solver is replaced


def test_the_stop_flag_stops_a_search_on_another_thread_and_is_lowered_after():
    deal = Deal.random(seed=3)  # a full deal in no trump: seconds of search
    outcome: list[BaseException | int] = []

    def search() -> None:
        try:
            outcome.append(Solver(8).solve(deal, "N", misere=True))
        except BaseException as exc:
            outcome.append(exc)

    t = threading.Thread(target=search)
    t.start()
    time.sleep(0.3)
    began = time.monotonic()
    with pool.stopping_searches():
        t.join(5)
    assert not t.is_alive() and time.monotonic() - began < 1.0
    assert isinstance(outcome[0], KeyboardInterrupt)
    assert not _core.stop_all(False)  # lowered on leaving the block
    assert solve(SMALL, "S", leader="D", seat="D") == 2


def test_a_dask_workers_stop_ends_its_running_task_cleanly_and_lowers_the_flag():
    # What a Dask worker runs after its client's Ctrl-C (tests/robustness has the cluster).
    deal = Deal.random(seed=3)
    outcome: list[BaseException | int] = []

    def task() -> None:
        try:
            outcome.append(pool._dask_task(lambda d: Solver(8).solve(d, "N", misere=True), deal))
        except BaseException as exc:
            outcome.append(exc)

    t = threading.Thread(target=task)
    t.start()
    time.sleep(0.3)
    assert pool.dask_tasks_running() == 1
    pool._stop_dask_searches()
    t.join(5)
    assert not t.is_alive()
    # an ordinary error, not a KeyboardInterrupt, which would take a Dask worker down
    assert isinstance(outcome[0], pool.TaskStopped)
    assert pool.dask_tasks_running() == 0
    deadline = time.monotonic() + 2
    while True:  # the worker lowers its flag once idle: searches run again
        try:
            assert solve(SMALL, "S", leader="D", seat="D") == 2
            break
        except KeyboardInterrupt:
            assert time.monotonic() < deadline, "the stop flag stayed up"
            time.sleep(0.01)


# --- workers -----------------------------------------------------------------------------------
def test_workers_are_capped_at_one_per_core():
    cores = os.cpu_count() or 1
    assert pool.resolve_workers(None) == cores
    assert pool.resolve_workers(300) == cores
    assert pool.resolve_workers(1) == 1


def test_review_with_300_threads_makes_no_more_tables_than_cores(monkeypatch):
    import solver

    made: list[int] = []

    class Counted(Solver):
        def __init__(self, tt_mb: int) -> None:
            made.append(tt_mb)
            super().__init__(tt_mb)

    monkeypatch.setattr(pool, "Solver", Counted)
    record = os.path.join(EXAMPLES, "hand-twelve.txt")
    solver.review(record, declaration=False, threads=300)
    assert len(made) <= (os.cpu_count() or 1)


# --- Dask --------------------------------------------------------------------------------------
def _slow(x: int) -> int:
    time.sleep(0.5)
    return x


def test_a_cluster_with_no_workers_left_is_reported(monkeypatch):
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(pool, "NO_WORKERS_SECONDS", 2.0)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        failed: list[BaseException] = []

        def run() -> None:
            try:
                pool.map_tasks(_slow, list(range(200)), scheduler=client)
            except BaseException as exc:
                failed.append(exc)

        t = threading.Thread(target=run, daemon=True)
        t.start()
        time.sleep(1.5)
        began = time.monotonic()
        cluster.scale(0)
        t.join(60)
        assert not t.is_alive(), "the run still waits for a cluster without workers"
        assert isinstance(failed[0], pool.ClusterError) and "no workers" in str(failed[0])
        assert time.monotonic() - began < 60


@pytest.mark.parametrize("address", ["::::", "tcp://host:notaport", "http://[::1", "tcp://127.0.0.1:99999"])
def test_a_malformed_scheduler_is_refused_before_any_work(address):
    with pytest.raises(pool.ClusterError, match="not a Dask scheduler address"):
        pool.check_scheduler(address)
    with pytest.raises(SolverError, match="not a Dask scheduler address"):
        RunOptions(scheduler=address)


HAND = "KQ85.J862.Q98542.AJ"


@pytest.mark.parametrize(
    "argv",
    [
        ["advise", "--rules", "hungarian", "--hand", HAND, "--seat", "E", "--mode", "S", "--samples", "2"],
        ["study", "--deals", "3", "--out", "s.csv"],
        ["review", os.path.join(EXAMPLES, "hand-twelve.txt"), "--single-dummy", "--samples", "2"],
    ],
    ids=["advise", "study", "review"],
)
def test_cli_malformed_scheduler_is_one_line_and_exit_2(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main([*argv, "--scheduler", "::::"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a Dask scheduler address" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # no parts directory, lock or file left behind


# --- two studies on one output -------------------------------------------------------------------
def test_a_second_study_on_the_same_output_is_refused_and_leaves_nothing(tmp_path):
    out = tmp_path / "s.csv"
    spec = StudySpec(deals=2, seed="3", rules="twelve", what=("table",), chunk=1)
    with study_mod._writer_lock(out):
        with pytest.raises(StudyError, match=f"another study is writing {out}"):
            run_study(out, spec, workers=1)
        assert not parts_dir(out).exists()
    run_study(out, spec, workers=1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.csv"]
    assert not lock_path(out).exists()


def test_cli_second_study_is_one_line(tmp_path, capsys):
    out = tmp_path / "s.csv"
    with study_mod._writer_lock(out):
        assert main(["study", "--deals", "2", "--what", "table", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "another study is writing" in err


# --- the shared options ------------------------------------------------------------------------
def test_threads_is_an_alias_of_workers(capsys):
    from cli.main import build_parser

    parser = build_parser()
    for command in (["review", "f"], ["advise"], ["study", "--deals", "1", "--out", "x.csv"], ["table", "x"]):
        assert parser.parse_args([*command, "--threads", "3"]).workers == 3
        assert parser.parse_args([*command, "--workers", "3"]).workers == 3


def test_run_options_check_every_field():
    assert RunOptions(samples=5, seed="x", workers=2).kwargs("samples", "seed") == {"samples": 5, "seed": "x"}
    assert RunOptions().kwargs("samples", "workers") == {"workers": None}
    for bad in ({"samples": 0}, {"seed": 1.5}, {"workers": 0}, {"workers": True}, {"progress": 3}):
        with pytest.raises(SolverError):
            RunOptions(**bad)


def test_dd_table_on_the_pool_equals_one_thread():
    deal = Deal.random(seed=2, hand_size=6)
    assert dd_table(deal, threads=2).to_dict() == dd_table(deal, threads=1).to_dict()


def test_the_old_parallel_module_still_works_and_warns():
    from solver.analysis import parallel

    with pytest.warns(DeprecationWarning, match="solver.engine.pool.map_tasks"):
        assert parallel.map_tasks(abs, [-1, 2], workers=1) == [1, 2]
    with pytest.warns(DeprecationWarning):
        from solver.analysis.parallel import task_rng  # noqa: F401
