"""bench/compare.py, the in-process timing of two core builds: it runs on built extension
files, sees identical builds as identical, and fails cleanly on a build it cannot make."""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import solver.engine._core as core

COMPARE = Path(__file__).resolve().parents[2] / "bench" / "compare.py"


def run_compare(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(COMPARE), *args], capture_output=True, text=True, timeout=600)


def test_two_copies_of_one_build_agree(tmp_path: Path) -> None:
    # two paths, so that each copy loads as a module of its own
    a, b = tmp_path / "a" / Path(core.__file__).name, tmp_path / "b" / Path(core.__file__).name
    for path in (a, b):
        path.parent.mkdir()
        shutil.copy(core.__file__, path)
    done = run_compare(str(a), str(b), "--seeds", "0-1", "--rounds", "1", "--mode", "solve")
    assert done.returncode == 0, done.stderr
    nodes = re.search(r"nodes A ([\d,]+) B ([\d,]+)", done.stdout)
    assert nodes and nodes.group(1) == nodes.group(2) and nodes.group(1) != "0"
    assert re.search(r"per-deal median \d+\.\d{3}, totals \d+\.\d{3}", done.stdout)


@pytest.mark.skipif(
    shutil.which("git") is None or not (COMPARE.parent.parent / ".git").exists(),
    reason="needs a git checkout",
)
def test_unknown_revision_is_a_clean_error() -> None:
    done = run_compare("HEAD", "no-such-revision-here", "--seeds", "0", "--rounds", "1")
    assert done.returncode == 2
    assert "cannot build B ('no-such-revision-here'): not a file" in done.stderr
    assert "Traceback" not in done.stderr


def test_seed_ranges() -> None:
    sys.path.insert(0, str(COMPARE.parent))
    try:
        import compare
    finally:
        sys.path.remove(str(COMPARE.parent))
    assert compare.seeds_of("0-3") == [0, 1, 2, 3]
    assert compare.seeds_of("3,5,8-9") == [3, 5, 8, 9]
    assert compare.seeds_of("4") == [4]
    for bad in ("a-b", "5-3", "1,,2", "-1"):
        with pytest.raises(argparse.ArgumentTypeError):
            compare.seeds_of(bad)
    done = run_compare("HEAD", "HEAD", "--seeds", "x")
    assert done.returncode == 2 and "bad seed range 'x'" in done.stderr
