"""Every progress bar shows the estimated time left (ETA), from the pace of this run."""

from __future__ import annotations

import io
import pathlib

from rich.console import Console
from rich.progress import Task, TaskID

import cli.common as common
from cli.common import EtaColumn, LazyProgress, progress_bar

COMMANDS = pathlib.Path(common.__file__).parent / "commands"
LONG_WORK = ("table", "declare", "advise", "simulate", "study", "review", "deal")


def task(completed: float, total: float, *, now: float, start: int = 0) -> Task:
    t = Task(TaskID(0), "x", total, completed, _get_time=lambda: now, fields={"resumed": start})
    t.start_time = 0.0
    return t


def test_eta_from_the_average_pace():
    assert EtaColumn().render(task(5, 20, now=10.0)).plain == "ETA 0:00:30"
    assert EtaColumn().render(task(1, 7201, now=1.0)).plain == "ETA 2:00:00"


def test_eta_ignores_work_found_done():
    # a resumed study: 4 deals on disk, 1 computed in 10 s, 15 to go
    assert EtaColumn().render(task(5, 20, now=10.0, start=4)).plain == "ETA 0:02:30"


def test_eta_unknown_before_any_progress():
    assert EtaColumn().render(task(4, 20, now=3.0, start=4)).plain == "ETA -:--:--"


def test_shared_bar_has_the_eta_column():
    bar = progress_bar("x", Console(file=io.StringIO()))
    assert any(isinstance(c, EtaColumn) for c in bar.columns)


def test_lazy_progress_draws_an_eta_on_a_terminal(monkeypatch):
    out = io.StringIO()
    monkeypatch.setattr(common, "err_console", lambda: Console(file=out, force_terminal=True, width=100))
    with LazyProgress("study") as bar:
        bar(1, 10)  # one deal found done: not part of the pace
        bar(2, 10)
        assert bar._bar is not None
        assert bar._bar.tasks[0].fields["resumed"] == 1
        bar._bar.refresh()
    assert "ETA" in out.getvalue() and "2/10" in out.getvalue()


def test_lazy_progress_silent_off_a_terminal(monkeypatch):
    out = io.StringIO()
    monkeypatch.setattr(common, "err_console", lambda: Console(file=out, force_terminal=False))
    with LazyProgress("study") as bar:
        bar(1, 10)
    assert out.getvalue() == ""


def test_every_command_uses_the_shared_bar():
    for name in LONG_WORK:
        text = (COMMANDS / f"{name}.py").read_text()
        assert "LazyProgress" in text or "progress_bar" in text, name
    for path in COMMANDS.glob("*.py"):
        assert "rich.progress" not in path.read_text(), f"{path.name} builds its own bar"


def test_a_one_hand_review_reports_progress_card_by_card():
    import solver

    hand = pathlib.Path(common.__file__).resolve().parent.parent / "examples" / "hand-twelve.txt"
    seen: list[tuple[int, int]] = []
    solver.review(str(hand), declaration=False, progress=lambda done, total: seen.append((done, total)))
    # the three seats' chains of values, then the 48 cards' best cards
    assert [d for d, _ in seen] == list(range(1, 52)) and {t for _, t in seen} == {51}


def test_output_printed_under_a_bar_stays_on_stdout(monkeypatch, capsys):
    """sm358 deal --count N > FILE prints while its bar runs: every line must reach FILE."""
    err = io.StringIO()
    monkeypatch.setattr(common, "err_console", lambda: Console(file=err, force_terminal=True, width=100))
    with LazyProgress("deal") as bar:
        bar(1, 3)
        print("D:row-one")
        bar(2, 3)
        print("D:row-two")
    assert capsys.readouterr().out == "D:row-one\nD:row-two\n"
    assert "row" not in err.getvalue()
