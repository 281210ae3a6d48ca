"""Helpers shared by the sub-commands: reading deals, printing JSON and tables."""

from __future__ import annotations

import argparse
import json
import os
import sys
from types import TracebackType
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from solver.deal import SEAT_NAMES, Deal
from solver.errors import NotationError
from solver.game.handfile import HandRecord
from solver.inputs import MAX_DEAL_FILE_BYTES, json_text_safe, read_text_file
from solver.inputs import terminal_safe as terminal_safe  # re-exported for the commands
from solver.interrupts import interrupt_after

if TYPE_CHECKING:  # pragma: no cover
    from solver.analysis.options import RunOptions


def read_text_arg(arg: str) -> str:
    """``arg`` itself, or the contents of the file it names (comments ``#…`` dropped)."""
    if os.path.isfile(arg):
        text = read_text_file(arg, what="deal file", max_bytes=MAX_DEAL_FILE_BYTES, error=NotationError)
        lines = [ln.split("#", 1)[0].strip() for ln in text.splitlines()]
        lines = [ln for ln in lines if ln]
        if not lines:
            raise NotationError(f"file {arg} holds no deal")
        if len(lines) > 1:
            raise NotationError(f"file {arg} holds {len(lines)} lines; expected one deal")
        return lines[0]
    return arg


def read_spec_arg(arg: str) -> str:
    """A deal spec (docs/dealing.md) given as text or as the file holding it."""
    if os.path.isfile(arg):
        return read_text_file(arg, what="deal spec file", max_bytes=MAX_DEAL_FILE_BYTES, error=NotationError)
    return arg


def read_deal(arg: str) -> Deal:
    """A deal from a notation string or a file holding one."""
    text = read_text_arg(arg)
    try:
        return Deal.parse(text)
    except NotationError as exc:
        if text is arg and ":" not in arg:  # most likely a mistyped file name
            raise NotationError(f"{arg!r} is neither a file nor a deal ({exc})") from None
        where = f"in {arg}: " if text is not arg else ""
        raise NotationError(f"{where}{exc}") from None


def note_reconstructed(command: str, record: HandRecord) -> None:
    """Say on stderr that a hand file's hands were rebuilt from its play, and show them,
    so the player can check them against the cards they held (a mistyped card moves
    silently between hands otherwise)."""
    if not record.reconstructed:
        return
    print(
        f"{command}: note: the file gives no [Deal]; the hands at the first lead were "
        "reconstructed from the play. Check them:",
        file=sys.stderr,
    )
    for seat, hand in zip(SEAT_NAMES, record.start.hands):
        print(f"  {seat} {hand.pretty()}", file=sys.stderr)


def print_json(data: Any) -> None:
    """``data`` as one line of JSON, with controls and bidi overrides as ``\\u`` escapes."""
    sys.stdout.write(json_text_safe(json.dumps(data, ensure_ascii=False)) + "\n")


class _TextConsole(Console):
    """A console that shows every string it prints as text: control characters escaped."""

    def print(self, *objects: Any, **kwargs: Any) -> None:
        super().print(*(terminal_safe(o) if isinstance(o, str) else o for o in objects), **kwargs)


def console(markup: bool = False) -> Console:
    """A console for human output (plain text when not a terminal).

    Names and rules read from files reach the output, so strings are shown as text:
    control characters escaped, and rich markup (``[blink]``, ``[link=...]``) not
    interpreted, in tables too. A command whose strings are all its own may ask for
    ``markup=True``; a single ``print(..., markup=True)`` must escape what it quotes with
    ``terminal_safe(text, markup=True)``.
    """
    return _TextConsole(highlight=False, soft_wrap=True, markup=markup)


def err_console() -> Console:
    return Console(stderr=True, highlight=False)


class EtaColumn(ProgressColumn):
    """``ETA h:mm:ss``: the time left at the average pace since the bar started.

    The whole run's pace, not a recent window, so a bar updated a handful of times (15
    solves of a table) shows an estimate from its second update on; work found already
    done when the bar started (``resumed`` field, a resumed study) is not counted as pace.
    """

    def render(self, task: Task) -> Text:
        done = task.completed - task.fields.get("resumed", 0)
        if task.total is None or task.elapsed is None or done <= 0:
            return Text("ETA -:--:--", style="progress.remaining")
        left = max(0.0, task.elapsed / done * (task.total - task.completed))
        return Text(f"ETA {_clock(left)}", style="progress.remaining")


def _clock(seconds: float) -> str:
    s = int(seconds + 0.5)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def progress_bar(label: str, console: Console, *, disable: bool = False) -> Progress:
    """The one look of every progress bar: label, bar, done/total, time taken and the
    estimated time left (``ETA``), so long work says when it will end."""
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        EtaColumn(),
        console=console,
        transient=True,
        disable=disable,
        # stdout is the command's output (deals, JSON): never routed through the bar
        redirect_stdout=False,
        redirect_stderr=False,
    )


class LazyProgress:
    """A progress callback ``(done, total)`` drawing a bar on stderr once there is progress.

    Starting late keeps a bad-input error to one clean line, and nothing is drawn when
    stderr is not a terminal (so pipes and ``--json`` output stay clean). Use it as a
    context manager, so the bar is gone before any error or Ctrl-C message is printed.
    """

    def __init__(self, label: str) -> None:
        self._label = label
        self._console = err_console()
        self._bar: Progress | None = None
        self._task: Any = None

    def __call__(self, done: int, total: int) -> None:
        if not self._console.is_terminal:
            return
        if self._bar is None:
            self._bar = progress_bar(self._label, self._console)
            self._bar.start()
            # Work found done (a resumed study) starts the bar, not the speed estimate.
            self._task = self._bar.add_task(self._label, total=total, completed=done, resumed=done)
        self._bar.update(self._task, completed=done, total=total)

    def note(self, text: str) -> None:
        """One line on stderr above the bar, on a terminal only (as the bar itself); the
        terminal wraps it, so that it stays one line for whoever reads the output."""
        if self._console.is_terminal:
            self._console.print(text, markup=False, highlight=False, soft_wrap=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()

    def __enter__(self) -> LazyProgress:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def add_run_options(
    p: argparse.ArgumentParser,
    *,
    samples: int | None = None,
    seed: int | str | None = None,
    workers: str | None = "local workers",
    scheduler: bool = True,
    scope: str = "",
) -> None:
    """The options shared by advise, review, study and simulate, spelled once.

    ``samples``/``seed``: the default, or None for a command without the option;
    ``workers``: what a worker is for this command (None: no such option), with
    ``--threads`` kept as an alias of ``--workers``; ``scope`` prefixes the help
    (``"with --single-dummy: "``).
    """
    if samples is not None:
        p.add_argument(
            "--samples", type=int, default=samples, help=f"{scope}sampled layouts (default {samples})"
        )
    if seed is not None:
        p.add_argument(
            "--seed", type=type(seed), default=seed, help=f"{scope}seed of the run (default {seed})"
        )
    if workers is not None:
        p.add_argument(
            "--workers",
            "--threads",
            dest="workers",
            type=int,
            default=None,
            metavar="N",
            help=f"{workers} (default and most: one per core; --threads is the same)",
        )
    if scheduler:
        p.add_argument(
            "--scheduler", metavar="ADDR", help=f"{scope}run on a Dask cluster, e.g. tcp://HOST:8786"
        )


INTERRUPTED_EXIT = 130  # Ctrl-C, as a shell reports a SIGINT
TIME_LIMIT_EXIT = 124  # --time-limit reached, as GNU timeout: what was printed is partial

_limit = interrupt_after(None)  # the running command's time limit (none until main sets one)


def add_time_limit(p: argparse.ArgumentParser) -> None:
    """``--time-limit SECONDS``, for the commands whose Ctrl-C keeps what was proven."""
    p.add_argument(
        "--time-limit",
        metavar="SECONDS",
        help="stop after SECONDS as a Ctrl-C would: print the partial result, exit 124",
    )


def time_limit(args: argparse.Namespace | None) -> interrupt_after:
    """The command's time limit (none without ``--time-limit``, or for None: a new
    command starting), the one ``stopped()`` and ``stop_code()`` then report on; a bad
    value is a UsageError."""
    global _limit
    from solver.errors import UsageError

    text = getattr(args, "time_limit", None)
    try:
        _limit = interrupt_after(None if text is None else float(text))
    except ValueError:
        raise UsageError(f"--time-limit must be a positive number of seconds, got {text!r}") from None
    return _limit


def stopped() -> str:
    """How the running command was stopped, for its one stderr line and partial notes."""
    if _limit.expired:
        return f"stopped at the {_limit.seconds:g} s time limit"
    return "interrupted"


def stop_code() -> int:
    """The exit code of a command stopped before its end (partial output printed)."""
    return TIME_LIMIT_EXIT if _limit.expired else INTERRUPTED_EXIT


def run_options(
    args: argparse.Namespace, progress: Any = None, *, max_samples: int | None = None
) -> RunOptions:
    """The shared options of ``args`` as one checked value; a bad one is a UsageError."""
    from solver.analysis.options import RunOptions
    from solver.errors import SolverError

    from .main import UsageError

    samples = getattr(args, "samples", None)
    if samples is not None and max_samples is not None and not 1 <= samples <= max_samples:
        raise UsageError(f"--samples must be from 1 to {max_samples:,}, got {samples}")
    if getattr(args, "workers", None) is not None and args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    try:
        return RunOptions(
            samples=samples,
            seed=getattr(args, "seed", 0),
            workers=getattr(args, "workers", None),
            scheduler=getattr(args, "scheduler", None),
            progress=progress,
        )
    except SolverError as exc:
        raise UsageError(str(exc)) from None
