"""Ctrl-C at any moment of ``solver.declare()`` and ``sm358 declare``.

Why subprocesses: a SIGINT is delivered to a whole process, and what can go wrong —
OR-Tools' own SIGINT handler killing the process, an interrupted import leaving
OR-Tools unusable, a traceback instead of one line — only shows in a real process.
Each point sends SIGINT after a different delay from the start of the declaration:
before, during and after the first (lazy) OR-Tools import, then inside the search.
The API process must then raise KeyboardInterrupt and still declare a second deal;
the CLI must print exactly one line and exit with 130.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solver import Deal, Solver
from solver.engine.pool import dask_tasks_running

REPO = Path(__file__).resolve().parents[2]
DEAL_FILE = REPO / "examples" / "deal-16.txt"

# Seconds after the declaration starts. The OR-Tools import takes about 0.5-1 s, the
# declaration of deal-16 several seconds, so these cover the import and the search.
QUICK_DELAYS = [0.0, 0.05, 0.25, 0.6, 1.5]
SLOW_DELAYS = [round(0.06 * k, 2) for k in range(25)] + [2.0, 3.0]

CHILD = """
import sys
import solver

deal = solver.Deal.parse(sys.argv[1])
small = solver.Deal.parse("D:AK... Q2... 3.A.. | 4...")
try:
    print("ready", flush=True)  # inside: a SIGINT sent on reading it can land on this line
    solver.declare(deal)
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
again = solver.declare(small, strains="S", leader="D")
print("after", again.tricks, flush=True)
"""


def _deal_line() -> str:
    lines = [ln.split("#", 1)[0].strip() for ln in DEAL_FILE.read_text().splitlines()]
    return next(ln for ln in lines if ln)


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _interrupt_api(delay: float) -> subprocess.CompletedProcess:
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, _deal_line()],
        cwd=REPO,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, "ready\n" + out, err)


def _check_api(delay: float) -> None:
    done = _interrupt_api(delay)
    assert done.returncode == 0, f"delay {delay}: exit {done.returncode}, stderr {done.stderr[-800:]!r}"
    lines = done.stdout.split()
    assert "interrupted" in lines, f"delay {delay}: the declaration was not interrupted: {done.stdout!r}"
    assert done.stdout.rstrip().endswith("after 2"), f"delay {delay}: no second declaration: {done.stdout!r}"
    assert "Traceback" not in done.stderr


def _sm358() -> list[str]:
    """The installed console script, as a user runs it (else the module)."""
    script = Path(sys.executable).with_name("sm358")
    return [str(script)] if script.exists() else [sys.executable, "-m", "cli.main"]


def _interrupt_cli(delay: float, argv: list[str] | None = None) -> subprocess.CompletedProcess:
    argv = argv or ["declare", str(DEAL_FILE)]
    proc = subprocess.Popen(
        [*_sm358(), *argv], cwd=REPO, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _check_cli(delay: float, argv: list[str] | None = None) -> None:
    done = _interrupt_cli(delay, argv)
    command = (argv or ["declare"])[0]
    assert done.returncode == 130, f"delay {delay}: exit {done.returncode}, stderr {done.stderr[-800:]!r}"
    # one line: "sm358 CMD: interrupted", which simulate follows with what it kept
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and done.stderr.endswith("\n"), f"delay {delay}: {done.stderr[-800:]!r}"
    assert lines[0].startswith(f"sm358 {command}: interrupted"), f"delay {delay}: {lines[0]!r}"


@pytest.mark.parametrize("delay", QUICK_DELAYS)
def test_ctrl_c_during_declare_raises_and_the_process_keeps_working(delay):
    _check_api(delay)


# The CLI starts from nothing: its first 0.1-0.2 s are the interpreter's own start-up,
# before Python's SIGINT handler exists, so the delays begin after it.
@pytest.mark.parametrize("delay", [0.3, 0.8, 2.0])
def test_ctrl_c_during_sm358_declare_prints_one_line_and_exits_130(delay):
    _check_cli(delay)


@pytest.mark.slow
@pytest.mark.parametrize("delay", SLOW_DELAYS)
def test_ctrl_c_at_many_points_of_declare(delay):
    _check_api(delay)


@pytest.mark.slow
@pytest.mark.parametrize("delay", [round(0.25 + 0.1 * k, 2) for k in range(15)] + [3.0])
def test_ctrl_c_at_many_points_of_sm358_declare(delay):
    _check_cli(delay)


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [
        ["table", str(DEAL_FILE), "--misere"],  # minutes long: never done before the signal
        ["solve", str(DEAL_FILE), "--strain", "N", "--misere"],
        ["simulate", "--matches", "2000", "--players", "dd,heuristic,random"],
    ],
)
@pytest.mark.parametrize("delay", [0.3, 0.6, 1.2])
def test_ctrl_c_stops_other_long_commands_with_one_line(argv, delay):
    _check_cli(delay, argv)


def test_a_held_back_ctrl_c_is_delivered_after_the_import():
    """``import_holding_sigint`` finishes the import, then raises KeyboardInterrupt."""
    code = """
import os, signal, sys
sys.modules.pop("json", None)
from solver.interrupts import import_holding_sigint
import importlib
real = importlib.import_module
def slow_import(name, *a):
    os.kill(os.getpid(), signal.SIGINT)   # arrives in the middle of the import
    return real(name, *a)
importlib.import_module = slow_import
try:
    import_holding_sigint("json")
    print("no interrupt")
except KeyboardInterrupt:
    print("interrupted", "json" in sys.modules)
"""
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=_env(), capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip() == "interrupted True", done.stderr


# --- long work stops within STOP_SECONDS of the Ctrl-C, and leaves no worker behind -----------
STOP_SECONDS = 2.0


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    kids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                kids.append(int(entry.name))
    return kids


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _stop_time(
    argv: list[str], tmp_path: Path, delay: float
) -> tuple[float, subprocess.CompletedProcess, list[int]]:
    """Start ``sm358 ARGV``, send SIGINT after ``delay`` s: the seconds it took to exit."""
    proc = subprocess.Popen(
        [*_sm358(), *argv],
        cwd=tmp_path,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(delay)
    kids = _children(proc.pid)
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            for k in kids:  # a failing run must not leave its workers behind either
                if _alive(k):
                    os.kill(k, signal.SIGKILL)
    return time.monotonic() - sent, subprocess.CompletedProcess(proc.args, proc.returncode, out, err), kids


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize(
    "argv",
    [
        ["study", "--deals", "100000000", "--what", "table", "--out", "huge.csv"],
        ["study", "--deals", "2000", "--what", "table,declare", "--out", "both.parquet"],
        ["advise", "--rules", "hungarian", "--hand", "KQ85.J862.Q98542.AJ", "--seat", "E", "--mode", "MT"],
    ],
    ids=["huge-study", "study-table-declare", "misere-advise"],
)
def test_ctrl_c_stops_long_work_within_two_seconds(argv, tmp_path):
    # 8 s: past the start-up and the first imports, with every worker searching
    took, done, kids = _stop_time(argv, tmp_path, 8.0)
    assert done.returncode == 130, done.stderr[-800:]
    assert took < STOP_SECONDS, f"{argv[0]} took {took:.1f} s to stop after Ctrl-C"
    assert done.stderr.startswith(f"sm358 {argv[0]}: interrupted") and done.stderr.count("\n") == 1
    deadline = time.monotonic() + STOP_SECONDS
    while any(_alive(k) for k in kids) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [k for k in kids if _alive(k)]
    for k in left:
        os.kill(k, signal.SIGKILL)
    assert not left, "a worker process outlived the command"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_kill_9_of_a_study_leaves_no_worker_behind(tmp_path):
    proc = subprocess.Popen(
        [*_sm358(), "study", "--deals", "1000", "--what", "table", "--workers", "2", "--out", "s.csv"],
        cwd=tmp_path,
        env=_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    kids: list[int] = []
    while len(kids) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
        kids = _children(proc.pid)
    assert len(kids) >= 2, "the study started no worker processes"
    time.sleep(1.0)
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 5
    while any(_alive(k) for k in kids) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [k for k in kids if _alive(k)]
    for k in left:  # clean up before failing
        os.kill(k, signal.SIGKILL)
    assert not left, f"{len(left)} worker processes outlived their parent by 5 s"


@pytest.mark.slow  # a cluster's start and close take most of its 25 s
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_ctrl_c_stops_a_study_on_a_dask_cluster_within_two_seconds(tmp_path):
    distributed = pytest.importorskip("distributed")
    # The worker threads run in this process (processes=False), so the test sees what
    # they compute: the tasks running at the Ctrl-C must stop too, not only the client.
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, protocol="tcp", dashboard_address=None
    ) as cluster:
        argv = ["study", "--deals", "100000", "--what", "declare", "--out", "d.csv"]
        took, done, _ = _stop_time([*argv, "--scheduler", cluster.scheduler_address], tmp_path, 8.0)
        still_running = _seconds_until(lambda: dask_tasks_running() == 0, limit=10.0)
        # the workers lower their stop flag once idle: the next search runs
        searches_refused = _seconds_until(_a_search_runs, limit=10.0)
    assert done.returncode == 130, done.stderr[-800:]
    assert took < STOP_SECONDS, f"the Dask study took {took:.1f} s to stop after Ctrl-C"
    assert took + still_running < STOP_SECONDS, (
        f"the Dask worker's tasks ran on {took + still_running:.1f} s after the Ctrl-C"
    )
    assert searches_refused < 1.0, f"searches were refused {searches_refused:.1f} s after the tasks ended"


def _seconds_until(condition, limit: float) -> float:
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > limit:
            pytest.fail(f"still not so after {limit:.0f} s")
        time.sleep(0.01)
    return time.monotonic() - start


def _a_search_runs() -> bool:
    try:
        Solver(16).solve(Deal.random(seed=0), "N")
    except KeyboardInterrupt:  # the stop flag still up: searches refused
        return False
    return True
