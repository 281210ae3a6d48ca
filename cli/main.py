"""Entry point of ``sm358``: parse arguments, dispatch, turn errors into one clean line.

Every sub-command lives in ``cli/commands/<name>.py`` and provides
``add_parser(subparsers)`` (which registers its arguments) and ``run(args) -> int``.
Errors from the library (:class:`solver.SolverError`) and unreadable files end the
program with one line on stderr and exit code 2 — never a traceback. A broken invariant
(:class:`solver.errors.InternalError`) is a bug, not bad input: it is not caught here.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not `from typing`: the fewer imports before main() the better
if TYPE_CHECKING:  # imported inside main(), where a Ctrl-C is caught
    import argparse

# Order here is the order of ``sm358 --help``.
COMMANDS = [
    "solve",
    "table",
    "deal",
    "declare",
    "advise",
    "rules",
    "simulate",
    "study",
    "replay",
    "review",
    "board",
]


def build_parser() -> argparse.ArgumentParser:
    import argparse
    import importlib

    import solver

    parser = argparse.ArgumentParser(
        prog="sm358",
        description="Double-dummy solver and analysis toolkit for Sergeant Major (3-5-8).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {solver.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(f"{__package__}.commands.{name}").add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; Ctrl-C at any point, imports included, ends with one line and 130
    (124 when it is the --time-limit)."""
    words = sys.argv[1:] if argv is None else argv
    command = next((f"sm358 {w}" for w in words[:1] if w in COMMANDS), "sm358")
    if common := sys.modules.get(f"{__package__}.common"):
        common.time_limit(None)  # an earlier command's limit in this process is not this one's
    try:
        from solver.errors import SolverError

        parser = build_parser()  # the whole library loads here, with the commands: interruptibly
        args = parser.parse_args(argv)
        command = f"sm358 {args.command}"
        return _run(args, command, SolverError)
    except KeyboardInterrupt:
        common = sys.modules.get(f"{__package__}.common")  # not imported yet if stopped early
        print(f"{command}: {common.stopped() if common else 'interrupted'}", file=sys.stderr)
        return common.stop_code() if common else 130


def __getattr__(name: str) -> type[Exception]:
    # cli.main.UsageError, which the commands import: defined in solver.errors, and loaded
    # only once main() runs, where a Ctrl-C during the imports is caught
    if name == "UsageError":
        from solver.errors import UsageError

        return UsageError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _run(args: argparse.Namespace, command: str, solver_error: type[Exception]) -> int:
    from solver.errors import UsageError

    from .common import terminal_safe, time_limit

    try:
        with time_limit(args):
            return int(args.run(args) or 0)
    except (solver_error, UsageError) as exc:
        # one line a problem: a hand file reports all of its problems at once
        first, *more = str(exc).split("\n")
        print(terminal_safe(f"{command}: error: {first}"), file=sys.stderr)
        for line in more:
            print(terminal_safe(f"  {line}"), file=sys.stderr)
        return 2
    except BrokenPipeError:
        # Output piped into e.g. `head` that stopped reading: not an error of ours.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except OSError as exc:
        where = f" {exc.filename}" if getattr(exc, "filename", None) else ""
        print(terminal_safe(f"{command}: error:{where}: {exc.strerror or exc}"), file=sys.stderr)
        return 2


def entry() -> None:
    """The ``sm358`` program: :func:`main`, then exit with its code.

    After a Ctrl-C (130) or the time limit (124) the process ends at once (``os._exit``)
    instead of finalising the interpreter: a worker thread may still be inside a search
    that cannot be cancelled (a CP-SAT solve), and waiting for it would keep the user
    waiting after the "interrupted" line; finalising beside it can also end the process
    by SIGINT instead of its exit code.
    """
    code = main()
    if code in (130, 124):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    # `python -m cli.main`: run the one `cli.main` module the sub-commands import too
    from .main import entry as _entry

    _entry()
