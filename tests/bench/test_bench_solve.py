"""bench/solve.py, bench/bounds.py, bench/dds.py and bench/dd_player.py run and print what
the docs quote: the ratio lines with their targets, the CPU line, and the bound counters."""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def run(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(BENCH / script), *args], capture_output=True, text=True, timeout=300, check=False
    )


def test_solve_prints_the_ratios_with_the_cpu_line() -> None:
    # seed 1: a misère solve of a fraction of a second
    done = run("solve.py", "--deals", "2", "--first", "1", "--misere-deals", "1", "--misere-tables", "0")
    assert done.returncode == 0, done.stderr
    assert "CPU" in done.stdout or "Processor" in done.stdout or "x86_64" in done.stdout
    for line in ("misère solve median / normal solve median", "slowest misère solve / normal table median"):
        assert line in done.stdout and "target <=" in done.stdout


def test_solve_markdown_writes_the_speed_page_and_keeps_other_benches(tmp_path) -> None:
    page = tmp_path / "speed.md"
    page.write_text("# Speed\n\nold figures\n\n## Other benches\n\n| kept row |\n", encoding="utf-8")
    done = run(
        "solve.py",
        "--deals",
        "2",
        "--first",
        "1",
        "--misere-deals",
        "1",
        "--misere-tables",
        "0",
        "--markdown",
        str(page),
    )
    assert done.returncode == 0, done.stderr
    text = page.read_text(encoding="utf-8")
    assert "old figures" not in text and text.count("## Other benches") == 1 and "| kept row |" in text
    for part in (
        "## Summary",
        "misère solve median / normal solve median",
        "## Misère",
        "CPython",
        "python bench/solve.py --deals 2",
    ):
        assert part in text


def test_solve_rejects_more_misere_deals_than_deals() -> None:
    done = run("solve.py", "--deals", "1", "--misere-deals", "2")
    assert done.returncode == 2 and "misere" in done.stderr


def test_bounds_prints_every_counter() -> None:
    done = run("bounds.py", "--deals", "1", "--hand-size", "9", "--misere", "--strains", "SN")
    assert done.returncode == 0, done.stderr
    for name in ("nodes", "table_probes", "table_hits", "misere_low_cards", "cutoffs"):
        assert name in done.stdout


def test_dd_player_prints_the_ratio_table_and_the_size_that_fits() -> None:
    # a 16-card misère call is cut after a second: the run stays short
    done = run("dd_player.py", "--deals", "1", "--sizes", "16,8", "--limit", "1")
    assert done.returncode == 0, done.stderr
    assert "x86_64" in done.stdout and "median / normal 16-card median" in done.stdout
    assert "largest hand size whose misère best_card median is <= 5 x the normal 16-card one: " in done.stdout


def test_dd_player_needs_the_16_card_reference() -> None:
    done = run("dd_player.py", "--sizes", "12-10")
    assert done.returncode == 2 and "16" in done.stderr


@pytest.mark.slow  # DDS sets up its memory on the first calls: half a minute
@pytest.mark.skipif(importlib.util.find_spec("endplay") is None, reason="needs the bench extra (endplay)")
def test_against_dds_prints_both_ratios() -> None:
    done = run(
        "solve.py",
        "--deals",
        "1",
        "--first",
        "1",
        "--misere-deals",
        "0",
        "--misere-tables",
        "0",
        "--against-dds",
        "--dds-deals",
        "1",
    )
    assert done.returncode == 0, done.stderr
    assert "one solve: this engine's median / DDS's median" in done.stdout
    assert "one table: this engine's median / DDS's median" in done.stdout


def test_declare_misere_ratio_stops_at_its_budget() -> None:
    """The misère declaration of the 16-card example takes far longer than any bench
    waits: with a budget it stops, says how far it got, and prints a lower bound."""
    done = run(
        "declare.py", "--misere-ratio", str(BENCH.parent / "examples" / "deal-16.txt"), "--budget", "1"
    )
    assert done.returncode == 0, done.stderr
    assert "normal declaration of" in done.stdout
    assert "candidates settled" in done.stdout and "misère / normal declaration >" in done.stdout


def _bench_module(name: str):
    sys.path.insert(0, str(BENCH))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCH))


def test_mt_hands_are_hands_a_declarer_chose_to_play_in_mt() -> None:
    mt_hands = _bench_module("mt_hands")
    hands = mt_hands.chosen_mt_hands(3)
    assert len(hands) == 3 and len({label for label, _ in hands}) == 3
    for _, hand in hands:
        assert hand.contract.minimising and hand.strain == "N"
    assert [h for _, h in mt_hands.chosen_mt_hands(3)] == [h for _, h in hands]  # the same on every run


def test_mt_ratios_take_the_median_solve_and_the_slowest_against_the_table() -> None:
    solve = _bench_module("solve")
    mt = {
        "MT hands: normal solve": ([1.0, 2.0, 3.0], [1, 2, 3]),
        "MT hands: misère solve": ([10.0, 40.0, 90.0], [9, 9, 9]),
    }
    (median, m_target), (slowest, s_target) = [(v, t) for _, v, t in solve.mt_ratios(mt, [30.0, 10.0, 20.0])]
    assert (median, m_target) == (20.0, 5) and (slowest, s_target) == (4.5, 50)


@pytest.mark.slow  # one MT misère solve of about ten seconds
def test_solve_prints_the_mt_hand_ratios() -> None:
    done = run("solve.py", "--deals", "1", "--misere-deals", "0", "--misere-tables", "0", "--mt-hands", "1")
    assert done.returncode == 0, done.stderr
    assert "MT hands: misère solve median / normal solve median" in done.stdout
    assert "MT hands: slowest misère solve / normal table median" in done.stdout
