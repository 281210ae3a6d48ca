"""solver.engine.pool: the same results in task order, wherever the tasks ran."""

from __future__ import annotations

import sys
import threading

import cloudpickle
import pytest

from solver.engine import pool as parallel
from solver.engine.pool import Interrupted, iter_tasks, map_tasks, task_rng
from solver.errors import SolverError

# The workers of a LocalCluster cannot import this test module: ship its functions by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])


def draw(task: tuple[int, int]) -> list[int]:
    """A pure task: a few numbers from the task's own seeded stream."""
    seed, index = task
    return task_rng(seed, index).integers(0, 1_000_000, size=5).tolist()


TASKS = [(7, i) for i in range(23)]


def expected() -> list[list[int]]:
    return [draw(t) for t in TASKS]


def test_task_rng_is_fixed_by_seed_and_keys():
    a = task_rng(3, 1).integers(0, 1 << 30, size=4).tolist()
    assert a == task_rng(3, 1).integers(0, 1 << 30, size=4).tolist()
    assert a != task_rng(3, 2).integers(0, 1 << 30, size=4).tolist()
    assert a != task_rng(4, 1).integers(0, 1 << 30, size=4).tolist()
    assert task_rng("7:1").random() == task_rng("7:1").random()
    assert task_rng("7:1").random() != task_rng("7:2").random()


@pytest.mark.parametrize("workers", [1, 2, 5])
def test_threads_give_results_in_task_order(workers):
    assert map_tasks(draw, TASKS, workers=workers) == expected()


def test_processes_give_the_same_results():
    assert map_tasks(draw, TASKS, workers=2, local="processes") == expected()


def test_progress_counts_every_task():
    seen: list[tuple[int, int]] = []
    map_tasks(draw, TASKS, workers=2, progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (0, len(TASKS))
    assert [d for d, _ in seen] == list(range(len(TASKS) + 1))


def test_iter_tasks_yields_each_index_once():
    indices = sorted(i for i, _ in iter_tasks(draw, TASKS, workers=3))
    assert indices == list(range(len(TASKS)))


def test_empty_task_list():
    assert map_tasks(draw, [], workers=2) == []


def test_bad_arguments():
    with pytest.raises(SolverError, match="workers"):
        map_tasks(draw, TASKS, workers=0)
    with pytest.raises(SolverError, match="local"):
        map_tasks(draw, TASKS, local="gpu")


def test_task_error_is_raised():
    def boom(x: int) -> int:
        if x == 3:
            raise ValueError("task three")
        return x

    with pytest.raises(ValueError, match="task three"):
        map_tasks(boom, list(range(8)), workers=2)


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_cancels_and_keeps_finished_results(workers):
    started = []
    lock = threading.Lock()

    def task(x: int) -> int:
        with lock:
            started.append(x)
        if x == 4:
            raise KeyboardInterrupt
        return x * x

    with pytest.raises(Interrupted) as info:
        map_tasks(task, list(range(200)), workers=workers)
    results = info.value.results
    assert info.value.total == 200
    assert all(results[i] == i * i for i in results)
    assert len(started) < 200  # the rest were cancelled, not run


def test_unreachable_scheduler_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(parallel.ClusterError, match="cannot reach the Dask scheduler"):
        map_tasks(draw, TASKS, scheduler="tcp://127.0.0.1:9")


def test_local_cluster_gives_the_same_results():
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        seen: list[int] = []
        got = map_tasks(draw, TASKS, scheduler=client, progress=lambda d, t: seen.append(d))
        assert got == expected()
        assert seen[-1] == len(TASKS)
        # by address too: a client is opened and closed by map_tasks
        assert map_tasks(draw, TASKS[:5], scheduler=cluster.scheduler_address) == expected()[:5]
